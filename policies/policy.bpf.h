/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The maps and helpers every policy has: "events", a ring buffer of its
 * decisions that `bpfsign-policy log` prints and consumes, "tally", the
 * records the ring buffer had no room for, counted per caller and reason,
 * and "stats", its counters.  The CLI freezes stats and tally before it
 * attaches the policy: no bpf(2) command can write or delete them.  No
 * other program can either: "guard" (lsm/bpf_prog, below) refuses an fd to
 * any program that could reach one of the policy's maps but is not one of
 * the policy's own ("owner").  Included once by each policies/ *.bpf.c,
 * after vmlinux.h; each defines own_map() and own_map_fits() over its maps
 * and the guard program (guard_prog()).
 */
#ifndef BPFSIGN_POLICY_BPF_H
#define BPFSIGN_POLICY_BPF_H

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "policy.h"

#define EPERM 1
#define EAGAIN 11
#define EACCES 13

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, BPFSIGN_EVENTS_SIZE);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BPFSIGN_STAT_MAX);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

/* Not LRU: a flood must not evict the entries of earlier callers; when
 * it is full, the record is counted in stats[lost] only.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFSIGN_MAX_TALLIES);
	__type(key, struct bpfsign_tally_key);
	__type(value, struct bpfsign_tally);
} tally SEC(".maps");

/* When tally is full (a flood from many uids, or of many reasons): a
 * count per (decision, stage, prog_type), uid BPFSIGN_ANY_UID.  Every such
 * key has room, so a later denial is still counted under its reason.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFSIGN_MAX_TALLY_ANY);
	__type(key, struct bpfsign_tally_key);
	__type(value, struct bpfsign_tally);
} tally_any SEC(".maps");

/* The ids of this policy's programs: see struct bpfsign_owner */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_RDONLY_PROG);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfsign_owner);
} owner SEC(".maps");

static __always_inline void count(__u32 stat)
{
	__u64 *n = bpf_map_lookup_elem(&stats, &stat);

	if (n)
		__sync_fetch_and_add(n, 1);
}

/* The fields of a record that depend only on the program and the caller;
 * prog is read with bpf_core_read() as fexit/bpf_check has no typed pointer.
 */
static __always_inline void event_fill(struct bpfsign_event *e, struct bpf_prog *prog,
				       union bpf_attr *attr, __u8 policy)
{
	struct bpf_prog_aux *aux = BPF_CORE_READ(prog, aux);

	e->boot_ns = bpf_ktime_get_boot_ns();
	e->pid = bpf_get_current_pid_tgid() >> 32;
	e->uid = (__u32)bpf_get_current_uid_gid();
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_core_read(e->digest, sizeof(e->digest), &prog->digest);
	e->prog_type = BPF_CORE_READ(prog, type);
	/* upstream's names: the anonymous struct sig of bpf_prog_aux */
	e->verdict = BPF_CORE_READ(aux, sig.verdict);
	e->keyring = BPF_CORE_READ(aux, sig.keyring_type);
	e->serial = BPF_CORE_READ(aux, sig.keyring_serial);
	e->loader_id = BPF_CORE_READ(aux, loader_id);
	e->loader_verdict = BPF_CORE_READ(aux, loader_verdict);
	e->loader_keyring = BPF_CORE_READ(aux, loader_keyring_type);
	e->keyring_id = BPF_CORE_READ(attr, keyring_id);
	e->signed_load = BPF_CORE_READ(attr, signature) != 0;
	e->policy = policy;
}

/*
 * Add one to key's entry of map (tally or tally_any), creating it if need
 * be: 0, or -1 if the map is full.  Two CPUs may both miss the lookup; the
 * one whose BPF_NOEXIST insert loses adds to the winner's entry.  Counts
 * are atomic; the last_* fields are informative and may mix two concurrent
 * callers.
 */
static __always_inline int tally_one(void *map, struct bpfsign_tally_key *key, __u32 pid,
				     __u64 now)
{
	struct bpfsign_tally *t, init = {
		.count = 1, .first_ns = now, .last_ns = now, .first_pid = pid, .last_pid = pid,
	};

	t = bpf_map_lookup_elem(map, key);
	if (!t) {
		bpf_get_current_comm(init.last_comm, sizeof(init.last_comm));
		if (!bpf_map_update_elem(map, key, &init, BPF_NOEXIST))
			return 0;
		t = bpf_map_lookup_elem(map, key);
		if (!t)
			return -1;
	}
	__sync_fetch_and_add(&t->count, 1);
	t->last_ns = now;
	t->last_pid = pid;
	bpf_get_current_comm(t->last_comm, sizeof(t->last_comm));
	return 0;
}

