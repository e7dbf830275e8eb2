// SPDX-License-Identifier: GPL-2.0
/*
 * Fourth hostile review of the policies' hook protection (policies/README.md:
 * the guard, "The policies' own hooks", "What root can still do").
 * Property under attack: "while a decision policy is attached, no program
 * that is not signed (or a VERIFIED loader's child, or the kernel's own)
 * loads, and nothing but root's explicit unpin removes the policy or keeps
 * it from being attached again".  Attackers: root without a signing key, a
 * CAP_BPF + CAP_PERFMON process (uid 1000, no other capability), a
 * BPF-token holder in a user namespace (token.c).  A FAIL is a bypass and
 * its "# BYPASS" line says what the attacker got.  Explicit; the ones the
 * fix of F1 made pass run in the guest-policies-guard boot
 * (scripts/run-tests.sh), the others in no boot:
 *
 *   BPFSIGN_QUIET=1 qemu/run-guest.sh attack_round4_config_ptrace ...
 *
 * F1 (fixed): loading MAC policy (LSM, fmod_ret, a program on a policy's
 * function) asks CAP_MAC_ADMIN in the initial user namespace under the
 * decision policies, signed or not (policy.bpf.h, mac_policy_stage(),
 * stage "mac-admin"); attack_round4_mac_admin_audit_replay and
 * attack_round4_mac_admin_token pin it too.  All three FAILED on the
 * policies before the fix (copy linked, replay loaded, token holder's lsm
 * and fmod_ret loaded) and pass with it.
 *
 * Run on the kernel of the series as of this review (h2's build):
 *   attack_round4_allowlist_copy_blocks_reload  FAILED (bypass: CAP_BPF+CAP_PERFMON);
 *                                               passes since F1's fix (boot)
 *   attack_round4_config_ptrace                 FAILED (bypass: root, no key); fixed:
 *                                               the CLI reads every map back after its
 *                                               freeze (readback.c), guest-policies-guard
 *   attack_round4_freeze_first                  FAILS (bypass: root, no key; 3 of 3
 *                                               and 2 of 3 loads refused in two runs)
 *   attack_round4_config_race                   flaky by nature: the CLI's freeze
 *                                               EBUSY in 1 of 3, 1 of 6, 0 of 6 runs
 *   attack_round4_prefill_future_hook           FAILS (latent: a hook not yet used)
 *   attack_round4_token_hooks                   passes
 *   attack_round4_retarget_and_copies           passes
 *   attack_round4_hooks_cover_policies          passes
 */
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "runner.h"
#include "util.h"
#include "policy_fixture.h"
#include "token.h"
#include "policies/audit_log.lskel.h"
#include "policies/keyring_allowlist.lskel.h"

#define POLICY_FILE	"/tmp/attack4.policy"
/* only types that need no 'weakens-policy' */
#define TYPES_POLICY	"keyring allow builtin\nkeyring allow secondary\nunsigned deny\n" \
			"unsigned allow type cgroup_skb\nunsigned allow type tracing\n" \
			"unsigned allow type kprobe\nchildren allow\n"
#define STRICT_POLICY	"keyring allow builtin\nkeyring allow secondary\nunsigned deny\n"
#define ATTACK_UID	1000

static const struct bpf_insn ret0[] = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() };

/* an unsigned socket_filter: what every decision policy here refuses */
static int try_unsigned(void)
{
	int fd = load_prog(ret0, ARRAY_LEN(ret0), NULL);

	if (fd >= 0)
		close(fd);
	return fd < 0 ? -errno : 0;
}

/* keep CAP_BPF and CAP_PERFMON only, as uid/gid ATTACK_UID: 0 or -1 */
static int become_cap_bpf_perfmon(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3] = {};

	if (prctl(PR_SET_KEEPCAPS, 1) || setgroups(0, NULL) ||
	    setresgid(ATTACK_UID, ATTACK_UID, ATTACK_UID) ||
	    setresuid(ATTACK_UID, ATTACK_UID, ATTACK_UID))
		return -1;
	caps[CAP_TO_INDEX(CAP_BPF)].permitted |= CAP_TO_MASK(CAP_BPF);
	caps[CAP_TO_INDEX(CAP_BPF)].effective |= CAP_TO_MASK(CAP_BPF);
	caps[CAP_TO_INDEX(CAP_PERFMON)].permitted |= CAP_TO_MASK(CAP_PERFMON);
	caps[CAP_TO_INDEX(CAP_PERFMON)].effective |= CAP_TO_MASK(CAP_PERFMON);
	return syscall(SYS_capset, &hdr, caps) ? -1 : 0;
}

/* --- a replayed, unconfigured keyring-allowlist ------------------------ */

/*
 * Every host that runs the kit holds the signed light skeleton of
 * keyring-allowlist (in bpfsign-policy, in lib/bpfsign/policies/).  Its
 * decision program refuses every load until the CLI has written
 * config.configured ("fail closed").  A CAP_BPF + CAP_PERFMON process
 * (not root: it can unpin nothing in /sys/fs/bpf/bpfsign) loads a copy of
 * it (deny-unsigned admits it: a VERIFIED loader's children), never
 * configures it, and links only its decision program to bpf_prog_load.
 * From then on every BPF program load on the host fails with EPERM,
 * signed ones included: the administrator's update (unload, load) of
 * deny-unsigned leaves no policy attached.  Only killing the holder (or,
 * had it pinned the link, an unpin somewhere root must first find)
 * undoes it.
 */
/* the child: load and link the copy, report on out, hold until in closes */
static void hold_unconfigured_copy(int out, int in, bool drop)
{
	struct keyring_allowlist *s;
	int rc = 0, link = -1;
	char c;

	if (drop && become_cap_bpf_perfmon())
		rc = 100;
	s = rc ? NULL : keyring_allowlist__open();
	if (!rc && !s)
		rc = 101;
	if (!rc && keyring_allowlist__load(s))
		rc = 102;
	if (!rc) {
		link = bpf_link_create(s->progs.keyring_allowlist.prog_fd, 0, BPF_LSM_MAC, NULL);
		if (link < 0)
			rc = 103;
	}
	if (rc)
		rc = rc * 1000 + errno;
	if (write(out, &rc, sizeof(rc)) != sizeof(rc))
		_exit(1);
	while (read(in, &c, 1) > 0)
		;
	if (link >= 0)
		close(link);
	_exit(0);
}

