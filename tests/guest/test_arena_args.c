// SPDX-License-Identifier: GPL-2.0
/*
 * __arena / __arena__nullable kfunc arguments: the JIT rebases them into the
 * arena; a kfunc reading or writing an unpopulated page through the nofault
 * accessors gets -EFAULT, not an oops.
 */

#include <bpf/bpf.h>

#include "runner.h"
#include "token.h"
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

	/* a kfunc that dereferences the pointer directly: no longer refused,
	 * the kernel recovers its faults (test_arena_fault.c)
	 */
	skel = arena_args__open();
	if (ASSERT_TRUE(skel, "open") &&
	    ASSERT_OK(load_one(skel->obj, skel->progs.unsafe_kfunc),
		      "kfunc that dereferences its __arena argument")) {
		ASSERT_EQ(run(bpf_program__fd(skel->progs.unsafe_kfunc)), 0,
			  "it writes the program's page");
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

/*
 * As a token holder, for whom the JIT fails once its memory is over
 * net.core.bpf_jit_limit (bpf_jit_charge_modmem() asks bpf_capable() of the
 * init namespace): load an arena program with no kfunc call, then a plain
 * one. Exit status 0: the arena program got err (0: it loaded) and the plain
 * one loaded.
 */
static int load_arena_with_token(int token_fd, void *arg)
{
	LIBBPF_OPTS(bpf_map_create_opts, mopts,
		    .map_flags = BPF_F_MMAPABLE | BPF_F_TOKEN_FD,
		    .map_extra = 1ULL << 32, .token_fd = token_fd);
	LIBBPF_OPTS(bpf_prog_load_opts, popts,
		    .prog_flags = BPF_F_TOKEN_FD, .token_fd = token_fd);
	int err = *(int *)arg, arena, fd;

	arena = bpf_map_create(BPF_MAP_TYPE_ARENA, "arena", 0, 0, 1, &mopts);
	if (arena < 0) {
		printf("# arena map with the token: errno %d\n", errno);
		return 1;
	}
	{
		/* r1 = arena; r1 = addr_space_cast(r1, 0, 1); r0 = *(u64 *)(r1 + 0) */
		struct bpf_insn insns[] = {
			LD_MAP(BPF_REG_1, BPF_PSEUDO_MAP_VALUE, arena),
			INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, BPF_REG_1,
			     BPF_ADDR_SPACE_CAST, 1),
			INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_0, BPF_REG_1, 0, 0),
			EXIT_INSN(),
		};
		struct bpf_insn plain[] = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() };

		fd = load_prog(insns, ARRAY_LEN(insns), &popts);
		if (err ? fd >= 0 || errno != err : fd < 0) {
			printf("# arena program with the token: %d (errno %d)\n%s", fd, errno, vlog);
			return 2;
		}
		fd = load_prog(plain, ARRAY_LEN(plain), &popts);
		if (fd < 0) {
			printf("# plain program with the token: errno %d\n%s", errno, vlog);
			return 3;
		}
	}
	return 0;
}

TEST(arena_jit_failure)
{
	char limit[64] = "";
	int ok = 0, enotsupp = ENOTSUPP;

	/* the control: within the limit, the token holder JITs both */
	ASSERT_EQ(run_with_token(load_arena_with_token, &ok), 0, "JITed by a token holder");
	if (!ASSERT_OK(sysctl_write("/proc/sys/net/core/bpf_jit_limit", "1", limit, sizeof(limit)),
		       "bpf_jit_limit=1"))
		return;
	/* bpf_prog_select_runtime(): an arena program never falls back to the
	 * interpreter, where addr_space_cast is a no-op and PROBE_MEM32 BUG()s
	 */
	ASSERT_EQ(run_with_token(load_arena_with_token, &enotsupp), 0,
		  "JIT failure: arena program refused, plain one interpreted");
	ASSERT_OK(sysctl_write("/proc/sys/net/core/bpf_jit_limit", limit, NULL, 0),
		  "restore bpf_jit_limit");
}
