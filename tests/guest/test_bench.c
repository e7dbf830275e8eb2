// SPDX-License-Identifier: GPL-2.0
/*
 * make bench (not timed tests): variants of one operation measured side by
 * side in one run, printed as ratios.
 *  - an arena write through an __arena argument the JIT rebases, and through
 *    a scalar offset the kfunc translates itself;
 *  - this CPU's counter as a .percpu variable, as a 1-entry percpu_array
 *    lookup, and as bpf_get_smp_processor_id() + array indexing.
 */
#include <time.h>
#include <bpf/bpf.h>

#include "runner.h"
#include "arena_bench.skel.h"
#include "percpu_bench.skel.h"

#define ROUNDS 50
#define CALLS 10000	/* per run, as in progs/{arena,percpu}_bench.bpf.c */

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

TEST_EXPLICIT(bench_percpu_data)
{
	struct percpu_bench *skel = percpu_bench__open_and_load();
	double pcpu = 0, lookup = 0, idx = 0, t;
	int i, fds[3];

	if (!ASSERT_TRUE(skel, "load"))
		return;
	fds[0] = bpf_program__fd(skel->progs.bench_percpu_data);
	fds[1] = bpf_program__fd(skel->progs.bench_map_lookup);
	fds[2] = bpf_program__fd(skel->progs.bench_cpu_index);
	for (i = 0; i < ROUNDS; i++) {
		t = run_ns(fds[0], CALLS);
		if (!ASSERT_GE(t, 0, "bench_percpu_data run"))
			goto out;
		pcpu += t;
		t = run_ns(fds[1], CALLS);
		if (!ASSERT_GE(t, 0, "bench_map_lookup run"))
			goto out;
		lookup += t;
		t = run_ns(fds[2], CALLS);
		if (!ASSERT_GE(t, 0, "bench_cpu_index run"))
			goto out;
		idx += t;
	}
	ASSERT_EQ(skel->bss->errors, 0, "every access succeeded");
	printf("# bench: .percpu variable %.1f ns/access, percpu_array lookup %.1f ns/access "
	       "(%.2fx), smp_processor_id + array %.1f ns/access (%.2fx)\n",
	       pcpu / ROUNDS / CALLS, lookup / ROUNDS / CALLS, lookup / pcpu,
	       idx / ROUNDS / CALLS, idx / pcpu);
out:
	percpu_bench__destroy(skel);
}