struct holder {
	pid_t pid;
	int in;		/* closed to let the child go */
};

/* fork a holder; its report (0: the copy is linked), or -1 */
static int start_holder(struct holder *h, bool drop)
{
	int out[2], in[2], rc = -1;

	if (pipe(out) || pipe(in))
		return -1;
	fflush(stdout);
	h->pid = fork();
	if (!h->pid) {
		close(out[0]);
		close(in[1]);
		hold_unconfigured_copy(out[1], in[0], drop);
	}
	close(out[1]);
	close(in[0]);
	h->in = in[1];
	if (h->pid < 0 || read(out[0], &rc, sizeof(rc)) != sizeof(rc))
		rc = -1;
	close(out[0]);
	return rc;
}

static void stop_holder(struct holder *h)
{
	int status;

	if (h->pid <= 0)
		return;
	close(h->in);
	waitpid(h->pid, &status, 0);
	h->pid = 0;
}

/* the signed light skeleton of keyring-allowlist loads here, as root (it
 * is not linked: an unconfigured copy would refuse every load): 0 or -errno
 */
static int root_loads_allowlist_copy(void)
{
	struct keyring_allowlist *s = keyring_allowlist__open();
	int err;

	if (!s)
		return -ENOMEM;
	err = keyring_allowlist__load(s) ? -errno : 0;
	keyring_allowlist__destroy(s);
	return err;
}

/*
 * The fix (policy.bpf.h, mac_policy_stage()): a program that installs MAC
 * policy (LSM, fmod_ret, a policy's function) loads only for a caller with
 * CAP_MAC_ADMIN in the initial user namespace, signed or not.  The copy's
 * programs are a VERIFIED loader's children, loaded with the holder's
 * creds: refused, -EPERM, recorded at stage "mac-admin".
 */
static void copy_blocks_reload(bool drop, const char *who)
{
	struct holder h = {};
	int rc;

	policy_unload_all();
	if (!POLICY_CLI_OK("load deny-unsigned", "load", "deny-unsigned"))
		goto out;
	/* control: the policy refuses unsigned programs, admits signed ones */
	ASSERT_ERR(try_unsigned(), EPERM, "unsigned socket_filter under deny-unsigned (control)");
	rc = start_holder(&h, drop);
	printf("# %s: unconfigured keyring-allowlist copy loaded and linked: %d\n", who, rc);
	if (rc == 0)
		printf("# BYPASS: %s loaded and linked a copy of the kit's signed keyring-allowlist\n",
		       who);
	/* the mac-admin check: signed, a verified loader's children, no CAP_MAC_ADMIN */
	ASSERT_EQ(rc, 102 * 1000 + EPERM, "the copy's load refused EPERM (not linked)");
	rc = policy_cli("log", "deny-unsigned", NULL);
	ASSERT_GE(policy_count(policy_out, "\"uid\":1000,"), 1,
		  "the refused load recorded with the attacker's uid");
	ASSERT_GE(policy_count(policy_out, "\"decision\":\"deny\",\"stage\":\"mac-admin\",\"errno\":1"),
		  1, "recorded as deny, stage mac-admin");
	/* a signed light skeleton loads, for root */
	rc = policy_cli("load", "audit-log", NULL);
	printf("# root loads the signed audit-log with the attacker's holder running: exit %d\n",
	       rc);
	if (rc)
		policy_dump_out();
	ASSERT_EQ(rc, 0, "root loads audit-log");
	/* the administrator's update */
	if (!POLICY_CLI_OK("unload deny-unsigned", "unload", "deny-unsigned"))
		goto out;
	rc = policy_cli("load", "deny-unsigned", NULL);
	printf("# reload of deny-unsigned with the attacker's holder running: exit %d\n", rc);
	if (rc) {
		policy_dump_out();
		printf("# BYPASS: %s keeps deny-unsigned from being attached again (and refuses every BPF load) with a copy of the kit's own signed keyring-allowlist\n",
		       who);
	}
	ASSERT_EQ(rc, 0, "deny-unsigned reloaded");
	/* control: the same signed skeleton loads for root (CAP_MAC_ADMIN) */
	ASSERT_EQ(root_loads_allowlist_copy(), 0, "root loads a copy of keyring-allowlist (control)");
	policy_unload_all();
	stop_holder(&h);
	ASSERT_EQ(policy_cli("load", "deny-unsigned", NULL), 0,
		  "reload once the holder has exited (control)");
out:
	stop_holder(&h);
	policy_unload_all();
}

TEST_EXPLICIT(attack_round4_allowlist_copy_blocks_reload)
{
	copy_blocks_reload(true, "CAP_BPF+CAP_PERFMON uid 1000");
}

/*
 * Round 3's replay by a CAP_BPF + CAP_PERFMON process: the kit's signed
 * audit-log (fexit on security_bpf_prog_load and bpf_check, lsm/bpf_prog),
 * loaded again to take slots of the policies' trampolines.  Refused: its
 * programs are on the policies' functions and one is an LSM program.
 */
static int replay_audit_log(bool drop)
{
	struct audit_log *s;
	int err;

	if (drop && become_cap_bpf_perfmon())
		return -1000;
	s = audit_log__open();
	if (!s)
		return -ENOMEM;
	err = audit_log__load(s) ? -errno : 0;
	audit_log__destroy(s);
	return err;
}

