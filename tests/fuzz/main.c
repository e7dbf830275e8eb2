// SPDX-License-Identifier: GPL-2.0
/*
 * bpfsign-fuzz: a syscall fuzzer with invariants for the kit's kernel.
 *
 * Usage: bpfsign-fuzz [--seed N] [--seconds M] [--ops K] [--policy] [--verbose]
 *
 * From the seed it draws a sequence of operations (tests/fuzz/README.md),
 * runs each against the kernel, and checks what the model says it must
 * do.  The first broken invariant prints the seed, the operation index and
 * what broke, and the run exits 1; --ops K replays the first K operations
 * of a seed exactly (the time bound is only a cap).  At the end it closes
 * everything, checks that the kernel's objects and keys are back to their
 * count, and prints the calls and errnos of every operation.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <keyutils.h>

#include "fuzz.h"

struct state st;

/* every CHECKPOINT operations everything is closed and the counts checked */
#define CHECKPOINT 256

static const struct {
	const char *name;
	void (*fn)(void);
	u32 weight;
} optab[] = {
	{ "map_create", op_map_create, 8 },
	{ "meta_map", op_meta_map, 6 },
	{ "map_update", op_map_update, 10 },
	{ "map_lookup", op_map_lookup, 8 },
	{ "map_delete", op_map_delete, 2 },
	{ "map_batch", op_map_batch, 4 },
	{ "map_freeze", op_map_freeze, 4 },
	{ "map_get_fd_by_id", op_map_get_fd_by_id, 2 },
	{ "map_mmap", op_map_mmap, 2 },
	{ "map_mmap_write", op_map_mmap_write, 2 },
	{ "map_munmap", op_map_munmap, 1 },
	{ "map_hash_info", op_map_hash_info, 3 },
	{ "prog_load_signed", op_prog_load_signed, 16 },
	{ "prog_load_unsigned", op_prog_load_unsigned, 6 },
	{ "loader_load", op_loader_load, 5 },
	{ "prog_run", op_prog_run, 5 },
	{ "loader_run", op_loader_run, 8 },
	{ "iter", op_iter, 3 },
	{ "arena", op_arena, 2 },
	{ "btf_load", op_btf_load, 1 },
	{ "close_one", op_close_one, 4 },
	{ "key_session", op_key_session, 3 },
	{ "key_bpf", op_key_bpf, 2 },
	{ "key_secondary", op_key_secondary, 1 },
	{ "sysctl", op_sysctl, 1 },
	{ "race", op_race, 3 },
};

static const char *cur_op = "setup";

void op_desc(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st.desc, sizeof(st.desc), fmt, ap);
	va_end(ap);
}

void vlog_line(const char *fmt, ...)
{
	va_list ap;

	if (!st.verbose)
		return;
	printf("# %llu %s: ", (unsigned long long)st.op, cur_op);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

void violation(const char *fmt, ...)
{
	va_list ap;

	printf("# VIOLATION seed %llu op %llu (%s): ", (unsigned long long)st.seed,
	       (unsigned long long)st.op, cur_op);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n# the operation: %s\n", st.desc);
	if (vlog[0]) {
		size_t n = strlen(vlog);
		char *line, *save;

		/* the end of the log says why */
		for (line = strtok_r(vlog + (n > 600 ? n - 600 : 0), "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			printf("# verifier log: %s\n", line);
	}
	printf("# replay: make fuzz-kernel SEED=%llu OPS=%llu POLICY=%d VERBOSE=1 "
	       "(in the guest: bpfsign-fuzz --seed %llu --ops %llu%s --verbose)\n",
	       (unsigned long long)st.seed, (unsigned long long)st.op + 1, policy_mode(),
	       (unsigned long long)st.seed, (unsigned long long)st.op + 1,
	       policy_mode() ? " --policy" : "");
	stats_print();
	stats_summary();
	/* what would outlive the process: the policies, keys in shared keyrings */
	policy_abort();
	keys_teardown();
	printf("bpfsign-fuzz: seed %llu FAILED at op %llu\n", (unsigned long long)st.seed,
	       (unsigned long long)st.op);
	fflush(stdout);
	exit(1);
}

static const char *err_str(long ret)
{
	if (ret >= 0)
		return "success";
	if (-ret == ENOTSUPP)
		return "ENOTSUPP";
	return strerrorname_np(-ret) ?: "errno?";
}

void expect_check(const char *op, struct expect e, long ret)
{
	int err = ret < 0 ? -ret : 0;

	stat_add(stat_of(op), err);
	stat_check(&e);
	vlog_line("%s -> %s (expected %s%s%s)", st.desc, err_str(ret),
		  e.kind == EXP_OK ? "success" : e.kind == EXP_FAIL ? "failure " : "anything: ",
		  e.kind == EXP_FAIL && e.err ? err_str(-e.err) : "",
		  e.kind == EXP_ANY && e.why ? e.why : "");
	if (e.kind == EXP_OK && ret < 0)
		violation("%s: expected success (%s), got %s", op, e.why, err_str(ret));
	if (e.kind == EXP_FAIL && ret >= 0)
		violation("%s: expected failure (%s), it succeeded", op, e.why);
	if (e.kind == EXP_FAIL && e.err && err != e.err)
		violation("%s: expected %s (%s), got %s", op, err_str(-e.err), e.why,
			  err_str(ret));
}

long sys_bpf(int cmd, union bpf_attr *attr, u32 size)
{
	long ret = syscall(__NR_bpf, cmd, attr, size);

	return ret < 0 ? -errno : ret;
}

#define ENFORCE "/proc/sys/kernel/bpf_sig_enforce"

/* the sysctl; reading 0 after 1 is a violation */
bool enforce_read(void)
{
	char buf[8] = "";
	int fd = open(ENFORCE, O_RDONLY);
	bool on;

	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) < 1)
		violation("cannot read %s", ENFORCE);
	close(fd);
	on = buf[0] == '1';
	if (st.enforce && !on)
		violation("kernel.bpf_sig_enforce read 0 after it read 1");
	if (!st.enforce && on)
		violation("kernel.bpf_sig_enforce read 1 though nothing raised it");
	return on;
}

static bool read_enforce_raw(void)
{
	char buf[8] = "";
	int fd = open(ENFORCE, O_RDONLY);

	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) < 1) {
		printf("# cannot read %s\n", ENFORCE);
		exit(2);
	}
	close(fd);
	return buf[0] == '1';
}

