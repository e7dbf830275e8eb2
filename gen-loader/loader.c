// SPDX-License-Identifier: GPL-2.0
/* BPF object -> loader instructions + metadata, with the patched libbpf. */
#include <ctype.h>
#include <stdint.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "btf_sec.h"
#include "err.h"
#include "loader.h"

static char libbpf_warning[512];
static int libbpf_verbose;

const char *gl_libbpf_warning(void)
{
	return libbpf_warning;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	va_list aq;
	size_t n;

	/* libbpf's closing "failed to load object" would hide the reason */
	if (level == LIBBPF_WARN && strncmp(fmt, "libbpf: failed to load object", 29)) {
		va_copy(aq, ap);
		vsnprintf(libbpf_warning, sizeof(libbpf_warning), fmt, aq);
		va_end(aq);
		n = strlen(libbpf_warning);
		if (n && libbpf_warning[n - 1] == '\n')
			libbpf_warning[n - 1] = '\0';
	}
	if (!libbpf_verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

void gl_libbpf_print_init(int verbose)
{
	libbpf_verbose = verbose;
	libbpf_set_print(libbpf_print);
}

static bool has_suffix(const char *s, const char *sfx)
{
	size_t n = strlen(s), m = strlen(sfx);

	return n >= m && !strcmp(s + n - m, sfx);
}

static int set_name(struct loader *l, const char *path, const char *name)
{
	const char *base = strrchr(path, '/');
	size_t i, n;

	if (name) {
		if (!*name || strlen(name) >= sizeof(l->name))
			return kit_err(-EINVAL, "--name '%s': 1 to %zu characters",
				       name, sizeof(l->name) - 1);
		for (i = 0; name[i]; i++)
			if (!(isalnum((unsigned char)name[i]) || name[i] == '_') ||
			    (i == 0 && isdigit((unsigned char)name[i])))
				return kit_err(-EINVAL, "--name '%s': not a C identifier", name);
		strcpy(l->name, name);
		return 0;
	}
	base = base ? base + 1 : path;
	n = strlen(base);
	if (has_suffix(base, ".bpf.o"))
		n -= strlen(".bpf.o");
	else if (has_suffix(base, ".o"))
		n -= strlen(".o");
	if (n == 0 || n >= sizeof(l->name))
		return kit_err(-EINVAL, "%s: cannot make a skeleton name of the file name; give --name",
			       path);
	memcpy(l->name, base, n);
	l->name[n] = '\0';
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)l->name[i]))
			l->name[i] = '_';
	if (isdigit((unsigned char)l->name[0]))
		l->name[0] = '_';
	return 0;
}

/* Is path an ELF file?  libbpf's own message for other files is vague. */
static int check_elf(const char *path)
{
	unsigned char magic[4];
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		return kit_err(err, "%s: %s", path, strerror(-err));
	}
	n = read(fd, magic, sizeof(magic));
	close(fd);
	if (n != sizeof(magic) || memcmp(magic, "\177ELF", 4))
		return kit_err(-ENOEXEC, "%s: not an ELF file (a BPF object is made by clang -target bpf)",
			       path);
	return 0;
}

/*
 * What a signed loader cannot carry: values libbpf would take from the
 * machine that generates the loader, signed in as if they were the target's.
 * __kconfig externs come from --target-config (target.c).
 */
static int check_host_independent(const char *path, struct bpf_object *obj)
{
	struct btf *btf = bpf_object__btf(obj);
	const struct btf_type *sec, *v;
	struct bpf_map *map;
	int j;

	bpf_object__for_each_map(map, obj) {
		if (bpf_map__pin_path(map))
			return kit_err(-EOPNOTSUPP, "%s: map '%s': pinned maps cannot be reused by a signed loader (LIBBPF_PIN_BY_NAME)",
				       path, bpf_map__name(map));
	}
	sec = btf_sec(btf, ".ksyms");
	for (j = 0; sec && j < btf_vlen(sec); j++) {
		v = btf_sec_var(btf, sec, j);
		if (btf_is_var(v) && btf__resolve_type(btf, v->type) == 0)
			return kit_err(-EOPNOTSUPP, "%s: extern '%s': a typeless __ksym would be an address from this machine's /proc/kallsyms; declare it with its type",
				       path, btf__name_by_offset(btf, v->name_off));
	}
	return 0;
}

/* libbpf's own codes (LIBBPF_ERRNO__*) are beyond strerror(): "Unknown error 4001" */
static const char *lb_strerror(int err, char *buf, size_t n)
{
	if (libbpf_strerror(err, buf, n))
		snprintf(buf, n, "%s", strerror(err < 0 ? -err : err));
	return buf;
}

/* libbpf reads --btf only when a relocation needs it: a wrong file would pass */
static int check_btf(const char *btf)
{
	struct btf *b;
	int err;

	if (access(btf, R_OK) < 0) {
		err = -errno;
		return kit_err(err, "%s: %s (--btf: the target kernel's vmlinux)", btf, strerror(-err));
	}
	b = btf__parse(btf, NULL);
	if (!b) {
		err = -errno;
		return kit_err(err == -ENOENT ? -ENOEXEC : err,
			       "%s: --btf: no BTF in it (an ELF vmlinux with .BTF, or raw BTF)", btf);
	}
	btf__free(b);
	return 0;
}