/* run replay_audit_log() in a child (its creds are dropped for good): its result */
static int replay_in_child(bool drop)
{
	int p[2], rc = -1, status;
	pid_t pid;

	if (pipe(p))
		return -1;
	fflush(stdout);
	pid = fork();
	if (!pid) {
		close(p[0]);
		rc = replay_audit_log(drop);
		_exit(write(p[1], &rc, sizeof(rc)) == sizeof(rc) ? 0 : 1);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], &rc, sizeof(rc)) != sizeof(rc))
		rc = -1;
	close(p[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	return rc;
}

TEST_EXPLICIT(attack_round4_mac_admin_audit_replay)
{
	int rc;

	policy_unload_all();
	if (!POLICY_CLI_OK("load deny-unsigned", "load", "deny-unsigned"))
		goto out;
	rc = replay_in_child(true);
	printf("# CAP_BPF+CAP_PERFMON uid 1000 replays the signed audit-log: %d\n", rc);
	if (rc == 0)
		printf("# BYPASS: a CAP_BPF+CAP_PERFMON process replayed the signed audit-log onto the policies' trampolines\n");
	/* the mac-admin check: signed children on the policies' functions, no CAP_MAC_ADMIN */
	ASSERT_EQ(rc, -EPERM, "replay of audit-log by CAP_BPF+CAP_PERFMON refused");
	rc = policy_cli("log", "deny-unsigned", NULL);
	ASSERT_GE(policy_count(policy_out, "\"decision\":\"deny\",\"stage\":\"mac-admin\",\"errno\":1"),
		  1, "recorded as deny, stage mac-admin");
	/* control: root (CAP_MAC_ADMIN) loads the same skeleton */
	ASSERT_EQ(replay_in_child(false), 0, "root loads a copy of audit-log (control)");
out:
	policy_unload_all();
}

/*
 * A token holder (root of a user namespace, every capability there, none
 * in the initial one) and unsigned MAC programs off the policies'
 * functions: lsm/file_open and fmod_ret on security_file_open.  Under
 * keyring-allowlist with "unsigned allow weakens-policy", which admits
 * both for root (the control): so only the mac-admin check refuses them.
 */
#define ALLOW_ALL_POLICY "keyring allow builtin\nkeyring allow secondary\n" \
			 "unsigned allow weakens-policy\nchildren allow\n"

static int mac_lsm_id, mac_fmod_id;

/* bit 0: the LSM program loaded, bit 1: the fmod_ret */
static int mac_loads(int token_fd, void *arg)
{
	LIBBPF_OPTS(bpf_prog_load_opts, lo, .expected_attach_type = BPF_LSM_MAC,
		    .attach_btf_id = mac_lsm_id);
	LIBBPF_OPTS(bpf_prog_load_opts, fo, .expected_attach_type = BPF_MODIFY_RETURN,
		    .attach_btf_id = mac_fmod_id);
	int fd, r = 0;

	if (token_fd >= 0) {
		lo.prog_flags = fo.prog_flags = BPF_F_TOKEN_FD;
		lo.token_fd = fo.token_fd = token_fd;
	}
	fd = load_prog_type(BPF_PROG_TYPE_LSM, ret0, ARRAY_LEN(ret0), &lo);
	printf("#   %s: lsm/file_open: %d errno %d\n", (char *)arg, fd, fd < 0 ? errno : 0);
	if (fd >= 0) {
		r |= 1;
		close(fd);
	}
	fd = load_prog_type(BPF_PROG_TYPE_TRACING, ret0, ARRAY_LEN(ret0), &fo);
	printf("#   %s: fmod_ret/security_file_open: %d errno %d\n", (char *)arg, fd,
	       fd < 0 ? errno : 0);
	if (fd >= 0) {
		r |= 2;
		close(fd);
	}
	fflush(stdout);
	return r;
}

TEST_EXPLICIT(attack_round4_mac_admin_token)
{
	int r;

	mac_lsm_id = libbpf_find_vmlinux_btf_id("file_open", BPF_LSM_MAC);
	mac_fmod_id = libbpf_find_vmlinux_btf_id("security_file_open", BPF_MODIFY_RETURN);
	if (!ASSERT_GE(mac_lsm_id, 1, "BTF id of bpf_lsm_file_open") ||
	    !ASSERT_GE(mac_fmod_id, 1, "BTF id of security_file_open"))
		return;
	policy_unload_all();
	/* control: with no policy the token admits both */
	ASSERT_EQ(run_with_token(mac_loads, (void *)"token, no policy"), 3,
		  "token holder loads lsm and fmod_ret, no policy (control)");
	if (!policy_load_allowlist(POLICY_FILE, ALLOW_ALL_POLICY))
		goto out;
	/* control: root (CAP_MAC_ADMIN) loads both under the same policy */
	ASSERT_EQ(mac_loads(-1, (void *)"root"), 3, "root loads lsm and fmod_ret (control)");
	r = run_with_token(mac_loads, (void *)"token");
	printf("# token holder, keyring-allowlist (unsigned allow): %d\n", r);
	if (r > 0)
		printf("# BYPASS: a token holder installed MAC policy (%s%s)\n", r & 1 ? "lsm " : "",
		       r & 2 ? "fmod_ret" : "");
	/* the mac-admin check: the rules admit both, the caller has no CAP_MAC_ADMIN */
	ASSERT_EQ(r, 0, "token holder's lsm and fmod_ret refused");
	policy_cli("log", "keyring-allowlist", NULL);
	ASSERT_EQ(policy_count(policy_out, "\"decision\":\"deny\",\"stage\":\"mac-admin\",\"errno\":1"),
		  2, "both recorded as deny, stage mac-admin");
out:
	policy_unload_all();
}

/* --- root races the CLI for the allowlist before it is frozen ---------- */

/*
 * bpfsign-policy load keyring-allowlist: the light skeleton creates the
 * maps, then the CLI writes "config" and freezes it (policies.c,
 * configure_allowlist()).  In between, the map is reachable by id
 * (BPF_MAP_GET_FD_BY_ID, CAP_SYS_ADMIN) and writable.  Root without a key
 * watches the map ids and writes its own config (allow_unsigned 1) into
 * every new "config" map until the write fails (frozen).  Two outcomes are
 * a bypass: the policy attached with the attacker's config (unsigned
 * programs load), or the CLI's freeze refused (EBUSY: a write in flight)
 * and no policy attached.
 */
#define RACE_ATTEMPTS	6

static __u32 last_map_id(void)
{
	__u32 id = 0, next;

	while (!bpf_map_get_next_id(id, &next))
		id = next;
	return id;
}

/* fdinfo's "frozen:" of a map fd: 1, 0, or -1 */
static int map_frozen(int fd)
{
	char path[64], buf[1024];
	const char *f;
	ssize_t n;
	int ffd;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	ffd = open(path, O_RDONLY);
	if (ffd < 0)
		return -1;
	n = read(ffd, buf, sizeof(buf) - 1);
	close(ffd);
	buf[n > 0 ? n : 0] = 0;
	f = strstr(buf, "frozen:");
	return f ? atoi(f + 7) : -1;
}

static void race_config(__u32 from)
{
	struct bpfsign_allow_config evil = {
		.configured = 1, .allow_unsigned = 1, .allow_children = 1,
	};
	struct bpfsign_allow_config seen;
	struct bpf_map_info info;
	__u32 id = from, next, zero = 0, len;
	long writes = 0, busy = 0;
	int fd = -1, i, frozen_at_find;

	for (i = 0; i < BPFSIGN_KEYRING_TYPES / 64; i++)
		evil.children_keyrings[i] = ~0ULL;
	for (;;) {
		if (bpf_map_get_next_id(id, &next))
			continue;
		id = next;
		fd = bpf_map_get_fd_by_id(id);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (!bpf_map_get_info_by_fd(fd, &info, &len) && !strcmp(info.name, "config") &&
		    info.value_size == sizeof(evil))
			break;
		close(fd);
	}
	frozen_at_find = map_frozen(fd);
	/* EPERM while the loader runs (bpf_map_loader_busy()) or once frozen */
	for (;;) {
		/* write right after the CLI's own write (configured, unsigned deny) */
		if (!bpf_map_lookup_elem(fd, &zero, &seen) && seen.configured &&
		    seen.allow_unsigned)
			continue;	/* ours is in: wait for the freeze */
		if (!bpf_map_update_elem(fd, &zero, &evil, BPF_ANY))
			writes++;
		else if (errno != EPERM || map_frozen(fd) == 1)
			break;
		else
			busy++;
	}
	printf("#   racer: config map id %u, frozen when found: %d, refused while busy %ld, writes %ld, then errno %d\n",
	       id, frozen_at_find, busy, writes, errno);
	fflush(stdout);
	/* the writes that went through, else 100 + the first write's errno */
	_exit(writes ? (writes > 99 ? 99 : writes) : 100 + (errno < 155 ? errno : 0));
}

TEST_EXPLICIT(attack_round4_config_race)
{
	int i, rc, status, wins = 0, dos = 0, clean = 0;
	pid_t pid;

	policy_unload_all();
	if (policy_write_file(POLICY_FILE, STRICT_POLICY))
		return;
	/* control: without the racer the policy refuses unsigned programs */
	if (!POLICY_CLI_OK("load", "load", "keyring-allowlist", "--policy", POLICY_FILE))
		return;
	ASSERT_ERR(try_unsigned(), EPERM, "unsigned socket_filter, no racer (control)");
	policy_unload_all();
	for (i = 0; i < RACE_ATTEMPTS; i++) {
		__u32 from = last_map_id();

		fflush(stdout);
		pid = fork();
		if (!pid)
			race_config(from);
		rc = policy_cli("load", "keyring-allowlist", "--policy", POLICY_FILE, NULL);
		if (rc) {
			dos++;
			printf("# attempt %d: load failed, exit %d\n", i, rc);
			policy_dump_out();
		} else if (!try_unsigned()) {
			wins++;
			printf("# attempt %d: attached, and an unsigned program loads\n", i);
		} else {
			clean++;
		}
		kill(pid, SIGKILL);	/* the racer, if it never met its map frozen */
		waitpid(pid, &status, 0);
		printf("# attempt %d: racer %s %d\n", i, WIFEXITED(status) ? "wrote, times:" :
		       "killed, signal", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		policy_unload_all();
	}
	printf("# %d attempts: %d attached with root's config, %d load failures, %d clean\n",
	       RACE_ATTEMPTS, wins, dos, clean);
	if (wins)
		printf("# BYPASS: root without a key wrote keyring-allowlist's config before the freeze: unsigned programs load while it is attached\n");
	if (dos)
		printf("# BYPASS: root without a key made the CLI's configure/freeze fail: keyring-allowlist not attached\n");
	ASSERT_EQ(wins, 0, "attached with the attacker's config");
	ASSERT_EQ(dos, 0, "load failed under the race");
}

/*
 * The same window, without luck: root stops the CLI (ptrace, which root
 * without a key has) at its first BPF_MAP_FREEZE, after it wrote config
 * and before it froze it, writes its own config, and lets it go on.  The
 * CLI then freezes the attacker's allowlist and attaches it.
 */
#include <sys/ptrace.h>
#include <sys/user.h>
#include <linux/ptrace.h>

/* the map named name with that value size among ids above from: fd or -1 */
static int find_map(__u32 from, const char *name, __u32 value_size)
{
	struct bpf_map_info info;
	__u32 id = from, next, len;
	int fd;

	while (!bpf_map_get_next_id(id, &next)) {
		id = next;
		fd = bpf_map_get_fd_by_id(id);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (!bpf_map_get_info_by_fd(fd, &info, &len) && !strcmp(info.name, name) &&
		    info.value_size == value_size)
			return fd;
		close(fd);
	}
	return -1;
}

/* run the CLI's load of keyring-allowlist traced; its exit code, or -1;
 * *wrote: the attacker's config went in before a freeze
 */
#define TRACED_OUT	"/tmp/attack4.traced"

static int traced_load(__u32 from, bool *wrote)
{
	struct bpfsign_allow_config evil = {
		.configured = 1, .allow_unsigned = 1, .allow_children = 1,
	}, seen;
	struct ptrace_syscall_info si;
	__u32 zero = 0;
	int status, fd = -1, i;
	pid_t pid;

	*wrote = false;
	for (i = 0; i < BPFSIGN_KEYRING_TYPES / 64; i++)
		evil.children_keyrings[i] = ~0ULL;
	fflush(stdout);
	pid = fork();
	if (!pid) {
		int null = open(TRACED_OUT, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		dup2(null, 1);
		dup2(null, 2);
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		execl(POLICY_CLI, POLICY_CLI, "load", "keyring-allowlist", "--policy",
		      POLICY_FILE, NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)(PTRACE_O_TRACESYSGOOD |
							    PTRACE_O_EXITKILL));
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, NULL, NULL) || waitpid(pid, &status, 0) != pid)
			return -1;
		if (WIFEXITED(status))
			break;
		if (!WIFSTOPPED(status) || WSTOPSIG(status) != (SIGTRAP | 0x80))
			continue;
		memset(&si, 0, sizeof(si));
		if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(si), &si) <= 0 ||
		    si.op != PTRACE_SYSCALL_INFO_ENTRY || si.entry.nr != __NR_bpf ||
		    si.entry.args[0] != BPF_MAP_FREEZE || *wrote)
			continue;
		if (fd < 0)
			fd = find_map(from, "config", sizeof(evil));
		if (fd >= 0 && !bpf_map_lookup_elem(fd, &zero, &seen) && seen.configured &&
		    !bpf_map_update_elem(fd, &zero, &evil, BPF_ANY))
			*wrote = true;
	}
	if (fd >= 0)
		close(fd);
	return WEXITSTATUS(status);
}

