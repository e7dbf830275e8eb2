/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bpfsign-fuzz: a seeded sequence of bpf() and keyctl() calls against the
 * signed-load surface of the kit's kernel, with a model of what each call
 * must do.  One process; a second thread (race.c) races the main one in
 * episodes of its own, from its own stream of the seed: the same seed gives
 * each thread the same calls.
 */
#ifndef BPFSIGN_FUZZ_H
#define BPFSIGN_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/bpf.h>

typedef uint8_t u8;
typedef uint32_t u32;
typedef int32_t s32;
typedef uint64_t u64;
typedef int64_t s64;

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#ifndef offsetofend
#define offsetofend(T, m)	(offsetof(T, m) + sizeof(((T *)0)->m))
#endif
/* the kernel's internal "operation not supported", as bpf() returns it */
#ifndef ENOTSUPP
#define ENOTSUPP 524
#endif

/* ---- rng.c: splitmix64, the only source of choices ---- */
u64 rnd(void);
void rnd_seed(u64 seed);
u32 rnd_below(u32 n);				/* [0, n) */
bool rnd_chance(u32 num, u32 den);		/* num/den */
/* an index into weights[n] drawn by weight */
int rnd_weighted(const u32 *weights, int n);
void rnd_bytes(void *buf, size_t len);

/* ---- model.c: what the fuzzer knows of each map ---- */
#define MAX_ELEMS	16	/* elements tracked per map; more: model unknown */
#define MAX_CPUS	8

struct elem {
	u8 key[8];
	u8 *val;		/* ncpu copies of elem_size bytes */
};

struct mobj {
	int refs;		/* pool fds, programs and links that hold it */
	u32 type, key_size, value_size, max_entries, flags, id;
	bool excl;
	u8 excl_hash[32];
	bool frozen;
	bool known;		/* the model below is exact */
	int nelem;
	struct elem elem[MAX_ELEMS];
	int rw_maps;		/* writable mmaps outstanding */
	bool foreign;		/* made by a loader with attributes we only partly know */
};

u32 elem_size(const struct mobj *o);	/* bytes per CPU copy */
u32 model_ncpu(const struct mobj *o);	/* copies per element */
bool is_percpu(u32 type);
bool is_hash(u32 type);
bool is_array(u32 type);
struct mobj *mobj_new(u32 type, u32 key_size, u32 value_size, u32 max_entries, u32 flags);
void mobj_get(struct mobj *o);
void mobj_put(struct mobj *o);
void model_forget(struct mobj *o);	/* contents no longer known */
/* element of key, or NULL (arrays: NULL means all zero) */
struct elem *model_find(struct mobj *o, const void *key);
/* the model's value of key in buf (ncpu * elem_size): false if absent */
bool model_value(struct mobj *o, const void *key, u8 *buf);
/* set key's value for one CPU (cpu >= 0), every CPU from one value (cpu ==
 * -1, all == true), or from ncpu values (cpu == -1, all == false); returns
 * false if the model lost track
 */
bool model_set(struct mobj *o, const void *key, const u8 *val, int cpu, bool all);
void model_delete(struct mobj *o, const void *key);
/* pattern p as a value of len bytes: 0 is all zero */
void pattern_fill(u8 *buf, size_t len, u64 p);
u64 pattern_pick(void);
/* bytes of the single element of a one-element array, value_size of them */
const u8 *model_single_value(struct mobj *o);
/* SHA-256 of an array's value area (elem_size * max_entries) */
bool model_array_hash(struct mobj *o, u8 out[32]);
size_t model_bytes(void);

/* ---- pool.c: open fds and what they are ---- */
enum prog_kind { PK_FILTER, PK_LOADER, PK_CHILD, PK_OTHER };
enum verdict_class { VC_UNSIGNED, VC_TRUSTED, VC_USER };

#define MAX_MAPS	32
#define MAX_PROGS	24
#define MAX_LINKS	8
#define MAX_BTFS	4
#define MAX_OTHER	16
#define MAX_MAPPINGS	6

struct pmap { int fd; struct mobj *o; bool rd, wr; };
struct pprog {
	int fd;
	int tmpl;		/* templates.c index, -1 if not one of ours */
	enum prog_kind kind;
	enum verdict_class vc;
	struct mobj *ref[4];	/* the maps its instructions read, by ref */
	int nref;
};
struct plink { int fd; struct mobj *o; int prog_fd; };
struct mapping { void *addr; size_t len; bool rw; struct mobj *o; };

struct pool {
	struct pmap maps[MAX_MAPS]; int nmaps;
	struct pprog progs[MAX_PROGS]; int nprogs;
	struct plink links[MAX_LINKS]; int nlinks;
	int btfs[MAX_BTFS]; int nbtfs;
	int other[MAX_OTHER]; int nother;	/* fds we got and only close */
	struct mapping mappings[MAX_MAPPINGS]; int nmappings;
	int devnull, pipe_rd;			/* non-bpf fds, kept */
};
extern struct pool pool;

