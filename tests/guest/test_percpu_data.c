// SPDX-License-Identifier: GPL-2.0
/*
 * Global percpu data (.percpu sections): a port of upstream's
 * prog_tests/global_data_init.c percpu cases (skeleton, light skeleton,
 * bpf_iter) plus the verifier's refusals and the no-interpreter rule.
 */
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runner.h"
#include "util.h"
#include "percpu_data.skel.h"
#include "percpu_data.lskel.h"
#include "percpu_data_signed.lskel.h"
#include "percpu_data_bad.skel.h"
#include "basic.skel.h"

#define CPU(c) (BPF_F_CPU | (__u64)(c) << 32)

/*
 * Run the program once on every CPU and read that CPU's copy back with
 * BPF_F_CPU: each CPU saw its own id, and the run counter (in .bss, shared)
 * went up by one each time. map is NULL for light skeletons.
 */
static void percpu_data_on_cpus(struct bpf_map *map, int map_fd, int prog_fd, int *runp)
{
	int n = libbpf_num_possible_cpus(), i, err, key = 0, run = 0;
	struct percpu_data__percpu *data;
	__u64 args[2] = { 0x1234, 0x5678 };
	size_t data_sz;
	LIBBPF_OPTS(bpf_test_run_opts, topts,
		.ctx_in = args,
		.ctx_size_in = sizeof(args),
		.flags = BPF_F_TEST_RUN_ON_CPU,
	);

	if (!ASSERT_GE(n, 2, "the guest has 2 CPUs") ||
	    !ASSERT_EQ(sysconf(_SC_NPROCESSORS_ONLN), n, "every CPU is online"))
		return;
	data_sz = map ? bpf_map__value_size(map) : sizeof(*data);
	data = calloc(1, data_sz);
	if (!ASSERT_TRUE(data, "calloc"))
		return;

	for (i = 0; i < n; i++) {
		topts.cpu = i;
		topts.retval = -1;
		err = bpf_prog_test_run_opts(prog_fd, &topts);
		ASSERT_OK(err, "test run on a CPU");
		ASSERT_EQ(topts.retval, 0, "retval");

		memset(data, 0, data_sz);
		if (map)
			err = bpf_map__lookup_elem(map, &key, sizeof(key), data, data_sz, CPU(i));
		else
			err = bpf_map_lookup_elem_flags(map_fd, &key, data, CPU(i));
		if (!ASSERT_OK(err, "lookup one CPU's copy"))
			break;

		ASSERT_EQ(*runp, ++run, "run");
		ASSERT_EQ(data->cpu_id[0], i, "cpu_id is this CPU's");
		ASSERT_EQ(data->data, 1, "data");
		ASSERT_TRUE(data->set, "set");
		ASSERT_EQ(data->nums[6], 0xc0de, "nums[6]");
		ASSERT_EQ(data->struct_data.i, 1, "struct_data.i");
		ASSERT_TRUE(data->struct_data.set, "struct_data.set");
		ASSERT_EQ(data->struct_data.nums[6], 0xc0de, "struct_data.nums[6]");
	}
	free(data);
}

