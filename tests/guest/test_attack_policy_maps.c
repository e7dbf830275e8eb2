// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile review of issue 42's guard (policies/policy.bpf.h): "no program
 * but the policy's own can read-modify-write its maps, and no syscall can
 * write them".  Each attack_* test loads a policy with the CLI, tries one
 * way around the guard as root without the signing key, and asserts the
 * property; a FAIL is the bypass, and its "# BYPASS" line says what the
 * attacker got.  Explicit; they run in the guest-policies-guard boot
 * (scripts/run-tests.sh), or by name:
 *
 *   BPFSIGN_QUIET=1 qemu/run-guest.sh attack_policy_fmod_ret_skips_guard ...
 *
 * Each test unloads every policy before and after it.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>
#include <dirent.h>
#include <signal.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runner.h"
#include "util.h"
#include "policy_fixture.h"
#include "iter_write.skel.h"

#define POLICY_FILE	"/tmp/attack.policy"

/* what test_policies.c's guard tests load: tracing and cgroup_skb are
 * admitted unsigned (tracing warned about, no weakens-policy needed)
 */
#define GUARD_POLICY	"keyring allow builtin\nkeyring allow secondary\nunsigned deny\n" \
			"unsigned allow type cgroup_skb\nunsigned allow type tracing\n" \
			"unsigned allow type socket_filter\nchildren allow\n"

static const struct bpf_insn ret0[] = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() };

static bool load_guard_policy(void)
{
	return policy_load_allowlist(POLICY_FILE, GUARD_POLICY);
}

/* Run a writer that got its fd: the bypass then shows in the counters */
static void run_writer(int pfd, const char *how)
{
	LIBBPF_OPTS(bpf_test_run_opts, run, .data_in = policy_out, .data_size_in = 64);

	if (pfd < 0)
		return;
	memset(policy_out, 0, 64);
	ASSERT_OK(bpf_prog_test_run_opts(pfd, &run), "test run of the writer");
	printf("# BYPASS: %s: a writer of stats[deny] loaded and ran\n", how);
	close(pfd);
}

/* stats[deny] of keyring-allowlist kept every denial up to before */
static void check_deny_kept(const __u64 before[BPFSIGN_STAT_MAX], const char *what)
{
	__u64 n[BPFSIGN_STAT_MAX];
	int rc;

	if (!ASSERT_TRUE(policy_status_counts("keyring-allowlist", n, &rc), "status: counters"))
		policy_dump_out();
	printf("# %s: status exit %d, deny %llu (was %llu)\n", what, rc,
	       n[BPFSIGN_STAT_DENY], before[BPFSIGN_STAT_DENY]);
	ASSERT_GE(n[BPFSIGN_STAT_DENY], before[BPFSIGN_STAT_DENY], "stats[deny] not erased");
}

/* --- fmod_ret on security_bpf_prog ------------------------------------- */

/*
 * Root without the key, keyring-allowlist with "unsigned allow type
 * tracing" (a warning, no weakens-policy).  The guard is a BPF LSM
 * program on bpf_prog, reached through security_bpf_prog(); an fmod_ret
 * program on security_bpf_prog (any security_* function is modifiable)
 * that returns 1 skips the function, every LSM in it, the guard
 * included, and bpf_prog_new_fd() and bpffs only refuse a negative
 * value.  The fmod_ret program touches no policy map, so the guard gives
 * it its fd; every later program gets its fd unchecked: here an unsigned
 * cgroup_skb that zeroes stats[deny] by the map's id.
 */
static int load_fmod_ret_skip(void)
{
	const struct bpf_insn skip[] = { MOV64_IMM(BPF_REG_0, 1), EXIT_INSN() };
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_MODIFY_RETURN);
	int id = libbpf_find_vmlinux_btf_id("security_bpf_prog", BPF_MODIFY_RETURN);

	if (!ASSERT_GE(id, 1, "BTF id of security_bpf_prog"))
		return -1;
	opts.attach_btf_id = id;
	return load_prog_type(BPF_PROG_TYPE_TRACING, skip, ARRAY_LEN(skip), &opts);
}

