// SPDX-License-Identifier: GPL-2.0
/*
 * Write a signed light skeleton.  The C follows bpftool's gen_trace() (the
 * `gen skeleton -L` header) and its later signed mode; what differs:
 *   - the loader, its metadata, the exclusive hash and the signature are
 *     file-scope arrays between marker lines, so that they can be found and
 *     re-hashed without a C compiler (lskel.c);
 *   - the loader is signed (gen_loader_opts.gen_hash): it takes max_entries
 *     and the initial values of global data from the signed metadata only,
 *     so the header neither writes nor reads ctx's max_entries and
 *     initial_value; before load, skel->DATA is a read-only image made from
 *     the same metadata, after load the map itself;
 *   - mmap sizes are computed at run time from the page size, so the header
 *     does not depend on the machine that made it;
 *   - the keyring is a field of the skeleton, NAME__load_keyring() sets it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "emit.h"
#include "err.h"
#include "skel.h"
#include "trailer.h"

#define HEX_PER_LINE 16

struct emitter {
	FILE *f;
	const struct loader *l;
	const char *name;
	char guard[NAME_MAX_LEN + 16];
};

/* One of the lines the audits look for (skel.h), indented, with its newline */
static void emit_line(struct emitter *e, const char *indent, enum skel_line l)
{
	char buf[SKEL_LINE_MAX];

	fprintf(e->f, "%s%s\n", indent, skel_line(l, e->name, NULL, buf, sizeof(buf)));
}

static void emit_block(FILE *f, const char *region, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t i;

	fprintf(f, "/* @bpfsign begin %s %zu */\n", region, len);
	for (i = 0; i < len; i++) {
		if (i % HEX_PER_LINE == 0)
			fputs("\t\"", f);
		fprintf(f, "\\x%02x", p[i]);
		if (i % HEX_PER_LINE == HEX_PER_LINE - 1 || i == len - 1)
			fputs("\"\n", f);
	}
	fprintf(f, "/* @bpfsign end %s */\n", region);
}

/* A C string literal of s: anything but [A-Za-z0-9_] as an octal escape */
static void emit_c_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '_' || isalnum((unsigned char)*s))
			fputc(*s, f);
		else
			fprintf(f, "\\%03o", (unsigned char)*s);
	}
	fputc('"', f);
}

static void sanitize(char *s)
{
	for (; *s; s++)
		if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9')))
			*s = '_';
}

/* The identifier of a map in the skeleton: "rodata" for "name.rodata". */
static bool map_ident(const struct bpf_map *map, char *buf, size_t sz)
{
	static const char *const sfxs[] = { ".data", ".rodata", ".bss", ".kconfig" };
	const char *name = bpf_map__name(map), *p;
	size_t i;

	if (!bpf_map__is_internal(map)) {
		snprintf(buf, sz, "%s", name);
		return true;
	}
	/* before the suffixes: ".percpu.data" is percpu data */
	if (bpf_map__type(map) == BPF_MAP_TYPE_PERCPU_ARRAY) {
		snprintf(buf, sz, "%s", name + 1);
		sanitize(buf);
		return true;
	}
	for (i = 0; i < ARRAY_SIZE(sfxs); i++) {
		p = strstr(name, sfxs[i]);
		if (p) {
			snprintf(buf, sz, "%s", p + 1);
			sanitize(buf);
			return true;
		}
	}
	return false;
}

static bool is_percpu_data(const struct bpf_map *map)
{
	return bpf_map__type(map) == BPF_MAP_TYPE_PERCPU_ARRAY;
}

/* Internal maps the skeleton exposes as skel->IDENT, as bpftool's is_skel_data():
 * the memory-mapped ones, and percpu data (an initial image only).
 */
static bool is_skel_data(const struct bpf_map *map, char *buf, size_t sz)
{
	if (!bpf_map__is_internal(map) || !map_ident(map, buf, sz))
		return false;
	if (bpf_map__map_flags(map) & BPF_F_MMAPABLE)
		return true;
	return is_percpu_data(map) && bpf_map__btf_value_type_id(map);
}

/*
 * The DATASEC of a data map's value: libbpf keeps its type id (the section's
 * whole name, which the map's own name may have cut to 15 characters).
 */
static const struct btf_type *map_datasec(const struct btf *btf, const struct bpf_map *map)
{
	const struct btf_type *t = btf__type_by_id(btf, bpf_map__btf_value_type_id(map));

	return t && btf_is_datasec(t) ? t : NULL;
}