TEST(percpu_data_skeleton)
{
	struct percpu_data__percpu init_value = {}, *init_data;
	const __u32 desired_sz = sysconf(_SC_PAGE_SIZE);
	struct percpu_data *skel = percpu_data__open();
	size_t init_data_sz;
	struct bpf_map *map;

	if (!ASSERT_TRUE(skel, "open") ||
	    !ASSERT_TRUE(skel->percpu, "skel->percpu") ||
	    !ASSERT_TRUE(skel->data_percpu, "skel->data_percpu") ||
	    !ASSERT_TRUE(skel->percpu_data, "skel->percpu_data") ||
	    !ASSERT_TRUE(skel->percpu_looooooooong, "skel->percpu_looooooooong"))
		goto out;

	ASSERT_STREQ(bpf_map__name(skel->maps.percpu_data), ".percpu.data", ".percpu.data");
	ASSERT_STREQ(bpf_map__name(skel->maps.data_percpu), ".data.percpu", ".data.percpu");
	ASSERT_STREQ(bpf_map__name(skel->maps.percpu_looooooooong), ".percpu.looooooooong",
		     "a long map name is not truncated");
	ASSERT_STREQ(bpf_map__name(skel->maps.percpu), ".percpu", ".percpu");
	ASSERT_EQ(bpf_map__type(skel->maps.data_percpu), BPF_MAP_TYPE_ARRAY,
		  ".data.percpu is ordinary data");
	ASSERT_EQ(skel->percpu->data, -1, "initial data");
	ASSERT_TRUE(!skel->percpu->set, "initial set");
	ASSERT_EQ(skel->percpu->nums[6], 0, "initial nums[6]");
	ASSERT_EQ(skel->percpu->struct_data.i, -1, "initial struct_data.i");
	ASSERT_TRUE(!skel->percpu->struct_data.set, "initial struct_data.set");
	ASSERT_EQ(skel->percpu->struct_data.nums[6], 0, "initial struct_data.nums[6]");

	map = skel->maps.percpu;
	if (!ASSERT_EQ(bpf_map__type(map), BPF_MAP_TYPE_PERCPU_ARRAY, "map type"))
		goto out;

	init_value.data = 2;
	init_value.nums[6] = -1;
	init_value.struct_data.i = 2;
	init_value.struct_data.nums[6] = -1;
	if (!ASSERT_OK(bpf_map__set_initial_value(map, &init_value, sizeof(init_value)),
		       "bpf_map__set_initial_value"))
		goto out;
	init_data = bpf_map__initial_value(map, &init_data_sz);
	if (!ASSERT_TRUE(init_data, "bpf_map__initial_value"))
		goto out;
	ASSERT_EQ(init_data->data, init_value.data, "initial value: data");
	ASSERT_EQ(init_data->set, init_value.set, "initial value: set");
	ASSERT_EQ(init_data->struct_data.i, init_value.struct_data.i, "initial struct_data.i");
	ASSERT_EQ(init_data->struct_data.nums[6], init_value.struct_data.nums[6],
		  "initial struct_data.nums[6]");
	ASSERT_EQ(init_data_sz, sizeof(init_value), "initial value size");
	ASSERT_TRUE((void *)init_data == (void *)skel->percpu, "skel->percpu is the image");

	/* grow the value to a page: the image, its size and the BTF follow */
	if (!ASSERT_OK(bpf_map__set_value_size(map, desired_sz), "bpf_map__set_value_size") ||
	    !ASSERT_EQ(bpf_map__value_size(map), desired_sz, "value size") ||
	    !ASSERT_TRUE(bpf_map__btf_value_type_id(map), "BTF value type kept"))
		goto out;
	init_data = bpf_map__initial_value(map, &init_data_sz);
	if (!ASSERT_TRUE(init_data, "resized initial value") ||
	    !ASSERT_EQ(init_data_sz, desired_sz, "resized initial value size") ||
	    !ASSERT_EQ(init_data->data, init_value.data, "resized initial data"))
		goto out;

	if (!ASSERT_OK(percpu_data__load(skel), "load"))
		goto out;
	if (!ASSERT_TRUE(skel->percpu, "skel->percpu after load"))
		goto out;
	ASSERT_EQ(skel->percpu->data, 2, "the image is still readable");
	ASSERT_TRUE(is_read_only(skel->percpu), "the image is read-only after load");

	percpu_data_on_cpus(map, bpf_map__fd(map), bpf_program__fd(skel->progs.update_percpu_data),
			    &skel->bss->run);
out:
	percpu_data__destroy(skel);
}

