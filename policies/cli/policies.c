// SPDX-License-Identifier: GPL-2.0
/*
 * Each policy is a signed light skeleton (gen-loader, policies.mk): load it
 * (the kernel verifies the loader's signature), configure its maps, attach,
 * and pin the links and maps so that the policy outlives this process.
 */
#include <errno.h>
#include <string.h>
#include <bpf/bpf.h>

#include "err.h"
#include "opts.h"
#include "pins.h"
#include "policies.h"
#include "policy_users.h"
#include "readback.h"
#include "prog_target.h"
#include "deny_unsigned.lskel.h"
#include "keyring_allowlist.lskel.h"
#include "audit_log.lskel.h"

static int load_err(const struct policy_desc *d, int err, const char *errstr, int attempts)
{
	if (err == -EAGAIN)
		return kit_err(err, "%s: signed skeleton: %s: %s (%d attempts: a signal interrupted the verifier each time)",
			       d->name, errstr ? errstr : "load", strerror(-err), attempts);
	return kit_err(err, "%s: signed skeleton: %s: %s", d->name,
		       errstr ? errstr : "load", strerror(-err));
}

/*
 * Open and load the signed skeleton NAME into s, up to LOAD_ATTEMPTS
 * times while the load fails with -EAGAIN.  The verifier gives up with
 * -EAGAIN when a signal is pending (a job-control SIGSTOP/SIGCONT, a
 * SIGCHLD, a service manager's reload), and the light skeleton's loader
 * passes that on where libbpf's bpf_prog_load() would retry: so retry the
 * whole load, as libbpf retries one program.  The loader closes what it
 * created when it fails and destroy closes the rest, so an attempt leaves
 * nothing of the policy behind (a map of it that another process took an
 * fd of meanwhile is that process's: the policy's maps are the ones its
 * attached programs use, and the "users" walk looks only at those).
 */
#define LOAD_ATTEMPTS	5	/* libbpf's PROG_LOAD_ATTEMPTS */
#define SKEL_OPEN_LOAD(d, a, NAME, s) ({					\
	int ___e = -EAGAIN, ___i;						\
										\
	for (___i = 0; ___e == -EAGAIN && ___i < LOAD_ATTEMPTS; ___i++) {	\
		NAME##__destroy(s);						\
		s = NAME##__open();						\
		if (!s) {							\
			___e = kit_err(-ENOMEM, "%s: open: out of memory",	\
				       (d)->name);				\
			break;							\
		}								\
		if ((a)->set_keyring)						\
			s->keyring_id = (a)->keyring_id;			\
		___e = NAME##__load(s);						\
	}									\
	if (___e && s)								\
		___e = load_err(d, ___e, s->errstr, ___i);			\
	___e;									\
})

/* prog_fd: the program that did not attach (ATTACH(): the one it attaches) */
static int attach_err(const struct policy_desc *d, int err, int prog_fd)
{
	/* a light skeleton's __attach() passes bpf()'s -1 on: the cause is
	 * in errno (E2BIG: the hook's trampoline is full), not -EPERM
	 */
	if (err == -1 && errno > 0)
		err = -errno;
	if (err == -E2BIG)
		return prog_target_full_err(d->name, prog_fd);
	return kit_err(err < 0 ? err : -EINVAL, "%s: attach: %s", d->name,
		       strerror(err < 0 ? -err : EINVAL));
}

/*
 * The counters and the tally, frozen before the policy is attached: no
 * bpf(2) command can then reset them (update, delete, lookup-and-delete,
 * batches: -EPERM), whatever fd root opens on the pins.  BPF_F_RDONLY at
 * creation would not do: it sets the mode of the creating fd only, and
 * BPF_OBJ_GET or BPF_MAP_GET_FD_BY_ID hand root a writable one.  The
 * policy's programs still write them: a freeze binds the syscall side.
 */
static int freeze_counters(const struct policy_desc *d, int stats_fd, int tally_fd,
			   int tally_any_fd)
{
	if (bpf_map_freeze(stats_fd))
		return kit_err(-errno, "%s: freeze map 'stats': %s", d->name, strerror(errno));
	if (bpf_map_freeze(tally_fd))
		return kit_err(-errno, "%s: freeze map 'tally': %s", d->name, strerror(errno));
	if (bpf_map_freeze(tally_any_fd))
		return kit_err(-errno, "%s: freeze map 'tally_any': %s", d->name, strerror(errno));
	/* as the skeleton made them: zero counters, empty tallies */
	return readback_array(d->name, "stats", stats_fd, BPFSIGN_STAT_MAX, NULL, sizeof(__u64)) ?:
	       readback_hash(d->name, "tally", tally_fd, sizeof(struct bpfsign_tally_key),
			     sizeof(struct bpfsign_tally), NULL, NULL, 0) ?:
	       readback_hash(d->name, "tally_any", tally_any_fd, sizeof(struct bpfsign_tally_key),
			     sizeof(struct bpfsign_tally), NULL, NULL, 0);
}

