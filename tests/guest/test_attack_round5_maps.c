// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile review, round 5: the integrity of the policies' maps after
 * issue 42 (read-back after the freeze, the "users" iterator, the EAGAIN
 * retry).  Property under test: "the counters and records status/log
 * report are exactly what the policy's own programs and the
 * administrator's CLI wrote; when not, load/status exit non-zero naming
 * the cause".  Attacker: root without a signing key, acting in the window
 * between the skeleton's load (the maps exist) and the guard's attach,
 * with the CLI stopped under ptrace at its first attach.
 *
 * R5 ran the three attacks as explicit tests against the load order of
 * the time (every program attached at once, the walk after the pins):
 * each FAILED (window_writer_freed: load, status and log exit 0 and show
 * the forged denial; window_fill_tallies: 600 denials, the overflow lost,
 * load and status exit 0; window_map_in_map: never named, stats[deny]
 * zeroed after the load).  The load now attaches the guard alone, walks
 * the users, reads the counters, tallies and ring buffer back, and only
 * then attaches the rest (policies/cli/policies.c): each attack makes the
 * load fail naming the cause, with nothing of the policy left loaded.
 * Run in every full run, in the guest-policies-guard boot
 * (scripts/run-tests.sh), or by name:
 *
 *   BPFSIGN_QUIET=1 qemu/run-guest.sh attack_round5_window_writer_kept \
 *       attack_round5_window_writer_freed attack_round5_window_map_in_map \
 *       attack_round5_window_fill_tallies attack_round5_fill_tallies_control
 *
 *   attack_round5_window_writer_kept   control: the walk names a writer
 *                                      that is still loaded
 *   attack_round5_window_writer_freed  a writer run and freed in the
 *                                      window: the read-back of stats
 *   attack_round5_window_map_in_map    a map-in-map writer: the walk
 *                                      names its outer map
 *   attack_round5_window_fill_tallies  fillers of tally and tally_any,
 *                                      freed: the read-back of tally
 *   attack_round5_fill_tallies_control control: the same flood without
 *                                      the fillers loses nothing
 *
 * Each test unloads every policy before and after it.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <linux/types.h>
#include <bpf/bpf.h>

#include "runner.h"
#include "util.h"
#include "policy_fixture.h"

/* what the forged record says: a uid that never loaded anything */
#define FRAMED_UID	4711
#define FRAMED_PID	4242
#define FRAMED_COMM	"framed"

/* An fd of the newest map called name (the load's under way), or -1 */
static int newest_map_fd(const char *name)
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
		if (!bpf_map_get_info_by_fd(fd, &info, &len) && !strcmp(info.name, name))
			best = id;
		close(fd);
	}
	return best ? bpf_map_get_fd_by_id(best) : -1;
}

#define EV_OFF	(-256)	/* the forged record on the writer's stack */
#define KEY_OFF	(-8)

/* stats[idx] = v: 8 instructions */
#define SET_STAT(n, fd, idx, v)							\
	n[i++] = (struct bpf_insn)INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, fd); \
	n[i++] = (struct bpf_insn)INSN(0, 0, 0, 0, 0);				\
	n[i++] = (struct bpf_insn)ST_MEM(BPF_W, BPF_REG_10, KEY_OFF, idx);	\
	n[i++] = (struct bpf_insn)MOV64_REG(BPF_REG_2, BPF_REG_10);		\
	n[i++] = (struct bpf_insn)ADD64_IMM(BPF_REG_2, KEY_OFF);		\
	n[i++] = (struct bpf_insn)CALL(BPF_FUNC_map_lookup_elem);		\
	n[i++] = (struct bpf_insn)JEQ_IMM(BPF_REG_0, 0, 1);			\
	n[i++] = (struct bpf_insn)ST_MEM(BPF_DW, BPF_REG_0, 0, v)

#define EV_FIELD(sz, field, v)							\
	n[i++] = (struct bpf_insn)ST_MEM(sz, BPF_REG_10,			\
		EV_OFF + (int)offsetof(struct bpfsign_event, field), v)