TEST_EXPLICIT(attack_policy_fmod_ret_skips_guard)
{
	__u64 before[BPFSIGN_STAT_MAX];
	int fmod = -1, link = -1, mfd = -1, pfd, rc;

	policy_unload_all();
	if (!load_guard_policy())
		goto out;
	ASSERT_ERR(policy_try_unsigned_syscall(), EPERM, "unsigned syscall program: denied");
	if (!ASSERT_TRUE(policy_status_counts("keyring-allowlist", before, &rc), "status before"))
		goto out;
	ASSERT_GE(before[BPFSIGN_STAT_DENY], 1, "a denial to erase");
	mfd = policy_map_fd_by_id("keyring-allowlist", "map_stats");
	if (!ASSERT_OK(mfd, "stats by id"))
		goto out;
	/* the control: without the fmod_ret program the guard refuses it */
	pfd = policy_load_zeroer(mfd, false, BPFSIGN_STAT_DENY);
	if (!ASSERT_ERR(pfd, EACCES, "the writer alone: the guard's EACCES"))
		run_writer(pfd, "no fmod_ret");

	fmod = load_fmod_ret_skip();
	/* type_allowed(): no type rule admits an unsigned fmod_ret */
	if (fmod < 0) {
		ASSERT_ERR(fmod, EPERM, "unsigned fmod_ret on security_bpf_prog under allow tracing");
		goto out;
	}
	FAIL("unsigned fmod_ret on security_bpf_prog admitted");
	link = bpf_link_create(fmod, 0, BPF_MODIFY_RETURN, NULL);
	if (!ASSERT_OK(link, "attach fmod_ret/security_bpf_prog"))
		goto out;
	pfd = policy_load_zeroer(mfd, false, BPFSIGN_STAT_DENY);
	/* detach before asserting: while attached no LSM sees a program fd */
	close(link);
	link = -1;
	close(fmod);
	fmod = -1;
	if (!ASSERT_ERR(pfd, EACCES, "the writer with fmod_ret(security_bpf_prog) = 1 attached"))
		run_writer(pfd, "fmod_ret on security_bpf_prog returned 1");
	check_deny_kept(before, "after the fmod_ret attack");
	/* what log makes of it: its summary line */
	rc = policy_cli("log", "keyring-allowlist", NULL);
	printf("# log exit %d; %s\n", rc, strstr(policy_out, "{\"summary\"") ?: "(no summary)");
out:
	if (link >= 0)
		close(link);
	if (fmod >= 0)
		close(fmod);
	if (mfd >= 0)
		close(mfd);
	policy_unload_all();
}

/* --- the guard's link alone unpinned --------------------------------- */

/*
 * Root without the key: rm link_guard (the guard's only reference) and
 * leave the policy's decision link pinned.  The policy still denies, so
 * it looks whole, but no guard runs and a program can rewrite its maps,
 * as root can unpin the whole policy (README, "What root can still do").
 * The property: status refuses such a policy's counters and names the
 * missing guard, instead of reporting it loaded and fine.
 */
