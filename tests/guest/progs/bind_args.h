/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The context of progs/bind_loader.bpf.c, a loader that test_loader_bind.c
 * signs and runs: what it creates and binds, and what it got back.  Include
 * it after struct bpf_insn and struct bpf_func_info (vmlinux.h, linux/bpf.h).
 */
#ifndef BPFSIGN_BIND_ARGS_H
#define BPFSIGN_BIND_ARGS_H

enum bind_mode {
	/* create a map, load a child whose ld_imm64 names map_fd */
	BIND_CHILD_MAP = 1,
	/* load BTF (or not), load a child with it as prog_btf_fd */
	BIND_CHILD_BTF,
	/* update map_fd through bpf_sys_bpf() */
	BIND_UPDATE,
	/* create a map, write it, load `loads` children, then freeze it */
	BIND_SLOW_FREEZE,
	/* load a child binding use_fd through a dense fd_array */
	BIND_CHILD_FD_ARRAY,
	/* freeze, delete from use_fd; an outer map with use_fd as inner */
	BIND_FREEZE,
	BIND_DELETE,
	BIND_INNER,
};

struct bind_args {
	int mode;
	/* in: the fd to bind, or -1 for the one the loader created */
	int use_fd;
	/* in: BIND_SLOW_FREEZE's number of child loads (at most 64), and
	 * whether to leave the map unfrozen
	 */
	int loads;
	int no_freeze;
	/* out: what the loader created, and the results of its calls */
	int map_fd;
	int btf_fd;
	int create_err;
	int child_fd;
	int freeze_err;
	/* in: the children's verifier log, a user-space buffer */
	__u64 log_buf;
	__u32 log_size;
	/* in: the child's func_info for BIND_CHILD_BTF */
	struct bpf_func_info func_info;
	/* in: raw BTF for BIND_CHILD_BTF to load when use_fd is -1 */
	unsigned int btf_size;
	unsigned char btf[256];
};

#endif