/*
 * An unsigned cgroup_skb program that makes deny-unsigned's maps say it
 * denied one load of uid FRAMED_UID: a record in events (seq 1) and
 * stats[deny] = stats[ringed] = 1, so that log's seq and sum checks agree.
 * Its fd, or -errno.
 */
static int load_forger(int stats_fd, int events_fd)
{
	struct bpf_insn n[128];
	const char comm[] = FRAMED_COMM;
	unsigned int i = 0, off;
	int fd;

	_Static_assert(sizeof(struct bpfsign_event) % 8 == 0 &&
		       sizeof(struct bpfsign_event) <= -EV_OFF + KEY_OFF, "record fits");
	for (off = 0; off < sizeof(struct bpfsign_event); off += 8)
		n[i++] = (struct bpf_insn)ST_MEM(BPF_DW, BPF_REG_10, EV_OFF + off, 0);
	n[i++] = (struct bpf_insn)CALL(BPF_FUNC_ktime_get_boot_ns);
	n[i++] = (struct bpf_insn)INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_0,
				       EV_OFF + (int)offsetof(struct bpfsign_event, boot_ns), 0);
	EV_FIELD(BPF_DW, seq, 1);
	EV_FIELD(BPF_W, pid, FRAMED_PID);
	EV_FIELD(BPF_W, uid, FRAMED_UID);
	for (off = 0; off < sizeof(comm) - 1; off++)
		n[i++] = (struct bpf_insn)ST_MEM(BPF_B, BPF_REG_10,
			EV_OFF + (int)offsetof(struct bpfsign_event, comm) + off, comm[off]);
	EV_FIELD(BPF_W, prog_type, BPF_PROG_TYPE_KPROBE);
	EV_FIELD(BPF_W, err, -EPERM);
	EV_FIELD(BPF_B, decision, BPFSIGN_DENY);
	EV_FIELD(BPF_B, stage, BPFSIGN_STAGE_LSM);
	EV_FIELD(BPF_B, policy, BPFSIGN_POLICY_DENY_UNSIGNED);
	SET_STAT(n, stats_fd, BPFSIGN_STAT_DENY, 1);
	SET_STAT(n, stats_fd, BPFSIGN_STAT_RINGED, 1);
	n[i++] = (struct bpf_insn)INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0,
				       events_fd);
	n[i++] = (struct bpf_insn)INSN(0, 0, 0, 0, 0);
	n[i++] = (struct bpf_insn)MOV64_REG(BPF_REG_2, BPF_REG_10);
	n[i++] = (struct bpf_insn)ADD64_IMM(BPF_REG_2, EV_OFF);
	n[i++] = (struct bpf_insn)MOV64_IMM(BPF_REG_3, sizeof(struct bpfsign_event));
	n[i++] = (struct bpf_insn)MOV64_IMM(BPF_REG_4, 0);
	n[i++] = (struct bpf_insn)CALL(BPF_FUNC_ringbuf_output);
	n[i++] = (struct bpf_insn)MOV64_IMM(BPF_REG_0, 1);
	n[i++] = (struct bpf_insn)EXIT_INSN();
	if (i > ARRAY_LEN(n))
		abort();
	fd = load_prog_type(BPF_PROG_TYPE_CGROUP_SKB, n, i, NULL);
	return fd < 0 ? -errno : fd;
}

/*
 * Programs of a policy object still loaded (the guard, the users iterator,
 * deny-unsigned's decision program) and "owner" maps, after a failed load:
 * 0 once the load left nothing behind.  Ids are freed when the last
 * reference goes; poll a little all the same.
 */