TEST_EXPLICIT(attack_policy_guard_unpinned_status)
{
	__u64 before[BPFSIGN_STAT_MAX], n[BPFSIGN_STAT_MAX];
	int mfd = -1, pfd, rc, tries, fd;
	__u32 guard;

	policy_unload_all();
	if (!load_guard_policy())
		goto out;
	ASSERT_ERR(policy_try_unsigned_syscall(), EPERM, "unsigned syscall program: denied");
	if (!ASSERT_TRUE(policy_status_counts("keyring-allowlist", before, &rc), "status before"))
		goto out;
	guard = policy_link_prog_id("keyring-allowlist", "link_guard");
	if (!ASSERT_TRUE(guard, "the guard's program id") ||
	    !ASSERT_OK(unlink(POLICY_PIN_DIR "/keyring-allowlist/link_guard"), "rm link_guard"))
		goto out;
	/* the link is released after an RCU grace period, from a workqueue */
	for (tries = 0; tries < 500; tries++) {
		fd = bpf_prog_get_fd_by_id(guard);
		if (fd < 0 && errno == ENOENT)
			break;
		if (fd >= 0)
			close(fd);
		usleep(10000);
	}
	ASSERT_TRUE(tries < 500, "the guard program is gone");
	ASSERT_ERR(policy_try_unsigned_syscall(), EPERM, "the policy still denies: it looks whole");

	mfd = policy_map_fd_by_id("keyring-allowlist", "map_stats");
	if (!ASSERT_OK(mfd, "stats by id"))
		goto out;
	pfd = policy_load_zeroer(mfd, false, BPFSIGN_STAT_DENY);
	if (pfd >= 0)
		run_writer(pfd, "link_guard unpinned");
	rc = policy_cli("status", NULL);
	if (!policy_status_counts("keyring-allowlist", n, &rc))
		policy_dump_out();
	printf("# status exit %d, deny %llu (was %llu), guard listed: %s\n", rc,
	       n[BPFSIGN_STAT_DENY], before[BPFSIGN_STAT_DENY],
	       strstr(policy_out, "link_guard") ? "yes" : "no");
	if (rc == 0)
		printf("# BYPASS: status exits 0 and prints the policy as loaded, its guard gone\n");
	/* status_maps(): the guard's pin is required before the maps are read */
	if (!ASSERT_TRUE(rc != 0, "status: non-zero exit without the guard") ||
	    !ASSERT_HAS(policy_out, "link_guard is not pinned", "status: names the missing guard"))
		policy_dump_out();
out:
	if (mfd >= 0)
		close(mfd);
	policy_unload_all();
}

/* --- what held ------------------------------------------------------- */

/*
 * The guard's link by id: BPF_LINK_DETACH and BPF_LINK_UPDATE (a tracing
 * link has neither op in 6.12) leave it attached; a fexit program on the
 * policy's own program (its fd by id, which the guard hands out: the
 * program is the policy's) is refused at its fd (aux->dst_prog); and the
 * writer is still refused afterwards.
 */
TEST_EXPLICIT(attack_policy_guard_link_ops_held)
{
	LIBBPF_OPTS(bpf_link_update_opts, uopts);
	__u64 before[BPFSIGN_STAT_MAX];
	struct bpf_func_info finfo[1];
	struct bpf_prog_info pinfo;
	__u32 len = sizeof(pinfo);
	int lfd = -1, mfd = -1, own = -1, other = -1, pfd, rc;

	policy_unload_all();
	if (!load_guard_policy())
		goto out;
	ASSERT_ERR(policy_try_unsigned_syscall(), EPERM, "unsigned syscall program: denied");
	if (!ASSERT_TRUE(policy_status_counts("keyring-allowlist", before, &rc), "status before"))
		goto out;
	lfd = bpf_obj_get(POLICY_PIN_DIR "/keyring-allowlist/link_guard");
	if (!ASSERT_OK(lfd, "link_guard"))
		goto out;
	/* detach keeps the pin: it must not switch the guard off */
	rc = bpf_link_detach(lfd);
	printf("# BPF_LINK_DETACH on the guard's link: %d errno %d\n", rc, rc ? errno : 0);
	ASSERT_TRUE(rc < 0, "BPF_LINK_DETACH of the guard refused");
	other = load_prog_type(BPF_PROG_TYPE_CGROUP_SKB, ret0, ARRAY_LEN(ret0), NULL);
	if (ASSERT_OK(other, "an admitted program to swap in")) {
		rc = bpf_link_update(lfd, other, &uopts);
		printf("# BPF_LINK_UPDATE on the guard's link: %d errno %d\n", rc, rc ? errno : 0);
		ASSERT_TRUE(rc < 0, "BPF_LINK_UPDATE of the guard refused");
	}

	/* fexit on the policy's own decision program */
	own = bpf_prog_get_fd_by_id(policy_link_prog_id("keyring-allowlist", "link_keyring_allowlist"));
	if (!ASSERT_OK(own, "the policy's program by id"))
		goto out;
	memset(&pinfo, 0, sizeof(pinfo));
	pinfo.nr_func_info = 1;
	pinfo.func_info_rec_size = sizeof(finfo[0]);
	pinfo.func_info = (__u64)(unsigned long)finfo;
	if (ASSERT_OK(bpf_prog_get_info_by_fd(own, &pinfo, &len), "prog info: main function") &&
	    ASSERT_GE(pinfo.nr_func_info, 1, "func info")) {
		LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_FEXIT,
			    .attach_prog_fd = own, .attach_btf_id = finfo[0].type_id);

		pfd = load_prog_type(BPF_PROG_TYPE_TRACING, ret0, ARRAY_LEN(ret0), &opts);
		if (pfd < 0)
			printf("# fexit on the policy's program: errno %d %.300s\n", errno, vlog);
		if (!ASSERT_ERR(pfd, EACCES, "fexit on the policy's program: the guard's EACCES") &&
		    pfd >= 0)
			close(pfd);
	}

	mfd = policy_map_fd_by_id("keyring-allowlist", "map_stats");
	if (!ASSERT_OK(mfd, "stats by id"))
		goto out;
	pfd = policy_load_zeroer(mfd, false, BPFSIGN_STAT_DENY);
	if (!ASSERT_ERR(pfd, EACCES, "the writer after detach/update: still refused"))
		run_writer(pfd, "guard link detached or updated");
	check_deny_kept(before, "after the link ops");
