// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile review of issue 42's guard (policies/policy.bpf.h): "no program
 * but the policy's own can read-modify-write its maps, and no syscall can
 * write them".  Each attack_* test loads a policy with the CLI, tries one
 * way around the guard as root without the signing key, and asserts the
 * property; a FAIL is the bypass, and its "# BYPASS" line says what the
 * attacker got.  Explicit; all but attack_policy_reload_race run in the
 * guest-policies-guard boot (scripts/run-tests.sh), or by name:
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
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runner.h"
#include "util.h"
#include "policy_fixture.h"

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
 * new "stats" and loads an unsigned writer of it before anything is
 * attached (nothing refuses it then), keeps the fd, and runs it whenever
 * it likes.  The property: once deny-unsigned is attached, no unsigned
 * program writes its counters.
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

static int race_writer(int ready, int go)
{
	__u32 id = 0, start = 0, next;
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
		}
		close(fd);
	}
	if (write(ready, pfd >= 0 ? "w" : "n", 1) != 1)
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

TEST_EXPLICIT(attack_policy_reload_race)
{
	__u64 before[BPFSIGN_STAT_MAX];
	int ready[2], go[2], status, rc, attempt;
	pid_t pid = 0;
	char c = 0;

	policy_unload_all();
	if (!ASSERT_OK(pipe(ready), "pipe") || !ASSERT_OK(pipe(go), "pipe"))
		return;
	/* a reload is what the attacker waits for: try a few */
	for (attempt = 0; attempt < 5 && c != 'w'; attempt++) {
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
		if (policy_cli("load", "deny-unsigned", NULL)) {
			FAIL("load deny-unsigned: %s", policy_out);
			goto out;
		}
		if (!ASSERT_TRUE(read(ready[0], &c, 1) == 1, "the racer's result"))
			goto out;
		printf("# load %d: the racer %s\n", attempt + 1,
		       c == 'w' ? "holds an unsigned writer of the new stats" : "lost");
	}
	ASSERT_ERR(policy_try_unsigned_syscall(), EPERM, "deny-unsigned denies");
	ASSERT_TRUE(policy_status_counts("deny-unsigned", before, &rc), "status before");
	ASSERT_GE(before[BPFSIGN_STAT_DENY], 1, "a denial to erase");
	if (write(go[1], "g", 1) != 1)
		FAIL("go");
	if (waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status))
		printf("# BYPASS: an unsigned program loaded during the policy's load wrote stats[deny] after the attach\n");
	pid = 0;
	{
		__u64 n[BPFSIGN_STAT_MAX];

		ASSERT_TRUE(policy_status_counts("deny-unsigned", n, &rc), "status after");
		printf("# status exit %d, deny %llu (was %llu)\n", rc, n[BPFSIGN_STAT_DENY],
		       before[BPFSIGN_STAT_DENY]);
		ASSERT_GE(n[BPFSIGN_STAT_DENY], before[BPFSIGN_STAT_DENY], "stats[deny] not erased");
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