/* a light skeleton from the patched bpftool: its loader writes every CPU at once */
TEST(percpu_data_lskel)
{
	struct percpu_data_lskel *lskel = percpu_data_lskel__open();
	int key = 0, c, n = libbpf_num_possible_cpus();
	struct percpu_data__percpu v;

	if (!ASSERT_TRUE(lskel, "open") || !ASSERT_TRUE(lskel->percpu, "lskel->percpu"))
		goto out;
	lskel->percpu->data = 5;
	if (!ASSERT_OK(percpu_data_lskel__load(lskel), "load"))
		goto out;
	ASSERT_TRUE(is_read_only(lskel->percpu), "lskel->percpu is read-only after load");
	for (c = 0; c < n; c++) {
		ASSERT_OK(bpf_map_lookup_elem_flags(lskel->maps.percpu.map_fd, &key, &v, CPU(c)),
			  "lookup");
		ASSERT_EQ(v.data, 5, "the loader set every CPU's initial value");
	}
	percpu_data_on_cpus(NULL, lskel->maps.percpu.map_fd,
			    lskel->progs.update_percpu_data.prog_fd, &lskel->bss->run);
out:
	percpu_data_lskel__destroy(lskel);
}

/* the signed light skeleton from gen-loader: the image is in the signed metadata */
TEST(percpu_data_signed_lskel)
{
	struct percpu_data_signed *skel = percpu_data_signed__open();

	if (!ASSERT_TRUE(skel, "open"))
		goto out;
	if (!ASSERT_OK(percpu_data_signed__load_keyring(skel, 0), "signed load")) {
		printf("# failed step: %s\n", skel->errstr ?: "?");
		goto out;
	}
	percpu_data_on_cpus(NULL, skel->maps.percpu.map_fd,
			    skel->progs.update_percpu_data.prog_fd, &skel->bss->run);
out:
	percpu_data_signed__destroy(skel);
}

TEST(percpu_data_iter)
{
	DECLARE_LIBBPF_OPTS(bpf_iter_attach_opts, opts);
	union bpf_iter_link_info linfo = {};
	int fd = -1, num_cpus, len;
	struct bpf_link *link = NULL;
	struct percpu_data *skel;
	char buf[16];

	num_cpus = libbpf_num_possible_cpus();
	skel = percpu_data__open();
	if (!ASSERT_TRUE(skel, "open"))
		return;
	skel->rodata->num_cpus = num_cpus;
	skel->rodata->offsetof_num = offsetof(struct percpu_data__percpu, struct_data) +
				     sizeof(skel->percpu->struct_data) - sizeof(int);
	skel->rodata->elem_sz = (sizeof(struct percpu_data__percpu) + 7) & ~7;
	skel->percpu->struct_data.nums[6] = 0xc0de;
	if (!ASSERT_OK(percpu_data__load(skel), "load"))
		goto out;

	linfo.map.map_fd = bpf_map__fd(skel->maps.percpu);
	opts.link_info = &linfo;
	opts.link_info_len = sizeof(linfo);
	link = bpf_program__attach_iter(skel->progs.dump_percpu_data, &opts);
	if (!ASSERT_TRUE(link, "attach the iterator"))
		goto out;
	fd = bpf_iter_create(bpf_link__fd(link));
	if (!ASSERT_OK(fd, "bpf_iter_create"))
		goto out;
	while ((len = read(fd, buf, sizeof(buf))) > 0)
		;
	ASSERT_EQ(len, 0, "read the iterator to its end");
	ASSERT_TRUE(skel->bss->run_iter, "the iterator ran");
	ASSERT_EQ(skel->bss->percpu_data_sum, 0xc0de * num_cpus,
		  "every CPU's copy was initialised and visited");
out:
	if (fd >= 0)
		close(fd);
	bpf_link__destroy(link);
	percpu_data__destroy(skel);
}

static char log_buf[65536];

TEST(percpu_data_const_str)
{
	struct percpu_data_bad *skel = percpu_data_bad__open();

	if (!ASSERT_TRUE(skel, "open"))
		return;
	bpf_program__set_autoload(skel->progs.percpu_fmt, true);
	bpf_program__set_log_buf(skel->progs.percpu_fmt, log_buf, sizeof(log_buf));
	/* check_reg_const_str(): a per-CPU value is not a constant string */
	ASSERT_ERR(percpu_data_bad__load(skel), EACCES, "percpu format string");
	ASSERT_HAS(log_buf, "R3 points to percpu_array map which cannot be used as const string",
		   "log line");
	percpu_data_bad__destroy(skel);
}