out:
	if (lfd >= 0)
		close(lfd);
	if (other >= 0)
		close(other);
	if (own >= 0)
		close(own);
	if (mfd >= 0)
		close(mfd);
	policy_unload_all();
}

/* --- a config map for a policy that has none ----------------------------- */

/*
 * Root without the key binds (BPF_PROG_BIND_MAP, no hook) a frozen map
 * named "config" saying "mode permissive, unsigned allow" to
 * deny-unsigned's program, which has no config map: status finds one map
 * of the name, so no duplicate, and prints the impostor's mode for a
 * policy that has no mode.  The property: status prints no mode line for
 * deny-unsigned.
 */
TEST_EXPLICIT(attack_policy_bind_fake_config)
{
	LIBBPF_OPTS(bpf_prog_bind_opts, bopts);
	struct bpfsign_allow_config cfg = {
		.configured = 1, .permissive = 1, .allow_unsigned = 1, .allow_children = 1,
	};
	int fake = -1, own = -1, rc;
	__u32 zero = 0;
	const char *p;

	policy_unload_all();
	if (policy_cli("load", "deny-unsigned", NULL)) {
		FAIL("load deny-unsigned: %s", policy_out);
		goto out;
	}
	fake = bpf_map_create(BPF_MAP_TYPE_ARRAY, "config", 4, sizeof(cfg), 1, NULL);
	own = bpf_prog_get_fd_by_id(policy_link_prog_id("deny-unsigned", "link_deny_unsigned"));
	if (!ASSERT_OK(fake, "impostor config") || !ASSERT_OK(own, "deny-unsigned's program by id"))
		goto out;
	ASSERT_OK(bpf_map_update_elem(fake, &zero, &cfg, BPF_ANY), "permissive, unsigned allow");
	ASSERT_OK(bpf_map_freeze(fake), "frozen, as status wants config");
	ASSERT_OK(bpf_prog_bind_map(own, fake, &bopts), "bound to deny-unsigned's program");
	rc = policy_cli("status", NULL);
	p = strstr(policy_out, "deny-unsigned: loaded");
	p = p ? strstr(p, "mode permissive") : NULL;
	printf("# status exit %d, deny-unsigned %s\n", rc,
	       p ? "printed 'mode permissive, unsigned allow'" : "printed no mode");
	if (p)
		printf("# BYPASS: status shows deny-unsigned as permissive, allowing unsigned (an impostor config)\n");
	if (!ASSERT_TRUE(!p, "status: no impostor mode for deny-unsigned"))
		policy_dump_out();
	ASSERT_ERR(policy_try_unsigned_syscall(), EPERM, "deny-unsigned still denies");
out:
	if (fake >= 0)
		close(fake);
	if (own >= 0)
		close(own);
	policy_unload_all();
}

/* --- the window between the load and the attach ----------------------- */