static void btf_dump_printf(void *ctx, const char *fmt, va_list args)
{
	vfprintf(ctx, fmt, args);
}

/*
 * The view of a datasec, as bpftool's codegen_datasec_def(); .rodata's is
 * const: its value is the signed one, read-only from open to destroy, and a
 * write to it is better refused by the compiler than by a fault.
 */
static const char *datasec_qual(const char *ident)
{
	return strcmp(ident, "rodata") ? "" : "const ";
}

/* struct NAME__data { ... } *data;  const struct NAME__rodata { ... } *rodata; */
static int emit_datasec(struct emitter *e, struct btf_dump *d, const struct btf *btf,
			const struct btf_type *sec, const char *ident)
{
	const struct btf_var_secinfo *vs = btf_var_secinfos(sec);
	int i, off = 0, pad = 0, vlen = btf_vlen(sec), err;
	const char *sec_name = btf__name_by_offset(btf, sec->name_off);
	char var_ident[256];

	fprintf(e->f, "\t%sstruct %s__%s {\n", datasec_qual(ident), e->name, ident);
	for (i = 0; i < vlen; i++, vs++) {
		const struct btf_type *var = btf__type_by_id(btf, vs->type);
		const char *var_name = btf__name_by_offset(btf, var->name_off);
		LIBBPF_OPTS(btf_dump_emit_type_decl_opts, opts,
			.field_name = var_ident,
			.indent_level = 2,
			.strip_mods = strcmp(sec_name, ".kconfig") != 0,
		);
		int need_off = (int)vs->offset, align_off, align;

		if (btf_var(var)->linkage == BTF_VAR_STATIC)
			continue;
		if (off > need_off)
			return kit_err(-EINVAL, "%s: variable '%s' overlaps the one before it",
				       sec_name, var_name);
		align = btf__align_of(btf, var->type);
		if (align <= 0)
			return kit_err(-EINVAL, "%s: cannot align variable '%s'", sec_name, var_name);
		/* as bpftool: assume a 32-bit host, pad explicitly */
		if (align > 4)
			align = 4;
		align_off = (off + align - 1) / align * align;
		if (align_off != need_off)
			fprintf(e->f, "\t\tchar __pad%d[%d];\n", pad++, need_off - off);
		snprintf(var_ident, sizeof(var_ident), "%s", var_name);
		sanitize(var_ident);
		fputs("\t\t", e->f);
		err = btf_dump__emit_type_decl(d, var->type, &opts);
		if (err)
			return kit_err(err, "%s: cannot declare variable '%s'", sec_name, var_name);
		fputs(";\n", e->f);
		off = (int)(vs->offset + vs->size);
	}
	fprintf(e->f, "\t} *%s;\n", ident);
	return 0;
}

static int emit_struct(struct emitter *e)
{
	struct bpf_object *obj = e->l->obj;
	struct btf *btf = bpf_object__btf(obj);
	const struct btf_type *sec;
	struct btf_dump *d = NULL;
	struct bpf_program *prog;
	struct bpf_map *map;
	char ident[256];
	int n = 0, err = 0;

	fprintf(e->f, "struct %s {\n\tstruct bpf_loader_ctx ctx;\n", e->name);
	bpf_object__for_each_map(map, obj)
		n += map_ident(map, ident, sizeof(ident));
	if (n) {
		fputs("\tstruct {\n", e->f);
		bpf_object__for_each_map(map, obj)
			if (map_ident(map, ident, sizeof(ident)))
				fprintf(e->f, "\t\tstruct bpf_map_desc %s;\n", ident);
		fputs("\t} maps;\n", e->f);
	}
	fputs("\tstruct {\n", e->f);
	bpf_object__for_each_program(prog, obj)
		fprintf(e->f, "\t\tstruct bpf_prog_desc %s;\n", bpf_program__name(prog));
	fputs("\t} progs;\n\tstruct {\n", e->f);
	bpf_object__for_each_program(prog, obj)
		fprintf(e->f, "\t\tint %s_fd;\n", bpf_program__name(prog));
	fputs("\t} links;\n", e->f);

	if (btf) {
		d = btf_dump__new(btf, btf_dump_printf, e->f, NULL);
		if (!d)
			return kit_err(-errno, "BTF of the object: %s", strerror(errno));
	}
	bpf_object__for_each_map(map, obj) {
		if (!is_skel_data(map, ident, sizeof(ident)))
			continue;
		sec = btf ? map_datasec(btf, map) : NULL;
		if (!sec) {
			fprintf(e->f, "\t%sstruct %s__%s {\n\t} *%s;\n", datasec_qual(ident),
				e->name, ident, ident);
			continue;
		}
		err = emit_datasec(e, d, btf, sec, ident);
		if (err)
			break;
	}
	btf_dump__free(d);
	fputs("\t/* not read by the loader (after links): */\n", e->f);
	emit_line(e, "\t", SKEL_KR_FIELD);
	fputs("\tconst char *errstr;\t/* after a failed NAME__load(): the step */\n"
	      "};\n", e->f);
	return err;
}