/* The ring buffer is full: count the record under (uid, reason), else
 * (tally full) under its reason alone in tally_any.
 */
static __always_inline void tally_add(struct bpf_prog *prog, bool kernel, __u8 policy,
				      __u8 decision, __u8 stage, int err)
{
	struct bpf_prog_aux *aux = BPF_CORE_READ(prog, aux);
	struct bpfsign_tally_key key = {
		.uid = (__u32)bpf_get_current_uid_gid(),
		.prog_type = BPF_CORE_READ(prog, type),
		.err = err,
		.policy = policy,
		.decision = decision,
		.stage = stage,
		.verdict = BPF_CORE_READ(aux, sig.verdict),
		.keyring = BPF_CORE_READ(aux, sig.keyring_type),
		.kernel = kernel,
	};
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	__u64 now = bpf_ktime_get_boot_ns();
	struct bpfsign_tally_key any = {
		.uid = BPFSIGN_ANY_UID,
		.prog_type = key.prog_type,
		.policy = policy,
		.decision = decision,
		.stage = stage,
	};

	if (BPF_CORE_READ(aux, loader_id)) {
		key.loader = 1;
		key.loader_verdict = BPF_CORE_READ(aux, loader_verdict);
	}
	if (!tally_one(&tally, &key, pid, now) || !tally_one(&tally_any, &any, pid, now))
		count(BPFSIGN_STAT_TALLIED);
	else
		count(BPFSIGN_STAT_LOST);
}

/* Count the decision and log it: into the ring buffer, else the tally. */
static __always_inline void record(struct bpf_prog *prog, union bpf_attr *attr, bool kernel,
				   __u8 policy, __u8 decision, __u8 stage, int err)
{
	__u32 ringed = BPFSIGN_STAT_RINGED;
	struct bpfsign_event *e;
	__u64 *n;

	count(decision);
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		tally_add(prog, kernel, policy, decision, stage, err);
		return;
	}
	/* numbered in the order the records got their seq, which two CPUs
	 * may swap against the ring order: log allows for it
	 */
	n = bpf_map_lookup_elem(&stats, &ringed);
	e->seq = n ? __sync_fetch_and_add(n, 1) + 1 : 0;
	event_fill(e, prog, attr, policy);
	e->kernel = kernel;
	e->decision = decision;
	e->stage = stage;
	e->err = err;
	bpf_ringbuf_submit(e, 0);
}

/* Loaded by a loader program (bpf_sys_bpf) whose own verdict was VERIFIED,
 * against any keyring: aux->loader_keyring_type says which (its type, not
 * its serial), for a policy that trusts some keyrings only.
 */
static __always_inline bool verified_loader(struct bpf_prog_aux *aux)
{
	return aux->loader_id && aux->loader_verdict == BPF_SIG_VERIFIED;
}

/*
 * A load the kernel made itself (CONFIG_BPF_PRELOAD's light skeleton, a
 * module's): the hook's bool kernel, and no loader program.  kernel alone
 * is also true for the children of any syscall program, signed or not, so
 * it is never trusted on its own; bpf_sig_enforce admits the same loads.
 */
static __always_inline bool kernel_own_load(bool kernel, struct bpf_prog_aux *aux)
{
	return kernel && !aux->loader_id;
}

/*
 * Would the program being loaded attach to a function one of the kit's
 * policies attaches to (BPFSIGN_POLICY_HOOKS, policy.h)?  At
 * security_bpf_prog_load() the verifier has not yet resolved the target
 * (aux->attach_func_name is set later, by check_attach_btf_id()), so the
 * name is read where the kernel will read it: the BTF type attach_btf_id
 * of attach_btf, walking down to the base BTF as btf_type_by_id() and
 * btf_name_by_offset() do (a module's split BTF can name a vmlinux id).
 * Whatever the program type: fentry, fexit, fmod_ret, LSM (BPF_LSM_MAC and
 * BPF_LSM_CGROUP's shim) all take a slot of the function's trampoline.
 * A tracing program cannot be linked later to another kernel function than
 * the one it was loaded for (bpf_tracing_prog_attach() re-targets only to
 * a BPF program), and a program whose target is a BPF program (dst_prog:
 * freplace, fentry on a program) uses that program's trampoline, which the
 * guard keeps from the policy's own programs.
 */
