// SPDX-License-Identifier: GPL-2.0
/* Exclusive maps: usable only by the program whose digest they carry. */
#include <unistd.h>

#include "runner.h"
#include "util.h"

#define PROG(map_fd, ret) {					\
	LD_MAP(BPF_REG_1, BPF_PSEUDO_MAP_FD, map_fd),		\
	MOV64_IMM(BPF_REG_0, ret),				\
	EXIT_INSN(),						\
}

static int excl_map(const unsigned char *hash, __u32 size)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts);

	opts.excl_prog_hash = hash;
	opts.excl_prog_hash_size = size;
	return array_map(8, 1, &opts);
}

TEST(excl_map_owner_loads_others_eacces)
{
	/* map fds are zeroed in the digest, so it can be computed up front */
	struct bpf_insn owner[] = PROG(0, 1), other[] = PROG(0, 2);
	unsigned char digest[32];
	int m, prog;

	prog_digest(owner, ARRAY_LEN(owner), digest);
	m = excl_map(digest, 32);
	if (!ASSERT_OK(m, "create exclusive map"))
		return;
	owner[0].imm = other[0].imm = m;

	prog = load_prog(owner, ARRAY_LEN(owner), NULL);
	if (ASSERT_OK(prog, "the program the map is exclusive to"))
		close(prog);
	/* differs by one immediate: only the digest comparison can refuse it */
	ASSERT_ERR(load_prog(other, ARRAY_LEN(other), NULL), EACCES, "another program");
	ASSERT_HAS(vlog, "program's hash doesn't match map's excl_prog_hash", "log line");
	close(m);
}

TEST(excl_map_checked_through_fd_array)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	struct bpf_insn owner[] = PROG(0, 1);
	struct bpf_insn ret0[] = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() };
	unsigned char digest[32];
	int m, fds[1];

	prog_digest(owner, ARRAY_LEN(owner), digest);
	m = excl_map(digest, 32);
	fds[0] = m;
	opts.fd_array = fds;
	opts.fd_array_cnt = 1;
	/* bound only through fd_array_cnt: the digest is computed before it */
	ASSERT_ERR(load_prog(ret0, ARRAY_LEN(ret0), &opts), EACCES, "unreferenced exclusive map");
	ASSERT_HAS(vlog, "program's hash doesn't match map's excl_prog_hash", "log line");
	close(m);
}

TEST(excl_map_bad_hash_attrs)
{
	unsigned char digest[32] = {};

	/* SHA-256 only: 31 bytes cannot be a digest */
	ASSERT_ERR(excl_map(digest, 31), EINVAL, "hash size 31");
	/* a size without a pointer */
	ASSERT_ERR(excl_map(NULL, 32), EINVAL, "hash size without hash");
	/* a pointer without a size */
	ASSERT_ERR(excl_map(digest, 0), EINVAL, "hash without size");
}

/* upstream 9a3c3c49c333 ("bpf: Reject exclusive maps as inner maps in
 * map-in-map"), in 0005
 */
TEST(excl_map_not_an_inner_map)
{
	LIBBPF_OPTS(bpf_map_create_opts, outer_opts);
	unsigned char digest[32] = { 1 };
	int excl = excl_map(digest, 32), plain = array_map(8, 1, NULL), outer;
	__u32 key = 0;

	outer_opts.inner_map_fd = excl;
	/* the template check: an exclusive map cannot define inner maps */
	ASSERT_ERR(bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "o", 4, 4, 1, &outer_opts),
		   EINVAL, "exclusive map as inner map template");

	outer_opts.inner_map_fd = plain;
	outer = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "o", 4, 4, 1, &outer_opts);
	if (ASSERT_OK(outer, "outer map with a plain template")) {
		/* same shape as the template: only exclusivity can refuse it */
		ASSERT_ERR(bpf_map_update_elem(outer, &key, &excl, 0), EINVAL,
			   "exclusive map inserted into an outer map");
		ASSERT_OK(bpf_map_update_elem(outer, &key, &plain, 0), "plain map inserted");
		close(outer);
	}
	close(excl);
	close(plain);
}

/* bpf_prog_bind_map(): an exclusive map is bound to its one program there
 * too; another holding it would make that loader's runs EBUSY
 */
TEST(excl_map_prog_bind_map)
{
	const struct bpf_insn ret0[] = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() },
			      ret1[] = { MOV64_IMM(BPF_REG_0, 1), EXIT_INSN() };
	unsigned char digest[32];
	int map, owner, other;

	prog_digest(ret0, ARRAY_LEN(ret0), digest);
	map = excl_map(digest, 32);
	owner = load_prog(ret0, ARRAY_LEN(ret0), NULL);
	other = load_prog(ret1, ARRAY_LEN(ret1), NULL);
	if (ASSERT_OK(map, "exclusive map") && ASSERT_OK(owner, "its program") &&
	    ASSERT_OK(other, "another program")) {
		ASSERT_ERR(bpf_prog_bind_map(other, map, NULL), EACCES,
			   "BPF_PROG_BIND_MAP to another program");
		ASSERT_OK(bpf_prog_bind_map(owner, map, NULL), "BPF_PROG_BIND_MAP to its program");
	}
	close(other);
	close(owner);
	close(map);
}