static void emit_attach_detach(struct emitter *e)
{
	struct bpf_program *prog;
	const char *tp;

	bpf_object__for_each_program(prog, e->l->obj) {
		fprintf(e->f, "\nstatic inline int\n%1$s__%2$s__attach(struct %1$s *skel)\n{\n"
			"\tint prog_fd = skel->progs.%2$s.prog_fd;\n",
			e->name, bpf_program__name(prog));
		switch (bpf_program__type(prog)) {
		case BPF_PROG_TYPE_RAW_TRACEPOINT:
			/* the section name is the object's: a string, escaped */
			tp = strchr(bpf_program__section_name(prog), '/');
			fputs("\tint fd = skel_raw_tracepoint_open(", e->f);
			emit_c_string(e->f, tp ? tp + 1 : "");
			fputs(", prog_fd);\n", e->f);
			break;
		case BPF_PROG_TYPE_TRACING:
		case BPF_PROG_TYPE_LSM:
			if (bpf_program__expected_attach_type(prog) == BPF_TRACE_ITER)
				fputs("\tint fd = skel_link_create(prog_fd, 0, BPF_TRACE_ITER);\n", e->f);
			else
				fputs("\tint fd = skel_raw_tracepoint_open(NULL, prog_fd);\n", e->f);
			break;
		default:
			fputs("\tint fd = ((void)prog_fd, 0); /* auto-attach not supported */\n",
			      e->f);
			break;
		}
		fprintf(e->f, "\n\tif (fd > 0)\n\t\tskel->links.%s_fd = fd;\n\treturn fd;\n}\n",
			bpf_program__name(prog));
	}

	/* the programs left out of the load (prog_fd 0) are not attached */
	fprintf(e->f, "\nstatic inline int\n%1$s__attach(struct %1$s *skel)\n{\n"
		"\tint ret = 0;\n\n", e->name);
	bpf_object__for_each_program(prog, e->l->obj)
		fprintf(e->f, "\tif (skel->progs.%2$s.prog_fd > 0)\n"
			"\t\tret = ret < 0 ? ret : %1$s__%2$s__attach(skel);\n",
			e->name, bpf_program__name(prog));
	fprintf(e->f, "\treturn ret < 0 ? ret : 0;\n}\n\nstatic inline void\n"
		"%1$s__detach(struct %1$s *skel)\n{\n", e->name);
	bpf_object__for_each_program(prog, e->l->obj)
		fprintf(e->f, "\tskel_closenz(skel->links.%s_fd);\n", bpf_program__name(prog));
	fputs("}\n", e->f);
}

/*
 * NAME__PROG__set_autoload(): before load, leave a program out of it.  The
 * loader reads ctx->progs[i].prog_fd for BPF_SKEL_PROG_SKIP and nothing
 * else: a caller chooses a subset of the signed programs, nothing more.
 */
static void emit_autoload(struct emitter *e)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, e->l->obj)
		fprintf(e->f, "\n/* Before load: whether %1$s__load() loads %2$s (default 1) */\n"
			"static inline int\n%1$s__%2$s__set_autoload(struct %1$s *skel, int autoload)\n{\n"
			"\tif (skel->progs.%2$s.prog_fd > 0)\n\t\treturn -EBUSY;\n"
			"\tskel->progs.%2$s.prog_fd = autoload ? 0 : BPF_SKEL_PROG_SKIP;\n"
			"\treturn 0;\n}\n", e->name, bpf_program__name(prog));
}