#define FREEZE_COMMON(d, s) freeze_counters(d, (s)->maps.stats.map_fd, (s)->maps.tally.map_fd, \
					    (s)->maps.tally_any.map_fd)

/*
 * The ids of the policy's programs into its "owner" map, frozen (and
 * BPF_F_RDONLY_PROG): the guard (policy.bpf.h) then gives an fd to a
 * program that reaches the policy's maps only if it is one of these.
 * Done before the attach.  Until then root can open the maps by id and
 * write them, or bind them to a program of its own: the read-back after
 * the freeze finds the first, the "users" walk after the guard's attach
 * the second while it lives, and readback_window() what it wrote if it
 * was freed before (window_closed()).
 */
static int set_owner(const struct policy_desc *d, int owner_fd, const int *prog_fds, int n)
{
	struct bpfsign_owner o = {};
	struct bpf_prog_info info;
	__u32 len, zero = 0;
	int i;

	if (n > BPFSIGN_MAX_OWN_PROGS)
		return kit_err(-E2BIG, "%s: %d programs, the owner map holds %d", d->name, n,
			       BPFSIGN_MAX_OWN_PROGS);
	for (i = 0; i < n; i++) {
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (bpf_prog_get_info_by_fd(prog_fds[i], &info, &len))
			return kit_err(-errno, "%s: prog info: %s", d->name, strerror(errno));
		o.prog_ids[i] = info.id;
	}
	if (bpf_map_update_elem(owner_fd, &zero, &o, BPF_ANY) || bpf_map_freeze(owner_fd))
		return kit_err(-errno, "%s: map 'owner': %s", d->name, strerror(errno));
	return readback_array(d->name, "owner", owner_fd, 1, &o, sizeof(o));
}

#define SET_OWNER(d, s, ...) ({							\
	const int ___fds[] = { __VA_ARGS__ };					\
	set_owner(d, (s)->maps.owner.map_fd, ___fds, ARRAY_SIZE(___fds));	\
})

/*
 * One program of the skeleton attached, its link in s->links (which
 * NAME__destroy() closes, on every path).  The light skeleton's
 * NAME__attach() attaches them all at once, in the object's order; the
 * load attaches them one by one, the guard first (window_closed()).
 */
#define ATTACH(d, NAME, s, prog) ({						\
	int ___r = NAME##__##prog##__attach(s);					\
	___r < 0 ? attach_err(d, ___r, (s)->progs.prog.prog_fd) : 0;		\
})

/*
 * The order of a load, which closes the window before the guard:
 *   skeleton load (maps and programs exist, nothing attached)
 *   -> configure and freeze the maps, read back -> owner map
 *   -> the guard attached alone: from now on no program but the policy's
 *      own gets an fd while it uses one of the maps (or a map-in-map
 *      whose template fits one), so none can be loaded on them any more
 *   -> the users iterator's link (an iterator runs only when read: the
 *      walk is its one run), and its walk: a program loaded in the
 *      window that still lives fails the load, named
 *   -> the counters zero, the tallies empty, the ring buffer never
 *      written: a program loaded in the window, run and freed before the
 *      walk left what it wrote there, and nobody can write more now (the
 *      policy's own programs do not run yet); a refusal of the guard
 *      since its attach shows there too, and fails the load (closed)
 *   -> the policy's other programs attached -> pins.
 * Any failure: NAME__destroy() closes every link, program and map, and
 * load_into() (cmd_load.c) removes what was pinned: nothing of the load
 * stays.
 */
static int window_closed(const struct policy_desc *d, int users_link, int stats_fd,
			 int tally_fd, int tally_any_fd, int events_fd)
{
	return policy_users_walk(d->name, users_link) ?:
	       readback_window(d->name, stats_fd, tally_fd, tally_any_fd, events_fd,
			       BPFSIGN_STAT_MAX, sizeof(struct bpfsign_tally_key),
			       sizeof(struct bpfsign_tally));
}

#define GUARD_FIRST(d, NAME, s) ({						\
	int ___e = ATTACH(d, NAME, s, guard) ?: ATTACH(d, NAME, s, users);	\
	___e ?: window_closed(d, (s)->links.users_fd, (s)->maps.stats.map_fd,	\
			      (s)->maps.tally.map_fd, (s)->maps.tally_any.map_fd, \
			      (s)->maps.events.map_fd);				\
})