static int policy_objects_left(void)
{
	static const char *const names[] = { "guard", "users", "deny_unsigned", "owner" };
	int n = 0, tries, fd, k;
	__u32 id, len;

	for (tries = 0; tries < 200; tries++) {
		struct bpf_prog_info pi;
		struct bpf_map_info mi;

		n = 0;
		for (id = 0; !bpf_prog_get_next_id(id, &id); ) {
			fd = bpf_prog_get_fd_by_id(id);
			if (fd < 0)
				continue;
			memset(&pi, 0, sizeof(pi));
			len = sizeof(pi);
			if (!bpf_prog_get_info_by_fd(fd, &pi, &len))
				for (k = 0; k < 3; k++)
					n += !strcmp(pi.name, names[k]);
			close(fd);
		}
		for (id = 0; !bpf_map_get_next_id(id, &id); ) {
			fd = bpf_map_get_fd_by_id(id);
			if (fd < 0)
				continue;
			memset(&mi, 0, sizeof(mi));
			len = sizeof(mi);
			if (!bpf_map_get_info_by_fd(fd, &mi, &len))
				n += !strcmp(mi.name, names[3]);
			close(fd);
		}
		if (!n)
			break;
		usleep(10000);
	}
	return n;
}

/* a failed load leaves no pin, no program, no link, no map of the policy */
static void assert_nothing_left(const char *what)
{
	char msg[128];

	snprintf(msg, sizeof(msg), "%s: nothing pinned", what);
	ASSERT_TRUE(!policy_pinned("deny-unsigned"), msg);
	snprintf(msg, sizeof(msg), "%s: no program or owner map of the policy loaded", what);
	ASSERT_EQ(policy_objects_left(), 0, msg);
}

static int test_run(int pfd)
{
	char pkt[64] = {};
	LIBBPF_OPTS(bpf_test_run_opts, run, .data_in = pkt, .data_size_in = sizeof(pkt));

	return bpf_prog_test_run_opts(pfd, &run) ? -errno : (int)run.retval;
}

/* What the attacker does while the CLI is stopped: 0 if it got its writer */
typedef int (*window_fn)(void *arg);

/*
 * Run "bpfsign-policy load deny-unsigned" under ptrace (root stops its
 * own child: no luck needed, attack_policy_load_window_writer's method);
 * at the entry of its first BPF_RAW_TRACEPOINT_OPEN (the skeleton's first
 * attach: every map made, configured, frozen, read back, owner written,
 * nothing attached) call fn once.  The CLI's exit code (its output in
 * policy_out), or -1; *fn_rc what fn returned (-ENOENT: never called).
 */
static int traced_load(window_fn fn, void *arg, int *fn_rc)
{
	const char *const argv[] = { POLICY_CLI, "load", "deny-unsigned", NULL };
	int out = memfd_create("traced-load", 0), status = 0, sig;
	struct user_regs_struct regs;
	bool called = false;
	ssize_t n, len = 0;
	pid_t pid;

	*fn_rc = -ENOENT;
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
		if (called || ptrace(PTRACE_GETREGS, pid, NULL, &regs) ||
		    regs.orig_rax != __NR_bpf || regs.rdi != BPF_RAW_TRACEPOINT_OPEN ||
		    (long)regs.rax != -ENOSYS)
			continue;
		called = true;
		*fn_rc = fn(arg);
	}
	if (!WIFEXITED(status) && !WIFSIGNALED(status)) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	lseek(out, 0, SEEK_SET);
	while ((n = read(out, policy_out + len, sizeof(policy_out) - 1 - len)) > 0)
		len += n;
	policy_out[len] = 0;
	close(out);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* --- a writer that ran in the window ------------------------------------ */

struct forger {
	bool keep;	/* keep the writer loaded through the load (the control) */
	int pfd;
	__u32 id;
	int ran;	/* the writer's test run: its retval, or -errno */
	bool gone;	/* its id left the kernel's list before the CLI went on */
};

static int forge_in_window(void *arg)
{
	struct forger *f = arg;
	int sfd = newest_map_fd("stats"), efd = newest_map_fd("events"), tries;

	f->pfd = -1;
	if (sfd >= 0 && efd >= 0)
		f->pfd = load_forger(sfd, efd);
	if (sfd >= 0)
		close(sfd);
	if (efd >= 0)
		close(efd);
	if (f->pfd < 0)
		return f->pfd;
	f->id = prog_id(f->pfd);
	f->ran = test_run(f->pfd);
	if (f->keep)
		return 0;
	close(f->pfd);
	f->pfd = -1;
	/* the last reference drops the id at once (bpf_prog_put, process
	 * context); wait for it all the same, the walk must not meet it
	 */
	for (tries = 0; tries < 500; tries++) {
		int fd = bpf_prog_get_fd_by_id(f->id);

		if (fd < 0 && errno == ENOENT) {
			f->gone = true;
			break;
		}
		if (fd >= 0)
			close(fd);
		usleep(10000);
	}
	return 0;
}

