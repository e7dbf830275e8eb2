/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers the operation files share: fd kinds and element predictions. */
#ifndef BPFSIGN_FUZZ_OPS_H
#define BPFSIGN_FUZZ_OPS_H

#include "fuzz.h"

#define KEY_MAX 1024	/* the largest key_size the fuzzer creates, and then some */

enum fd_kind { FD_MAP, FD_BTF, FD_OTHER, FD_CLOSED };
enum fd_kind fd_classify(int fd, struct pmap **m);
/* what __bpf_map_get() returns for a fd that is not a map */
int fd_map_err(enum fd_kind k);
struct pmap *pick_map(bool (*filter)(const struct pmap *));
struct pmap *pick_map_for(u64 flags, bool write);
bool not_exclusive(const struct pmap *m);
const char *map_str(const struct mobj *o);
const char *map_type_name(u32 type);

u64 gen_elem_flags(bool update);
void gen_key(const struct mobj *o, u8 *key);
int cpu_flags_err(const struct mobj *o, u64 flags, bool update);
struct expect predict_update(const struct pmap *m, const u8 *key, u64 flags);
void apply_update(struct mobj *o, const u8 *key, const u8 *val, u64 flags);
struct expect predict_lookup(const struct pmap *m, const u8 *key, u64 flags);
struct expect predict_delete(const struct pmap *m, const u8 *key);
struct expect predict_freeze(const struct pmap *m);
void check_value(struct mobj *o, const u8 *key, u64 flags, const u8 *got, const char *what);
long map_create_raw(u32 type, u32 ks, u32 vs, u32 n, u32 flags, int hash_mode,
		    const u8 *hash, const char *op);
void pick_meta(u32 *vs, u64 *pat);
struct expect predict_create_small(u32 type, u32 ks, u32 vs, u32 n, u32 flags, int hash_mode);
struct pmap *map_by_id(u32 id);
void add_fd_by_id(long fd, u32 id, u32 open_flags);
__u32 obj_id(int fd);
__u32 obj_prog_id(int fd);

/* iter.c: what an iterator over a map must do */
struct expect predict_iter_attach(int prog_fd, int map_fd);
bool iter_ok(void);
bool iter_setup(void);		/* the skeletons, loaded once */
void iter_teardown(void);
bool arena_setup(void);
void arena_teardown(void);
void iter_run_link(int link_fd, struct mobj *o, int prog_fd);

#endif
