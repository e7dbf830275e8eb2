// SPDX-License-Identifier: GPL-2.0
/* The target of a loader, as given at generation: never this machine. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/btf.h>

#include "btf_sec.h"
#include "err.h"
#include "file.h"
#include "target.h"

#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))

/* Append one "@target" line (without its prefix) to t->lines. */
static int add_line(struct target *t, const char *fmt, ...)
{
	char line[512], *p;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line))
		return kit_err(-EINVAL, "target: a line longer than %zu bytes", sizeof(line) - 1);
	p = realloc(t->lines, t->lines_len + n + 2);
	if (!p)
		return kit_err(-ENOMEM, "target: %s", strerror(ENOMEM));
	memcpy(p + t->lines_len, line, n);
	p[t->lines_len + n] = '\n';
	p[t->lines_len + n + 1] = '\0';
	t->lines = p;
	t->lines_len += n + 1;
	return 0;
}

/* A decimal number in [min, max], the whole string. */
static int parse_uint(const char *s, unsigned long min, unsigned long max, unsigned long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoul(s, &end, 10);
	if (errno || *end || *v < min || *v > max)
		return -EINVAL;
	return 0;
}

/* The value of the first line "NAME=VALUE" of text, as libbpf reads it. */
static const char *kconfig_value(const char *text, const char *name, size_t *len)
{
	size_t n = strlen(name);
	const char *s = text, *nl;

	for (; *s; s = nl + 1) {
		nl = strchrnul(s, '\n');
		if ((size_t)(nl - s) > n && !memcmp(s, name, n) && s[n] == '=') {
			*len = (size_t)(nl - s) - n - 1;
			return s + n + 1;
		}
		if (!*nl)
			break;
	}
	return NULL;
}

/* KERNEL_VERSION() of "# Linux/ARCH A.B.C[-...] Kernel Configuration", as
 * every .config (and /proc/config.gz) starts; 0 when there is none.
 */
static unsigned int config_release(const char *text)
{
	unsigned int a, b, c;
	const char *s = text, *nl;
	char arch[32];

	for (; *s; s = nl + 1) {
		nl = strchrnul(s, '\n');
		if (sscanf(s, "# Linux/%31s %u.%u.%u", arch, &a, &b, &c) == 4)
			return KERNEL_VERSION(a, b, c);
		if (sscanf(s, "# Linux/%31s %u.%u", arch, &a, &b) == 3)
			return KERNEL_VERSION(a, b, 0);
		if (!*nl)
			break;
	}
	return 0;
}

static int read_config(struct target *t, const char *path)
{
	unsigned long v;
	unsigned char *buf;
	const char *val;
	size_t len, vlen;
	char num[32], *text;
	int err, n;

	err = read_file(path, TARGET_CONFIG_MAX, &buf, &len);
	if (err)
		return err;
	if (memchr(buf, '\0', len)) {
		free(buf);
		return kit_err(-EINVAL, "%s: --target-config: not a text file (a NUL byte)", path);
	}
	/* room for the version line libbpf reads in a generated loader */
	text = realloc(buf, len + 64);
	if (!text) {
		free(buf);
		return kit_err(-ENOMEM, "%s: %s", path, strerror(ENOMEM));
	}
	text[len] = '\0';
	t->kconfig = text;
	val = kconfig_value(text, "LINUX_KERNEL_VERSION", &vlen);
	if (val) {
		snprintf(num, sizeof(num), "%.*s", (int)(vlen < 31 ? vlen : 31), val);
		if (parse_uint(num, 1, UINT_MAX, &v))
			return kit_err(-EINVAL, "%s: LINUX_KERNEL_VERSION=%s: not a decimal number",
				       path, num);
		t->kernel_version = (unsigned int)v;
	} else {
		t->kernel_version = config_release(text);
		if (t->kernel_version) {
			n = snprintf(text + len, 64, "%sLINUX_KERNEL_VERSION=%u\n",
				     len && text[len - 1] != '\n' ? "\n" : "", t->kernel_version);
			text[len + n] = '\0';
		}
	}
	val = kconfig_value(text, "CONFIG_NR_CPUS", &vlen);
	if (val) {
		snprintf(num, sizeof(num), "%.*s", (int)(vlen < 31 ? vlen : 31), val);
		if (parse_uint(num, 1, TARGET_MAX_CPUS_LIMIT, &v))
			return kit_err(-EINVAL, "%s: CONFIG_NR_CPUS=%s: not a number of CPUs", path, num);
		t->max_cpus = (unsigned int)v;
		t->max_cpus_from = "CONFIG_NR_CPUS of --target-config";
	}
	val = kconfig_value(text, "CONFIG_PAGE_SHIFT", &vlen);
	if (val) {
		snprintf(num, sizeof(num), "%.*s", (int)(vlen < 31 ? vlen : 31), val);
		if (parse_uint(num, 12, 21, &v))
			return kit_err(-EINVAL, "%s: CONFIG_PAGE_SHIFT=%s: not a page shift (12 to 21)",
				       path, num);
		t->page_size = 1u << v;
		t->page_size_from = "CONFIG_PAGE_SHIFT of --target-config";
	}
	return 0;
}