/* a raw tracepoint program, so that it can be test-run on one CPU */
static int load_raw_tp(const struct bpf_insn *insns, size_t cnt)
{
	return load_prog_type(BPF_PROG_TYPE_RAW_TRACEPOINT, insns, cnt, NULL);
}

static int percpu_map(__u32 max_entries, __u32 flags)
{
	LIBBPF_OPTS(bpf_map_create_opts, o, .map_flags = flags);

	return bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "pcpu", 4, 8, max_entries, &o);
}

static int run_on(int prog_fd, int cpu)
{
	__u64 args[1] = {};
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.ctx_in = args,
		.ctx_size_in = sizeof(args),
		.flags = BPF_F_TEST_RUN_ON_CPU,
		.cpu = cpu,
	);

	if (bpf_prog_test_run_opts(prog_fd, &o))
		return -1;
	return o.retval;
}

/* r0 = *(u32 *)(&map value + 0), this CPU's copy */
#define READ_VALUE(fd) \
	INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_VALUE, 0, fd), \
	INSN(0, 0, 0, 0, 0), \
	INSN(BPF_LDX | BPF_MEM | BPF_W, BPF_REG_0, BPF_REG_1, 0, 0)

TEST(percpu_data_rdonly_map)
{
	int fd = percpu_map(1, BPF_F_RDONLY_PROG), prog = -1, key = 0, c;
	struct bpf_insn rd[] = { READ_VALUE(fd), EXIT_INSN() };
	struct bpf_insn wr[] = {
		INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_VALUE, 0, fd),
		INSN(0, 0, 0, 0, 0),
		INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_1, 0, 0, 1),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT_INSN(),
	};
	__u64 v;

	if (!ASSERT_OK(fd, "read-only percpu_array"))
		return;
	for (c = 0; c < 2; c++) {
		v = 100 + c;
		ASSERT_OK(bpf_map_update_elem(fd, &key, &v, CPU(c)), "set one CPU's value");
	}
	ASSERT_OK(bpf_map_freeze(fd), "freeze");

	/* check_map_access_type(): BPF_F_RDONLY_PROG holds for direct writes */
	ASSERT_ERR(load_raw_tp(wr, ARRAY_LEN(wr)), EACCES, "direct write");
	ASSERT_HAS(vlog, "write into map forbidden", "log line");

	/* a direct read gets the running CPU's copy */
	prog = load_raw_tp(rd, ARRAY_LEN(rd));
	if (ASSERT_OK(prog, "direct read")) {
		ASSERT_EQ(run_on(prog, 0), 100, "CPU 0 reads its copy");
		ASSERT_EQ(run_on(prog, 1), 101, "CPU 1 reads its copy");
		close(prog);
	}
	close(fd);
}

/* the verifier's internal per-CPU move (include/linux/filter.h, not UAPI) */
#define BPF_ADDR_PERCPU (-1)

/*
 * What the kernel made of the ld_imm64: the per-CPU move follows it, and the
 * dump maps the per-CPU address back to (map id, offset) through
 * percpu_array_map_direct_value_meta() instead of showing it.
 */