/* Limits of a loader, refused here rather than by the kernel at load time. */
static int check_limits(const char *path, struct bpf_object *obj)
{
	struct bpf_map *map;
	int nr_maps = 0;

	bpf_object__for_each_map(map, obj)
		nr_maps++;
	if (nr_maps > LOADER_MAX_MAPS)
		return kit_err(-E2BIG, "%s: %d maps: a loader creates at most %d (libbpf's MAX_USED_MAPS); split the object",
			       path, nr_maps, LOADER_MAX_MAPS);
	return 0;
}

/* Why libbpf could not generate: its limits by name, else its message. */
static int gen_error(const char *path, int err, struct bpf_object *obj)
{
	struct bpf_program *prog;
	struct bpf_map *map;
	int nr_progs = 0, nr_maps = 0;
	char why[128];

	if (err == -ERANGE || err == -E2BIG) {
		bpf_object__for_each_program(prog, obj)
			nr_progs++;
		bpf_object__for_each_map(map, obj)
			nr_maps++;
		return kit_err(err, "%s: the loader of %d programs and %d maps would be too large: its jumps reach at most %d instructions (libbpf's loader generation); split the object",
			       path, nr_progs, nr_maps, INT16_MAX);
	}
	return kit_err(err, "%s: libbpf cannot make a loader of the object: %s%s%s", path,
		       lb_strerror(err, why, sizeof(why)), *gl_libbpf_warning() ? " -- " : "",
		       gl_libbpf_warning());
}

int loader_gen(const char *path, const char *name, const char *btf, struct target *t,
	       struct loader *l)
{
	LIBBPF_OPTS(bpf_object_open_opts, oopts);
	LIBBPF_OPTS(gen_loader_opts, gopts);
	struct bpf_program *prog;
	int err, nr_progs = 0;
	char why[128];

	memset(l, 0, sizeof(*l));
	err = set_name(l, path, name);
	if (err)
		return err;
	if (btf) {
		err = check_btf(btf);
		if (err)
			return err;
	}
	err = check_elf(path);
	if (err)
		return err;

	oopts.object_name = l->name;
	oopts.btf_custom_path = btf;
	/* no BPF token: creating one would be a bpf() syscall */
	oopts.bpf_token_path = "";
	/* __kconfig externs: the target's, never this machine's (libbpf
	 * reads no kconfig file and no uname() when generating a loader)
	 */
	oopts.kconfig = t->kconfig;
	l->obj = bpf_object__open_file(path, &oopts);
	if (!l->obj) {
		err = -errno;
		return kit_err(err, "%s: libbpf cannot open the object: %s%s%s", path,
			       lb_strerror(err, why, sizeof(why)), *gl_libbpf_warning() ? " -- " : "",
			       gl_libbpf_warning());
	}
	bpf_object__for_each_program(prog, l->obj)
		nr_progs += bpf_program__autoload(prog);
	if (!nr_progs) {
		err = kit_err(-ENOENT, "%s: no program to load", path);
		goto fail;
	}
	err = check_host_independent(path, l->obj);
	if (!err)
		err = check_limits(path, l->obj);
	if (!err)
		err = target_apply(t, path, l->obj);
	if (err)
		goto fail;
	l->target_lines = t->lines;

	/* Every loader made here is signed, now or later (--payload-out):
	 * it must take max_entries and initial values from its signed
	 * metadata, never from the caller's ctx.
	 */
	gopts.gen_hash = true;
	err = bpf_object__gen_loader(l->obj, &gopts);
	if (err) {
		err = kit_err(err, "%s: loader generation: %s", path,
			      lb_strerror(err, why, sizeof(why)));
		goto fail;
	}
	err = bpf_object__load(l->obj);
	if (err) {
		err = gen_error(path, err, l->obj);
		goto fail;
	}
	if (!gopts.insns || !gopts.data || !gopts.insns_sz || !gopts.data_sz) {
		err = kit_err(-EINVAL, "%s: libbpf made an empty loader", path);
		goto fail;
	}
	l->insns = gopts.insns;
	l->insns_sz = gopts.insns_sz;
	l->data = gopts.data;
	l->data_sz = gopts.data_sz;
	if (l->insns_sz / sizeof(struct bpf_insn) > LOADER_MAX_INSNS) {
		err = kit_err(-E2BIG, "%s: the loader has %zu instructions: the kernel loads at most %u (BPF_COMPLEXITY_LIMIT_INSNS); split the object",
			      path, l->insns_sz / sizeof(struct bpf_insn), LOADER_MAX_INSNS);
		goto fail;
	}
	return 0;
fail:
	loader_free(l);
	return err;
}

void loader_free(struct loader *l)
{
	bpf_object__close(l->obj);
	l->obj = NULL;
}
