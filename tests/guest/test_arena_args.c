// SPDX-License-Identifier: GPL-2.0
/*
 * __arena / __arena__nullable kfunc arguments: the JIT rebases them into the
 * arena; a kfunc touching an unpopulated page gets -EFAULT, not an oops.
 */

#include <bpf/bpf.h>

#include "runner.h"
#include "util.h"
#include "arena_args.skel.h"
#include "arena_args_bad.skel.h"

static int run(int prog_fd)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	if (bpf_prog_test_run_opts(prog_fd, &opts))
		return -errno;
	return opts.retval;
}

TEST(arena_args_end_to_end)
{
	struct arena_args *skel = arena_args__open_and_load();

	if (!ASSERT_TRUE(skel, "arena program with __arena kfunc calls loads"))
		return;
	if (!ASSERT_EQ(run(bpf_program__fd(skel->progs.arena_args)), 0, "run"))
		goto out;
	ASSERT_EQ(skel->bss->write_ret, 0, "kfunc wrote through the rebased pointer");
	ASSERT_EQ(skel->bss->seen_by_prog, 0x1122334455667788ull,
		  "the program reads what the kfunc wrote");
	ASSERT_EQ(skel->bss->read_ret, 0, "kfunc read through the rebased pointer");
	ASSERT_EQ(skel->bss->seen_by_kfunc, 42, "the kfunc reads what the program wrote");
	ASSERT_EQ(skel->bss->null_of_null, 1, "__arena__nullable: NULL stays NULL");
	ASSERT_EQ(skel->bss->null_of_page0, 1, "__arena__nullable: arena offset 0 is NULL");
	ASSERT_EQ(skel->bss->null_of_page1, 0, "__arena__nullable: a page pointer is not");
	ASSERT_EQ(skel->bss->base_value, 7, "__arena: NULL arrives as the arena base");
	ASSERT_EQ(skel->bss->cast_ret, 0, "a PTR_TO_ARENA register is accepted too");
	ASSERT_EQ(skel->bss->seen_after_cast, 99, "and rebased to the same page");
	ASSERT_EQ(skel->bss->fault_ret, -EFAULT, "unpopulated arena page: -EFAULT, no oops");
out:
	arena_args__destroy(skel);
}

static char log_buf[65536];

static int load_one(struct bpf_object *obj, struct bpf_program *prog)
{
	log_buf[0] = 0;
	bpf_program__set_log_buf(prog, log_buf, sizeof(log_buf));
	bpf_program__set_autoload(prog, true);
	return bpf_object__load(obj);
}

TEST(arena_args_refused)
{
	struct arena_args_bad *bad;
	struct arena_args *skel;

	/* the program has no arena: nothing to rebase into */
	bad = arena_args_bad__open();
	if (ASSERT_TRUE(bad, "open")) {
		ASSERT_ERR(load_one(bad->obj, bad->progs.no_arena), EINVAL, "no arena");
		ASSERT_HAS(log_buf, "arena pointer requires a program with an associated arena",
			   "log line");
	}
	arena_args_bad__destroy(bad);

	/* a context pointer is neither PTR_TO_ARENA nor a scalar */
	skel = arena_args__open();
	if (ASSERT_TRUE(skel, "open")) {
		ASSERT_ERR(load_one(skel->obj, skel->progs.ctx_pointer), EINVAL, "ctx pointer");
		ASSERT_HAS(log_buf, "is not a pointer to arena or scalar", "log line");
	}
	arena_args__destroy(skel);

	/* a kfunc that might dereference the pointer directly */
	skel = arena_args__open();
	if (ASSERT_TRUE(skel, "open")) {
		ASSERT_ERR(load_one(skel->obj, skel->progs.unsafe_kfunc), EINVAL,
			   "kfunc without KF_ARENA_NOFAULT");
		ASSERT_HAS(log_buf, "is not KF_ARENA_NOFAULT", "log line");
	}
	arena_args__destroy(skel);

	/* btf_distill_func_proto(): the suffix on a scalar parameter */
	skel = arena_args__open();
	if (ASSERT_TRUE(skel, "open")) {
		ASSERT_ERR(load_one(skel->obj, skel->progs.scalar_arena), EINVAL,
			   "__arena on a scalar kfunc parameter");
		ASSERT_HAS(log_buf, "has an arena suffix but is not a pointer", "log line");
	}
	arena_args__destroy(skel);
}

TEST(arena_args_need_the_jit)
{
	struct arena_args *skel = arena_args__open();

	if (!ASSERT_TRUE(skel, "open") || !ASSERT_OK(set_bpf_jit(0), "bpf_jit_enable=0"))
		goto out;
	/* the interpreter cannot rebase: kfunc calls, and so __arena
	 * arguments, need the JIT
	 */
	log_buf[0] = 0;
	bpf_program__set_log_buf(skel->progs.arena_args, log_buf, sizeof(log_buf));
	ASSERT_ERR(arena_args__load(skel), ENOTSUPP, "arena program with the JIT off");
	ASSERT_HAS(log_buf, "JIT is required", "log line");
	ASSERT_OK(set_bpf_jit(1), "bpf_jit_enable=1");
out:
	arena_args__destroy(skel);
}
