// SPDX-License-Identifier: GPL-2.0
/*
 * Third hostile review of issue 42's fix: "no unsigned program takes a slot
 * on the policies' own trampolines" (policy_hook_target(), policy.bpf.h).
 * Property under attack: "while a policy is attached, nobody without a
 * trusted signing key can switch it off, through an update either".
 * Attacker: root (or CAP_BPF + CAP_PERFMON) without any signing key.  A FAIL
 * is a bypass and its "# BYPASS" line says what the attacker got.  Explicit:
 * the attack_round3_signed_replay_* tests run in the guest-policies-replay
 * boot (scripts/run-tests.sh); attack_round3_kprobes_reload in no boot:
 *
 *   BPFSIGN_QUIET=1 qemu/run-guest.sh attack_round3_kprobes_reload
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
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

/* closing a link's last fd detaches it before close() returns */
static void destroy_copies(struct audit_log **copies)
{
	int i;

	for (i = 0; i < COPIES; i++) {
		if (copies[i])
			audit_log__destroy(copies[i]);
		copies[i] = NULL;
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
 * Root without a key, the policy attached:
 *   1. `bpfsign-policy load audit-log --pin-dir DIR`, or the same signed
 *      light skeleton, until the guard's trampoline is full (37 copies +
 *      the attached guard = 38);
 *   2. one more copy through the same signed light skeleton, loaded now
 *      (the policy admits it: a VERIFIED loader's children) but not linked;
 *   3. the administrator's update, `load` of the loaded policy; the
 *      attacker links the held copy's guard into any slot it frees.
 * Before make-before-break the update was unload + load: step 3 freed the
 * old guard's slot, the held copy took it, the load failed with E2BIG and
 * no policy was attached (# BYPASS).  The copies are byte-identical to the
 * kit's own programs: nothing in the kernel tells them from an update.
 * The property now: the policy is never off, at any step (an unsigned
 * load is refused); the update with the trampoline full fails, names E2BIG
 * and the function, and leaves the old instance pinned; once the copies
 * are gone the update succeeds and the new instance is the pinned one.
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

/* the policy enforces: an unsigned syscall program (no type rule admits
 * it) is refused by the policy's decision program
 */
static void assert_enforcing(const char *policy, const char *step)
{
	int err = policy_try_unsigned_syscall();

	if (!ASSERT_EQ(err, -EPERM, step))
		printf("# BYPASS: %s is off %s: an unsigned program loaded\n", policy, step);
}

static void replay_attack(const char *policy, const char *text)
{
	struct audit_log *held = NULL, *copies[COPIES] = {};
	__u32 old_guard, old_decision, guard;
	int n, rc, link = -1, err = 0;
	const char *decision;
	struct stat st;
	char pin[128];

	decision = strcmp(policy, "deny-unsigned") ? "link_keyring_allowlist" : "link_deny_unsigned";
	policy_unload_all();
	rc = load_policy(policy, text);
	if (!ASSERT_EQ(rc, 0, "load the policy")) {
		policy_dump_out();
		goto out;
	}
	assert_enforcing(policy, "after the load");
	hook_check_control();
	/* the copies through the kit's signed light skeleton, in this process,
	 * each linking only its guard: `load audit-log --pin-dir DIR` links
	 * all three programs, and costs an exec, pins and two more trampoline
	 * updates per copy (minutes under TCG); the guard's trampoline is the
	 * one that fills first, the policy's guard is on it too
	 */
	for (n = 0; n < COPIES; n++) {
		copies[n] = audit_log__open();
		if (!copies[n] || audit_log__load(copies[n]))
			break;
		if (audit_log__guard__attach(copies[n]) < 0) {
			err = errno;
			break;
		}
	}
	printf("# %d copies of the signed audit-log's guard linked beside %s; then errno %d\n",
	       n, policy, err);
	/* the attack's premise: the copies fill the guard's trampoline */
	ASSERT_EQ(err, E2BIG, "the copies fill a trampoline");
	if (n < COPIES && copies[n]) {
		audit_log__destroy(copies[n]);
		copies[n] = NULL;
	}
	assert_enforcing(policy, "after the copies");
	held = audit_log__open();
	if (!ASSERT_TRUE(held != NULL, "open the held copy"))
		goto out;
	rc = audit_log__load(held);
	printf("# a signed copy loaded (not linked) while %s is attached: %d\n", policy, rc);
	ASSERT_EQ(rc, 0, "the held copy loads (a VERIFIED loader's children)");
	assert_enforcing(policy, "after the held copy");
	if (!rc) {
		/* no slot is free: nothing was unloaded */
		link = bpf_link_create(held->progs.guard.prog_fd, 0, BPF_LSM_MAC, NULL);
		printf("# the held copy's guard linked before the update: %d errno %d\n", link,
		       link < 0 ? errno : 0);
		ASSERT_ERR(link, E2BIG, "the held copy's link: the trampoline is full");
	}
	assert_enforcing(policy, "after the attacker's link attempt");

	/* the update, with the trampoline full */
	old_guard = policy_link_prog_id(policy, "link_guard");
	old_decision = policy_link_prog_id(policy, decision);
	rc = load_policy(policy, text);
	printf("# update of %s with the trampoline full: exit %d\n", policy, rc);
	policy_dump_out();
	if (!ASSERT_TRUE(rc != 0, "the update fails while the trampoline is full"))
		goto out;
	/* attach_err(): E2BIG, named with the full function */
	ASSERT_HAS(policy_out, "attach to bpf_lsm_bpf_prog: Argument list too long",
		   "the error names E2BIG and the function");
	ASSERT_HAS(policy_out, "other loaded programs target bpf_lsm_bpf_prog",
		   "the error counts the programs on it");
	ASSERT_HAS(policy_out, "not replaced", "the error says the old one stays");
	ASSERT_EQ(policy_link_prog_id(policy, "link_guard"), old_guard, "old guard still pinned");
	ASSERT_EQ(policy_link_prog_id(policy, decision), old_decision,
		  "old decision program still pinned");
	snprintf(pin, sizeof(pin), POLICY_PIN_DIR "/%s_new", policy);
	ASSERT_TRUE(stat(pin, &st), "the failed instance's pins are gone");
	assert_enforcing(policy, "after the failed update");

	/* the administrator removes the copies; then the update goes through */
	if (link >= 0)
		close(link);
	link = -1;
	audit_log__destroy(held);
	held = NULL;
	destroy_copies(copies);
	assert_enforcing(policy, "after the copies are unloaded");
	rc = load_policy(policy, text);
	if (!ASSERT_EQ(rc, 0, "the update once the copies are gone")) {
		policy_dump_out();
		goto out;
	}
	ASSERT_HAS(policy_out, "replaced", "the update says it replaced");
	guard = policy_link_prog_id(policy, "link_guard");
	ASSERT_TRUE(guard && guard != old_guard, "the new instance's guard is the pinned one");
	ASSERT_TRUE(policy_link_prog_id(policy, decision) != old_decision,
		    "the new decision program is the pinned one");
	ASSERT_ERR(bpf_prog_get_fd_by_id(old_guard), ENOENT, "the old guard is unloaded");
	assert_enforcing(policy, "after the update");
out:
	if (link >= 0)
		close(link);
	if (held)
		audit_log__destroy(held);
	destroy_copies(copies);
	policy_unload_all();
}

TEST_EXPLICIT(attack_round3_signed_replay_reload)
{
	replay_attack("deny-unsigned", NULL);
}

/* keyring-allowlist with "children allow" (signed light skeletons need it;
 * no weakens-policy): the copies pass as a VERIFIED loader's children
 */
TEST_EXPLICIT(attack_round3_signed_replay_allowlist_children)
{
	replay_attack("keyring-allowlist", TYPES_POLICY);
}

/* the CLI's default allowlist (builtin, secondary; children default allow):
 * the copies pass too
 */
TEST_EXPLICIT(attack_round3_signed_replay_allowlist_default)
{
	replay_attack("keyring-allowlist", "keyring allow builtin\nkeyring allow secondary\n");
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