int target_init(struct target *t, const char *config_path, const char *max_cpus,
		const char *map_sizes)
{
	unsigned long v;
	int err;

	memset(t, 0, sizeof(*t));
	t->max_cpus = TARGET_MAX_CPUS_DEFAULT;
	t->max_cpus_from = "the largest CONFIG_NR_CPUS";
	t->page_size = TARGET_PAGE_SIZE_DEFAULT;
	t->page_size_from = "x86-64's";
	t->map_sizes = map_sizes;
	t->config_path = config_path;
	if (config_path) {
		err = read_config(t, config_path);
		if (err)
			return err;
	}
	if (max_cpus) {
		if (parse_uint(max_cpus, 1, TARGET_MAX_CPUS_LIMIT, &v))
			return kit_err(-EINVAL, "--max-cpus '%s': a number of CPUs, 1 to %u",
				       max_cpus, TARGET_MAX_CPUS_LIMIT);
		t->max_cpus = (unsigned int)v;
		t->max_cpus_from = "--max-cpus";
	}
	return 0;
}

void target_free(struct target *t)
{
	free(t->kconfig);
	free(t->lines);
	t->kconfig = NULL;
	t->lines = NULL;
}

/* One NAME=ENTRIES[:VALUE_SIZE] of --map-size, applied to its map. */
static int apply_map_size(struct target *t, const char *path, struct bpf_object *obj,
			  const char *s, size_t len)
{
	char item[256], *eq, *colon;
	unsigned long entries, value_size = 0;
	struct bpf_map *map;
	int err;

	if (len >= sizeof(item))
		return kit_err(-EINVAL, "--map-size: '%.*s...' is too long", 32, s);
	memcpy(item, s, len);
	item[len] = '\0';
	eq = strchr(item, '=');
	if (!eq)
		return kit_err(-EINVAL, "--map-size '%s': NAME=ENTRIES[:VALUE_SIZE]", item);
	*eq++ = '\0';
	colon = strchr(eq, ':');
	if (colon) {
		*colon++ = '\0';
		if (parse_uint(colon, 1, INT_MAX, &value_size))
			return kit_err(-EINVAL, "--map-size %s: value size '%s' is not a number",
				       item, colon);
	}
	if (!strcmp(eq, "cpus"))
		entries = t->max_cpus;
	else if (parse_uint(eq, 1, UINT_MAX, &entries))
		return kit_err(-EINVAL, "--map-size %s: '%s' is neither a number nor 'cpus'",
			       item, eq);
	map = bpf_object__find_map_by_name(obj, item);
	if (!map || bpf_map__is_internal(map))
		return kit_err(-ENOENT, "%s: --map-size: no map '%s'", path, item);
	err = bpf_map__set_max_entries(map, (__u32)entries);
	if (!err && value_size)
		err = bpf_map__set_value_size(map, (__u32)value_size);
	if (err)
		return kit_err(err, "%s: --map-size %s: libbpf refuses it", path, item);
	if (value_size)
		return add_line(t, "map %s max_entries %u value_size %lu (--map-size%s)", item,
				bpf_map__max_entries(map), value_size,
				strcmp(eq, "cpus") ? "" : " cpus");
	return add_line(t, "map %s max_entries %u (--map-size%s)", item,
			bpf_map__max_entries(map), strcmp(eq, "cpus") ? "" : " cpus");
}