TEST_EXPLICIT(attack_round4_config_ptrace)
{
	bool wrote;
	int rc, err;

	policy_unload_all();
	if (policy_write_file(POLICY_FILE, STRICT_POLICY))
		return;
	/* control: loaded untraced, the policy refuses unsigned programs */
	if (!POLICY_CLI_OK("load", "load", "keyring-allowlist", "--policy", POLICY_FILE))
		return;
	ASSERT_ERR(try_unsigned(), EPERM, "unsigned socket_filter, untraced load (control)");
	policy_unload_all();
	rc = traced_load(last_map_id(), &wrote);
	printf("# traced load: exit %d, the attacker's config written before the freeze: %d\n",
	       rc, wrote);
	if (!ASSERT_TRUE(wrote, "the attacker wrote config between the CLI's write and its freeze"))
		goto out;
	/* readback_array() of config after the freeze: the load fails, nothing attached */
	if (rc) {
		char out[4096] = "";
		int ofd = open(TRACED_OUT, O_RDONLY);

		if (ofd >= 0) {
			if (read(ofd, out, sizeof(out) - 1) < 0)
				out[0] = 0;
			close(ofd);
		}
		printf("# %s", out);
		ASSERT_TRUE(strstr(out, "map 'config' changed before its freeze"),
			    "the refusal names the rewritten map");
		ASSERT_OK(try_unsigned(), "no policy attached after the refused load");
		goto out;
	}
	err = try_unsigned();
	printf("# unsigned socket_filter with keyring-allowlist (unsigned deny) attached: %d\n", err);
	policy_cli("status", NULL);
	policy_dump_out();
	if (!err)
		printf("# BYPASS: root without a key rewrote keyring-allowlist's config between the CLI's write and its freeze: unsigned programs load while it is attached\n");
	ASSERT_ERR(err, EPERM, "unsigned socket_filter refused");
out:
	policy_unload_all();
}