/*
 * Control of the harness: the same writer, kept loaded.  load's walk
 * (after the guard's attach, before the rest: policies.c window_closed())
 * must name it and fail, leaving nothing behind: proof that the writer
 * lands in the window, on the new policy's maps, and that the walk sees
 * a program that still lives.
 */
TEST_EXPLICIT(attack_round5_window_writer_kept)
{
	struct forger f = { .keep = true, .pfd = -1 };
	char msg[128];
	int rc, frc;

	policy_unload_all();
	rc = traced_load(forge_in_window, &f, &frc);
	if (!ASSERT_EQ(frc, 0, "the forger, loaded in the window") ||
	    !ASSERT_EQ(f.ran, 1, "the forger ran")) {
		printf("# forger load: %s\n", vlog);
		policy_dump_out();
		goto out;
	}
	snprintf(msg, sizeof(msg), "counters not trustworthy: program %u uses map", f.id);
	/* policy_users_walk(): the walk names a live user of the maps */
	if (!ASSERT_TRUE(rc != 0, "load: non-zero exit, a live writer") ||
	    !ASSERT_HAS(policy_out, msg, "load: names the writer"))
		policy_dump_out();
	assert_nothing_left("load");
out:
	if (f.pfd >= 0)
		close(f.pfd);
	policy_unload_all();
}

/*
 * The same writer, run in the window and closed before the CLI goes on:
 * it is gone when load's walk runs, so the walk cannot name it, but what
 * it wrote stays: a denial deny-unsigned never made (a record of uid
 * FRAMED_UID, comm "framed", seq 1; deny 1 = ringed 1).  The read-back
 * after the guard's attach (readback_window()) finds stats non-zero and
 * fails the load; nothing of the policy stays, so status and log have
 * nothing forged to show.  R5: load, status and log all exited 0.
 */
TEST_EXPLICIT(attack_round5_window_writer_freed)
{
	struct forger f = { .keep = false, .pfd = -1 };
	int rc, frc;

	policy_unload_all();
	rc = traced_load(forge_in_window, &f, &frc);
	if (!ASSERT_EQ(frc, 0, "the forger, loaded in the window") ||
	    !ASSERT_EQ(f.ran, 1, "the forger ran") ||
	    !ASSERT_TRUE(f.gone, "the forger freed before the CLI went on")) {
		printf("# forger load: %s\n", vlog);
		policy_dump_out();
		goto out;
	}
	/* readback_window(): stats first, the forger set deny and ringed */
	if (!ASSERT_TRUE(rc != 0, "load: non-zero exit, the maps were written in the window") ||
	    !ASSERT_HAS(policy_out, "deny-unsigned: map 'stats' changed before the guard's attach",
			"load: names the map and the window"))
		policy_dump_out();
	assert_nothing_left("load");
out:
	if (f.pfd >= 0)
		close(f.pfd);
	policy_unload_all();
}

/* --- a writer that stays, through a map-in-map ---------------------------- */

struct mim {
	int outer;	/* an array of maps whose template fits stats */
	int pfd;	/* a zeroer of stats[deny] through slot 0 */
	__u32 id;
};

static int mim_in_window(void *arg)
{
	struct mim *w = arg;
	int sfd = newest_map_fd("stats");
	LIBBPF_OPTS(bpf_map_create_opts, o);

	w->outer = w->pfd = -1;
	if (sfd < 0)
		return -ENOENT;
	o.inner_map_fd = sfd;
	w->outer = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "outer", 4, 4, 1, &o);
	close(sfd);
	if (w->outer < 0)
		return -errno;
	/* the template only: slot 0 stays empty until after the load */
	w->pfd = policy_load_zeroer(w->outer, true, BPFSIGN_STAT_DENY);
	if (w->pfd < 0)
		return w->pfd;
	w->id = prog_id(w->pfd);
	return 0;
}