/*
 * Root without the key, present while root (re)loads deny-unsigned (an
 * update of the policy is an unload and a load): the skeleton creates the
 * maps, the CLI freezes them, writes owner and only then attaches, the
 * guard included.  A process that polls the map ids meanwhile gets the
 * new "stats", stops the CLI (SIGSTOP: the verifier then returns -EAGAIN
 * if it was running) and loads an unsigned writer of it before anything
 * is attached (nothing refuses it then), keeps the fd, and runs it
 * whenever it likes.  The guard cannot refuse a program it never saw, so
 * the property is: the load succeeds despite the signals (its skeleton
 * load is retried on -EAGAIN), and a writer that holds the policy's
 * stats never goes unreported: load and status exit non-zero naming its
 * program.  Whether the racer wins varies from run to run; the assertion
 * holds either way (attack_policy_load_window_writer wins every time).
 */
/* Send sig to every process named bpfsign-policy (root may stop root's
 * own processes): how many
 */
static int signal_cli(int sig)
{
	char path[300], comm[32];
	struct dirent *de;
	int n = 0, fd;
	ssize_t len;
	DIR *d = opendir("/proc");

	while (d && (de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		len = read(fd, comm, sizeof(comm) - 1);
		close(fd);
		if (len > 0 && !strncmp(comm, "bpfsign-policy", 14) && !kill(atoi(de->d_name), sig))
			n++;
	}
	if (d)
		closedir(d);
	return n;
}

/* what the racer tells the test: 'w' and the ids of its writer and of
 * the map it writes, or 'n'
 */
struct race_result {
	char c;
	__u32 prog_id, map_id;
};

static int race_writer(int ready, int go)
{
	struct race_result r = { .c = 'n' };
	__u32 id = 0, start = 0, next;
	struct bpf_prog_info pinfo;
	struct bpf_map_info info;
	__u32 len;
	int fd, pfd = -1, i;
	bool found = false;
	time_t deadline;
	int stopped;
	char c;

	while (!bpf_map_get_next_id(start, &next))
		start = next;
	if (write(ready, "r", 1) != 1)
		return 10;
	id = start;
	deadline = time(NULL) + 30;
	for (i = 0; !found && (i & 1023 || time(NULL) < deadline); i++) {
		if (bpf_map_get_next_id(id, &next))
			continue;
		id = next;
		fd = bpf_map_get_fd_by_id(id);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (!bpf_map_get_info_by_fd(fd, &info, &len) && !strcmp(info.name, "stats") &&
		    info.type == BPF_MAP_TYPE_ARRAY && info.max_entries == BPFSIGN_STAT_MAX) {
			found = true;
			/* hold the loading CLI between its load and its attach */
			stopped = signal_cli(SIGSTOP);
			pfd = policy_load_zeroer(fd, false, BPFSIGN_STAT_DENY);
			if (stopped)
				signal_cli(SIGCONT);
			printf("# racer: stopped %d bpfsign-policy process(es) while loading\n", stopped);
			if (pfd < 0)
				printf("# racer: the writer of map %u refused: %s (EPERM: deny-unsigned was attached first)\n",
				       id, strerror(-pfd));
			r.map_id = id;
		}
		close(fd);
	}
	if (pfd >= 0) {
		memset(&pinfo, 0, sizeof(pinfo));
		len = sizeof(pinfo);
		if (!bpf_prog_get_info_by_fd(pfd, &pinfo, &len)) {
			r.c = 'w';
			r.prog_id = pinfo.id;
		}
	}
	if (write(ready, &r, sizeof(r)) != sizeof(r))
		return 11;
	if (pfd < 0)
		return 1;
	if (read(go, &c, 1) != 1)
		return 12;
	{
		LIBBPF_OPTS(bpf_test_run_opts, run, .data_in = policy_out, .data_size_in = 64);

		memset(policy_out, 0, 64);
		if (bpf_prog_test_run_opts(pfd, &run))
			return 13;
	}
	return 0;
}

/* The id of the map pinned as deny-unsigned/map_stats, or 0 */
static __u32 stats_map_id(void)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);
	int fd = policy_map_fd_by_id("deny-unsigned", "map_stats");

	memset(&info, 0, sizeof(info));
	if (fd < 0 || bpf_map_get_info_by_fd(fd, &info, &len))
		info.id = 0;
	if (fd >= 0)
		close(fd);
	return info.id;
}

