// SPDX-License-Identifier: GPL-2.0
/* bpfsign-policy load | unload | status */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>

#include "cmds.h"
#include "err.h"
#include "policy_load.h"
#include "pins.h"
#include "policies.h"
#include "policy_maps.h"
#include "policy_users.h"

#define PIN_DIR_OPT { .name = "pin-dir", .arg = "DIR", .help = "bpffs directory of the pins (default " DEFAULT_PIN_DIR ")" }

enum { L_POLICY, L_PIN_DIR, L_KEYRING_ID };

static const struct opt load_opts[] = {
	[L_POLICY] = { .name = "policy", .arg = "FILE", .help = "keyring-allowlist: the policy file (bpfsign-policy(8))" },
	[L_PIN_DIR] = PIN_DIR_OPT,
	[L_KEYRING_ID] = { .name = "keyring-id", .arg = "N", .help = "keyring that verifies the policy's own signature (default: the header's, 0 = builtin)" },
};

static const struct opt pin_dir_opts[] = { PIN_DIR_OPT };

static const char *pin_dir(const struct parsed *p, int idx)
{
	return p->val[idx] ? p->val[idx] : DEFAULT_PIN_DIR;
}

static const struct policy_desc *find_policy(const struct cmd *cmd, const char *name)
{
	const struct policy_desc *d = policy_find(name);

	if (!d)
		usage_error(cmd, "unknown policy '%s' (deny-unsigned, keyring-allowlist, audit-log)",
			    name);
	return d;
}

/* keyring-allowlist without --policy: the most restrictive allowlist */
static const char default_policy[] = "keyring allow builtin\nkeyring allow secondary\n";

/* The programs of the links pinned in dir, whose release ends the policy */
static int link_prog_ids(const char *dir, __u32 *ids, int max)
{
	struct bpf_link_info info;
	char path[PATH_MAX];
	struct dirent *de;
	int n = 0, fd;
	__u32 len;
	DIR *dd;

	dd = opendir(dir);
	if (!dd)
		return 0;
	while ((de = readdir(dd)) && n < max) {
		if (strncmp(de->d_name, "link_", 5) || pin_path(path, sizeof(path), dir, de->d_name))
			continue;
		fd = bpf_obj_get(path);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (!bpf_link_get_info_by_fd(fd, &info, &len))
			ids[n++] = info.prog_id;
		close(fd);
	}
	closedir(dd);
	return n;
}

/*
 * The last reference of a pinned link goes when bpffs frees the inode,
 * after an RCU grace period, and the link is released from a workqueue:
 * unlink() returns before the program is detached.  Wait until each
 * program is gone (its id is freed after the link released it), so that
 * "unloaded" means detached.
 */
static int wait_progs_gone(const struct policy_desc *d, const __u32 *ids, int n)
{
	int i, fd, tries;

	for (i = 0; i < n; i++) {
		for (tries = 0; tries < 1000; tries++) {
			fd = bpf_prog_get_fd_by_id(ids[i]);
			if (fd < 0 && errno == ENOENT)
				break;
			if (fd >= 0)
				close(fd);
			usleep(10000);
		}
		if (tries == 1000)
			return kit_err(-EBUSY, "%s: prog %u still loaded 10 s after unpinning (another holder of its link or prog?)",
				       d->name, ids[i]);
	}
	return 0;
}

/* Load, attach and pin into dir (created); on failure unpin what was pinned */
static int load_into(const struct policy_desc *d, struct load_args *a, const char *dir)
{
	char reason[1024];
	int err;

	a->dir = dir;
	err = d->load(d, a);
	if (!err)
		return 0;
	/* keep the first reason: unpinning what was pinned detaches it */
	snprintf(reason, sizeof(reason), "%s", kit_last_error());
	unpin_all(dir);
	return kit_err(err, "%s", reason);
}

/* " ID ID..." */
static void print_ids(const __u32 *ids, int n)
{
	int i;

	for (i = 0; i < n; i++)
		printf(" %u", ids[i]);
}

/*
 * NAME is pinned in dir: replace it, make-before-break.  An update by
 * unload then load leaves a window with no policy, and whoever fills the
 * hooks' trampolines in it keeps the load from attaching (policies/README.md,
 * "Not refused"): the policy would stay off.  So the new instance is loaded,
 * attached and pinned completely in DIR/NAME_new first, beside the old one
 * (both enforce for that moment: a load must pass both); the two directories
 * then swap names in one rename; the old instance, now in NAME_new, is
 * unpinned last.  Any failure before the swap unpins the new instance only:
 * the old one stays attached and pinned, and the exit is non-zero.
 */