TEST(percpu_data_xlated)
{
	int fd = percpu_map(1, 0), prog = -1;
	struct bpf_insn insns[] = {
		INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_VALUE, 0, fd),
		INSN(0, 0, 0, 0, 4),
		INSN(BPF_LDX | BPF_MEM | BPF_W, BPF_REG_0, BPF_REG_1, 0, 0),
		EXIT_INSN(),
	}, xlated[16] = {};
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (!ASSERT_OK(fd, "percpu_array"))
		return;
	prog = load_raw_tp(insns, ARRAY_LEN(insns));
	if (!ASSERT_OK(prog, "load"))
		goto out;
	info.xlated_prog_insns = (__u64)(unsigned long)xlated;
	info.xlated_prog_len = sizeof(xlated);
	if (!ASSERT_OK(bpf_prog_get_info_by_fd(prog, &info, &len), "xlated instructions") ||
	    !ASSERT_EQ(info.xlated_prog_len, 5 * sizeof(struct bpf_insn),
		       "ld_imm64, per-CPU move, load, exit"))
		goto out;
	ASSERT_EQ(xlated[0].src_reg, BPF_PSEUDO_MAP_VALUE, "ld_imm64 names a map value");
	ASSERT_EQ(xlated[0].imm, map_id(fd), "the percpu_array's id");
	ASSERT_EQ(xlated[1].imm, 4, "the offset in the value");
	ASSERT_EQ(xlated[2].code, BPF_ALU64 | BPF_MOV | BPF_X, "then a move");
	ASSERT_EQ(xlated[2].off, BPF_ADDR_PERCPU, "to this CPU's address");
	ASSERT_EQ(xlated[2].dst_reg, BPF_REG_1, "of the same register");
out:
	if (prog >= 0)
		close(prog);
	close(fd);
}

/*
 * if (value == 0) exit; else read an uninitialised r9. A verifier that folds
 * a frozen read-only value to its constant prunes the second branch.
 */
static int load_branch_on_value(int fd)
{
	struct bpf_insn insns[] = {
		READ_VALUE(fd),
		INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 1, 0),
		INSN(BPF_LDX | BPF_MEM | BPF_W, BPF_REG_0, BPF_REG_9, 0, 0),
		EXIT_INSN(),
	};

	return load_raw_tp(insns, ARRAY_LEN(insns));
}

TEST(percpu_data_never_constant)
{
	LIBBPF_OPTS(bpf_map_create_opts, ro, .map_flags = BPF_F_RDONLY_PROG);
	int arr = bpf_map_create(BPF_MAP_TYPE_ARRAY, "arr", 4, 8, 1, &ro);
	int pcpu = percpu_map(1, BPF_F_RDONLY_PROG), prog;

	if (!ASSERT_OK(arr, "array") || !ASSERT_OK(pcpu, "percpu_array"))
		goto out;
	ASSERT_OK(bpf_map_freeze(arr), "freeze array");
	ASSERT_OK(bpf_map_freeze(pcpu), "freeze percpu_array");

	/* the control: a frozen array's value is folded, the bad branch is dead */
	prog = load_branch_on_value(arr);
	if (ASSERT_OK(prog, "array value read as a constant"))
		close(prog);
	/* check_map_mem_read(): each CPU has its own copy, so both branches count */
	ASSERT_ERR(load_branch_on_value(pcpu), EACCES, "percpu_array value not constant");
	ASSERT_HAS(vlog, "R9 !read_ok", "the branch was explored");
out:
	if (arr >= 0)
		close(arr);
	if (pcpu >= 0)
		close(pcpu);
}

TEST(percpu_data_refused_maps)
{
	int two = percpu_map(2, 0), one = percpu_map(1, 0);
	struct bpf_insn at_2[] = { READ_VALUE(two), EXIT_INSN() };
	struct bpf_insn past_end[] = {
		INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_VALUE, 0, one),
		INSN(0, 0, 0, 0, 8),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT_INSN(),
	};

	if (!ASSERT_OK(two, "2 entries") || !ASSERT_OK(one, "1 entry"))
		goto out;
	/* percpu_array_map_direct_value_addr(): only a single element */
	ASSERT_ERR(load_raw_tp(at_2, ARRAY_LEN(at_2)), EOPNOTSUPP, "max_entries 2");
	ASSERT_HAS(vlog, "invalid access to map value pointer", "log line");
	/* percpu_array_map_direct_value_addr(): offset inside the value */
	ASSERT_ERR(load_raw_tp(past_end, ARRAY_LEN(past_end)), EINVAL, "offset 8 of 8");
	ASSERT_HAS(vlog, "invalid access to map value pointer, value_size=8 off=8", "log line");
out:
	if (two >= 0)
		close(two);
	if (one >= 0)
		close(one);
}

