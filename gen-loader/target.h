/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a loader depends on about the kernel it will run on, given
 * explicitly at generation and never read from the machine that generates
 * it: the target's kconfig and kernel version (for __kconfig externs), its
 * most CPUs (perf event arrays without max_entries, maps sized "cpus"), its
 * page size (ring buffer sizes) and the sizes of maps a tool would set at
 * run time.  Every value used is written into the header's signed C as an
 * "@bpfsign target" line, which gen-loader verify shows.
 */
#ifndef GEN_LOADER_TARGET_H
#define GEN_LOADER_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <bpf/libbpf.h>

/* CONFIG_NR_CPUS can be at most 8192 (x86-64 MAXSMP, powerpc): the
 * default size of perf event arrays, safe for any CPU count.
 */
#define TARGET_MAX_CPUS_DEFAULT	8192u
#define TARGET_MAX_CPUS_LIMIT	(1u << 20)
/* x86-64's pages, unless the target's kconfig says CONFIG_PAGE_SHIFT */
#define TARGET_PAGE_SIZE_DEFAULT 4096u
#define TARGET_CONFIG_MAX	(4u << 20)

struct target {
	const char *config_path;	/* --target-config, or NULL */
	char *kconfig;			/* its text, then LINUX_KERNEL_VERSION= */
	unsigned int kernel_version;	/* KERNEL_VERSION(a, b, c), or 0 */
	unsigned int max_cpus;
	const char *max_cpus_from;	/* where max_cpus came from */
	unsigned int page_size;
	const char *page_size_from;
	const char *map_sizes;		/* --map-size NAME=ENTRIES[:VALUE_SIZE],... */
	char *lines;			/* the "@bpfsign target" lines, malloc()ed */
	size_t lines_len;
};

/*
 * Read the target description: config_path (may be NULL), max_cpus (the
 * --max-cpus argument, may be NULL) and map_sizes (may be NULL).
 */
int target_init(struct target *t, const char *config_path, const char *max_cpus,
		const char *map_sizes);
void target_free(struct target *t);
/*
 * Before bpf_object__load(): size the maps of obj for the target (perf
 * event arrays, ring buffers, --map-size), refuse the externs it cannot
 * resolve, and record each value used in t->lines.
 */
int target_apply(struct target *t, const char *path, struct bpf_object *obj);

#endif /* GEN_LOADER_TARGET_H */