TEST_EXPLICIT(attack_policy_reload_race)
{
	struct race_result r = {};
	char msg[128], c = 0;
	int ready[2], go[2], status, rc, attempt;
	bool won = false;
	pid_t pid = 0;

	policy_unload_all();
	if (!ASSERT_OK(pipe(ready), "pipe") || !ASSERT_OK(pipe(go), "pipe"))
		return;
	/* a reload is what the attacker waits for: a few, until he wins */
	for (attempt = 0; attempt < 3 && !won; attempt++) {
		if (pid > 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		policy_unload_all();
		fflush(stdout);
		pid = fork();
		if (!pid)
			_exit(race_writer(ready[1], go[0]));
		if (!ASSERT_TRUE(pid > 0 && read(ready[0], &c, 1) == 1 && c == 'r', "the racer polls"))
			goto out;
		rc = policy_cli("load", "deny-unsigned", NULL);
		if (!ASSERT_TRUE(read(ready[0], &r, sizeof(r)) == sizeof(r), "the racer's result"))
			goto out;
		/* the racer's SIGSTOP: load_err() names the attempts if they ran out */
		if (!ASSERT_TRUE(policy_pinned("deny-unsigned"), "load: attached despite the signals")) {
			policy_dump_out();
			goto out;
		}
		won = r.c == 'w' && r.map_id == stats_map_id();
		printf("# load %d: exit %d, the racer %s\n", attempt + 1, rc,
		       won ? "holds an unsigned writer of the policy's stats" :
		       r.c == 'w' ? "holds a writer of a map the load discarded" : "lost");
		snprintf(msg, sizeof(msg), "counters not trustworthy: program %u ", r.prog_id);
		if (!won) {
			/* no false alarm: a writer of another map is not one */
			if (!ASSERT_EQ(rc, 0, "load: exit 0, no writer of its maps"))
				policy_dump_out();
			continue;
		}
		/* policy_users_check(): the walk after the attach */
		if (!ASSERT_TRUE(rc != 0, "load: non-zero exit, a writer of stats") ||
		    !ASSERT_HAS(policy_out, msg, "load: names the writer"))
			policy_dump_out();
	}
	ASSERT_ERR(policy_try_unsigned_syscall(), EPERM, "deny-unsigned denies");
	if (won && write(go[1], "g", 1) == 1 && waitpid(pid, &status, 0) == pid) {
		pid = 0;
		printf("# the racer's writer ran: exit %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	rc = policy_cli("status", NULL);
	printf("# status exit %d\n", rc);
	if (won) {
		/* status runs the same check: not trustworthy while it lives */
		if (!ASSERT_TRUE(rc != 0, "status: non-zero exit, a writer of stats") ||
		    !ASSERT_HAS(policy_out, msg, "status: names the writer"))
			policy_dump_out();
	} else if (!ASSERT_EQ(rc, 0, "status: exit 0, no writer of the policy's maps")) {
		policy_dump_out();
	}
out:
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	policy_unload_all();
}

/* --- a writer the guard admits: permissive mode ----------------------- */

/*
 * The walk of policy_users_check() made deterministic: a permissive
 * policy's guard records a would-deny and admits the writer, as a
 * program loaded before the attach was admitted.  status must then
 * refuse the counters naming the writer and the map, and take them again
 * once the writer is gone.
 */
TEST_EXPLICIT(attack_policy_writer_reported)
{
	char msg[128];
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	int mfd = -1, pfd = -1, rc, tries;

	policy_unload_all();
	if (!policy_load_allowlist(POLICY_FILE, "mode permissive\n" GUARD_POLICY))
		goto out;
	ASSERT_EQ(policy_cli("status", NULL), 0, "status: exit 0 before any writer");
	mfd = policy_map_fd_by_id("keyring-allowlist", "map_stats");
	if (!ASSERT_OK(mfd, "stats by id"))
		goto out;
	pfd = policy_load_zeroer(mfd, false, BPFSIGN_STAT_DENY);
	memset(&info, 0, sizeof(info));
	if (!ASSERT_OK(pfd, "the writer: admitted, permissive") ||
	    !ASSERT_OK(bpf_prog_get_info_by_fd(pfd, &info, &len), "the writer's id"))
		goto out;
	snprintf(msg, sizeof(msg), "counters not trustworthy: program %u uses map stats", info.id);
	rc = policy_cli("status", NULL);
	/* policy_users_check() from status_maps() */
	if (!ASSERT_TRUE(rc != 0, "status: non-zero exit while a writer lives") ||
	    !ASSERT_HAS(policy_out, msg, "status: names the writer and the map"))
		policy_dump_out();
	close(pfd);
	pfd = -1;
	/* the program is freed after an RCU grace period */
	for (rc = 1, tries = 0; rc && tries < 500; tries++) {
		rc = policy_cli("status", NULL);
		if (rc)
			usleep(10000);
	}
	if (!ASSERT_EQ(rc, 0, "status: exit 0 once the writer is gone"))
		policy_dump_out();
out:
	if (pfd >= 0)
		close(pfd);
	if (mfd >= 0)
		close(mfd);
	policy_unload_all();
}

/* --- the load's window, deterministic --------------------------------- */

/* An fd of the newest map named "stats" (the load's under way), or -1 */
static int newest_stats_fd(void)
{
	struct bpf_map_info info;
	__u32 id = 0, best = 0, len;
	int fd;

	while (!bpf_map_get_next_id(id, &id)) {
		fd = bpf_map_get_fd_by_id(id);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (!bpf_map_get_info_by_fd(fd, &info, &len) && !strcmp(info.name, "stats"))
			best = id;
		close(fd);
	}
	return best ? bpf_map_get_fd_by_id(best) : -1;
}

/*
 * Run "bpfsign-policy load deny-unsigned" under ptrace; at the entry of
 * its first BPF_RAW_TRACEPOINT_OPEN (the skeleton's first attach: every
 * map made, frozen and owned, nothing attached) load an unsigned writer of
 * the new stats, as a racer that wins would, its fd into *pfd.  The CLI's
 * exit code (output in policy_out), or -1.
 */
static int load_with_writer_in_window(int *pfd)
{
	const char *const argv[] = { POLICY_CLI, "load", "deny-unsigned", NULL };
	int out = memfd_create("traced-load", 0), status, sig, mfd;
	struct user_regs_struct regs;
	ssize_t n, len = 0;
	pid_t pid;

	*pfd = -1;
	policy_out[0] = 0;
	if (out < 0)
		return -1;
	pid = fork();
	if (!pid) {
		dup2(out, 1);
		dup2(out, 2);
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		execv(argv[0], (char **)argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status) ||
	    ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)(PTRACE_O_TRACESYSGOOD |
								PTRACE_O_EXITKILL))) {
		if (pid > 0)
			kill(pid, SIGKILL);
		close(out);
		return -1;
	}
	for (sig = 0; !ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)sig); ) {
		if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
			break;
		sig = WSTOPSIG(status);
		if (sig == SIGTRAP)	/* the exec's */
			sig = 0;
		if (sig != (SIGTRAP | 0x80))
			continue;
		sig = 0;
		/* a syscall's entry (rax -ENOSYS), not its exit */
		if (*pfd >= 0 || ptrace(PTRACE_GETREGS, pid, NULL, &regs) ||
		    regs.orig_rax != __NR_bpf || regs.rdi != BPF_RAW_TRACEPOINT_OPEN ||
		    (long)regs.rax != -ENOSYS)
			continue;
		mfd = newest_stats_fd();
		if (mfd >= 0) {
			*pfd = policy_load_zeroer(mfd, false, BPFSIGN_STAT_DENY);
			close(mfd);
		}
		printf("# the CLI stopped at its first attach: writer of the new stats %s\n",
		       *pfd >= 0 ? "loaded" : "refused");
		if (*pfd < 0)
			*pfd = -2;	/* tried once */
	}
	/* the loop ends at the exit, or when ptrace lost the CLI */
	if (!WIFEXITED(status) && !WIFSIGNALED(status)) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	lseek(out, 0, SEEK_SET);
	while ((n = read(out, policy_out + len, sizeof(policy_out) - 1 - len)) > 0)
		len += n;
	policy_out[len] = 0;
	close(out);
	if (*pfd == -2)
		*pfd = -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * The racer of attack_policy_reload_race, winning every time: a writer of
 * the policy's stats loaded in the window between the skeleton's load and
 * its guard's attach, which no guard saw.  The walk runs right after the
 * guard's attach, before the policy's other programs are attached
 * (policies.c window_closed()): load must fail naming it, and leave
 * nothing pinned; then, with the writer gone, a load succeeds.
 */
