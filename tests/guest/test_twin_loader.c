// SPDX-License-Identifier: GPL-2.0
/*
 * An unsigned "twin" of a signed loader (issue 35, the review's first
 * finding): the exclusive metadata map is bound by the digest of the
 * instructions as passed, and the kernel applied the caller's CO-RE
 * relocations after it, so a copy of the loader's instructions with one
 * FIELD_BYTE_OFFSET relocation bound the frozen metadata and wrote the
 * caller's bytes into the child instructions there; the signed loader then
 * loaded that child as a verified loader's child.  An exclusive map and
 * CO-RE relocations now exclude each other.
 */
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/btf.h>
#include <bpf/bpf.h>

#include "runner.h"
#include "util.h"
#include "sign.h"

#define MOV64_REG(d, s)	INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define ADD64_IMM(d, i)	INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define LDX(sz, d, s, o) INSN(BPF_LDX | BPF_MEM | (sz), d, s, o, 0)
#define STX(sz, d, s, o) INSN(BPF_STX | BPF_MEM | (sz), d, s, o, 0)
#define ST(sz, d, o, i)	INSN(BPF_ST | BPF_MEM | (sz), d, 0, o, i)
#define CALL(f)		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)

/* insn 4 is the store the twin relocates */
#define RELOC_INSN	4
static const struct bpf_insn loader_insns[] = {
	MOV64_REG(6, 1),				/* 0: r6 = ctx */
	INSN(BPF_LD | BPF_DW | BPF_IMM, 7, BPF_PSEUDO_MAP_IDX_VALUE, 0, 0),
	INSN(0, 0, 0, 0, 0),				/* 1-2: r7 = &meta[0] */
	LDX(BPF_W, 2, 6, 0),				/* 3: r2 = ctx->arg */
	STX(BPF_W, 7, 2, 16),				/* 4: meta.scratch = r2 */
	MOV64_IMM(1, 0),				/* 5 */
	STX(BPF_DW, 10, 1, -24),			/* 6 */
	STX(BPF_DW, 10, 1, -16),			/* 7 */
	STX(BPF_DW, 10, 1, -8),				/* 8 */
	ST(BPF_W, 10, -24, BPF_PROG_TYPE_SOCKET_FILTER),	/* 9: prog_type */
	ST(BPF_W, 10, -20, 2),				/* 10: insn_cnt */
	STX(BPF_DW, 10, 7, -16),			/* 11: insns = meta + 0 */
	MOV64_REG(3, 7),				/* 12 */
	ADD64_IMM(3, 24),				/* 13 */
	STX(BPF_DW, 10, 3, -8),				/* 14: license = meta + 24 */
	MOV64_IMM(1, BPF_PROG_LOAD),			/* 15 */
	MOV64_REG(2, 10),				/* 16 */
	ADD64_IMM(2, -24),				/* 17 */
	MOV64_IMM(3, 24),				/* 18 */
	CALL(BPF_FUNC_sys_bpf),				/* 19 */
	STX(BPF_W, 6, 0, 4),				/* 20: ctx->child_fd = r0 */
	MOV64_IMM(0, 0),				/* 21 */
	EXIT_INSN(),					/* 22 */
};

struct tctx {
	__u32 arg;
	__s32 child_fd;
};

#define META_SZ 32
static void meta_value(unsigned char v[META_SZ])
{
	struct bpf_insn child[2] = { MOV64_IMM(0, 7), EXIT_INSN() };

	memset(v, 0, META_SZ);
	memcpy(v, child, sizeof(child));
	memcpy(v + 24, "GPL", 4);
}

static int load(const struct bpf_insn *insns, int cnt, int *fds, int nfds,
		unsigned char *sig, int sig_len, int btf_fd, struct bpf_func_info *fi,
		struct bpf_core_relo *relo)
{
	const size_t sz = offsetofend(union bpf_attr, keyring_id);
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sz);
	attr.prog_type = BPF_PROG_TYPE_SYSCALL;
	attr.prog_flags = BPF_F_SLEEPABLE;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = cnt;
	attr.license = (uintptr_t)"GPL";
	attr.fd_array = (uintptr_t)fds;
	attr.fd_array_cnt = nfds;
	attr.signature = (uintptr_t)sig;
	attr.signature_size = sig_len;
	if (btf_fd >= 0) {
		attr.prog_btf_fd = btf_fd;
		attr.func_info = (uintptr_t)fi;
		attr.func_info_cnt = 1;
		attr.func_info_rec_size = sizeof(*fi);
		attr.core_relos = (uintptr_t)relo;
		attr.core_relo_cnt = 1;
		attr.core_relo_rec_size = sizeof(*relo);
	}
	attr.log_buf = (uintptr_t)vlog;
	attr.log_size = sizeof(vlog);
	attr.log_level = 1;
	vlog[0] = 0;
	fd = syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sz);
	return fd < 0 ? -errno : fd;
}

static int run(int prog_fd, __u32 arg, int *child_fd)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct tctx c = { .arg = arg, .child_fd = -1 };

	opts.ctx_in = &c;
	opts.ctx_size_in = sizeof(c);
	if (bpf_prog_test_run_opts(prog_fd, &opts))
		return -errno;
	*child_fd = c.child_fd;
	return opts.retval;
}