static void checkpoint(const struct counts *base, const char *when)
{
	const char *diff;

	cur_op = when;
	op_desc("close every fd and mapping, then count programs, maps, BTF, links, keys");
	policy_drain(true);
	pool_close_all();
	keys_reset();
	kmsg_check(when);
	diff = counts_settle(base, st.permanent_keys, 1);
	stat_add(stat_of(when), diff ? 1 : 0);
	if (diff)
		violation("%s", diff);
}

static void usage(void)
{
	fprintf(stderr, "Usage: bpfsign-fuzz [--seed N] [--seconds M] [--ops K] [--policy] [--verbose]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "seconds", required_argument, NULL, 't' },
		{ "ops", required_argument, NULL, 'o' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "policy", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	u32 weights[ARRAY_SIZE(optab)];
	struct counts before, base;
	u64 max_ops = UINT64_MAX, op_calls[ARRAY_SIZE(optab)] = {};
	double seconds = 60, start, t0, op_time[ARRAY_SIZE(optab)] = {};
	const char *diff;
	bool policy = false;
	int c, i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	st.seed = 1;
	while ((c = getopt_long(argc, argv, "s:t:o:vh", opts, NULL)) != -1) {
		switch (c) {
		case 's': st.seed = strtoull(optarg, NULL, 0); break;
		case 't': seconds = strtod(optarg, NULL); break;
		case 'o': max_ops = strtoull(optarg, NULL, 0); break;
		case 'v': st.verbose = true; break;
		case 'p': st.policy = policy = true; break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	libbpf_set_print(NULL);
	rnd_seed(st.seed);
	st.ncpus = libbpf_num_possible_cpus();
	if (st.ncpus < 1 || st.ncpus > MAX_CPUS) {
		printf("# %d possible CPUs: the model handles 1-%d\n", st.ncpus, MAX_CPUS);
		return 2;
	}
	if (!keys_load()) {
		printf("# cannot read the test keys in /tests/keys\n");
		return 2;
	}
	st.enforce = st.enforce_at_boot = read_enforce_raw();
	templates_init();
	printf("# bpfsign-fuzz: seed %llu, %.0f s%s, %d CPUs, enforcement %s at start%s\n",
	       (unsigned long long)st.seed, seconds, max_ops != UINT64_MAX ? " (op bound)" : "",
	       st.ncpus, st.enforce ? "on" : "off", policy ? ", policy mode" : "");
	kmsg_open();

	/* a session keyring of its own: nothing of an earlier run in its model */
	if (keyctl_join_session_keyring(NULL) < 0) {
		printf("# cannot join a session keyring of its own: %s\n", strerror(errno));
		return 2;
	}
	keys_early();
	counts_take(&before);
	key_usage_snapshot(0);
	ops_setup();
	/* after the skeletons, which load unsigned; their objects join the base */
	if (policy)
		policy_setup();
	race_start();
	counts_take(&base);
	key_usage_snapshot(1);
	for (i = 0; i < (int)ARRAY_SIZE(optab); i++)
		weights[i] = optab[i].weight;

	start = now();
	for (st.op = 0; st.op < max_ops; st.op++) {
		if (now() - start > seconds)
			break;
		if (st.op && !(st.op % CHECKPOINT))
			checkpoint(&base, "checkpoint");
		i = rnd_weighted(weights, ARRAY_SIZE(optab));
		cur_op = optab[i].name;
		st.desc[0] = 0;
		vlog[0] = 0;
		t0 = now();
		optab[i].fn();
		policy_drain(false);
		if (optab[i].fn == op_race)
			kmsg_check("a race episode");
		op_time[i] += now() - t0;
		op_calls[i]++;
		if (!(st.op & 15))
			enforce_read();
	}
	checkpoint(&base, "checkpoint");
	race_stop();
	cur_op = "teardown";
	policy_teardown();
	op_desc("unload the skeletons, remove the setup's keys");
	ops_teardown();
	diff = counts_settle(&before, st.permanent_keys, 0);
	if (diff)
		violation("%s", diff);
	enforce_read();
	kmsg_check("the end");
	stats_print();
	race_stats();
	policy_stats();
	for (i = 0; i < (int)ARRAY_SIZE(optab); i++)
		if (op_calls[i])
			printf("# time %s: %llu ops, %.1f ms each, %.1f s in all\n", optab[i].name,
			       (unsigned long long)op_calls[i], 1000 * op_time[i] / op_calls[i],
			       op_time[i]);
	stats_summary();
	printf("bpfsign-fuzz: seed %llu%s, %llu ops in %.1f s, enforcement %s at the end: ok\n",
	       (unsigned long long)st.seed, policy ? " (policy mode)" : "",
	       (unsigned long long)st.op, now() - start, st.enforce ? "on" : "off");
	return 0;
}