TEST_EXPLICIT(attack_policy_load_window_writer)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	char msg[128];
	int pfd = -1, rc;

	policy_unload_all();
	rc = load_with_writer_in_window(&pfd);
	memset(&info, 0, sizeof(info));
	if (!ASSERT_OK(pfd, "the writer, loaded in the window") ||
	    !ASSERT_OK(bpf_prog_get_info_by_fd(pfd, &info, &len), "the writer's id")) {
		policy_dump_out();
		goto out;
	}
	snprintf(msg, sizeof(msg), "counters not trustworthy: program %u uses map stats", info.id);
	/* policy_users_walk() from load_deny_unsigned(), after the guard's attach */
	if (!ASSERT_TRUE(rc != 0, "load: non-zero exit, a writer of stats") ||
	    !ASSERT_HAS(policy_out, msg, "load: names the writer and the map"))
		policy_dump_out();
	ASSERT_TRUE(!policy_pinned("deny-unsigned"), "load: nothing pinned");
	close(pfd);
	pfd = -1;
	POLICY_CLI_OK("load once the writer is gone", "load", "deny-unsigned");
	if (!ASSERT_EQ(policy_cli("status", NULL), 0, "status: exit 0"))
		policy_dump_out();
out:
	if (pfd >= 0)
		close(pfd);
	policy_unload_all();
}