/*
 * A writer loaded in the window that names no policy map: a map-in-map
 * whose template is the new stats, the slot empty (root would put stats
 * there by id after the load and zero stats[deny] at will: R5, never
 * named).  The walk reports a program whose map-in-map's template fits a
 * policy map, as the guard refuses one (users_prog()): the load fails
 * naming the program and the outer map, and leaves nothing behind.
 */
TEST_EXPLICIT(attack_round5_window_map_in_map)
{
	struct mim w = { .outer = -1, .pfd = -1 };
	char msg[160];
	int rc, frc;

	policy_unload_all();
	rc = traced_load(mim_in_window, &w, &frc);
	if (!ASSERT_EQ(frc, 0, "the map-in-map writer, loaded in the window")) {
		printf("# writer load: %s\n", vlog);
		policy_dump_out();
		goto out;
	}
	snprintf(msg, sizeof(msg), "counters not trustworthy: program %u uses map outer", w.id);
	/* policy_users_walk(): map_in_map set by the iterator */
	if (!ASSERT_TRUE(rc != 0, "load: non-zero exit, a map-in-map writer lives") ||
	    !ASSERT_HAS(policy_out, msg, "load: names the writer and its outer map") ||
	    !ASSERT_HAS(policy_out, "a map-in-map whose inner template fits",
			"load: says why the outer map counts"))
		policy_dump_out();
	assert_nothing_left("load");
out:
	if (w.pfd >= 0)
		close(w.pfd);
	if (w.outer >= 0)
		close(w.outer);
	policy_unload_all();
}

/* --- a writer that ran in the window fills the tallies ------------------- */

#define FLOOD	600	/* denials: the ring buffer holds 512, the rest overflow */

/*
 * An unsigned cgroup_skb program that inserts n keys (uid first_uid...,
 * nothing else set) into the hash map at fd: a bounded loop, one
 * update each.  Its fd, or -errno.
 */
static int load_filler(int fd, __u32 first_uid, __u32 n)
{
	struct bpf_insn p[64];
	int i = 0, loop, k;

	/* key at fp-32 (struct bpfsign_tally_key, 20 bytes), value at fp-96 */
	_Static_assert(sizeof(struct bpfsign_tally_key) <= 24 &&
		       sizeof(struct bpfsign_tally) <= 64, "key and value fit");
	for (k = -96; k < 0; k += 8)
		p[i++] = (struct bpf_insn)ST_MEM(BPF_DW, BPF_REG_10, k, 0);
	p[i++] = (struct bpf_insn)MOV64_IMM(BPF_REG_6, first_uid);
	loop = i;
	p[i++] = (struct bpf_insn)INSN(BPF_STX | BPF_MEM | BPF_W, BPF_REG_10, BPF_REG_6, -32, 0);
	p[i++] = (struct bpf_insn)INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, fd);
	p[i++] = (struct bpf_insn)INSN(0, 0, 0, 0, 0);
	p[i++] = (struct bpf_insn)MOV64_REG(BPF_REG_2, BPF_REG_10);
	p[i++] = (struct bpf_insn)ADD64_IMM(BPF_REG_2, -32);
	p[i++] = (struct bpf_insn)MOV64_REG(BPF_REG_3, BPF_REG_10);
	p[i++] = (struct bpf_insn)ADD64_IMM(BPF_REG_3, -96);
	p[i++] = (struct bpf_insn)MOV64_IMM(BPF_REG_4, 0);
	p[i++] = (struct bpf_insn)CALL(BPF_FUNC_map_update_elem);
	p[i++] = (struct bpf_insn)ADD64_IMM(BPF_REG_6, 1);
	p[i] = (struct bpf_insn)INSN(BPF_JMP | BPF_JLT | BPF_K, BPF_REG_6, 0, loop - (i + 1),
				     first_uid + n);
	i++;
	p[i++] = (struct bpf_insn)MOV64_IMM(BPF_REG_0, 1);
	p[i++] = (struct bpf_insn)EXIT_INSN();
	/* no verifier log: 4096 iterations overflow load_prog_type()'s (ENOSPC) */
	k = bpf_prog_load(BPF_PROG_TYPE_CGROUP_SKB, "fill", "GPL", p, i, NULL);
	return k < 0 ? -errno : k;
}