#define HOOK_NAME_LEN	32	/* the longest name in BPFSIGN_POLICY_HOOKS fits */

static __always_inline bool hook_name_is(const char *name, long len, const char *want,
					 __u32 want_len)
{
	__u32 i;

	if (len != want_len)
		return false;
	/* unrolled: want[i] is a constant, no .rodata */
#pragma unroll
	for (i = 0; i < HOOK_NAME_LEN; i++) {
		if (i >= want_len)
			break;
		if (name[i] != want[i])
			return false;
	}
	return true;
}

#define HOOK_IS(fn)	|| hook_name_is(name, len, #fn, sizeof(#fn))

static __always_inline bool policy_hook_target(struct bpf_prog_aux *aux)
{
	struct btf *btf = BPF_CORE_READ(aux, attach_btf);
	__u32 id = BPF_CORE_READ(aux, attach_btf_id), off, i;
	char name[HOOK_NAME_LEN] = {};
	const char *strs;
	struct btf_type **types, *t = NULL;
	long len;

	if (!btf || !id || BPF_CORE_READ(aux, dst_prog))
		return false;
	/* split BTF is one level deep (a module's over vmlinux) */
	for (i = 0; i < 2 && btf && id < BPF_CORE_READ(btf, start_id); i++)
		btf = BPF_CORE_READ(btf, base_btf);
	if (!btf)
		return false;
	id -= BPF_CORE_READ(btf, start_id);
	if (id >= BPF_CORE_READ(btf, nr_types))
		return false;
	types = BPF_CORE_READ(btf, types);
	bpf_core_read(&t, sizeof(t), types + id);
	if (!t)
		return false;
	off = BPF_CORE_READ(t, name_off);
	for (i = 0; i < 2 && btf && off < BPF_CORE_READ(btf, start_str_off); i++)
		btf = BPF_CORE_READ(btf, base_btf);
	if (!btf)
		return false;
	off -= BPF_CORE_READ(btf, start_str_off);
	strs = BPF_CORE_READ(btf, strings);
	len = bpf_probe_read_kernel_str(name, sizeof(name), strs + off);
	return false BPFSIGN_POLICY_HOOKS(HOOK_IS);
}

/*
 * Who may install MAC policy: a program that decides for the kernel what
 * an access check returns is MAC administration, as loading an LSM's
 * policy (AppArmor, SELinux, Smack) is, and asks what those ask,
 * CAP_MAC_ADMIN in the initial user namespace.  The kernel asks only
 * CAP_BPF + CAP_PERFMON (or a token) for it, and a signature says which
 * bytes may run, not who may install them: the kit's own signed
 * keyring-allowlist, loaded unconfigured and linked by such a caller,
 * refuses every load on the machine.  Installs MAC policy:
 *   - BPF_PROG_TYPE_LSM (lsm/ and lsm_cgroup/),
 *   - fmod_ret (BPF_PROG_TYPE_TRACING, BPF_MODIFY_RETURN): it sets what a
 *     security_*() or error-injectable function returns, an LSM in all
 *     but name,
 *   - any program whose target is one of the policies' functions
 *     (policy_hook_target()): it takes a slot of their trampolines.
 * Checked at security_bpf_prog_load(), so against the creds of the task
 * in bpf(2): a VERIFIED loader's children are loaded with its caller's.
 */
#define CAP_MAC_ADMIN	33	/* include/uapi/linux/capability.h */

/* hook: policy_hook_target(prog->aux), which the caller has computed */
static __always_inline bool installs_mac_policy(struct bpf_prog *prog, bool hook)
{
	enum bpf_prog_type type = prog->type;

	if (type == BPF_PROG_TYPE_LSM)
		return true;
	if (type == BPF_PROG_TYPE_TRACING && prog->expected_attach_type == BPF_MODIFY_RETURN)
		return true;
	return hook;
}