static void emit_destroy(struct emitter *e)
{
	struct bpf_program *prog;
	struct bpf_map *map;
	char ident[256];

	fprintf(e->f, "\nstatic void\n%1$s__destroy(struct %1$s *skel)\n{\n"
		"\tif (!skel)\n\t\treturn;\n\t%1$s__detach(skel);\n", e->name);
	bpf_object__for_each_program(prog, e->l->obj)
		fprintf(e->f, "\tskel_closenz(skel->progs.%s.prog_fd);\n", bpf_program__name(prog));
	bpf_object__for_each_map(map, e->l->obj) {
		if (!map_ident(map, ident, sizeof(ident)))
			continue;
		if (is_skel_data(map, ident, sizeof(ident)))
			fprintf(e->f, "\tskel_free_map_data((void *)skel->%1$s, 0, %2$s__mmap_sz(%3$u));\n",
				ident, e->name, bpf_map__value_size(map));
		fprintf(e->f, "\tskel_closenz(skel->maps.%s.map_fd);\n", ident);
	}
	fputs("\tskel_free(skel);\n}\n", e->f);
}

/* Where the loader's metadata holds the initial value of a skeleton data map. */
static int init_value_off(struct emitter *e, const struct bpf_map *map, size_t *off)
{
	const void *val, *p;
	size_t sz = 0;

	val = bpf_map__initial_value((struct bpf_map *)map, &sz);
	if (!val || sz != bpf_map__value_size(map))
		return kit_err(-EINVAL, "map '%s': no initial value", bpf_map__name(map));
	p = memmem(e->l->data, e->l->data_sz, val, sz);
	if (!p)
		return kit_err(-EINVAL, "map '%s': its initial value is not in the loader's metadata",
			       bpf_map__name(map));
	*off = (size_t)((const char *)p - (const char *)e->l->data);
	return 0;
}

static int emit_open(struct emitter *e)
{
	struct bpf_map *map;
	char ident[256];
	size_t off = 0;
	int err;

	fprintf(e->f, "\nstatic inline struct %1$s *\n%1$s__open(void)\n{\n"
		"\tstruct %1$s *skel;\n\n"
		"\tskel = (struct %1$s *)skel_alloc(sizeof(*skel));\n"
		"\tif (!skel)\n\t\tgoto cleanup;\n"
		"\tskel->ctx.sz = (char *)&skel->links - (char *)skel;\n", e->name);
	emit_line(e, "\t", SKEL_KR_OPEN);
	bpf_object__for_each_map(map, e->l->obj) {
		if (!is_skel_data(map, ident, sizeof(ident)))
			continue;
		err = init_value_off(e, map, &off);
		if (err)
			return err;
		fprintf(e->f, "\t/* .%1$s until load: its signed initial value, read-only, as the\n"
			"\t * loader takes it from the signed metadata and nowhere else\n"
			"\t */\n"
			"\tskel->%1$s = (__typeof__(skel->%1$s))\n"
			"\t\tskel_prep_map_data(%2$s__lskel_data + %3$zu, %2$s__mmap_sz(%4$u), %4$u);\n"
			"\tif (!skel->%1$s)\n\t\tgoto cleanup;\n"
			"\tif (mprotect((void *)skel->%1$s, %2$s__mmap_sz(%4$u), PROT_READ))\n"
			"\t\tgoto cleanup;\n",
			ident, e->name, off, bpf_map__value_size(map));
	}
	fprintf(e->f, "\treturn skel;\ncleanup:\n\t%s__destroy(skel);\n\treturn NULL;\n}\n",
		e->name);
	return 0;
}

