/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A BPF object turned into a loader program and its metadata by the patched
 * libbpf's loader generation (bpf_object__gen_loader()): nothing is loaded,
 * no bpf() syscall is made.
 */
#ifndef GEN_LOADER_LOADER_H
#define GEN_LOADER_LOADER_H

#include <stddef.h>
#include <bpf/libbpf.h>

#include "target.h"

#define NAME_MAX_LEN 64

/* What the kernel and libbpf's loader generation allow a loader */
#define LOADER_MAX_MAPS		64		/* libbpf gen_loader.c MAX_USED_MAPS */
#define LOADER_MAX_INSNS	1000000u	/* BPF_COMPLEXITY_LIMIT_INSNS */
#define LOADER_MAX_SIGNED	(16u << 20)	/* the kernel's bound on signed bytes */

struct loader {
	char name[NAME_MAX_LEN];	/* C identifier: struct NAME, NAME__load() */
	struct bpf_object *obj;		/* after bpf_object__load() in gen mode */
	const void *insns;		/* the loader instructions (owned by obj) */
	size_t insns_sz;
	const void *data;		/* the metadata blob (owned by obj) */
	size_t data_sz;
	const char *target_lines;	/* what it depends on of the target (t->lines) */
};

/*
 * Generate the loader of the object file path.  name: the skeleton name, or
 * NULL for the file's name without ".bpf.o"/".o".  btf: the target kernel's
 * vmlinux (BTF), so that nothing is read from the running kernel.  t: the
 * target's values (target.h); l->target_lines points into it.  Refuses,
 * naming the limit, a loader the kernel would not load.
 */
int loader_gen(const char *path, const char *name, const char *btf, struct target *t,
	       struct loader *l);
void loader_free(struct loader *l);

/* The last warning libbpf printed ("" if none), without its newline. */
const char *gl_libbpf_warning(void);
/* Route libbpf's messages: warnings are kept for the error, and printed with
 * debug output too when verbose.
 */
void gl_libbpf_print_init(int verbose);

#endif /* GEN_LOADER_LOADER_H */