/*
 * CAP_MAC_ADMIN in the caller's effective set, and the caller's creds are
 * of the initial user namespace: a namespace's root (a token holder) has
 * every capability in its own namespace and never this one.  As
 * capable(CAP_MAC_ADMIN) decides, but without its audit record and
 * without asking the other LSMs (a BPF program cannot call it).  The
 * initial namespace is the one of level 0: every other has its parent's
 * level + 1 (create_user_ns()).  Not &init_user_ns: pahole puts no
 * global variable but per-CPU ones in vmlinux BTF, so a typed __ksym of
 * it does not resolve and the skeleton would not load (ENOENT).
 */
static __always_inline bool caller_mac_admin(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	const struct cred *cred = BPF_CORE_READ(task, cred);
	struct user_namespace *ns = BPF_CORE_READ(cred, user_ns);
	__u64 caps = BPF_CORE_READ(cred, cap_effective.val);

	/* a failed read is 0: fail closed on the namespace's pointer */
	return ns && BPF_CORE_READ(ns, level) == 0 && ((caps >> CAP_MAC_ADMIN) & 1);
}

/*
 * The rules both decision policies apply before their own, for a load
 * that is not the kernel's own: the stage that refuses it, or
 * BPFSIGN_STAGE_LSM if neither does.  signed: VERIFIED, or a VERIFIED
 * loader's child.
 *   hook       not signed, and its target is a policy's function: refused
 *              to root too (policy_hook_target())
 *   mac-admin  it installs MAC policy and the caller lacks CAP_MAC_ADMIN
 *              in the initial user namespace, signed or not
 */
static __always_inline __u8 mac_policy_stage(struct bpf_prog *prog, bool signed_load)
{
	bool hook = policy_hook_target(prog->aux);

	if (hook && !signed_load)
		return BPFSIGN_STAGE_HOOK;
	if (installs_mac_policy(prog, hook) && !caller_mac_admin())
		return BPFSIGN_STAGE_MAC_ADMIN;
	return BPFSIGN_STAGE_LSM;
}

/*
 * The guard: which programs may reach the policy's maps.
 *
 * Every write to a map is a bpf(2) command on an fd (frozen: refused) or a
 * program's: an instruction that names the map (its fd by id, a pin, a
 * loader's child: prog->aux->used_maps), a map-in-map whose template the
 * map fits (the inner map is inserted later, whenever its holder likes),
 * or a bpf_map_elem iterator that writes values (the map is given when the
 * link is made, after the load).  A program is only usable through an fd,
 * and every program fd is made by bpf_prog_new_fd() or a bpffs open, both
 * of which call security_bpf_prog(): there, with the program verified and
 * its maps known, the guard refuses (-EACCES) every program that is not
 * one of the policy's own ("owner") and that
 *   - uses one of the policy's maps,
 *   - uses a map-in-map whose inner template one of them fits,
 *   - is an iterator that writes values (any map: the one it will be
 *     attached to is not known yet), or
 *   - replaces or traces one of the policy's programs (freplace, fentry).
 * A refused load ends there: the program is freed without ever having an
 * fd.  Programs loaded before the policy was attached are not re-checked
 * (policies/README.md).  Exclusive maps (excl_prog_hash) would do it in
 * the kernel, but the kernel refuses them to programs with CO-RE
 * relocations, which every policy program has, and bind a map to a
 * digest, which a copy of the program's instructions matches.
 */
#define GUARD_MAX_MAPS	64	/* MAX_USED_MAPS */

/* the fields of a map-in-map template that bpf_map_meta_equal() compares */
struct guard_template {
	__u32 type, key_size, value_size, flags;
};

static __always_inline bool own_map(__u64 map);
static __always_inline bool own_map_fits(const struct guard_template *t);

/* a map of the policy: its address, as the used_maps of a program hold it */
#define GUARD_IS(map)	|| m == (__u64)(long)&map
/* a template that map would fit (the inner map's max_entries is not compared) */
#define GUARD_FITS(map)	|| guard_fits(t, (struct bpf_map *)&map)

static __always_inline bool guard_fits(const struct guard_template *t, struct bpf_map *mine)
{
	return t->type == mine->map_type && t->key_size == mine->key_size &&
	       t->value_size == mine->value_size && t->flags == mine->map_flags;
}