static void emit_load(struct emitter *e)
{
	struct bpf_program *prog;
	struct bpf_map *map;
	char ident[256];
	int nr_mmaped = 0, l;

	bpf_object__for_each_map(map, e->l->obj)
		nr_mmaped += is_skel_data(map, ident, sizeof(ident)) && !is_percpu_data(map);
	fprintf(e->f, "\nstatic inline int\n%1$s__load(struct %1$s *skel)\n{\n", e->name);
	emit_line(e, "\t", SKEL_OPTS_DECL);
	fprintf(e->f, "%s\tint err;\n\n", nr_mmaped ? "\t__u64 image;\n" : "");
	emit_line(e, "\t", SKEL_OPTS_CTX);
	for (l = SKEL_DATA_SZ; l <= SKEL_IF_SIG; l++)
		emit_line(e, "\t", l);
	/* the signature and the keyring only inside SKEL_IF_SIG's block */
	for (l = SKEL_SIG; l <= SKEL_KEYRING; l++)
		emit_line(e, "\t\t", l);
	fputs("\t}\n\n", e->f);
	emit_line(e, "\t", SKEL_OPTS_RUN);
	emit_line(e, "\t", SKEL_OPTS_ERRSTR);
	fputs("\tif (err < 0) {\n", e->f);
	/* the loader left the -errno of the program that failed in its prog_fd */
	bpf_object__for_each_program(prog, e->l->obj)
		fprintf(e->f, "\t\tif (skel->progs.%1$s.prog_fd < 0 &&\n"
			"\t\t    skel->progs.%1$s.prog_fd != BPF_SKEL_PROG_SKIP)\n"
			"\t\t\tskel->errstr = \"program '%1$s' failed to load (the error is the return value; the verifier log goes to ctx.log_buf)\";\n",
			bpf_program__name(prog));
	fputs("\t\treturn err;\n\t}\n", e->f);
	bpf_object__for_each_map(map, e->l->obj) {
		/* a percpu_array cannot be mmaped: its image stays read-only */
		if (!is_skel_data(map, ident, sizeof(ident)) || is_percpu_data(map))
			continue;
		/* the map's memory replaces the image, at its address */
		fprintf(e->f, "\timage = (__u64)(long)skel->%1$s;\n"
			"\tskel->%1$s = (__typeof__(skel->%1$s))\n"
			"\t\tskel_finalize_map_data(&image, %2$s__mmap_sz(%3$u), %4$s,\n"
			"\t\t\t\t       skel->maps.%1$s.map_fd);\n"
			"\tif (!skel->%1$s)\n\t\treturn -ENOMEM;\n",
			ident, e->name, bpf_map__value_size(map),
			bpf_map__map_flags(map) & BPF_F_RDONLY_PROG ?
			"PROT_READ" : "PROT_READ | PROT_WRITE");
	}
	fputs("\treturn 0;\n}\n"
	      "\n/* Load with the keys of keyring_id (0 builtin, 1 +secondary, 2 platform,\n"
	      " * else a key or keyring serial such as KEY_SPEC_SESSION_KEYRING).\n */\n"
	      "static inline int\n", e->f);
	emit_line(e, "", SKEL_KR_FUNC);
	fputs("{\n", e->f);
	emit_line(e, "\t", SKEL_KR_SET);
	fprintf(e->f, "\treturn %1$s__load(skel);\n}\n"
		"\nstatic inline struct %1$s *\n%1$s__open_and_load(void)\n{\n"
		"\tstruct %1$s *skel;\n\n"
		"\tskel = %1$s__open();\n\tif (!skel)\n\t\treturn NULL;\n"
		"\tif (%1$s__load(skel)) {\n\t\t%1$s__destroy(skel);\n\t\treturn NULL;\n\t}\n"
		"\treturn skel;\n}\n", e->name);
}

/* Type size asserts of the global variables, as bpftool's codegen_asserts(). */
static void emit_asserts(struct emitter *e)
{
	struct btf *btf = bpf_object__btf(e->l->obj);
	const struct btf_var_secinfo *vs;
	const struct btf_type *sec;
	char ident[256], var_ident[256];
	struct bpf_map *map;
	int i;

	if (!btf)
		return;
	fprintf(e->f, "\n__attribute__((unused)) static void\n"
		"%1$s__assert(struct %1$s *s __attribute__((unused)))\n{\n"
		"#ifdef __cplusplus\n#define _Static_assert static_assert\n#endif\n", e->name);
	bpf_object__for_each_map(map, e->l->obj) {
		if (!is_skel_data(map, ident, sizeof(ident)))
			continue;
		sec = map_datasec(btf, map);
		if (!sec)
			continue;
		vs = btf_var_secinfos(sec);
		for (i = 0; i < btf_vlen(sec); i++, vs++) {
			const struct btf_type *var = btf__type_by_id(btf, vs->type);
			const char *var_name = btf__name_by_offset(btf, var->name_off);
			long sz;

			if (btf_var(var)->linkage == BTF_VAR_STATIC)
				continue;
			sz = btf__resolve_size(btf, var->type);
			if (sz < 0)
				continue;
			snprintf(var_ident, sizeof(var_ident), "%s", var_name);
			sanitize(var_ident);
			fprintf(e->f, "\t_Static_assert(sizeof(s->%s->%s) == %ld, \"unexpected size of '%s'\");\n",
				ident, var_ident, sz, var_ident);
		}
	}
	fputs("#ifdef __cplusplus\n#undef _Static_assert\n#endif\n}\n", e->f);
}

/* Refuse what this header cannot represent, before writing anything. */
/* [A-Za-z_][A-Za-z0-9_]*: what the header may declare, and nothing else */
static bool c_ident(const char *s)
{
	if (!s || !(*s == '_' || isalpha((unsigned char)*s)))
		return false;
	for (; *s; s++)
		if (!(*s == '_' || isalnum((unsigned char)*s)))
			return false;
	return true;
}