/*
 * Freeze first: root watches for a new keyring-allowlist's "config" map
 * and freezes it the moment the loader is done with it (EPERM while the
 * loader runs), before the CLI has written it.  The CLI's write then
 * fails and no policy is attached.  No ptrace; a race the attacker wins
 * whenever its freeze lands in the CLI's keyrings/keys writes.
 */
#define FREEZE_ATTEMPTS	3

static void freeze_first(__u32 from)
{
	long tries = 0;
	int fd = -1;

	while (fd < 0)
		fd = find_map(from, "config", sizeof(struct bpfsign_allow_config));
	while (bpf_map_freeze(fd))
		tries++;
	printf("#   freezer: config frozen after %ld refusals\n", tries);
	fflush(stdout);
	_exit(0);
}

TEST_EXPLICIT(attack_round4_freeze_first)
{
	int i, rc, status, failed = 0;
	pid_t pid;

	policy_unload_all();
	if (policy_write_file(POLICY_FILE, STRICT_POLICY))
		return;
	/* control: loaded with no freezer, it attaches and refuses unsigned programs */
	if (!POLICY_CLI_OK("load", "load", "keyring-allowlist", "--policy", POLICY_FILE))
		return;
	ASSERT_ERR(try_unsigned(), EPERM, "unsigned socket_filter (control)");
	policy_unload_all();
	for (i = 0; i < FREEZE_ATTEMPTS; i++) {
		__u32 from = last_map_id();

		fflush(stdout);
		pid = fork();
		if (!pid)
			freeze_first(from);
		rc = policy_cli("load", "keyring-allowlist", "--policy", POLICY_FILE, NULL);
		kill(pid, SIGKILL);	/* a freezer that lost keeps trying */
		waitpid(pid, &status, 0);
		printf("# attempt %d: load with the freezer running: exit %d\n", i, rc);
		if (rc) {
			failed++;
			policy_dump_out();
		}
		policy_unload_all();
	}
	if (failed)
		printf("# BYPASS: root without a key kept keyring-allowlist from being attached %d of %d times (froze its config first), no unpin\n",
		       failed, FREEZE_ATTEMPTS);
	ASSERT_EQ(failed, 0, "keyring-allowlist loads with the freezer running");
}

/* --- BPF-token holders on the policies' hooks -------------------------- */

/*
 * A token (token.c) delegates every program and attach type, so its
 * holder, root of a user namespace, passes bpf_token_capable(CAP_BPF,
 * CAP_PERFMON) for LSM and tracing programs.  The property: an unsigned
 * LSM program on bpf_prog_load and an fentry on the guard's function are
 * refused (stage "hook"), and the kit's signed light skeletons do not load
 * for it at all (skel_internal.h passes no token; a loader's children are
 * checked against the init namespace's capabilities).  Control: the same
 * loads succeed with the token while no policy is attached.
 */
static int lsm_id, fentry_id;