static __always_inline bool own_prog(__u32 id)
{
	struct bpfsign_owner *o;
	__u32 zero = 0, i;

	o = bpf_map_lookup_elem(&owner, &zero);
	if (!o || !id)
		return false;
	for (i = 0; i < BPFSIGN_MAX_OWN_PROGS; i++)
		if (o->prog_ids[i] == id)
			return true;
	return false;
}

/*
 * 0, or -EACCES for a program the policy's maps must not meet; in a
 * permissive policy, 0 and a would-deny record.
 *
 * aux->used_maps is read without aux->used_maps_mutex, which a BPF LSM
 * program cannot take.  The array changes only through BPF_PROG_BIND_MAP,
 * which under the mutex allocates a copy one longer, increments
 * used_map_cnt, publishes the copy and kfree()s the old array at once (no
 * RCU grace period): a guard that read the old pointer can read freed
 * memory.  The reads are bpf_probe_read_kernel(), which never faults, so
 * the cost is a wrong answer at worst, and only for a program someone
 * already holds an fd of (BIND_MAP takes one, and the guard is what hands
 * out fds: a program loaded while the policy is attached and refused has
 * never had one).  The entries the program's instructions use are the
 * first ones of every copy.  All the same the guard fails closed on a
 * concurrent bind: used_map_cnt only grows, is written before the new
 * pointer and before the kfree() (a call, so the compiler keeps the
 * stores before it, and x86 makes stores visible in order and does not
 * reorder loads), so a scan that read freed memory sees the count or the
 * pointer changed when it reads them again, and the fd is refused
 * (-EAGAIN, recorded; the caller can retry).
 */
static __always_inline int guard_prog(struct bpf_prog *prog, __u8 policy, bool permissive)
{
	struct bpf_prog_aux *aux = prog->aux;
	struct bpf_map **maps;
	struct guard_template t;
	__u64 m, meta;
	__u32 i, cnt;
	bool refuse = false;
	int err = -EACCES;

	if (own_prog(BPF_CORE_READ(aux, id)))
		return 0;
	cnt = BPF_CORE_READ(aux, used_map_cnt);
	maps = BPF_CORE_READ(aux, used_maps);
	for (i = 0; i < GUARD_MAX_MAPS && i < cnt && !refuse; i++) {
		m = 0;
		meta = 0;
		bpf_core_read(&m, sizeof(m), &maps[i]);
		if (!m)
			break;
		if (own_map(m)) {
			refuse = true;
			break;
		}
		bpf_core_read(&meta, sizeof(meta), &((struct bpf_map *)m)->inner_map_meta);
		if (!meta)
			continue;
		t.type = BPF_CORE_READ((struct bpf_map *)meta, map_type);
		t.key_size = BPF_CORE_READ((struct bpf_map *)meta, key_size);
		t.value_size = BPF_CORE_READ((struct bpf_map *)meta, value_size);
		t.flags = BPF_CORE_READ((struct bpf_map *)meta, map_flags);
		refuse = own_map_fits(&t);
	}
	if (!refuse && (BPF_CORE_READ(aux, used_map_cnt) != cnt ||
			BPF_CORE_READ(aux, used_maps) != maps)) {
		refuse = true;	/* a BPF_PROG_BIND_MAP ran during the scan */
		err = -EAGAIN;
	}
	if (!refuse && BPF_CORE_READ(prog, expected_attach_type) == BPF_TRACE_ITER &&
	    BPF_CORE_READ(aux, max_rdwr_access))
		refuse = true;
	if (!refuse && BPF_CORE_READ(aux, dst_prog) &&
	    own_prog(BPF_CORE_READ(aux, dst_prog, aux, id)))
		refuse = true;
	if (!refuse)
		return 0;
	if (permissive) {
		record(prog, NULL, false, policy, BPFSIGN_WOULD_DENY, BPFSIGN_STAGE_GUARD, 0);
		return 0;
	}
	record(prog, NULL, false, policy, BPFSIGN_DENY, BPFSIGN_STAGE_GUARD, err);
	return err;
}