/* Identifiers separated by single spaces, as base types are named
 * ("unsigned int", "long double")
 */
static bool c_words(const char *s)
{
	char word[64];
	size_t n;

	for (;;) {
		n = strcspn(s, " ");
		if (!n || n >= sizeof(word))
			return false;
		memcpy(word, s, n);
		word[n] = '\0';
		if (!c_ident(word))
			return false;
		if (!s[n])
			return true;
		s += n + 1;
	}
}

/* A name btf_dump may print as C: an identifier, or base type words. */
static int check_btf_name(const struct btf *btf, __u32 id, const struct btf_type *t,
			  const char *what, __u32 name_off)
{
	const char *name = btf__name_by_offset(btf, name_off);
	/* a member's message names its type too, unless that is the name */
	const char *type = name_off == t->name_off ? NULL : btf__name_by_offset(btf, t->name_off);

	if (!name)
		return kit_err(-EINVAL, "BTF type %u: a name offset %u outside the string table",
			       id, name_off);
	if (!*name || c_ident(name) ||
	    (!strcmp(what, "name") && (btf_is_int(t) || btf_is_float(t)) && c_words(name)))
		return 0;
	return kit_err(-EINVAL, "BTF type %u%s%s%s: its %s '%s' is not a C identifier", id,
		       type && *type ? " '" : "", type && *type ? type : "",
		       type && *type ? "'" : "", what, name);
}

/*
 * Every name of the object that reaches the header's C as C: program names,
 * map identifiers, and every name of the object's BTF that btf_dump can
 * print when it declares the skeleton's data (type names, struct and union
 * members, enum values, function prototype parameters, typedefs, vars):
 * all of them, not only those of the types the views use, so that no path
 * through btf_dump is missed.  A hostile object's name would otherwise be
 * code in a header that is signed and verifies; refuse it rather than
 * rename it, so that the skeleton's API is the object's.
 */
static int check_names(struct emitter *e)
{
	const struct btf *btf = bpf_object__btf(e->l->obj);
	const struct btf_type *t;
	struct bpf_program *prog;
	struct bpf_map *map;
	char ident[256];
	const char *name, *c;
	__u32 id, n, i;
	int err = 0;

	bpf_object__for_each_program(prog, e->l->obj)
		if (!c_ident(bpf_program__name(prog)))
			return kit_err(-EINVAL, "program '%s': its name is not a C identifier",
				       bpf_program__name(prog));
	bpf_object__for_each_map(map, e->l->obj)
		if (map_ident(map, ident, sizeof(ident)) && !c_ident(ident))
			return kit_err(-EINVAL, "map '%s': its name is not a C identifier",
				       bpf_map__name(map));
	n = btf ? btf__type_cnt(btf) : 0;
	for (id = 1; id < n && !err; id++) {
		t = btf__type_by_id(btf, id);
		name = btf__name_by_offset(btf, t->name_off);
		/* section names become identifiers through map_ident(), and
		 * declaration tags ("arg:ctx") are never emitted
		 */
		if (btf_is_datasec(t) || btf_is_decl_tag(t))
			continue;
		/* btf_dump emits a type tag in a string literal */
		if (btf_is_type_tag(t)) {
			for (c = name ? name : ""; *c; c++)
				if (!isprint((unsigned char)*c) || *c == '"' || *c == '\\')
					return kit_err(-EINVAL, "BTF type %u: its tag '%s' cannot be put in a C string",
						       id, name);
			continue;
		}
		err = check_btf_name(btf, id, t, "name", t->name_off);
		if (btf_is_composite(t)) {
			const struct btf_member *m = btf_members(t);

			for (i = 0; i < btf_vlen(t) && !err; i++, m++)
				err = check_btf_name(btf, id, t, "member", m->name_off);
		} else if (btf_is_enum(t)) {
			const struct btf_enum *v = btf_enum(t);

			for (i = 0; i < btf_vlen(t) && !err; i++, v++)
				err = check_btf_name(btf, id, t, "enum value", v->name_off);
		} else if (btf_is_enum64(t)) {
			const struct btf_enum64 *v = btf_enum64(t);

			for (i = 0; i < btf_vlen(t) && !err; i++, v++)
				err = check_btf_name(btf, id, t, "enum value", v->name_off);
		} else if (btf_is_func_proto(t)) {
			const struct btf_param *a = btf_params(t);

			for (i = 0; i < btf_vlen(t) && !err; i++, a++)
				err = check_btf_name(btf, id, t, "parameter", a->name_off);
		}
	}
	return err;
}