/* Pin the shared maps of every policy, then its links. */
#define PIN_COMMON(dir, s) ({							\
	int ___e = pin_fd(dir, "map_events", (s)->maps.events.map_fd);		\
	___e = ___e ?: pin_fd(dir, "map_stats", (s)->maps.stats.map_fd);	\
	___e = ___e ?: pin_fd(dir, "map_tally", (s)->maps.tally.map_fd);	\
	___e = ___e ?: pin_fd(dir, "map_tally_any", (s)->maps.tally_any.map_fd); \
	___e;									\
})

/* The "users" iterator (policy.bpf.h): a link, not a hook's; the walk
 * of bpfsign-policy load and status (policy_users.c) runs it from the pin
 */
#define PIN_USERS(dir, s) pin_fd(dir, "iter_users", (s)->links.users_fd)

static int load_deny_unsigned(const struct policy_desc *d, const struct load_args *a)
{
	struct deny_unsigned *s = NULL;
	int err;

	err = SKEL_OPEN_LOAD(d, a, deny_unsigned, s);
	if (err)
		goto out;
	err = FREEZE_COMMON(d, s);
	err = err ?: SET_OWNER(d, s, s->progs.deny_unsigned.prog_fd, s->progs.guard.prog_fd,
			       s->progs.users.prog_fd);
	err = err ?: GUARD_FIRST(d, deny_unsigned, s);
	err = err ?: ATTACH(d, deny_unsigned, s, deny_unsigned);
	if (err)
		goto out;
	err = PIN_COMMON(a->dir, s);
	err = err ?: pin_fd(a->dir, "link_deny_unsigned", s->links.deny_unsigned_fd);
	err = err ?: pin_fd(a->dir, "link_guard", s->links.guard_fd);
	err = err ?: PIN_USERS(a->dir, s);
out:
	deny_unsigned__destroy(s);
	return err;
}

/* The allowlist into the maps, then freeze them: bpf(2) cannot change them
 * afterwards, and the maps are BPF_F_RDONLY_PROG, so no program or
 * iterator can either (keyring_allowlist.bpf.c); only unloading the policy
 * can.
 */
/* "key allow" lines into "keys", and whether there are any into
 * "keys_config", both frozen as the allowlist is.
 */
static int configure_keys(const struct policy_desc *d, struct keyring_allowlist *s,
			  const struct policy *pol)
{
	struct bpfsign_keys_config kc = { .key_rules = pol->nr_keys > 0 };
	int kfd = s->maps.keys.map_fd, cfd = s->maps.keys_config.map_fd, i;
	__u32 zero = 0, v = BPFSIGN_KEYRING_ALLOWED, vals[BPFSIGN_MAX_KEYS];

	for (i = 0; i < pol->nr_keys; i++)
		if (bpf_map_update_elem(kfd, &pol->keys[i], &v, BPF_NOEXIST))
			return kit_err(-errno, "%s: map 'keys': key of line %d: %s", d->name,
				       pol->key_lines[i], strerror(errno));
	if (bpf_map_update_elem(cfd, &zero, &kc, BPF_ANY) || bpf_map_freeze(kfd) ||
	    bpf_map_freeze(cfd))
		return kit_err(-errno, "%s: maps 'keys', 'keys_config': %s", d->name,
			       strerror(errno));
	for (i = 0; i < pol->nr_keys; i++)
		vals[i] = v;
	return readback_hash(d->name, "keys", kfd, sizeof(pol->keys[0]), sizeof(v), pol->keys,
			     vals, pol->nr_keys) ?:
	       readback_array(d->name, "keys_config", cfd, 1, &kc, sizeof(kc));
}

static int configure_allowlist(const struct policy_desc *d, struct keyring_allowlist *s,
			       const struct policy *pol)
{
	struct bpfsign_allow_config cfg = {
		.configured = 1,
		.permissive = pol->permissive,
		.allow_unsigned = pol->allow_unsigned,
		.allow_children = pol->allow_children,
		.allow_types = pol->allow_types,
	};
	int cfd = s->maps.config.map_fd, kfd = s->maps.keyrings.map_fd, i, err;
	struct bpfsign_keyring_key keys[BPFSIGN_MAX_KEYRINGS];
	__u32 zero = 0, vals[BPFSIGN_MAX_KEYRINGS];

	for (i = 0; i < pol->nr_rules; i++) {
		const struct policy_rule *r = &pol->rules[i];
		struct bpfsign_keyring_key key = {
			.keyring = r->keyring, .any = r->any, .serial = r->any ? 0 : r->serial,
		};
		__u32 v = r->allow ? BPFSIGN_KEYRING_ALLOWED : BPFSIGN_KEYRING_DENIED;

		if (bpf_map_update_elem(kfd, &key, &v, BPF_NOEXIST))
			return kit_err(-errno, "%s: map 'keyrings': rule of line %d: %s",
				       d->name, r->line, strerror(errno));
		keys[i] = key;
		vals[i] = v;
		/* children carry their loader's keyring type, not its serial:
		 * a type with any allow rule admits them (with allow_children)
		 */
		if (r->allow && r->keyring < BPFSIGN_KEYRING_TYPES)
			cfg.children_keyrings[r->keyring / 64] |= 1ULL << (r->keyring % 64);
	}
	err = configure_keys(d, s, pol);
	if (err)
		return err;
	if (bpf_map_update_elem(cfd, &zero, &cfg, BPF_ANY))
		return kit_err(-errno, "%s: map 'config': %s", d->name, strerror(errno));
	if (bpf_map_freeze(kfd) || bpf_map_freeze(cfd))
		return kit_err(-errno, "%s: freeze: %s", d->name, strerror(errno));
	return readback_hash(d->name, "keyrings", kfd, sizeof(keys[0]), sizeof(vals[0]), keys,
			     vals, pol->nr_rules) ?:
	       readback_array(d->name, "config", cfd, 1, &cfg, sizeof(cfg));
}