struct pmap *pool_add_map(int fd, struct mobj *o, bool rd, bool wr);
struct pprog *pool_add_prog(int fd, int tmpl, enum prog_kind kind, enum verdict_class vc);
void pool_add_link(int fd, struct mobj *o, int prog_fd);
void pool_add_btf(int fd);
void pool_add_other(int fd);
void pool_close_map(int i);
void pool_close_prog(int i);
void pool_close_all(void);
struct pmap *pool_map_of_fd(int fd);
struct mobj *pool_mobj_of_fd(int fd);
bool pool_fd_is_prog(int fd);
bool pool_fd_is_btf(int fd);
/* a fd that is certainly closed */
int closed_fd(void);
/* a random fd of any kind (map, prog, btf, link, non-bpf, closed) */
int random_fd(void);

/* ---- counts.c: objects and keys that must come back to their count ---- */
struct counts { int progs, maps, btfs, links, keys; };
void counts_take(struct counts *c);
/* slot 0: before the setup, slot 1: after it */
void key_usage_snapshot(int slot);
/* wait for the kernel to free what we closed: NULL or what differs from
 * want and key usage snapshot slot
 */
const char *counts_settle(const struct counts *want, int extra_keys, int slot);
/* until the counts and key usages hold still */
void counts_quiet(void);

/* ---- stats.c: calls and errnos per operation ---- */
struct opstat;
struct opstat *stat_of(const char *name);
void stat_add(struct opstat *s, int err);	/* err 0: success */
void stat_note(const char *what);		/* a named counter */
void stats_print(void);
void stats_summary(void);	/* exact checks and escapes */
void stat_time(const char *what, double seconds);	/* where the time goes */
double now(void);

/* ---- sign.c (fuzz): keys, cached CMS signatures, offline verification ---- */
enum key_id { K_SIGNING, K_SIGNING_EC, K_TEAM, K_UNTRUSTED, K_REVOKED, K_CA, NKEYS };
extern const char *const key_names[NKEYS];
bool keys_load(void);
/* a detached CMS signature of data by key k (cached); length or -1 */
int sig_make(int k, const void *data, size_t len, bool attrs, const u8 **sig);
/* does OpenSSL accept sig over data from key k's certificate? */
bool sig_valid_offline(int k, const void *data, size_t len, const u8 *sig, size_t sig_len);
int cert_of(int k, const u8 **der);

/* ---- templates.c: the programs the fuzzer loads ---- */
#define NT_FILTER	16
#define T_LOADER0	NT_FILTER
#define T_LOADER1	(NT_FILTER + 1)
#define T_FIXTURE	(NT_FILTER + 2)
#define NTEMPL		(NT_FILTER + 3)
#define MAX_INSNS	96

struct tmpl {
	struct bpf_insn insns[MAX_INSNS];
	int cnt;
	u32 prog_type, prog_flags;
	int nref;		/* map values read: raw ref first, then fd_array 0.. */
	u32 off[3];		/* offset read in each */
	int width;		/* bytes read at each offset: 1, or 4 (fixture) */
	bool raw0;		/* ref 0 by raw map fd (BPF_PSEUDO_MAP_VALUE) */
	u32 nonce;
	u8 digest[32];
};
extern struct tmpl tmpls[NTEMPL];
void templates_init(void);
/* instructions of template t, with raw_fd in its raw reference */
int tmpl_insns(int t, int raw_fd, struct bpf_insn *out);
bool tmpl_is_loader(int t);
/* what a filter template returns when it read reads[j] from ref j */
u32 tmpl_retval(int t, const u32 *reads);
/* the fd_array index of ref j, or -1 for the raw map fd */
int tmpl_ref_idx(int t, int j);

/* the loader templates' context (BPF_PROG_TYPE_SYSCALL) */
struct loader_ctx {
	u32 cmd;
	u32 size;		/* attr size - 1, & 255 */
	u32 patch;		/* 1: attr+8 = &bufa, 2: attr+16 = &bufb, 4: insn_cnt &= 7 */
	s32 ret;		/* what bpf_sys_bpf() returned */
	u8 attr[256];
	u8 bufa[64];
	u8 bufb[160];
};

/* ---- the run: state shared by the operations ---- */
struct keyent { s32 serial; int k; bool revoked; int ring; };	/* ring 0: session, 1: sub */
#define MAX_KEYS 16