static int check_supported(struct emitter *e)
{
	struct bpf_map *map;
	char ident[256];

	bpf_object__for_each_map(map, e->l->obj) {
		if (bpf_map__type(map) == BPF_MAP_TYPE_STRUCT_OPS)
			return kit_err(-EOPNOTSUPP, "map '%s': struct_ops maps are not supported by the light skeleton",
				       bpf_map__name(map));
		if (bpf_map__type(map) == BPF_MAP_TYPE_ARENA)
			return kit_err(-EOPNOTSUPP, "map '%s': arena maps are not supported by the light skeleton",
				       bpf_map__name(map));
		if (!map_ident(map, ident, sizeof(ident)))
			return kit_err(-EOPNOTSUPP, "map '%s': an internal map of an unknown section",
				       bpf_map__name(map));
	}
	return 0;
}

/* What the prologue says of the signed bytes, by format. */
static const char *const prologue_what[] = {
	[LSKEL_FORMAT_TRAILER] =
		" * (excl_hash = SHA-256 of insns).  data ends with the C of this header\n"
		" * after the arrays, so that it is signed too.  Audit this header offline\n"
		" * with `gen-loader verify --cert CERT HEADER`: it verifies only if it is\n"
		" * byte for byte what gen-loader writes for these arrays.\n",
	[LSKEL_FORMAT_NO_TRAILER] =
		" * (excl_hash = SHA-256 of insns).  Format 2 (gen-loader --no-trailer):\n"
		" * insns || data is the payload bpftool gen skeleton -L -S signs, and the\n"
		" * C of this header after the arrays is NOT signed.  Audit this header\n"
		" * offline with `gen-loader verify --cert CERT HEADER`: it re-emits it up\n"
		" * to the end of the arrays and checks the structure of the C after them.\n",
};

/* The default keyring's #define: first in the tail of format 1 (signed),
 * in the prologue of format 2 and of format 1 headers of gen-loader 1.0.
 */
static void emit_keyring_define(FILE *f, const char *name, int keyring_id)
{
	fprintf(f, "#define %s__DEFAULT_KEYRING_ID (%d)\n\n", name, keyring_id);
}

int emit_tail_keyring(const char *name, const char *tail, size_t len, int *keyring_id)
{
	char line[NAME_MAX_LEN + 64], want[NAME_MAX_LEN + 64];
	const char *nl = memchr(tail, '\n', len);
	size_t n = nl ? (size_t)(nl - tail) : len;
	int k;

	if (n + 3 > sizeof(line) || n + 2 > len || tail[n + 1] != '\n')
		return -ENOENT;
	memcpy(line, tail, n);
	line[n] = '\0';
	/* only the one spelling gen-loader writes: parsed, then re-made and compared */
	if (sscanf(line, "#define %*s (%d)", &k) != 1)
		return -ENOENT;
	snprintf(want, sizeof(want), "#define %s__DEFAULT_KEYRING_ID (%d)", name, k);
	if (strcmp(line, want))
		return -ENOENT;
	*keyring_id = k;
	return 0;
}

static void emit_prologue(FILE *f, const struct skel_parts *p, int format, const char *guard,
			  bool keyring_in_tail)
{
	fprintf(f, "/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */\n"
		"/* THIS FILE IS AUTOGENERATED BY gen-loader: a signed light skeleton. */\n"
		"#ifndef %1$s\n#define %1$s\n\n"
		"#include <errno.h>\n#include <unistd.h>\n#include <bpf/skel_internal.h>\n\n"
		"/*\n"
		" * The kernel verifies the signature over insns || data, the bytes of the\n"
		" * two arrays below between their @bpfsign markers, before it runs the\n"
		" * loader; data is the value of a frozen map exclusive to the loader\n"
		"%4$s"
		" */\n"
		"/* @bpfsign format %5$d */\n"
		"/* @bpfsign name %2$s */\n"
		"/* @bpfsign keyring-id %3$d */\n",
		guard, p->name, p->keyring_id, prologue_what[format], format);
	if (keyring_in_tail)
		fputc('\n', f);
	else
		emit_keyring_define(f, p->name, p->keyring_id);
}

static void emit_array(FILE *f, const char *name, const char *region, const void *data,
		       size_t len)
{
	fprintf(f, "static const char %s__lskel_%s[] __attribute__((__aligned__(8))) =\n",
		name, region);
	emit_block(f, region, data, len);
	fputs("\t\"\";\n\n", f);
}