/*
 * libbpf caches its feature probes per process: a probe made with the JIT
 * off must not leak into the other tests, so the skeleton loads in a child.
 * Exit status 0: the load failed.
 */
static int skeleton_load_in_child(void)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		struct percpu_data *skel = percpu_data__open_and_load();

		_exit(skel ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST(percpu_data_needs_the_jit)
{
	int fd = percpu_map(1, 0), prog = -1;
	struct bpf_insn rd[] = { READ_VALUE(fd), EXIT_INSN() };
	struct basic *plain = NULL;

	if (!ASSERT_OK(fd, "percpu_array") || !ASSERT_OK(set_bpf_jit(0), "bpf_jit_enable=0"))
		goto out;
	/* fixup_call_args(): jit_required programs never fall back to the interpreter */
	ASSERT_ERR(load_raw_tp(rd, ARRAY_LEN(rd)), EOPNOTSUPP, "percpu data, JIT off");
	ASSERT_HAS(vlog, "per-CPU address instructions are not allowed in non-JITed programs",
		   "log line");
	ASSERT_EQ(skeleton_load_in_child(), 0, "a .percpu skeleton does not load");
	/* programs without percpu data still run interpreted */
	plain = basic__open_and_load();
	ASSERT_TRUE(plain, "a program without percpu data loads with the JIT off");
	ASSERT_OK(set_bpf_jit(1), "bpf_jit_enable=1");

	prog = load_raw_tp(rd, ARRAY_LEN(rd));
	ASSERT_OK(prog, "the same program with the JIT on");
out:
	set_bpf_jit(1);
	if (prog >= 0)
		close(prog);
	if (fd >= 0)
		close(fd);
	basic__destroy(plain);
}

/*
 * Load the percpu program and a plain one as nobody, for whom the JIT fails
 * once its memory is over net.core.bpf_jit_limit. Exit status 0: the percpu
 * program got err (0: it loaded) and the plain one loaded.
 */
static int load_unprivileged(int map_fd, int err)
{
	struct bpf_insn rd[] = { READ_VALUE(map_fd), EXIT_INSN() };
	struct bpf_insn plain[] = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() };
	int status, fd;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(3);
		fd = load_prog(rd, ARRAY_LEN(rd), NULL);
		if (err ? fd >= 0 || errno != err : fd < 0) {
			printf("# percpu program as nobody: %d (errno %d)\n", fd, errno);
			_exit(1);
		}
		fd = load_prog(plain, ARRAY_LEN(plain), NULL);
		if (fd < 0) {
			printf("# plain program as nobody: errno %d\n%s", errno, vlog);
			_exit(2);
		}
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST(percpu_data_jit_failure)
{
	char limit[64] = "", unpriv[16] = "";
	int fd = percpu_map(1, 0);

	if (!ASSERT_OK(fd, "percpu_array"))
		return;
	/* unprivileged loads are what the JIT limit applies to */
	if (!ASSERT_OK(sysctl_write("/proc/sys/kernel/unprivileged_bpf_disabled", "0",
				  unpriv, sizeof(unpriv)), "unprivileged_bpf_disabled=0"))
		goto out;
	/* the control: within the limit, nobody loads both */
	ASSERT_EQ(load_unprivileged(fd, 0), 0, "JITed as nobody");
	if (ASSERT_OK(sysctl_write("/proc/sys/net/core/bpf_jit_limit", "1", limit, sizeof(limit)),
		      "bpf_jit_limit=1")) {
		/* bpf_prog_select_runtime(): jit_required programs never fall back */
		ASSERT_EQ(load_unprivileged(fd, ENOTSUPP), 0,
			  "JIT failure: percpu program refused, plain one interpreted");
		ASSERT_OK(sysctl_write("/proc/sys/net/core/bpf_jit_limit", limit, NULL, 0),
			  "restore bpf_jit_limit");
	}
	ASSERT_OK(sysctl_write("/proc/sys/kernel/unprivileged_bpf_disabled", unpriv, NULL, 0),
		  "restore unprivileged_bpf_disabled");
out:
	close(fd);
}