struct state {
	u64 seed;
	u64 op;			/* index of the current operation */
	bool verbose;
	bool policy;		/* --policy: policy_setup() after the skeletons */
	int ncpus;
	bool enforce;		/* the sysctl as last read */
	bool enforce_at_boot;
	bool keyring_unsealed;	/* bpf.keyring_unsealed=1 */
	/* keys */
	s32 session, subring;	/* serials; subring 0 when absent */
	s32 builtin_ring, secondary_ring, blacklist_ring, bpf_ring;
	struct keyent keys[MAX_KEYS]; int nkeys;
	bool secondary_has[NKEYS];
	s32 secondary_serial[NKEYS];
	bool bpf_sealed;
	bool bpf_has[NKEYS];
	int bpf_nkeys;
	u32 bpf_perm_write_ok;	/* model of .bpf's permissions */
	int permanent_keys;	/* keys that stay for the boot (.bpf) */
	/* the description of the current operation, for -v and violations */
	char desc[512];
	/* skeleton objects, loaded once */
	int iter_rewrite_fd, iter_peek_fd;
	int arena_fd;
	bool arena_page[6];
	u8 *arena_mem;		/* model of the 4 arena pages */
	/* the loader whose run is under way: its children's provenance */
	u32 run_loader_id;
	bool run_loader_verified;
	u32 blacklisted_len;
	u8 blacklisted_hash[32];
};
extern struct state st;

/* operation bookkeeping: describe, then check */
void op_desc(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void violation(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void vlog_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * What a call must do.  EXPECT_OK and EXPECT_FAIL with an errno are exact
 * checks; EXPECT_ESCAPE (any outcome) and EXPECT_FAIL(0, ...) (any errno)
 * are escapes where the model cannot know, each named by its reason and
 * counted: the summary says how much of a run was unchecked.
 */
enum exp_kind { EXP_ANY, EXP_OK, EXP_FAIL };
struct expect { enum exp_kind kind; int err; const char *why; };
#define EXPECT_ESCAPE(w)	((struct expect){ EXP_ANY, 0, (w) })
#define EXPECT_OK(w)		((struct expect){ EXP_OK, 0, (w) })
#define EXPECT_FAIL(e, w)	((struct expect){ EXP_FAIL, (e), (w) })
/* compare: ret >= 0 success, else -errno; a mismatch is a violation */
void expect_check(const char *op, struct expect e, long ret);
/* exact checks and escapes, by kind, for the summary */
void stat_check(const struct expect *e);

/* sys.c: the raw system calls */
long sys_bpf(int cmd, union bpf_attr *attr, u32 size);	/* fd/0 or -errno */
bool enforce_read(void);
extern char vlog[65536];	/* util.c */
void prog_digest(const struct bpf_insn *insns, size_t cnt, unsigned char out[32]);
int sysctl_write(const char *path, const char *val, char *old, size_t old_sz);

/* the operations */
void op_map_create(void);
void op_meta_map(void);
int meta_map_for(int t, u32 value_size, u64 pat);	/* fd or -errno */
void op_map_update(void);
void op_map_lookup(void);
void op_map_delete(void);
void op_map_batch(void);
void op_map_freeze(void);
void op_map_get_fd_by_id(void);
void op_map_mmap(void);
void op_map_mmap_write(void);
void op_map_munmap(void);
void op_map_hash_info(void);
void op_prog_load_signed(void);
void op_prog_load_unsigned(void);
void op_loader_load(void);
void op_prog_run(void);
void op_loader_run(void);
void op_iter(void);
void op_arena(void);
void op_btf_load(void);
void op_close_one(void);
void op_key_session(void);
void op_key_bpf(void);
void op_key_secondary(void);
void op_sysctl(void);
void ops_setup(void);		/* skeletons, keyrings */
void ops_teardown(void);
void keys_early(void);		/* before the first count */
void keys_setup(void);
void keys_reset(void);		/* undo the key operations */
void keys_teardown(void);
void sysctl_plan(void);		/* when the seed raises enforcement */
bool sysctl_may_raise(void);
void sysctl_raised(void);	/* a write of 1 succeeded */
/* race.c: the second thread, and the kernel log */
void op_race(void);
void race_start(void);
void race_stop(void);
void kmsg_open(void);
void kmsg_check(const char *when);	/* a KASAN, lockdep, UBSAN or WARNING report fails */
void race_stats(void);
/* policy.c: --policy, the LSM policies attached, and provenance */
bool policy_mode(void);
bool policy_denies_unsigned(void);
bool policy_denies(enum verdict_class vc);	/* of a load or a loader's child */
void policy_setup(void);
void policy_teardown(void);
void policy_abort(void);	/* on a violation: unload what policy_setup() loaded */
void prov_expect(int fd, u32 loader_id, bool loader_verified);
void policy_drain(bool all);
void policy_stats(void);
void check_run(struct pprog *p, u32 size, const char *op);
/* what keyring_id k trusts for key k: 0 no, 1 verifies, -errno refused */
struct ring_model {
	bool system;		/* counts under enforcement */
	int lookup_err;		/* refused before verification */
	u32 present;		/* keys found by SKID (bit per key) */
	u32 revoked_only;	/* not found, and a revoked key was in the way */
};
struct ring_model ring_model(s32 keyring_id);
s32 pick_keyring(void);
/* the percpu map value size for flags */
u32 value_bytes(const struct mobj *o, u64 flags);

#endif