/* bit 0: the LSM program loaded, bit 1: the fentry, bit 2: the skeleton */
static int token_hook_loads(int token_fd, void *arg)
{
	LIBBPF_OPTS(bpf_prog_load_opts, lo, .expected_attach_type = BPF_LSM_MAC,
		    .attach_btf_id = lsm_id, .prog_flags = BPF_F_TOKEN_FD, .token_fd = token_fd);
	LIBBPF_OPTS(bpf_prog_load_opts, fo, .expected_attach_type = BPF_TRACE_FENTRY,
		    .attach_btf_id = fentry_id, .prog_flags = BPF_F_TOKEN_FD,
		    .token_fd = token_fd);
	struct keyring_allowlist *s;
	int fd, r = 0;

	fd = load_prog_type(BPF_PROG_TYPE_LSM, ret0, ARRAY_LEN(ret0), &lo);
	printf("#   token: lsm/bpf_prog_load: %d errno %d\n", fd, fd < 0 ? errno : 0);
	if (fd >= 0) {
		r |= 1;
		close(fd);
	}
	fd = load_prog_type(BPF_PROG_TYPE_TRACING, ret0, ARRAY_LEN(ret0), &fo);
	printf("#   token: fentry/bpf_lsm_bpf_prog: %d errno %d\n", fd, fd < 0 ? errno : 0);
	if (fd >= 0) {
		r |= 2;
		close(fd);
	}
	s = keyring_allowlist__open();
	fd = s ? keyring_allowlist__load(s) : -ENOMEM;
	printf("#   token: keyring-allowlist light skeleton: %d errno %d (%s)\n", fd,
	       fd < 0 ? errno : 0, s && s->errstr ? s->errstr : "-");
	if (!fd)
		r |= 4;
	if (s)
		keyring_allowlist__destroy(s);
	fflush(stdout);
	return r;
}

TEST_EXPLICIT(attack_round4_token_hooks)
{
	__u64 before[BPFSIGN_STAT_MAX], after[BPFSIGN_STAT_MAX];
	int r, rc;

	lsm_id = libbpf_find_vmlinux_btf_id("bpf_prog_load", BPF_LSM_MAC);
	fentry_id = libbpf_find_vmlinux_btf_id("bpf_lsm_bpf_prog", BPF_TRACE_FENTRY);
	if (!ASSERT_GE(lsm_id, 1, "BTF id of bpf_lsm_bpf_prog_load") ||
	    !ASSERT_GE(fentry_id, 1, "BTF id of bpf_lsm_bpf_prog"))
		return;
	policy_unload_all();
	r = run_with_token(token_hook_loads, NULL);
	printf("# token holder, no policy: %d\n", r);
	/* control: the token admits both programs */
	if (!ASSERT_TRUE(r >= 0 && (r & 3) == 3, "token holder loads lsm and fentry (control)"))
		return;
	if (!POLICY_CLI_OK("load", "load", "deny-unsigned"))
		return;
	if (!ASSERT_TRUE(policy_status_counts("deny-unsigned", before, &rc), "status before"))
		goto out;
	r = run_with_token(token_hook_loads, NULL);
	printf("# token holder, deny-unsigned attached: %d\n", r);
	if (r & 3)
		printf("# BYPASS: a token holder loaded an unsigned program on a policy's hook\n");
	ASSERT_EQ(r & 3, 0, "lsm and fentry on the policies' hooks refused");
	if (r & 4)
		printf("# token holder ran a signed light skeleton (copies possible)\n");
	ASSERT_EQ(r & 4, 0, "token holder cannot run the kit's light skeleton");
	if (ASSERT_TRUE(policy_status_counts("deny-unsigned", after, &rc), "status after"))
		ASSERT_GE(after[BPFSIGN_DENY] - before[BPFSIGN_DENY], 2, "both denials counted");
	rc = policy_cli("log", "deny-unsigned", NULL);
	/* stage "hook": the denials name the attempt on the trampolines */
	ASSERT_GE(policy_count(policy_out, "\"stage\":\"hook\""), 2, "two records at stage hook");
	policy_dump_out();
out:
	policy_unload_all();
}

/* --- retargeting, the old attach API, link updates, fentry on copies -- */

/*
 * keyring-allowlist with type rules that need no weakens-policy (tracing).
 * An unsigned fentry is admitted on a function no policy attaches to.  The
 * property: it cannot be linked to a policy's function afterwards (
 * BPF_LINK_CREATE with another target_btf_id, BPF_RAW_TRACEPOINT_OPEN
 * with a name), nor to a policy program (target_fd); a held signed copy's
 * LSM link cannot be updated to another program; fentry on the real
 * policy's program is refused its fd; freplace of a copy is refused; and
 * fentry on a copy's program, if admitted, does not take the policy
 * function's trampoline (the copy's own is used).
 */
static int func_btf_id(int prog_fd, const char *name)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	struct btf *btf;
	int id;

	if (bpf_prog_get_info_by_fd(prog_fd, &info, &len) || !info.btf_id)
		return -1;
	btf = btf__load_from_kernel_by_id(info.btf_id);
	if (!btf)
		return -1;
	id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
	btf__free(btf);
	return id;
}