static int replace(const struct policy_desc *d, struct load_args *a, const char *pins,
		   const char *dir)
{
	__u32 old_ids[4], new_ids[4];
	char next[PATH_MAX];
	int err, nr_old, nr_new;

	/* bpffs refuses dots in names (bpf_lookup(): reserved) */
	if (snprintf(next, sizeof(next), "%s_new", dir) >= (int)sizeof(next))
		return kit_err(-ENAMETOOLONG, "%s_new: path too long", dir);
	err = pin_trusted(dir);
	if (err)
		return kit_err(err, "%s (not replaced)", kit_last_error());
	/* a replace in progress, or one killed between its swap and its unpin
	 * (then it holds the old instance, still attached): not ours to remove
	 */
	err = pin_mkdir_new(pins, next);
	if (err == -EEXIST)
		return kit_err(err, "%s: not replaced, still pinned in %s: %s exists (another replace in progress, or left by an interrupted one: remove it with rm -r %s)",
			       d->name, dir, next, next);
	if (err)
		return kit_err(err, "%s: not replaced, still pinned in %s: %s", d->name, dir,
			       kit_last_error());
	/* load_into() unpins what it pinned, and next with it */
	err = load_into(d, a, next);
	if (err)
		return kit_err(err, "%s (not replaced: the loaded %s stays attached, pinned in %s)",
			       kit_last_error(), d->name, dir);
	err = pin_exchange(dir, next);
	if (err) {
		char reason[1024];

		snprintf(reason, sizeof(reason), "%s", kit_last_error());
		unpin_all(next);
		return kit_err(err, "%s (not replaced: the loaded %s stays attached, pinned in %s)",
			       reason, d->name, dir);
	}
	/* dir holds the new instance now, next the old one */
	nr_old = link_prog_ids(next, old_ids, ARRAY_SIZE(old_ids));
	nr_new = link_prog_ids(dir, new_ids, ARRAY_SIZE(new_ids));
	err = unpin_all(next);
	if (err)
		return kit_err(err, "%s: replaced, pinned in %s, but the old instance stays attached: %s",
			       d->name, dir, kit_last_error());
	err = wait_progs_gone(d, old_ids, nr_old);
	if (err)
		return kit_err(err, "%s: replaced, pinned in %s, but %s", d->name, dir,
			       kit_last_error());
	printf("%s: replaced, pinned in %s (programs", d->name, dir);
	print_ids(new_ids, nr_new);
	printf("; unloaded the old programs");
	print_ids(old_ids, nr_old);
	printf(")\n");
	return 0;	/* load_into() walked the users, before the swap */
}

static int run_load(const struct cmd *cmd, const struct parsed *p)
{
	const struct policy_desc *d = find_policy(cmd, p->args[0]);
	struct load_args a = {};
	struct policy pol;
	char dir[PATH_MAX];
	struct stat st;
	bool loaded;
	long id;
	char *end;
	int err;

	if (!d)
		return EXIT_USAGE;
	if (p->val[L_POLICY] && !d->has_policy_file)
		return usage_error(cmd, "--policy applies to keyring-allowlist only");
	if (p->val[L_KEYRING_ID]) {
		errno = 0;
		id = strtol(p->val[L_KEYRING_ID], &end, 10);	/* serials are decimal */
		if (errno || *end || !*p->val[L_KEYRING_ID] || id < INT_MIN || id > INT_MAX)
			return usage_error(cmd, "bad --keyring-id '%s'", p->val[L_KEYRING_ID]);
		a.set_keyring = true;
		a.keyring_id = id;
	}
	err = pin_path(dir, sizeof(dir), pin_dir(p, L_PIN_DIR), d->name);
	if (err)
		return err;
	loaded = !stat(dir, &st);
	if (p->val[L_POLICY])
		err = policy_load_file(p->val[L_POLICY], &pol);
	else
		err = policy_parse("(default policy)", default_policy, strlen(default_policy), &pol);
	if (!err && p->val[L_POLICY])
		policy_warn("bpfsign-policy load", p->val[L_POLICY], &pol);
	if (!err && pol.nr_signers)
		err = kit_err(-EOPNOTSUPP, "%s:%d: signer: not enforceable, use 'key allow sha256:HEX'",
			      p->val[L_POLICY], pol.signer_lines[0]);
	if (err && loaded)
		return kit_err(err, "%s (not replaced: the loaded %s stays attached, pinned in %s)",
			       kit_last_error(), d->name, dir);
	if (err)
		return err;
	a.pol = &pol;

	if (loaded)
		return replace(d, &a, pin_dir(p, L_PIN_DIR), dir);
	err = pin_mkdir(pin_dir(p, L_PIN_DIR), dir);
	if (err)
		return err;
	err = load_into(d, &a, dir);
	if (err)
		return err;
	/* the users walk and the read-back of the window ran in d->load(),
	 * between the guard's attach and the others' (policies.c)
	 */
	printf("%s: loaded, pinned in %s\n", d->name, dir);
	return 0;
}