/*
 * The users of the policy's maps, for bpfsign-policy load and status
 * (policies/cli/policy_users.c): every program but the policy's own whose
 * aux->used_maps holds one of its maps gets one struct bpfsign_user.  The
 * guard refuses such a program an fd from the attach on, but not one
 * loaded before it (between the skeleton's map creation and the attach),
 * nor, in a permissive policy, any.  An iterator walks the kernel's list
 * of programs, so it needs no program fd, which a guard (this policy's or
 * another's) would refuse for the very programs it looks for, and which
 * the kernel's own BPF_PRELOAD iterators or a site's value-writing
 * iterators would make a user-space walk stumble on.  used_maps is read
 * as the guard reads it (guard_prog(): no mutex, bpf_probe_read_kernel()).
 * A map-in-map whose inner template one of the policy's maps fits is
 * reported as the guard refuses it (the outer map named, map_in_map set):
 * the policy's map can be put in its slot at any time.  A map reached
 * through a bpf_map_elem iterator's link is not in used_maps and is not
 * reported (policies/README.md).
 */
static __always_inline int users_prog(struct seq_file *seq, struct bpf_prog *prog)
{
	struct bpfsign_user u = {};
	struct guard_template t;
	struct bpf_prog_aux *aux;
	struct bpf_map **maps;
	__u32 i, cnt;
	__u64 m, meta;

	if (!prog)
		return 0;	/* the end of the walk */
	aux = BPF_CORE_READ(prog, aux);
	u.prog_id = BPF_CORE_READ(aux, id);
	if (own_prog(u.prog_id))
		return 0;
	cnt = BPF_CORE_READ(aux, used_map_cnt);
	maps = BPF_CORE_READ(aux, used_maps);
	for (i = 0; i < GUARD_MAX_MAPS && i < cnt; i++) {
		m = 0;
		meta = 0;
		bpf_core_read(&m, sizeof(m), &maps[i]);
		if (!m)
			break;
		/* a map-in-map whose template fits: the policy's map can be
		 * put in its slot whenever its holder likes (guard_prog())
		 */
		if (!own_map(m)) {
			bpf_core_read(&meta, sizeof(meta), &((struct bpf_map *)m)->inner_map_meta);
			if (!meta)
				continue;
			t.type = BPF_CORE_READ((struct bpf_map *)meta, map_type);
			t.key_size = BPF_CORE_READ((struct bpf_map *)meta, key_size);
			t.value_size = BPF_CORE_READ((struct bpf_map *)meta, value_size);
			t.flags = BPF_CORE_READ((struct bpf_map *)meta, map_flags);
			if (!own_map_fits(&t))
				continue;
			u.map_in_map = 1;
		}
		u.map_id = BPF_CORE_READ((struct bpf_map *)m, id);
		bpf_core_read(&u.map_name, sizeof(u.map_name), &((struct bpf_map *)m)->name);
		bpf_seq_write(seq, &u, sizeof(u));
		break;
	}
	return 0;
}

/* The guard program of a policy object and its "users" iterator: POLICY
 * its id, MAPS(X) calls X on each of its maps (BPFSIGN_COMMON_MAPS and its
 * own), PERMISSIVE an expression, true when the policy is in permissive mode: the guard then
 * records what it would refuse and refuses nothing, as the policy does.
 * A permissive policy admits every load; a refusal of the guard would
 * break the site's programs that are not aimed at the policy at all
 * (value-writing iterators, map-in-map programs whose template happens to
 * fit), which permissive mode is there to find without breaking them.
 * What it costs: while permissive, a program can rewrite the policy's
 * counters and records, which are then a measurement, not evidence.
 */
#define BPFSIGN_GUARD(POLICY, MAPS, PERMISSIVE)				\
static __always_inline bool own_map(__u64 m)				\
{									\
	return false MAPS(GUARD_IS);					\
}									\
									\
static __always_inline bool own_map_fits(const struct guard_template *t) \
{									\
	return false MAPS(GUARD_FITS);					\
}									\
									\
SEC("lsm/bpf_prog")							\
int BPF_PROG(guard, struct bpf_prog *prog, int ret)			\
{									\
	if (ret)							\
		return ret;						\
	return guard_prog(prog, POLICY, PERMISSIVE);			\
}									\
									\
SEC("iter/bpf_prog")							\
int users(struct bpf_iter__bpf_prog *ctx)				\
{									\
	return users_prog(ctx->meta->seq, ctx->prog);			\
}

/* the maps every policy has */
#define BPFSIGN_COMMON_MAPS(X)	X(events) X(stats) X(tally) X(tally_any) X(owner)

char LICENSE[] SEC("license") = "GPL";

#endif /* BPFSIGN_POLICY_BPF_H */