TEST_EXPLICIT(attack_round4_retarget_and_copies)
{
	LIBBPF_OPTS(bpf_prog_load_opts, fo, .expected_attach_type = BPF_TRACE_FENTRY);
	LIBBPF_OPTS(bpf_link_create_opts, lo);
	struct audit_log *held = NULL;
	int fentry = -1, link = -1, copy_link = -1, own = -1, fd, id, rc;
	__u32 own_id;

	policy_unload_all();
	if (!policy_load_allowlist(POLICY_FILE, TYPES_POLICY))
		goto out;
	fo.attach_btf_id = libbpf_find_vmlinux_btf_id("bpf_lsm_bpf_map", BPF_TRACE_FENTRY);
	fentry = load_prog_type(BPF_PROG_TYPE_TRACING, ret0, ARRAY_LEN(ret0), &fo);
	/* control: the tracing rule admits an fentry off the policies' functions */
	if (!ASSERT_OK(fentry, "unsigned fentry on bpf_lsm_bpf_map admitted (control)"))
		goto out;
	/* control: the old API links it, to its load-time target */
	link = bpf_raw_tracepoint_open(NULL, fentry);
	if (ASSERT_OK(link, "BPF_RAW_TRACEPOINT_OPEN of the fentry (control)"))
		close(link);

	/* bpf_tracing_prog_attach(): a new target only for EXT, and only a program */
	lo.target_btf_id = libbpf_find_vmlinux_btf_id("bpf_lsm_bpf_prog", BPF_TRACE_FENTRY);
	link = bpf_link_create(fentry, 0, BPF_TRACE_FENTRY, &lo);
	printf("# LINK_CREATE to bpf_lsm_bpf_prog's btf id: %d errno %d\n", link,
	       link < 0 ? errno : 0);
	if (!ASSERT_TRUE(link < 0, "fentry retargeted to bpf_lsm_bpf_prog refused")) {
		printf("# BYPASS: an unsigned fentry linked to the guard's function\n");
		close(link);
	}
	link = bpf_raw_tracepoint_open("bpf_lsm_bpf_prog", fentry);
	printf("# RAW_TRACEPOINT_OPEN(\"bpf_lsm_bpf_prog\"): %d errno %d\n", link,
	       link < 0 ? errno : 0);
	if (!ASSERT_TRUE(link < 0, "fentry named to bpf_lsm_bpf_prog by the old API refused")) {
		printf("# BYPASS: an unsigned fentry linked to the guard's function (old API)\n");
		close(link);
	}

	/* the real policy's guard program: its fd is the policy's own */
	own_id = policy_link_prog_id("keyring-allowlist", "link_guard");
	own = own_id ? bpf_prog_get_fd_by_id(own_id) : -1;
	if (!ASSERT_OK(own, "the policy's guard by id"))
		goto out;
	id = func_btf_id(own, "guard");
	if (!ASSERT_GE(id, 1, "BTF id of the policy's guard function"))
		goto out;
	LIBBPF_OPTS_RESET(lo, .target_btf_id = id);
	link = bpf_link_create(fentry, own, BPF_TRACE_FENTRY, &lo);
	printf("# LINK_CREATE of the fentry onto the policy's guard: %d errno %d\n", link,
	       link < 0 ? errno : 0);
	if (!ASSERT_TRUE(link < 0, "fentry retargeted to the policy's guard refused")) {
		printf("# BYPASS: an unsigned fentry linked onto the policy's program\n");
		close(link);
	}
	/* the policy's LSM link: a tracing link, no detach op */
	fd = bpf_obj_get(POLICY_PIN_DIR "/keyring-allowlist/link_guard");
	if (ASSERT_OK(fd, "the guard's link pin")) {
		rc = bpf_link_detach(fd);
		printf("# LINK_DETACH of the policy's guard link: %d errno %d\n", rc,
		       rc ? errno : 0);
		if (!ASSERT_ERR(rc, EOPNOTSUPP, "BPF_LINK_DETACH of the policy's link"))
			printf("# BYPASS: root detached the policy's guard without unpinning it\n");
		close(fd);
	}
	LIBBPF_OPTS_RESET(fo, .expected_attach_type = BPF_TRACE_FENTRY, .attach_prog_fd = own,
			  .attach_btf_id = id);
	fd = load_prog_type(BPF_PROG_TYPE_TRACING, ret0, ARRAY_LEN(ret0), &fo);
	/* the guard: dst_prog is one of the policy's own */
	if (!ASSERT_ERR(fd, EACCES, "fentry on the policy's guard refused its fd"))
		close(fd);

	/* a signed copy of audit-log, held by root, its guard linked */
	held = audit_log__open();
	if (!ASSERT_TRUE(held != NULL, "open a copy"))
		goto out;
	rc = audit_log__load(held);
	if (!ASSERT_EQ(rc, 0, "signed copy admitted (a VERIFIED loader's children)"))
		goto out;
	copy_link = bpf_link_create(held->progs.guard.prog_fd, 0, BPF_LSM_MAC, NULL);
	if (!ASSERT_OK(copy_link, "the copy's guard linked"))
		goto out;
	rc = bpf_link_update(copy_link, fentry, NULL);
	printf("# LINK_UPDATE of the copy's LSM link to the fentry: %d errno %d\n", rc,
	       rc ? errno : 0);
	ASSERT_TRUE(rc < 0, "LINK_UPDATE of a tracing/LSM link refused");
	rc = bpf_link_update(copy_link, held->progs.audit_lsm.prog_fd, NULL);
	printf("# LINK_UPDATE of the copy's LSM link to its own audit_lsm: %d errno %d\n", rc,
	       rc ? errno : 0);
	ASSERT_TRUE(rc < 0, "LINK_UPDATE to the copy's other program refused");

	id = func_btf_id(held->progs.guard.prog_fd, "guard");
	if (!ASSERT_GE(id, 1, "BTF id of the copy's guard function"))
		goto out;
	/* freplace of the copy's (global) guard: unsigned ext, refused by type */
	LIBBPF_OPTS_RESET(fo, .attach_prog_fd = held->progs.guard.prog_fd, .attach_btf_id = id);
	fd = load_prog_type(BPF_PROG_TYPE_EXT, ret0, ARRAY_LEN(ret0), &fo);
	printf("# freplace of the copy's guard: %d errno %d\n", fd, fd < 0 ? errno : 0);
	if (!ASSERT_ERR(fd, EPERM, "unsigned freplace of a signed copy refused")) {
		printf("# BYPASS: unsigned freplace of a signed copy's LSM program\n");
		close(fd);
	}
	/* fentry on the copy's guard: admitted by "tracing"; on its own trampoline */
	LIBBPF_OPTS_RESET(fo, .expected_attach_type = BPF_TRACE_FENTRY,
			  .attach_prog_fd = held->progs.guard.prog_fd, .attach_btf_id = id);
	fd = load_prog_type(BPF_PROG_TYPE_TRACING, ret0, ARRAY_LEN(ret0), &fo);
	printf("# fentry on the copy's guard: %d errno %d\n", fd, fd < 0 ? errno : 0);
	if (fd >= 0) {
		link = bpf_raw_tracepoint_open(NULL, fd);
		printf("# ... linked: %d errno %d; the policy still refuses: %d\n", link,
		       link < 0 ? errno : 0, policy_try_unsigned_syscall());
		ASSERT_ERR(policy_try_unsigned_syscall(), EPERM,
			   "policy decides with an fentry on a copy's guard");
		if (link >= 0)
			close(link);
		close(fd);
	}
	/* the policy is reloaded with the copy still linked (our fd of its
	 * guard closed first: the CLI waits for the program to go)
	 */
	close(own);
	own = -1;
	rc = policy_cli("unload", "keyring-allowlist", NULL);
	if (rc)
		policy_dump_out();
	ASSERT_EQ(rc, 0, "unload");
	rc = policy_cli("load", "keyring-allowlist", "--policy", POLICY_FILE, NULL);
	if (rc)
		policy_dump_out();
	ASSERT_EQ(rc, 0, "reload with one copy and its fentry around");
out:
	if (copy_link >= 0)
		close(copy_link);
	if (held)
		audit_log__destroy(held);
	if (own >= 0)
		close(own);
	if (fentry >= 0)
		close(fentry);
	policy_unload_all();
}