static int run_unload(const struct cmd *cmd, const struct parsed *p)
{
	const struct policy_desc *d = find_policy(cmd, p->args[0]);
	char dir[PATH_MAX];
	__u32 prog_ids[4];
	int err, nr;

	if (!d)
		return EXIT_USAGE;
	err = pin_path(dir, sizeof(dir), pin_dir(p, 0), d->name);
	if (err)
		return err;
	nr = link_prog_ids(dir, prog_ids, ARRAY_SIZE(prog_ids));
	err = unpin_all(dir);
	if (err == -ENOENT)
		return kit_err(err, "%s: not loaded (no %s)", d->name, dir);
	if (err)
		return err;
	err = wait_progs_gone(d, prog_ids, nr);
	if (err)
		return err;
	printf("%s: unloaded\n", d->name);
	return 0;
}

static const char *const stat_names[BPFSIGN_STAT_MAX] = {
	"allow", "deny", "would-deny", "reject", "lost", "tallied", "ringed",
};

static void status_links(const char *dir)
{
	static const char *const links[] = {
		"link_deny_unsigned", "link_keyring_allowlist", "link_audit_lsm", "link_audit_check",
		"link_guard",
	};
	struct bpf_link_info info;
	char path[PATH_MAX];
	__u32 len;
	size_t i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(links); i++) {
		if (pin_path(path, sizeof(path), dir, links[i]) || access(path, F_OK))
			continue;
		fd = bpf_obj_get(path);
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (fd < 0 || bpf_link_get_info_by_fd(fd, &info, &len))
			printf("  %s: %s\n", links[i], strerror(errno));
		else
			printf("  %s: link %u, prog %u\n", links[i], info.id, info.prog_id);
		if (fd >= 0)
			close(fd);
	}
}

/* ", unsigned types NAME NAME..." for the set of "unsigned allow type" */
static void status_types(__u64 types)
{
	const char *name;
	__u32 t;

	if (!types)
		return;
	printf(", unsigned types");
	for (t = 0; t < BPFSIGN_MAX_PROG_TYPES; t++) {
		if (!(types & (1ULL << t)))
			continue;
		name = policy_prog_type_name(t);
		if (name)
			printf(" %s", name);
		else
			printf(" %u", t);
	}
}

/* The policy's own maps (policy_maps.h), not whatever is pinned beside its link */
static int status_maps(const char *name, const char *dir)
{
	struct bpfsign_allow_config cfg;
	char path[PATH_MAX];
	struct policy_maps m;
	__u32 i, zero = 0;
	__u64 n;
	int err;

	/* without its guard a policy's maps are any program's to rewrite:
	 * what they say is not the policy's record (a root that unpins only
	 * link_guard keeps the decision link and its denials)
	 */
	if (pin_path(path, sizeof(path), dir, "link_guard") || access(path, F_OK)) {
		err = kit_err(-ENOENT, "%s: link_guard is not pinned: no guard keeps other programs from its maps, its counters are not its record",
			      name);
		printf("  refused: %s\n", kit_last_error());
		return err;
	}
	err = policy_maps_open(name, dir, &m);
	if (err) {
		printf("  refused: %s\n", kit_last_error());
		return err;
	}
	/* a program that got the maps before the guard, or past a permissive one */
	err = policy_users_check(name, dir);
	if (err) {
		printf("  refused: %s\n", kit_last_error());
		policy_maps_close(&m);
		return err;
	}
	/* only keyring-allowlist has a config: another policy's "config" is
	 * a map bound to its program by someone else (BPF_PROG_BIND_MAP)
	 */
	if (!strcmp(name, "keyring-allowlist") && m.fd[PM_CONFIG] >= 0 &&
	    !bpf_map_lookup_elem(m.fd[PM_CONFIG], &zero, &cfg)) {
		printf("  mode %s, unsigned %s, children %s",
		       cfg.permissive ? "permissive" : "enforce",
		       cfg.allow_unsigned ? "allow" : "deny",
		       cfg.allow_children ? "allow" : "deny");
		status_types(cfg.allow_types);
		printf("\n");
	}
	printf(" ");
	for (i = 0; i < BPFSIGN_STAT_MAX; i++) {
		n = 0;
		bpf_map_lookup_elem(m.fd[PM_STATS], &i, &n);
		printf(" %s %llu", stat_names[i], (unsigned long long)n);
	}
	printf("\n");
	policy_maps_close(&m);
	return 0;
}