/*
 * What the loader depends on of its target, as given at generation: one
 * "@target" line each, in the signed C (gen-loader verify shows them).
 * Nothing when the object depends on nothing of its target.
 */
static int emit_target(FILE *f, const char *lines)
{
	const char *s, *nl, *c;

	if (!lines || !*lines)
		return 0;
	/* the values are the builder's and the object's: they stay a comment */
	for (c = lines; *c; c++)
		if ((!isprint((unsigned char)*c) && *c != '\n') || (c[0] == '*' && c[1] == '/'))
			return kit_err(-EINVAL, "target: a value that cannot be put in a C comment: '%.*s'",
				       (int)(strchrnul(c, '\n') - c), c);
	fputs("/*\n * Generated for the target kernel described by these values (gen-loader\n"
	      " * --target-config, --max-cpus, --map-size), signed with the loader:\n", f);
	for (s = lines; *s; s = nl + 1) {
		nl = strchrnul(s, '\n');
		fprintf(f, " * " TARGET_MARK "%.*s\n", (int)(nl - s), s);
		if (!*nl)
			break;
	}
	fputs(" */\n", f);
	return 0;
}

int emit_tail(const struct loader *l, const int *keyring_id, char **buf, size_t *len)
{
	struct emitter e = { .l = l, .name = l->name };
	int err;

	err = check_names(&e) ?: check_supported(&e);
	if (err)
		return err;
	skel_guard(l->name, e.guard, sizeof(e.guard));
	*buf = NULL;
	e.f = open_memstream(buf, len);
	if (!e.f)
		return kit_err(-ENOMEM, "header: %s", strerror(ENOMEM));

	if (keyring_id)
		emit_keyring_define(e.f, l->name, *keyring_id);
	err = emit_target(e.f, l->target_lines);
	fprintf(e.f, "static inline size_t %s__mmap_sz(size_t value_sz)\n{\n"
		"\tsize_t page = (size_t)sysconf(_SC_PAGE_SIZE);\n\n"
		"\treturn ((value_sz + 7) / 8 * 8 + page - 1) / page * page;\n}\n\n", l->name);
	err = err ?: emit_struct(&e);
	if (!err) {
		emit_attach_detach(&e);
		emit_autoload(&e);
		emit_destroy(&e);
		err = emit_open(&e);
	}
	if (!err) {
		emit_load(&e);
		emit_asserts(&e);
		fprintf(e.f, "\n#endif /* %s */\n", e.guard);
	}
	if (fclose(e.f) && !err)
		err = kit_err(-ENOMEM, "header: %s", strerror(ENOMEM));
	if (err) {
		free(*buf);
		*buf = NULL;
	}
	return err;
}

int emit_header(const struct skel_parts *p, char **buf, size_t *len)
{
	int format = p->format ? p->format : LSKEL_FORMAT_TRAILER;
	const char *tail;
	size_t tail_len, blob_sz;
	char guard[NAME_MAX_LEN + 16];
	bool keyring_in_tail = false;
	FILE *f;
	int err, k;

	if (format == LSKEL_FORMAT_NO_TRAILER) {
		tail = p->c;
		tail_len = p->c_len;
	} else if (format == LSKEL_FORMAT_TRAILER) {
		err = trailer_find(p->data, p->data_sz, &tail, &tail_len, &blob_sz);
		if (err)
			return err;
		keyring_in_tail = !emit_tail_keyring(p->name, tail, tail_len, &k);
		if (keyring_in_tail && k != p->keyring_id)
			return kit_err(-EINVAL, "header: keyring id %d, the signed C says %d",
				       p->keyring_id, k);
	} else {
		return kit_err(-EINVAL, "header: format %d", format);
	}
	skel_guard(p->name, guard, sizeof(guard));
	*buf = NULL;
	f = open_memstream(buf, len);
	if (!f)
		return kit_err(-ENOMEM, "header: %s", strerror(ENOMEM));
	emit_prologue(f, p, format, guard, keyring_in_tail);
	emit_array(f, p->name, "insns", p->insns, p->insns_sz);
	emit_array(f, p->name, "data", p->data, p->data_sz);
	emit_array(f, p->name, "excl_hash", p->excl_hash, DIGEST_SIZE);
	emit_array(f, p->name, "signature", p->sig, p->sig ? p->sig_sz : 0);
	if (tail_len)
		fwrite(tail, 1, tail_len, f);
	if (fclose(f)) {
		free(*buf);
		*buf = NULL;
		return kit_err(-ENOMEM, "header: %s", strerror(ENOMEM));
	}
	return 0;
}