static int apply_map_sizes(struct target *t, const char *path, struct bpf_object *obj)
{
	const char *s = t->map_sizes, *comma;
	int err;

	while (s && *s) {
		comma = strchrnul(s, ',');
		err = apply_map_size(t, path, obj, s, (size_t)(comma - s));
		if (err)
			return err;
		s = *comma ? comma + 1 : comma;
	}
	return 0;
}

/* libbpf's adjust_ringbuf_sz(), for the target's pages: a power-of-2 multiple */
static unsigned long ringbuf_size(unsigned long sz, unsigned long page)
{
	unsigned long mul;

	if (!sz || (sz % page == 0 && !((sz / page) & (sz / page - 1))))
		return sz;
	for (mul = 1; mul <= UINT_MAX / page; mul <<= 1)
		if (mul * page > sz)
			return mul * page;
	return sz;
}

/*
 * The max_entries the object declares for map name (its BTF definition in
 * .maps), before libbpf rounded it by this machine's pages; 0 if unknown.
 */
static unsigned long declared_max_entries(struct bpf_object *obj, const char *name)
{
	struct btf *btf = bpf_object__btf(obj);
	const struct btf_type *sec = btf_sec(btf, ".maps"), *v, *st, *pt;
	const struct btf_member *m;
	int j, k;

	for (j = 0; sec && j < btf_vlen(sec); j++) {
		v = btf_sec_var(btf, sec, j);
		if (strcmp(btf__name_by_offset(btf, v->name_off), name))
			continue;
		st = btf__type_by_id(btf, btf__resolve_type(btf, v->type));
		if (!st || !btf_is_struct(st))
			return 0;
		m = btf_members(st);
		for (k = 0; k < btf_vlen(st); k++, m++) {
			if (strcmp(btf__name_by_offset(btf, m->name_off), "max_entries"))
				continue;
			pt = btf__type_by_id(btf, m->type);
			if (!pt || !btf_is_ptr(pt))
				return 0;
			pt = btf__type_by_id(btf, pt->type);
			return pt && btf_is_array(pt) ? btf_array(pt)->nelems : 0;
		}
		return 0;
	}
	return 0;
}

/*
 * A ring buffer's size for the target's pages.  libbpf rounds it by this
 * machine's pages (at open, and again in bpf_map__set_max_entries()): the
 * same result when they are no larger than the target's; else refused
 * when they would change it.
 */
static int ringbuf_for_target(struct target *t, const char *path, struct bpf_object *obj,
			      struct bpf_map *map)
{
	unsigned long host_page = (unsigned long)sysconf(_SC_PAGE_SIZE), decl, sz;
	const char *name = bpf_map__name(map);
	int err;

	decl = declared_max_entries(obj, name);
	if (!decl && host_page > t->page_size)
		return kit_err(-EOPNOTSUPP, "%s: map '%s': no BTF definition of its size, and this machine's pages (%lu bytes) are larger than the target's (%u, %s): libbpf would size it by them",
			       path, name, host_page, t->page_size, t->page_size_from);
	if (!decl)
		decl = bpf_map__max_entries(map);	/* not rounded: pages no larger */
	sz = ringbuf_size(decl, t->page_size);
	if (ringbuf_size(sz, host_page) != sz)
		return kit_err(-EOPNOTSUPP, "%s: map '%s': %lu bytes for the target's pages (%u, %s), which this machine's pages (%lu bytes) would round up: libbpf sizes ring buffers by them; declare a multiple of %lu bytes or generate on a machine with smaller pages",
			       path, name, sz, t->page_size, t->page_size_from, host_page, host_page);
	if (sz == bpf_map__max_entries(map) && sz == decl)
		return 0;
	err = bpf_map__set_max_entries(map, (__u32)sz);
	if (err)
		return kit_err(err, "%s: map '%s': libbpf refuses max_entries %lu", path, name, sz);
	return add_line(t, "map %s max_entries %lu (ring buffer of %lu bytes: pages of %u bytes, %s)",
			name, sz, decl, t->page_size, t->page_size_from);
}

/* Map types whose max_entries must be 0: storage attached to kernel objects */
static bool sized_by_kernel(enum bpf_map_type type)
{
	switch (type) {
	case BPF_MAP_TYPE_SK_STORAGE:
	case BPF_MAP_TYPE_INODE_STORAGE:
	case BPF_MAP_TYPE_TASK_STORAGE:
	case BPF_MAP_TYPE_CGRP_STORAGE:
	case BPF_MAP_TYPE_CGROUP_STORAGE:
	case BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE:
		return true;
	default:
		return false;
	}
}

