// SPDX-License-Identifier: GPL-2.0
/*
 * make bench (not timed tests): variants of one operation measured side by
 * side in one run, printed as ratios.
 *  - an arena write through an __arena argument the JIT rebases, and through
 *    a scalar offset the kfunc translates itself;
 *  - this CPU's counter as a .percpu variable, as a 1-entry percpu_array
 *    lookup, and as bpf_get_smp_processor_id() + array indexing, one access
 *    per run with BPF_PROG_TEST_RUN repeat, less an empty program's run.
 */
#include <time.h>
#include <bpf/bpf.h>

#include "runner.h"
#include "arena_bench.skel.h"
#include "percpu_bench.skel.h"

#define ROUNDS 50
#define CALLS 10000	/* per run, as in progs/arena_bench.bpf.c */

/* ns of one test run, or -1 if it failed or returned other than want */
static double run_ns(int fd, int want)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	if (bpf_prog_test_run_opts(fd, &opts) || (int)opts.retval != want)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
}

TEST_EXPLICIT(bench_arena_args)
{
	struct arena_bench *skel = arena_bench__open_and_load();
	double arg = 0, off = 0, t;
	int i;

	if (!ASSERT_TRUE(skel, "load"))
		return;
	if (!ASSERT_EQ(run_ns(bpf_program__fd(skel->progs.setup), 0) >= 0, 1, "setup"))
		goto out;
	/* interleaved, so that both see the same machine */
	for (i = 0; i < ROUNDS; i++) {
		t = run_ns(bpf_program__fd(skel->progs.bench_arena_arg), CALLS);
		if (!ASSERT_GE(t, 0, "bench_arena_arg run"))
			goto out;
		arg += t;
		t = run_ns(bpf_program__fd(skel->progs.bench_offset), CALLS);
		if (!ASSERT_GE(t, 0, "bench_offset run"))
			goto out;
		off += t;
	}
	ASSERT_EQ(skel->bss->errors, 0, "every write succeeded");
	printf("# bench: __arena argument %.1f ns/call, scalar offset %.1f ns/call, ratio %.2f\n",
	       arg / ROUNDS / CALLS, off / ROUNDS / CALLS, off / arg);
out:
	arena_bench__destroy(skel);
}

#define REPEAT 100000

/* average ns of one run over REPEAT runs, timed by the kernel; -1 on failure */
static double run_repeat_ns(int fd)
{
	char pkt[64] = {};
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		.data_in = pkt,
		.data_size_in = sizeof(pkt),
		.repeat = REPEAT,
	);

	if (bpf_prog_test_run_opts(fd, &opts))
		return -1;
	return opts.duration;
}

TEST_EXPLICIT(bench_percpu_data)
{
	static const char *const what[] = {
		"empty program", ".percpu variable", "percpu_array lookup",
		"smp_processor_id + array",
	};
	struct percpu_bench *skel = percpu_bench__open_and_load();
	double ns[4] = {}, t, net;
	int i, k, fds[4];

	if (!ASSERT_TRUE(skel, "load"))
		return;
	fds[0] = bpf_program__fd(skel->progs.bench_empty);
	fds[1] = bpf_program__fd(skel->progs.bench_percpu_data);
	fds[2] = bpf_program__fd(skel->progs.bench_map_lookup);
	fds[3] = bpf_program__fd(skel->progs.bench_cpu_index);
	/* interleaved, so that all four see the same machine */
	for (i = 0; i < ROUNDS; i++) {
		for (k = 0; k < 4; k++) {
			t = run_repeat_ns(fds[k]);
			if (!ASSERT_GE(t, 0, what[k]))
				goto out;
			ns[k] += t / ROUNDS;
		}
	}
	ASSERT_EQ(skel->bss->errors, 0, "every access succeeded");
	/* the cost of an access: a run minus an empty run */
	net = ns[1] - ns[0];
	printf("# bench: one run (BPF_PROG_TEST_RUN, repeat %d): empty %.1f ns\n", REPEAT, ns[0]);
	for (k = 1; k < 4; k++)
		printf("# bench:   %-26s %.1f ns/run, %.1f ns/access, %.2fx the .percpu access\n",
		       what[k], ns[k], ns[k] - ns[0], net > 0 ? (ns[k] - ns[0]) / net : 0);
out:
	percpu_bench__destroy(skel);
}