/* --- the walk's own pin ------------------------------------------------ */

/*
 * The walk of load and status runs the iterator pinned as iter_users.
 * Root unpins it and pins there an iterator of his own that never reports
 * anything (a reader of a map of his, loaded before the policy): status
 * must refuse the pin, whose program is not one of the policy's frozen
 * "owner" ids, rather than call the counters trustworthy.
 */
TEST_EXPLICIT(attack_policy_users_repinned)
{
	union bpf_iter_link_info linfo = {};
	LIBBPF_OPTS(bpf_iter_attach_opts, opts, .link_info = &linfo,
		    .link_info_len = sizeof(linfo));
	const char *pin = POLICY_PIN_DIR "/deny-unsigned/iter_users";
	struct bpf_link *link = NULL;
	struct iter_write *it;
	int mfd = -1, rc;

	policy_unload_all();
	/* unsigned: loaded before the policy, which would refuse it */
	it = iter_write__open_and_load();
	if (!ASSERT_TRUE(it != NULL, "a reading bpf_map_elem iterator, before the policy"))
		return;
	if (!ASSERT_EQ(policy_cli("load", "deny-unsigned", NULL), 0, "load deny-unsigned")) {
		policy_dump_out();
		goto out;
	}
	ASSERT_EQ(policy_cli("status", NULL), 0, "status: exit 0, its own iterator pinned");
	mfd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "decoy", 4, 4, 1, NULL);
	if (!ASSERT_OK(mfd, "a map of root's own"))
		goto out;
	linfo.map.map_fd = mfd;
	link = bpf_program__attach_iter(it->progs.peek, &opts);
	if (!ASSERT_TRUE(link != NULL, "root's iterator link") ||
	    !ASSERT_OK(unlink(pin), "unpin iter_users") ||
	    !ASSERT_OK(bpf_obj_pin(bpf_link__fd(link), pin), "pin root's link as iter_users"))
		goto out;
	rc = policy_cli("status", NULL);
	/* policy_users.c users_link(): the link's program must be an owner id */
	if (!ASSERT_TRUE(rc != 0, "status: non-zero exit, iter_users re-pinned") ||
	    !ASSERT_HAS(policy_out, "is not the policy's users iterator", "status: names the pin"))
		policy_dump_out();
out:
	bpf_link__destroy(link);
	if (mfd >= 0)
		close(mfd);
	iter_write__destroy(it);
	policy_unload_all();
}