static int child_retval(int fd)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	char pkt[64] = {};

	opts.data_in = pkt;
	opts.data_size_in = sizeof(pkt);
	if (bpf_prog_test_run_opts(fd, &opts))
		return -errno;
	return opts.retval;
}

/* BTF with struct bpf_insn { u64 a; u64 b; int imm; } (imm at 16 locally,
 * at 4 in vmlinux's struct bpf_insn), and a FUNC for func_info
 */
static int twin_btf(struct btf **out, __u32 *struct_id, __u32 *func_id, __u32 *acc)
{
	struct btf *btf = btf__new_empty();
	int i32, u64, st, ptr, proto, func;

	if (!btf)
		return -1;
	i32 = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	u64 = btf__add_int(btf, "long long unsigned int", 8, 0);
	st = btf__add_struct(btf, "bpf_insn", 20);
	btf__add_field(btf, "a", u64, 0, 0);
	btf__add_field(btf, "b", u64, 64, 0);
	btf__add_field(btf, "imm", i32, 128, 0);
	ptr = btf__add_ptr(btf, 0);
	proto = btf__add_func_proto(btf, i32);
	btf__add_func_param(btf, "ctx", ptr);
	func = btf__add_func(btf, "twin", BTF_FUNC_GLOBAL, proto);
	*acc = btf__add_str(btf, "0:2");
	if (func < 0 || btf__load_into_kernel(btf)) {
		btf__free(btf);
		return -1;
	}
	*out = btf;
	*struct_id = st;
	*func_id = func;
	return 0;
}

TEST(twin_loader_core_relo_refused)
{
	const int cnt = ARRAY_LEN(loader_insns);
	unsigned char digest[32], value[META_SZ], payload[sizeof(loader_insns) + META_SZ];
	LIBBPF_OPTS(bpf_map_create_opts, mopts);
	struct bpf_func_info fi = {};
	struct bpf_core_relo relo = {};
	__u32 sid, fid, acc;
	struct btf *btf = NULL;
	unsigned char *sig = NULL;
	int meta, signed_fd = -1, twin = -1, child = -1, sig_len, zero = 0;

	/* the owner's metadata map: exclusive to the loader, frozen, signed */
	prog_digest(loader_insns, cnt, digest);
	mopts.excl_prog_hash = digest;
	mopts.excl_prog_hash_size = 32;
	meta = bpf_map_create(BPF_MAP_TYPE_ARRAY, "twin_meta", 4, META_SZ, 1, &mopts);
	if (!ASSERT_OK(meta, "metadata map"))
		return;
	meta_value(value);
	if (!ASSERT_OK(bpf_map_update_elem(meta, &zero, value, 0), "fill") ||
	    !ASSERT_OK(bpf_map_freeze(meta), "freeze"))
		goto out;
	memcpy(payload, loader_insns, sizeof(loader_insns));
	memcpy(payload + sizeof(loader_insns), value, META_SZ);
	sig_len = cms_sign("signing", payload, sizeof(payload), 0, &sig);
	if (!ASSERT_GE(sig_len, 1, "cms_sign"))
		goto out;
	signed_fd = load(loader_insns, cnt, &meta, 1, sig, sig_len, -1, NULL, NULL);
	if (!ASSERT_OK(signed_fd, "signed loader (builtin keyring)"))
		goto out;

	/* the attacker: the same instructions, unsigned, one relocation that
	 * moves the store of ctx->arg onto the child's first immediate
	 */
	if (!ASSERT_OK(twin_btf(&btf, &sid, &fid, &acc), "twin BTF"))
		goto out;
	fi.type_id = fid;
	relo.insn_off = RELOC_INSN * 8;
	relo.type_id = sid;
	relo.access_str_off = acc;
	relo.kind = BPF_CORE_FIELD_BYTE_OFFSET;
	twin = load(loader_insns, cnt, &meta, 1, NULL, 0, btf__fd(btf), &fi, &relo);
	/* check_core_relo(): the exclusive map is bound already (fd_array) */
	if (ASSERT_EQ(twin, -EACCES, "the twin with a CO-RE relocation"))
		ASSERT_HAS(vlog, "exclusive map 'twin_meta' cannot be used by a program with CO-RE relocations",
			   "the twin's log");
	memset(value, 0, sizeof(value));
	ASSERT_OK(bpf_map_lookup_elem(meta, &zero, value), "lookup");
	ASSERT_EQ(*(int *)(value + 4), 7, "the signed metadata still says 7");
	if (ASSERT_EQ(run(signed_fd, 0, &child), 0, "the signed loader runs") &&
	    ASSERT_OK(child, "its child"))
		ASSERT_EQ(child_retval(child), 7, "its child runs the signed instruction");
out:
	if (child >= 0)
		close(child);
	btf__free(btf);
	free(sig);
	if (twin >= 0)
		close(twin);
	if (signed_fd >= 0)
		close(signed_fd);
	close(meta);
}