struct filler {
	int ran_tally, ran_any;
};

/* fill tally and tally_any, run once each, keep nothing */
static int fill_in_window(void *arg)
{
	struct filler *f = arg;
	int tfd = newest_map_fd("tally"), afd = newest_map_fd("tally_any"), p1 = -1, p2 = -1;
	int err = -ENOENT;

	if (tfd < 0 || afd < 0)
		goto out;
	p1 = load_filler(tfd, 100000, BPFSIGN_MAX_TALLIES);
	p2 = load_filler(afd, 200000, BPFSIGN_MAX_TALLY_ANY);
	if (p1 < 0 || p2 < 0) {
		err = p1 < 0 ? p1 : p2;
		goto out;
	}
	f->ran_tally = test_run(p1);
	f->ran_any = test_run(p2);
	err = 0;
out:
	if (p1 >= 0)
		close(p1);
	if (p2 >= 0)
		close(p2);
	if (tfd >= 0)
		close(tfd);
	if (afd >= 0)
		close(afd);
	return err;
}

/*
 * README "When the ring buffer is full": every denial goes to the ring
 * buffer, else the tally, else tally_any, where every key has room.  A
 * writer that ran in the window and was freed before the walk filled both
 * with keys of no real caller (R5: every overflowing denial then lost,
 * load and status exit 0).  The read-back after the guard's attach finds
 * tally not empty and fails the load, leaving nothing behind.
 */
TEST_EXPLICIT(attack_round5_window_fill_tallies)
{
	struct filler f = {};
	int rc, frc;

	policy_unload_all();
	rc = traced_load(fill_in_window, &f, &frc);
	if (!ASSERT_EQ(frc, 0, "the fillers, loaded in the window") ||
	    !ASSERT_EQ(f.ran_tally, 1, "the tally filler ran") ||
	    !ASSERT_EQ(f.ran_any, 1, "the tally_any filler ran")) {
		printf("# filler load: %.2000s\n", vlog);
		policy_dump_out();
		goto out;
	}
	/* readback_window(): stats untouched, tally first of the two */
	if (!ASSERT_TRUE(rc != 0, "load: non-zero exit, the tallies were filled in the window") ||
	    !ASSERT_HAS(policy_out, "deny-unsigned: map 'tally' gained entries before the guard's attach",
			"load: names the map and the window"))
		policy_dump_out();
	assert_nothing_left("load");
out:
	policy_unload_all();
}

/*
 * Control of attack_round5_window_fill_tallies: the same flood on a policy
 * loaded without the fillers loses nothing (the overflow is tallied), so
 * the loss there is the fillers' doing.
 */
TEST_EXPLICIT(attack_round5_fill_tallies_control)
{
	__u64 n[BPFSIGN_STAT_MAX];
	int i, src, denied = 0;

	policy_unload_all();
	if (!POLICY_CLI_OK("load deny-unsigned", "load", "deny-unsigned"))
		goto out;
	for (i = 0; i < FLOOD; i++)
		denied += policy_try_unsigned_syscall() == -EPERM;
	ASSERT_EQ(denied, FLOOD, "deny-unsigned denied the flood");
	if (!ASSERT_TRUE(policy_status_counts("deny-unsigned", n, &src), "status counters"))
		goto out;
	ASSERT_EQ(src, 0, "status: exit 0");
	ASSERT_EQ(n[BPFSIGN_STAT_LOST], 0, "no denial lost");
	if (!ASSERT_GE(n[BPFSIGN_STAT_TALLIED], 1, "the overflow tallied"))
		policy_dump_out();
out:
	policy_unload_all();
}