/*
 * A size a tool would set at run time and nobody gave: the kernel would
 * refuse the loader (EINVAL), so no header is written.
 */
static int check_sized(const char *path, struct bpf_map *map)
{
	const char *name = bpf_map__name(map);

	if (!bpf_map__max_entries(map) && !sized_by_kernel(bpf_map__type(map)))
		return kit_err(-EINVAL, "%s: map '%s': no max_entries, which the kernel refuses: give the target's with --map-size %s=N",
			       path, name, name);
	if (!bpf_map__value_size(map) && bpf_map__type(map) == BPF_MAP_TYPE_STACK_TRACE)
		return kit_err(-EINVAL, "%s: map '%s': no value_size, which the kernel refuses: give the target's with --map-size %s=N:VSIZE",
			       path, name, name);
	return 0;
}

static int apply_maps(struct target *t, const char *path, struct bpf_object *obj)
{
	struct bpf_map *map;
	int err;

	bpf_object__for_each_map(map, obj) {
		const char *name = bpf_map__name(map);

		switch (bpf_map__type(map)) {
		case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
			/* libbpf would size it by this machine's possible CPUs */
			if (bpf_map__max_entries(map))
				break;
			err = bpf_map__set_max_entries(map, t->max_cpus);
			if (!err)
				err = add_line(t, "map %s max_entries %u (perf event array: %s)",
					       name, t->max_cpus, t->max_cpus_from);
			if (err)
				return err;
			break;
		case BPF_MAP_TYPE_RINGBUF:
		case BPF_MAP_TYPE_USER_RINGBUF:
			err = ringbuf_for_target(t, path, obj, map);
			if (err)
				return err;
			break;
		default:
			break;
		}
		err = check_sized(path, map);
		if (err)
			return err;
	}
	return 0;
}

/* Can s[0..n) go into a C comment line as it is? */
static bool comment_safe(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f ||
		    (s[i] == '*' && i + 1 < n && s[i + 1] == '/'))
			return false;
	return true;
}

/* The __kconfig externs: from --target-config, recorded as libbpf reads them. */
static int apply_kconfig(struct target *t, const char *path, struct bpf_object *obj)
{
	struct btf *btf = bpf_object__btf(obj);
	const struct btf_type *sec = btf_sec(btf, ".kconfig"), *v;
	const char *var, *val;
	size_t vlen;
	int j, err;

	for (j = 0; sec && j < btf_vlen(sec); j++) {
		v = btf_sec_var(btf, sec, j);
		var = btf__name_by_offset(btf, v->name_off);
		if (strncmp(var, "CONFIG_", 7) && strcmp(var, "LINUX_KERNEL_VERSION")) {
			/* LINUX_HAS_*: libbpf's generation assumes the newest kernel */
			err = add_line(t, "kconfig %s (libbpf's value for a generated loader)",
				       var);
			if (err)
				return err;
			continue;
		}
		if (!t->kconfig)
			return kit_err(-EOPNOTSUPP, "%s: extern '%s': a __kconfig value of the target kernel: give its kconfig with --target-config (nothing is read from this machine's kernel)",
				       path, var);
		if (!strcmp(var, "LINUX_KERNEL_VERSION") && !t->kernel_version)
			return kit_err(-EINVAL, "%s: extern 'LINUX_KERNEL_VERSION': %s has no kernel version (no '# Linux/ARCH RELEASE Kernel Configuration' line, no LINUX_KERNEL_VERSION= line)",
				       path, t->config_path);
		val = kconfig_value(t->kconfig, var, &vlen);
		if (val && !comment_safe(val, vlen))
			return kit_err(-EINVAL, "%s: extern '%s': its value in %s has a control character or '*/', which the header's comment cannot carry",
				       path, var, t->config_path);
		if (val)
			err = add_line(t, "kconfig %s=%.*s", var, (int)vlen, val);
		else
			err = add_line(t, "kconfig %s is not set", var);
		if (err)
			return err;
	}
	return 0;
}

int target_apply(struct target *t, const char *path, struct bpf_object *obj)
{
	int err;

	err = apply_kconfig(t, path, obj);
	if (!err)
		err = apply_map_sizes(t, path, obj);
	if (!err)
		err = apply_maps(t, path, obj);
	return err;
}
