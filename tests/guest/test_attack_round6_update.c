// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile review, round 6: policy updates (load of a loaded policy,
 * make-before-break) and who may install MAC policy (CAP_MAC_ADMIN in the
 * initial user namespace).  Property under test: "while a decision policy
 * is attached, nothing but root's explicit unpin removes the policy or
 * keeps it from being attached again; an update never leaves the machine
 * without the policy, nor an old instance attached that status does not
 * show; only CAP_MAC_ADMIN in the initial namespace installs MAC policy".
 * Explicit, by name, each in a boot of its own or together:
 *
 *   BPFSIGN_QUIET=1 qemu/run-guest.sh attack_round6_pin_dir_precreated \
 *       attack_round6_pin_dir_control attack_round6_signal_blocks_update \
 *       attack_round6_signal_control attack_round6_killed_after_swap \
 *       attack_round6_kprobe_on_policy_hook
 *
 *   attack_round6_pin_dir_precreated   FAILS: uid 1000 without any
 *                                      capability creates the pin
 *                                      directory before root's first load
 *                                      (bpffs is mounted 1777), swaps in
 *                                      its own NAME_new while the CLI
 *                                      loads, then unlinks the links:
 *                                      deny-unsigned is gone
 *   attack_round6_pin_dir_control      control: passes (root made the pin
 *                                      directory: the same attacker gets
 *                                      EACCES, the policy stays)
 *   attack_round6_signal_blocks_update FAILS: CAP_BPF + CAP_PERFMON
 *                                      (uid 1000) under a keyring-allowlist
 *                                      whose types need no weakens-policy
 *                                      (tracing) links an fentry program
 *                                      on security_bpf that
 *                                      bpf_send_signal(SIGKILL)s the CLI:
 *                                      root's update never happens; its
 *                                      lsm program is refused (mac-admin)
 *   attack_round6_signal_control       control: passes (the same program
 *                                      not linked: the update succeeds)
 *   attack_round6_killed_after_swap    FAILS: the same attacker's fexit on
 *                                      do_renameat2 kills the CLI right
 *                                      after the exchange: the old
 *                                      instance stays attached in NAME_new
 *                                      and enforces, status exits 0 and
 *                                      never names it
 *   attack_round6_kprobe_on_policy_hook FAILS: the same attacker's
 *                                      unsigned kprobe (no weakens-policy)
 *                                      on bpf_lsm_bpf_prog_load, a policy's
 *                                      own function, is not refused (the
 *                                      README says "any type", stage hook)
 *                                      and kills the CLI there
 *
 * Observed (one boot each, TCG): the four FAILS tests fail as described,
 * the two controls pass.
 *
 * Each test unloads every policy before and after it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <linux/perf_event.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runner.h"
#include "util.h"
#include "policy_fixture.h"

#define ATTACK_UID	1000
#define DU_DIR		POLICY_PIN_DIR "/deny-unsigned"
#define DU_NEW		DU_DIR "_new"
#define DU_STOLEN	POLICY_PIN_DIR "/stolen"
#define KA_DIR		POLICY_PIN_DIR "/keyring-allowlist"
#define KA_NEW		KA_DIR "_new"
#define POLICY_FILE	"/tmp/attack6.policy"
/* only types that need no 'weakens-policy' */
#define TYPES_POLICY	"keyring allow builtin\nkeyring allow secondary\nunsigned deny\n" \
			"unsigned allow type tracing\nunsigned allow type kprobe\n"
/* the update: the same, and unsigned socket filters */
#define TYPES_POLICY_SF	TYPES_POLICY "unsigned allow type socket_filter\n"

static const struct bpf_insn ret0[] = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() };

/* an unsigned socket_filter: what every decision policy here refuses */
static int try_unsigned(void)
{
	int fd = load_prog(ret0, ARRAY_LEN(ret0), NULL);

	if (fd >= 0)
		close(fd);
	return fd < 0 ? -errno : 0;
}

