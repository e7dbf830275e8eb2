// SPDX-License-Identifier: GPL-2.0
/*
 * A loader that test_loader_bind.c signs by its instructions and runs: it
 * creates objects through bpf_sys_bpf() and binds its child to the fds its
 * caller names, as a second thread of the caller that swaps fds would make
 * it.  No maps, globals, subprograms, kfuncs or CO-RE: the instructions in
 * the object are the ones loaded and signed.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bind_args.h"

static __always_inline int create_map(struct bind_args *ctx)
{
	union bpf_attr attr = {};

	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 8;
	attr.max_entries = 1;
	attr.map_flags = BPF_F_MMAPABLE;
	ctx->map_fd = bpf_sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
	return ctx->map_fd;
}

/* The child, "r1 = map; r0 = 0; exit", built on the stack (ctx pointers may
 * be passed on, not stored through once offset) as the little-endian words
 * code | regs << 8 | off << 16 | imm << 32 (no bitfields)
 */
static __always_inline int load_child(struct bind_args *ctx, int map_fd, int btf_fd)
{
	__u64 insns[4] = {
		/* BPF_LD | BPF_DW | BPF_IMM, r1, src BPF_PSEUDO_MAP_FD */
		0x18 | 0x11 << 8 | (__u64)(__u32)map_fd << 32,
		0,
		/* BPF_ALU64 | BPF_MOV | BPF_K, r0 = 0 */
		0xb7,
		/* BPF_JMP | BPF_EXIT */
		0x95,
	};
	char license[4] = "GPL";
	union bpf_attr attr = {};

	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (long)insns;
	attr.insn_cnt = 4;
	attr.license = (long)license;
	attr.log_buf = ctx->log_buf;
	attr.log_size = ctx->log_size;
	attr.log_level = ctx->log_buf ? 1 : 0;
	if (btf_fd >= 0) {
		attr.prog_btf_fd = btf_fd;
		attr.func_info = (long)&ctx->func_info;
		attr.func_info_cnt = 1;
		attr.func_info_rec_size = sizeof(ctx->func_info);
	}
	return bpf_sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
}

/* "r1 = map at fd_array[0]; r0 = 0; exit", fd_array = { map_fd }, dense */
static __always_inline int load_child_fd_array(struct bind_args *ctx, int map_fd)
{
	__u64 insns[4] = {
		/* BPF_LD | BPF_DW | BPF_IMM, r1, src BPF_PSEUDO_MAP_IDX, index 0 */
		0x18 | 0x51 << 8,
		0,
		0xb7,
		0x95,
	};
	char license[4] = "GPL";
	union bpf_attr attr = {};
	int fds[1] = { map_fd };

	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (long)insns;
	attr.insn_cnt = 4;
	attr.license = (long)license;
	attr.fd_array = (long)fds;
	attr.fd_array_cnt = 1;
	attr.log_buf = ctx->log_buf;
	attr.log_size = ctx->log_size;
	attr.log_level = ctx->log_buf ? 1 : 0;
	return bpf_sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
}

static __always_inline int update(int map_fd, __u64 *value)
{
	union bpf_attr attr = {};
	int zero = 0;

	attr.map_fd = map_fd;
	attr.key = (long)&zero;
	attr.value = (long)value;
	return bpf_sys_bpf(BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr));
}

SEC("syscall")
int bind_loader(struct bind_args *ctx)
{
	union bpf_attr attr = {};
	__u64 value = 0x5157;
	int fd, i, n;

	/* if-else, not a switch: no jump table in the signed instructions */
	if (ctx->mode == BIND_CHILD_MAP) {
		ctx->create_err = create_map(ctx);
		fd = ctx->use_fd < 0 ? ctx->map_fd : ctx->use_fd;
		ctx->child_fd = load_child(ctx, fd, -1);
	} else if (ctx->mode == BIND_CHILD_BTF) {
		fd = ctx->use_fd;
		if (fd < 0) {
			n = ctx->btf_size;
			if (n > sizeof(ctx->btf))
				return 1;
			attr.btf = (long)ctx->btf;
			attr.btf_size = n;
			ctx->btf_fd = fd = bpf_sys_bpf(BPF_BTF_LOAD, &attr, sizeof(attr));
		}
		ctx->create_err = create_map(ctx);
		ctx->child_fd = load_child(ctx, ctx->map_fd, fd);
	} else if (ctx->mode == BIND_UPDATE) {
		ctx->child_fd = update(ctx->use_fd, &value);
	} else if (ctx->mode == BIND_CHILD_FD_ARRAY) {
		ctx->child_fd = load_child_fd_array(ctx, ctx->use_fd);
	} else if (ctx->mode == BIND_FREEZE || ctx->mode == BIND_DELETE) {
		int zero = 0;

		attr.map_fd = ctx->use_fd;
		if (ctx->mode == BIND_DELETE)
			attr.key = (long)&zero;
		ctx->child_fd = bpf_sys_bpf(ctx->mode == BIND_FREEZE ? BPF_MAP_FREEZE :
					    BPF_MAP_DELETE_ELEM, &attr, sizeof(attr));
	} else if (ctx->mode == BIND_INNER) {
		attr.map_type = BPF_MAP_TYPE_ARRAY_OF_MAPS;
		attr.key_size = 4;
		attr.value_size = 4;
		attr.max_entries = 1;
		attr.inner_map_fd = ctx->use_fd;
		ctx->child_fd = bpf_sys_bpf(BPF_MAP_CREATE, &attr, sizeof(attr));
	} else if (ctx->mode == BIND_SLOW_FREEZE) {
		ctx->create_err = create_map(ctx);
		if (ctx->map_fd < 0)
			return 1;
		ctx->create_err = update(ctx->map_fd, &value);
		n = ctx->loads;
		for (i = 0; i < 64 && i < n; i++) {
			fd = load_child(ctx, ctx->map_fd, -1);
			if (fd >= 0)
				bpf_sys_close(fd);
		}
		if (ctx->no_freeze)
			return 0;
		attr.map_fd = ctx->map_fd;
		ctx->freeze_err = bpf_sys_bpf(BPF_MAP_FREEZE, &attr, sizeof(attr));
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