static int run_status(const struct cmd *cmd, const struct parsed *p)
{
	char dir[PATH_MAX];
	struct stat st;
	int i, err, first = 0;

	(void)cmd;
	for (i = 0; i < nr_policy_descs; i++) {
		err = pin_path(dir, sizeof(dir), pin_dir(p, 0), policy_descs[i].name);
		if (err)
			return err;
		if (stat(dir, &st)) {
			printf("%s: not loaded\n", policy_descs[i].name);
			continue;
		}
		printf("%s: loaded, pinned in %s\n", policy_descs[i].name, dir);
		status_links(dir);
		err = status_maps(policy_descs[i].name, dir);
		if (err && !first) {
			first = err;
			kit_err(err, "%s", kit_last_error());
		}
		/* an update killed between its pin and its unpin: two instances
		 * decide, and this status shows one; the next load refuses
		 */
		if (strlen(dir) + 4 < sizeof(dir) && strcat(dir, "_new") && !stat(dir, &st)) {
			printf("  second instance: %s (an interrupted update: remove it with rm -r %s)\n",
			       dir, dir);
			err = kit_err(-EEXIST, "%s: a second instance is pinned in %s", policy_descs[i].name,
				      dir);
			if (!first)
				first = err;
		}
	}
	/* the first refusal, reported once more on stderr with the exit code */
	return first;
}

const struct cmd cmd_load = {
	.prog = "bpfsign-policy",
	.name = "load",
	.run = run_load,
	.summary = "Load the signed policy NAME (deny-unsigned, keyring-allowlist, audit-log): the\n"
		   "kernel verifies its loader's signature; then configure it, attach it and pin\n"
		   "its links and maps in DIR/NAME, so that it stays after this command exits.\n"
		   "keyring-allowlist without --policy allows the builtin and secondary keyrings.\n"
		   "If NAME is loaded already, replace it: the new instance is attached and pinned\n"
		   "in DIR/NAME_new first, swapped into DIR/NAME, then the old one is unpinned; if\n"
		   "the new one cannot attach, the old one stays, and the exit is non-zero.\n"
		   "A load the verifier gives up on (EAGAIN: a signal) is retried, 5 attempts.\n"
		   "The guard is attached first, alone; then a program other than the policy's\n"
		   "that uses one of its maps (\"counters not trustworthy\"), or counters, tallies\n"
		   "or records written before the guard's attach, fail the load, nothing left.",
	.opts = load_opts,
	.nr_opts = ARRAY_SIZE(load_opts),
	.args = "NAME",
	.min_args = 1,
	.max_args = 1,
	.exits = policy_exits,
};

const struct cmd cmd_unload = {
	.prog = "bpfsign-policy",
	.name = "unload",
	.run = run_unload,
	.summary = "Remove the pins of policy NAME: its links lose their last reference and\n"
		   "detach.  Not for updates: 'load' replaces a loaded policy in place.",
	.opts = pin_dir_opts,
	.nr_opts = ARRAY_SIZE(pin_dir_opts),
	.args = "NAME",
	.min_args = 1,
	.max_args = 1,
	.exits = policy_exits,
};

const struct cmd cmd_status = {
	.prog = "bpfsign-policy",
	.name = "status",
	.run = run_status,
	.summary = "List the policies pinned in DIR: their links and programs, mode and counters,\n"
		   "read from the maps of the program of the pinned link.  Refuses (non-zero\n"
		   "exit, naming the pin) a map pin that is not that program's map, a\n"
		   "counter map that is not frozen, a policy without link_guard, or one\n"
		   "whose maps another program uses (\"counters not trustworthy: program N\").",
	.opts = pin_dir_opts,
	.nr_opts = ARRAY_SIZE(pin_dir_opts),
	.exits = policy_exits,
};