/* uid/gid ATTACK_UID, no capability at all: 0 or -1 */
static int become_nobody(void)
{
	if (setgroups(0, NULL) || setresgid(ATTACK_UID, ATTACK_UID, ATTACK_UID) ||
	    setresuid(ATTACK_UID, ATTACK_UID, ATTACK_UID))
		return -1;
	return 0;
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

/* Unlink every entry of dir, then dir: as root, for the cleanup */
static void rm_dir(const char *dir)
{
	char path[512];
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

/* what an attack left (its own directories, an old instance), then every
 * policy the CLI knows
 */
static void clean_pins(void)
{
	struct stat st;

	rm_dir(DU_NEW);
	rm_dir(DU_STOLEN);
	rm_dir(KA_NEW);
	if (!stat(DU_DIR, &st) && st.st_uid == ATTACK_UID)
		rm_dir(DU_DIR);
	policy_unload_all();
	if (!stat(POLICY_PIN_DIR, &st) && st.st_uid == ATTACK_UID)
		rmdir(POLICY_PIN_DIR);
}

/* the decision policy refuses unsigned loads within 5 s of the last
 * change, and still does: -EPERM, or 0 once a load passed
 */
static int unsigned_after_settle(void)
{
	int i, rc = 0;

	for (i = 0; i < 50; i++) {
		rc = try_unsigned();
		if (!rc)
			return 0;
		usleep(100000);
	}
	return rc;
}

/* --- the pin directory is trusted as found ---------------------------- */

/*
 * The attacker's child: owns POLICY_PIN_DIR and DU_DIR (created 0777
 * before root's first load), reports on out, then waits until root's
 * CLI makes DU_NEW and puts its own directory in its place; rc 0 when
 * the swap was made.
 */
static void precreate_and_swap(int out)
{
	int rc = 0, i;
	struct stat st;

	if (become_nobody())
		rc = 100;
	if (!rc && (mkdir(POLICY_PIN_DIR, 0777) || chmod(POLICY_PIN_DIR, 0777)))
		rc = 101;
	if (!rc && (mkdir(DU_DIR, 0777) || chmod(DU_DIR, 0777)))
		rc = 102;
	if (rc)
		rc = rc * 1000 + errno;
	if (write(out, &rc, sizeof(rc)) != sizeof(rc) || rc)
		_exit(1);
	for (i = 0; i < 600000; i++) {		/* up to 60 s */
		if (!stat(DU_NEW, &st) && st.st_uid == 0)
			break;
		usleep(100);
	}
	if (rename(DU_NEW, DU_STOLEN) || mkdir(DU_NEW, 0777) || chmod(DU_NEW, 0777))
		rc = 200 * 1000 + errno;
	if (write(out, &rc, sizeof(rc)) != sizeof(rc))
		_exit(1);
	_exit(0);
}

/* A child of uid ATTACK_UID (no capability) unlinks every pin in dir:
 * the number unlinked, or -errno of the first refusal
 */
static int nobody_unpins(const char *dir)
{
	int out[2], rc = -1;
	pid_t pid;

	if (pipe(out))
		return -1;
	fflush(stdout);
	pid = fork();
	if (!pid) {
		char path[512];
		struct dirent *de;
		DIR *d;
		int n = 0;

		close(out[0]);
		if (become_nobody())
			n = -EPERM * 1000;
		d = n ? NULL : opendir(dir);
		if (!n && !d)
			n = -errno;
		while (d && (de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			if (unlink(path)) {
				n = -errno;
				break;
			}
			n++;
		}
		if (write(out[1], &n, sizeof(n)) != sizeof(n))
			_exit(1);
		_exit(0);
	}
	close(out[1]);
	if (pid < 0 || read(out[0], &rc, sizeof(rc)) != sizeof(rc))
		rc = -1000000;
	close(out[0]);
	waitpid(pid, NULL, 0);
	return rc;
}

/*
 * Attacker: any local user (uid 1000, no capability), before root's first
 * load at boot.  `mount -t bpf bpffs /sys/fs/bpf` (what the CLI's error
 * message tells, and what this guest's init does) gives a 1777 root;
 * pin_mkdir_parent() and mkdir_one() take an existing directory as found,
 * whoever owns it, and run_load() takes an existing DIR/NAME for a loaded
 * policy.  The attacker makes /sys/fs/bpf/bpfsign and .../deny-unsigned
 * (0777); root's `load deny-unsigned` then replaces: mkdir NAME_new (root,
 * 0700), load (slow: the attacker's rename lands first), pin into
 * NAME_new, which is now the attacker's, exchange, unpin the attacker's
 * empty one.  The links end up pinned in a directory uid 1000 owns, and
 * uid 1000 unlinks them: the policy detaches.  Fixed: pin_trusted()
 * (pins.c) refuses a pin directory that is not root's or that others can
 * write, naming it; guest-policies-guard.
 */
TEST_EXPLICIT(attack_round6_pin_dir_precreated)
{
	int out[2], rc = -1, rc2 = -1, cli, n;
	struct stat st;
	pid_t pid;

	clean_pins();
	rmdir(POLICY_PIN_DIR);		/* as at boot: no policy loaded yet */
	if (!ASSERT_TRUE(stat(POLICY_PIN_DIR, &st) && errno == ENOENT, "no pin dir yet"))
		return;
	if (!ASSERT_TRUE(!stat("/sys/fs/bpf", &st), "stat /sys/fs/bpf"))
		return;
	printf("# /sys/fs/bpf mode %o\n", st.st_mode & 07777);
	if (pipe(out))
		return (void)FAIL("pipe");
	fflush(stdout);
	pid = fork();
	if (!pid) {
		close(out[0]);
		precreate_and_swap(out[1]);
	}
	close(out[1]);
	if (read(out[0], &rc, sizeof(rc)) != sizeof(rc))
		rc = -1;
	if (!ASSERT_EQ(rc, 0, "uid 1000 creates the pin dir and DIR/deny-unsigned"))
		goto out;
	cli = policy_cli("load", "deny-unsigned", NULL);
	printf("# root's first load of deny-unsigned: exit %d\n", cli);
	policy_dump_out();
	if (cli) {
		/* pin_trusted(): the directory uid 1000 made is refused, named */
		ASSERT_HAS(policy_out, ": owned by uid 1000, not this user",
			   "the load names the untrusted pin dir");
		kill(pid, SIGKILL);	/* it waits for a DIR/deny-unsigned_new */
		goto out;
	}
	if (read(out[0], &rc2, sizeof(rc2)) != sizeof(rc2))
		rc2 = -1;
	printf("# uid 1000 swapped DIR/deny-unsigned_new: %d\n", rc2);
	if (!stat(DU_DIR, &st))
		printf("# %s: uid %u mode %o\n", DU_DIR, st.st_uid, st.st_mode & 07777);
	/* harness: the policy enforces once root's load is done */
	ASSERT_EQ(cli, 0, "root's load exits 0");
	ASSERT_EQ(try_unsigned(), -EPERM, "deny-unsigned refuses an unsigned load after the load");
	n = nobody_unpins(DU_DIR);
	printf("# uid 1000 (no capability) unlinks the pins of %s: %d\n", DU_DIR, n);
	/* the property: only root's explicit unpin removes the policy */
	ASSERT_EQ(unsigned_after_settle(), -EPERM,
		  "deny-unsigned still refuses an unsigned load after uid 1000 unlinked its pins");
out:
	close(out[0]);
	waitpid(pid, NULL, 0);
	clean_pins();
}

/* The same attacker once root made the pin directory: refused, EACCES */
TEST_EXPLICIT(attack_round6_pin_dir_control)
{
	int n;

	clean_pins();
	if (!POLICY_CLI_OK("load deny-unsigned", "load", "deny-unsigned"))
		goto out;
	ASSERT_EQ(try_unsigned(), -EPERM, "deny-unsigned refuses an unsigned load");
	n = nobody_unpins(DU_DIR);
	printf("# uid 1000 unlinks the pins of %s: %d\n", DU_DIR, n);
	ASSERT_EQ(n, -EACCES, "uid 1000 cannot open root's pin dir");
	ASSERT_EQ(unsigned_after_settle(), -EPERM, "deny-unsigned still refuses");
	/* an update keeps root's directory */
	if (POLICY_CLI_OK("update deny-unsigned", "load", "deny-unsigned"))
		ASSERT_EQ(nobody_unpins(DU_DIR), -EACCES, "still root's after the update");
out:
	clean_pins();
}

/* --- a tracing program that signals the administrator's CLI ---------- */

/*
 * fentry/fexit on fn: bpf_send_signal(SIGKILL) when current's comm is
 * "bpfsign-policy" (the administrator's CLI), else nothing.  An
 * unsigned BPF_PROG_TYPE_TRACING that is neither fmod_ret nor on a
 * function of BPFSIGN_POLICY_HOOKS: not MAC policy in the README's sense,
 * so CAP_MAC_ADMIN is not asked.  fd, or -errno.
 */
static int load_cli_killer(const char *fn, enum bpf_attach_type at)
{
	__u64 w0, w1;
	char comm[16] = "bpfsign-policy";
	int id, fd;

	memcpy(&w0, comm, 8);
	memcpy(&w1, comm + 8, 8);
	{
		const struct bpf_insn insns[] = {
			MOV64_REG(BPF_REG_1, BPF_REG_10),
			ADD64_IMM(BPF_REG_1, -16),
			MOV64_IMM(BPF_REG_2, 16),
			CALL(BPF_FUNC_get_current_comm),
			INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_1, BPF_REG_10, -16, 0),
			INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_2, 0, 0, (__u32)w0),
			INSN(0, 0, 0, 0, (__u32)(w0 >> 32)),
			INSN(BPF_JMP | BPF_JNE | BPF_X, BPF_REG_1, BPF_REG_2, 6, 0),
			INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_1, BPF_REG_10, -8, 0),
			INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_2, 0, 0, (__u32)w1),
			INSN(0, 0, 0, 0, (__u32)(w1 >> 32)),
			INSN(BPF_JMP | BPF_JNE | BPF_X, BPF_REG_1, BPF_REG_2, 2, 0),
			MOV64_IMM(BPF_REG_1, SIGKILL),
			CALL(BPF_FUNC_send_signal),
			MOV64_IMM(BPF_REG_0, 0),
			EXIT_INSN(),
		};
		LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = at);

		if (at == BPF_PERF_EVENT) {	/* a kprobe: the target comes at attach */
			o.expected_attach_type = 0;
			fd = load_prog_type(BPF_PROG_TYPE_KPROBE, insns, ARRAY_LEN(insns), &o);
			return fd < 0 ? -errno : fd;
		}
		id = libbpf_find_vmlinux_btf_id(fn, at);
		if (id < 0)
			return id;
		o.attach_btf_id = id;
		fd = load_prog_type(BPF_PROG_TYPE_TRACING, insns, ARRAY_LEN(insns), &o);
	}
	return fd < 0 ? -errno : fd;
}