static int load_keyring_allowlist(const struct policy_desc *d, const struct load_args *a)
{
	struct keyring_allowlist *s = NULL;
	int err;

	err = SKEL_OPEN_LOAD(d, a, keyring_allowlist, s);
	if (err)
		goto out;
	err = configure_allowlist(d, s, a->pol);
	err = err ?: FREEZE_COMMON(d, s);
	err = err ?: SET_OWNER(d, s, s->progs.keyring_allowlist.prog_fd, s->progs.guard.prog_fd,
			       s->progs.users.prog_fd);
	err = err ?: GUARD_FIRST(d, keyring_allowlist, s);
	err = err ?: ATTACH(d, keyring_allowlist, s, keyring_allowlist);
	if (err)
		goto out;
	err = PIN_COMMON(a->dir, s);
	err = err ?: pin_fd(a->dir, "map_config", s->maps.config.map_fd);
	err = err ?: pin_fd(a->dir, "map_keyrings", s->maps.keyrings.map_fd);
	err = err ?: pin_fd(a->dir, "map_keys", s->maps.keys.map_fd);
	err = err ?: pin_fd(a->dir, "map_keys_config", s->maps.keys_config.map_fd);
	err = err ?: pin_fd(a->dir, "link_keyring_allowlist", s->links.keyring_allowlist_fd);
	err = err ?: pin_fd(a->dir, "link_guard", s->links.guard_fd);
	err = err ?: PIN_USERS(a->dir, s);
out:
	keyring_allowlist__destroy(s);
	return err;
}

static int load_audit_log(const struct policy_desc *d, const struct load_args *a)
{
	struct audit_log *s = NULL;
	int err;

	err = SKEL_OPEN_LOAD(d, a, audit_log, s);
	if (err)
		goto out;
	err = FREEZE_COMMON(d, s);
	/* the programs write it; bpf(2) must not (a load's stage in the record) */
	if (!err && bpf_map_freeze(s->maps.lsm_ret.map_fd))
		err = kit_err(-errno, "%s: freeze map 'lsm_ret': %s", d->name, strerror(errno));
	err = err ?: SET_OWNER(d, s, s->progs.audit_lsm.prog_fd, s->progs.audit_check.prog_fd,
			       s->progs.guard.prog_fd, s->progs.users.prog_fd);
	err = err ?: GUARD_FIRST(d, audit_log, s);
	/* audit_lsm's hand-over to audit_check: an entry planted in the
	 * window would turn a verifier reject into an LSM deny
	 */
	err = err ?: readback_window_empty(d->name, "lsm_ret", s->maps.lsm_ret.map_fd,
					   sizeof(__u64), sizeof(int));
	err = err ?: ATTACH(d, audit_log, s, audit_lsm);
	err = err ?: ATTACH(d, audit_log, s, audit_check);
	if (err)
		goto out;
	err = PIN_COMMON(a->dir, s);
	err = err ?: pin_fd(a->dir, "link_audit_lsm", s->links.audit_lsm_fd);
	err = err ?: pin_fd(a->dir, "link_audit_check", s->links.audit_check_fd);
	err = err ?: pin_fd(a->dir, "link_guard", s->links.guard_fd);
	err = err ?: PIN_USERS(a->dir, s);
out:
	audit_log__destroy(s);
	return err;
}

const struct policy_desc policy_descs[] = {
	{ "deny-unsigned", false, false, load_deny_unsigned },
	{ "keyring-allowlist", true, false, load_keyring_allowlist },
	{ "audit-log", false, true, load_audit_log },
};
const int nr_policy_descs = ARRAY_SIZE(policy_descs);

const struct policy_desc *policy_find(const char *name)
{
	int i;

	for (i = 0; i < nr_policy_descs; i++)
		if (!strcmp(name, policy_descs[i].name))
			return &policy_descs[i];
	return NULL;
}
