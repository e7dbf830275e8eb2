// SPDX-License-Identifier: GPL-2.0
/*
 * make bench (not a timed test): the same arena write through an __arena
 * argument the JIT rebases, and through a scalar offset the kfunc
 * translates itself, measured side by side in one run; a ratio is printed.
 */
#include <time.h>
#include <bpf/bpf.h>

#include "runner.h"
#include "arena_bench.skel.h"

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