/* --- the functions the policies attach to, now and after an update ---- */

#define HOOK_STR(fn)	#fn,
static const char *const policy_hooks[] = { BPFSIGN_POLICY_HOOKS(HOOK_STR) };

/* the vmlinux function prog_id is attached to, into name: 0 or -1 */
static int prog_target(const struct btf *vmlinux, __u32 prog_id, char *name, size_t size)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	const struct btf_type *t;
	int fd = bpf_prog_get_fd_by_id(prog_id), err;

	if (fd < 0)
		return -1;
	err = bpf_prog_get_info_by_fd(fd, &info, &len);
	close(fd);
	if (err || !info.attach_btf_id)
		return -1;
	t = btf__type_by_id(vmlinux, info.attach_btf_id);
	if (!t)
		return -1;
	snprintf(name, size, "%s", btf__name_by_offset(vmlinux, t->name_off));
	return 0;
}

/*
 * The hook check protects the functions in BPFSIGN_POLICY_HOOKS, not the
 * ones the loaded policies really attach to.  The property: every link
 * of every policy the CLI loads is on a function of that list (a policy
 * that gained a hook without the list would leave its trampoline open).
 */
TEST_EXPLICIT(attack_round4_hooks_cover_policies)
{
	static const char *const links[] = {
		"deny-unsigned/link_deny_unsigned", "deny-unsigned/link_guard",
		"keyring-allowlist/link_keyring_allowlist", "keyring-allowlist/link_guard",
		"audit-log/link_audit_lsm", "audit-log/link_audit_check", "audit-log/link_guard",
	};
	struct btf *vmlinux = btf__load_vmlinux_btf();
	char name[128];
	__u32 i, j, prog;
	bool listed;

	if (!ASSERT_TRUE(vmlinux != NULL, "vmlinux BTF"))
		return;
	policy_unload_all();
	if (!POLICY_CLI_OK("load audit-log", "load", "audit-log") ||
	    !POLICY_CLI_OK("load keyring-allowlist", "load", "keyring-allowlist") ||
	    !POLICY_CLI_OK("load deny-unsigned", "load", "deny-unsigned"))
		goto out;
	for (i = 0; i < ARRAY_LEN(links); i++) {
		char policy[64];
		const char *slash = strchr(links[i], '/');

		snprintf(policy, sizeof(policy), "%.*s", (int)(slash - links[i]), links[i]);
		prog = policy_link_prog_id(policy, slash + 1);
		if (!ASSERT_TRUE(prog && !prog_target(vmlinux, prog, name, sizeof(name)),
				 links[i]))
			continue;
		for (listed = false, j = 0; j < ARRAY_LEN(policy_hooks); j++)
			listed |= !strcmp(name, policy_hooks[j]);
		printf("# %s: prog %u on %s: %s\n", links[i], prog, name,
		       listed ? "in BPFSIGN_POLICY_HOOKS" : "NOT in the list");
		if (!ASSERT_TRUE(listed, "the policy's function is protected"))
			printf("# BYPASS: %s attaches to %s, which the hook check does not protect\n",
			       links[i], name);
	}
out:
	btf__free(vmlinux);
	policy_unload_all();
}

/*
 * An update that gives a policy a new function (bpf_lsm_bpf_prog_free, to
 * drop state of freed programs, say) is checked by the policy that runs
 * before it, whose list does not name that function.  keyring-allowlist
 * with "unsigned allow type tracing" (no weakens-policy) admits unsigned
 * fentry programs on it; 38 of them fill its trampoline while the old
 * policy is attached, and the new version cannot attach (E2BIG).  Expected
 * to fail (latent: no policy attaches there today): it shows what an
 * update that adds a hook must do first (list it, and reload the old
 * policy with the list, before shipping the new program).
 */
#define FILL	(38 + 2)	/* BPF_MAX_TRAMP_LINKS + spare */

TEST_EXPLICIT(attack_round4_prefill_future_hook)
{
	LIBBPF_OPTS(bpf_prog_load_opts, fo, .expected_attach_type = BPF_TRACE_FENTRY);
	int prog[FILL], link[FILL], i, n = 0, err = 0;

	for (i = 0; i < FILL; i++)
		prog[i] = link[i] = -1;
	policy_unload_all();
	if (!policy_load_allowlist(POLICY_FILE, TYPES_POLICY))
		goto out;
	fo.attach_btf_id = libbpf_find_vmlinux_btf_id("bpf_lsm_bpf_prog_free", BPF_TRACE_FENTRY);
	if (!ASSERT_GE(fo.attach_btf_id, 1, "BTF id of bpf_lsm_bpf_prog_free"))
		goto out;
	for (i = 0; i < FILL; i++) {
		prog[i] = load_prog_type(BPF_PROG_TYPE_TRACING, ret0, ARRAY_LEN(ret0), &fo);
		if (prog[i] < 0) {
			err = errno;
			break;
		}
		link[i] = bpf_raw_tracepoint_open(NULL, prog[i]);
		if (link[i] < 0) {
			err = errno;
			break;
		}
		n++;
	}
	printf("# %d unsigned fentry linked on bpf_lsm_bpf_prog_free, then errno %d (%s)\n", n, err,
	       strerrorname_np(err) ?: "-");
	if (n >= 38)
		printf("# LATENT: the trampoline of bpf_lsm_bpf_prog_free is full: a policy version that attaches there cannot be loaded\n");
	ASSERT_TRUE(n < 38, "an unlisted function's trampoline cannot be filled");
out:
	for (i = 0; i < FILL; i++) {
		if (link[i] >= 0)
			close(link[i]);
		if (prog[i] >= 0)
			close(prog[i]);
	}
	policy_unload_all();
}
