// SPDX-License-Identifier: GPL-2.0
/* BPF_PROG_LOAD fd_array_cnt: a dense fd_array bound up front. */
#include <fcntl.h>
#include <unistd.h>
#include <bpf/btf.h>

#include "runner.h"
#include "util.h"

/* The kernel's MAX_USED_MAPS + MAX_USED_BTFS */
#define MAX_FD_ARRAY_CNT 128

static const struct bpf_insn ret0[] = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() };

TEST(fd_array_cnt_binds_unreferenced_maps)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	int m1 = array_map(8, 1, NULL), m2 = array_map(8, 1, NULL);
	int fds[2] = { m1, m2 }, prog;
	__u32 ids[4] = {};

	opts.fd_array = fds;
	opts.fd_array_cnt = 2;
	prog = load_prog(ret0, ARRAY_LEN(ret0), &opts);
	if (ASSERT_OK(prog, "load with fd_array_cnt=2")) {
		ASSERT_EQ(prog_map_ids(prog, ids, 4), 2, "maps bound without any ld_imm64");
		ASSERT_EQ(ids[0], map_id(m1), "fd_array[0] bound first");
		ASSERT_EQ(ids[1], map_id(m2), "fd_array[1] bound second");
		close(prog);
	}
	close(m1);
	close(m2);
}

TEST(fd_array_cnt_duplicates_bound_once)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	int m = array_map(8, 1, NULL);
	int fds[3] = { m, m, m }, prog;
	__u32 ids[4] = {};

	opts.fd_array = fds;
	opts.fd_array_cnt = 3;
	prog = load_prog(ret0, ARRAY_LEN(ret0), &opts);
	if (ASSERT_OK(prog, "load with a map listed three times")) {
		ASSERT_EQ(prog_map_ids(prog, ids, 4), 1, "one map, bound once");
		close(prog);
	}
	close(m);
}

TEST(fd_array_cnt_referenced_map_and_btf)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	int m = array_map(8, 1, NULL), btf_fd = -1, prog;
	/* fd_array[1] is the map, also named by a BPF_PSEUDO_MAP_IDX load */
	struct bpf_insn insns[] = {
		LD_MAP(BPF_REG_1, BPF_PSEUDO_MAP_IDX, 1),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT_INSN(),
	};
	struct btf *btf = btf__new_empty();
	__u32 ids[4] = {};
	int fds[2];

	if (!ASSERT_TRUE(btf, "btf__new_empty"))
		return;
	btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	if (ASSERT_OK(btf__load_into_kernel(btf), "load BTF"))
		btf_fd = btf__fd(btf);
	fds[0] = btf_fd;
	fds[1] = m;
	opts.fd_array = fds;
	opts.fd_array_cnt = 2;
	prog = load_prog(insns, ARRAY_LEN(insns), &opts);
	if (ASSERT_OK(prog, "load with a BTF and a referenced map")) {
		ASSERT_EQ(prog_map_ids(prog, ids, 4), 1, "the map once, the BTF is not a map");
		close(prog);
	}
	btf__free(btf);
	close(m);
}

TEST(fd_array_cnt_rejects_bad_fds)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	int m = array_map(8, 1, NULL), devnull = open("/dev/null", O_RDONLY);
	int fds[2] = { m, 9999 };

	opts.fd_array = fds;
	opts.fd_array_cnt = 2;
	/* fd 9999 is not open: __bpf_map_get() on an empty fd */
	ASSERT_ERR(load_prog(ret0, ARRAY_LEN(ret0), &opts), EBADF, "closed fd in fd_array");
	ASSERT_HAS(vlog, "fd 9999 is not pointing to valid bpf_map or btf", "log names the fd");

	fds[1] = devnull;
	/* an open fd that is neither a map nor a BTF */
	ASSERT_ERR(load_prog(ret0, ARRAY_LEN(ret0), &opts), EINVAL, "/dev/null in fd_array");
	close(devnull);
	close(m);
}

TEST(fd_array_cnt_without_fd_array)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts);

	opts.fd_array_cnt = 1;
	/* the count is checked against a NULL array before anything is read */
	ASSERT_ERR(load_prog(ret0, ARRAY_LEN(ret0), &opts), EINVAL, "fd_array_cnt without fd_array");
	ASSERT_HAS(vlog, "fd_array_cnt without fd_array is invalid", "log line");
}

TEST(fd_array_cnt_upper_bound)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	int m = array_map(8, 1, NULL), fds[MAX_FD_ARRAY_CNT + 1], i, prog;

	for (i = 0; i < MAX_FD_ARRAY_CNT + 1; i++)
		fds[i] = m;
	opts.fd_array = fds;
	opts.fd_array_cnt = MAX_FD_ARRAY_CNT;
	prog = load_prog(ret0, ARRAY_LEN(ret0), &opts);
	if (ASSERT_OK(prog, "fd_array_cnt at the bound"))
		close(prog);
	opts.fd_array_cnt = MAX_FD_ARRAY_CNT + 1;
	/* every fd is a valid map: only the bound can refuse this */
	ASSERT_ERR(load_prog(ret0, ARRAY_LEN(ret0), &opts), EINVAL, "fd_array_cnt over the bound");
	ASSERT_HAS(vlog, "fd_array_cnt is too big", "log line");
	close(m);
}