/* an unsigned lsm/bpf program (not a policy hook): 0 or -errno */
static int try_unsigned_lsm(void)
{
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = BPF_LSM_MAC);
	int fd, id = libbpf_find_vmlinux_btf_id("file_open", BPF_LSM_MAC);

	if (id < 0)
		return id;
	o.attach_btf_id = id;
	fd = load_prog_type(BPF_PROG_TYPE_LSM, ret0, ARRAY_LEN(ret0), &o);
	if (fd >= 0)
		close(fd);
	return fd < 0 ? -errno : 0;
}

/* a perf kprobe event on fn (the kprobe PMU): its fd, or -errno */
static int kprobe_event(const char *fn)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	char buf[32] = "";
	int fd, type;

	fd = open("/sys/bus/event_source/devices/kprobe/type", O_RDONLY);
	if (fd < 0)
		return -errno;
	if (read(fd, buf, sizeof(buf) - 1) <= 0)
		buf[0] = 0;
	close(fd);
	type = atoi(buf);
	if (type <= 0)
		return -ENOENT;
	attr.type = type;
	attr.config1 = (__u64)(unsigned long)fn;
	fd = syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

struct killer {
	pid_t pid;
	int in;		/* closed to let the child go */
	int lsm;	/* the same child's unsigned lsm load: 0 or -errno */
};

/*
 * Fork the attacker (CAP_BPF + CAP_PERFMON, uid 1000): it tries an
 * unsigned lsm program, loads the killer on fn and links it when link,
 * then holds it.  Its report: 0, or a code.
 */
static int start_killer(struct killer *k, const char *fn, enum bpf_attach_type at, bool link)
{
	int out[2], in[2], rep[2] = { -1, 0 };

	if (pipe(out) || pipe(in))
		return -1;
	fflush(stdout);
	k->pid = fork();
	if (!k->pid) {
		int rc = 0, fd = -1, l = -1, lsm = 0;
		char c;

		close(out[0]);
		close(in[1]);
		if (become_cap_bpf_perfmon())
			rc = 100 * 1000 + errno;
		if (!rc)
			lsm = try_unsigned_lsm();
		if (!rc) {
			fd = load_cli_killer(fn, at);
			if (fd < 0)
				rc = 101 * 1000 - fd;
		}
		if (!rc && link && at == BPF_PERF_EVENT) {
			int pfd = kprobe_event(fn);

			if (pfd < 0)
				rc = 103 * 1000 - pfd;
			else
				l = bpf_link_create(fd, pfd, at, NULL);
			if (!rc && l < 0)
				rc = 104 * 1000 + errno;
		} else if (!rc && link) {
			l = bpf_link_create(fd, 0, at, NULL);
			if (l < 0)
				rc = 102 * 1000 + errno;
		}
		rep[0] = rc;
		rep[1] = lsm;
		if (write(out[1], rep, sizeof(rep)) != sizeof(rep))
			_exit(1);
		while (read(in[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(out[1]);
	close(in[0]);
	k->in = in[1];
	if (k->pid < 0 || read(out[0], rep, sizeof(rep)) != sizeof(rep))
		rep[0] = -1;
	close(out[0]);
	k->lsm = rep[1];
	if (rep[0])
		printf("# killer: %d (%s)\n", rep[0], vlog);
	return rep[0];
}

static void stop_killer(struct killer *k)
{
	if (k->pid <= 0)
		return;
	close(k->in);
	waitpid(k->pid, NULL, 0);
	k->pid = 0;
}

/*
 * Attacker: a CAP_BPF + CAP_PERFMON process (uid 1000), under a
 * keyring-allowlist whose type rules need no 'weakens-policy'
 * (`unsigned allow type tracing`).  The CAP_MAC_ADMIN rule refuses it an
 * lsm program, as the README promises; an fentry on security_bpf (no
 * policy's function, not fmod_ret) that calls bpf_send_signal(SIGKILL)
 * for the CLI is not asked for CAP_MAC_ADMIN, and denies root's update
 * as an LSM would: F1 of round 4 by another program type.
 */
static void signal_update(bool link)
{
	struct killer k = {};
	int rc;

	clean_pins();
	if (!policy_load_allowlist(POLICY_FILE, TYPES_POLICY))
		goto out;
	rc = start_killer(&k, "security_bpf", BPF_TRACE_FENTRY, link);
	if (!ASSERT_EQ(rc, 0, "uid 1000 loads (and links) the unsigned fentry on security_bpf"))
		goto out;
	/* harness: the mac-admin rule holds for lsm */
	ASSERT_EQ(k.lsm, -EPERM, "uid 1000's unsigned lsm program is refused (mac-admin)");
	if (!ASSERT_TRUE(!policy_write_file(POLICY_FILE, TYPES_POLICY_SF), "write the update"))
		goto out;
	rc = policy_cli("load", "keyring-allowlist", "--policy", POLICY_FILE, NULL);
	printf("# root's update of keyring-allowlist: exit %d%s\n", rc,
	       rc == -1 ? " (killed)" : "");
	policy_dump_out();
	if (!access(KA_NEW, F_OK))
		printf("# %s left behind: the next update is refused until root removes it\n",
		       KA_NEW);
	/* the property: nothing but root decides whether its update happens */
	ASSERT_EQ(rc, 0, "root's update of keyring-allowlist exits 0");
	ASSERT_EQ(try_unsigned(), 0, "the update's rule (unsigned socket_filter) is in force");
out:
	stop_killer(&k);
	rm_dir(KA_NEW);
	clean_pins();
}

TEST_EXPLICIT(attack_round6_signal_blocks_update)
{
	signal_update(true);
}

TEST_EXPLICIT(attack_round6_signal_control)
{
	signal_update(false);
}

/*
 * The same attacker kills the CLI right after its renameat2(EXCHANGE)
 * (fexit on do_renameat2: the signal is delivered on the way back to user
 * space), before the old instance is unpinned.  Any kill there does the
 * same (the administrator's ^C, a unit's timeout).  The old instance, with
 * the old allowlist, stays pinned in NAME_new and attached: it refuses
 * what the new one admits; status shows only NAME.
 */
TEST_EXPLICIT(attack_round6_killed_after_swap)
{
	struct killer k = {};
	int rc;

	clean_pins();
	if (!policy_load_allowlist(POLICY_FILE, TYPES_POLICY))
		goto out;
	rc = start_killer(&k, "do_renameat2", BPF_TRACE_FEXIT, true);
	if (!ASSERT_EQ(rc, 0, "uid 1000 links the unsigned fexit on do_renameat2"))
		goto out;
	if (!ASSERT_TRUE(!policy_write_file(POLICY_FILE, TYPES_POLICY_SF), "write the update"))
		goto out;
	rc = policy_cli("load", "keyring-allowlist", "--policy", POLICY_FILE, NULL);
	printf("# root's update of keyring-allowlist: exit %d%s\n", rc,
	       rc == -1 ? " (killed)" : "");
	policy_dump_out();
	stop_killer(&k);
	printf("# %s %s\n", KA_NEW, access(KA_NEW, F_OK) ? "absent" : "present (the old instance)");
	rc = try_unsigned();
	printf("# unsigned socket_filter after the update: %d (the new rule admits it)\n", rc);
	rc = policy_cli("status", NULL);
	printf("# status: exit %d\n", rc);
	policy_dump_out();
	/* the property: no old instance attached that status does not show */
	ASSERT_HAS(policy_out, "keyring-allowlist_new",
		   "status names the old instance left attached in keyring-allowlist_new");
out:
	stop_killer(&k);
	rm_dir(KA_NEW);
	clean_pins();
}

/*
 * The README says that an unsigned program "of any type" on a function
 * the policies attach to is refused (stage hook).  A kprobe names its
 * function at perf_event_open(), after the load: at security_bpf_prog_load()
 * it has no attach_btf_id, and `unsigned allow type kprobe` needs no
 * 'weakens-policy'.  The same attacker (CAP_BPF + CAP_PERFMON, uid 1000)
 * puts an unsigned kprobe on bpf_lsm_bpf_prog_load, deny-unsigned's and
 * keyring-allowlist's own function, and kills the CLI there.
 */
TEST_EXPLICIT(attack_round6_kprobe_on_policy_hook)
{
	struct killer k = {};
	int rc;

	clean_pins();
	if (!policy_load_allowlist(POLICY_FILE, TYPES_POLICY))
		goto out;
	rc = start_killer(&k, "bpf_lsm_bpf_prog_load", BPF_PERF_EVENT, true);
	printf("# uid 1000's unsigned kprobe on bpf_lsm_bpf_prog_load: %d\n", rc);
	/* the README's rule: no unsigned program on a policy's function */
	if (!ASSERT_TRUE(rc / 1000 == 101, "the unsigned kprobe is refused at load (stage hook)"))
		printf("# (loaded and attached: %s)\n", rc ? "no" : "yes");
	if (rc)
		goto out;
	rc = policy_cli("load", "keyring-allowlist", "--policy", POLICY_FILE, NULL);
	printf("# root's update of keyring-allowlist: exit %d%s\n", rc,
	       rc == -1 ? " (killed)" : "");
	ASSERT_EQ(rc, 0, "root's update of keyring-allowlist exits 0");
out:
	stop_killer(&k);
	rm_dir(KA_NEW);
	clean_pins();
}
