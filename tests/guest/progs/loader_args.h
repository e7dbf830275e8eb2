/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The context of a loader that loads one child through bpf_sys_bpf(): the
 * child's two instructions and license in, its fd (or -errno) out.  Read by
 * progs/mini_loader.bpf.c and by test_enforce.c's hand-signed loader, filled
 * in by loader.c.  Include it after struct bpf_insn (vmlinux.h, linux/bpf.h).
 */
#ifndef BPFSIGN_LOADER_ARGS_H
#define BPFSIGN_LOADER_ARGS_H

struct loader_args {
	struct bpf_insn insns[2];
	char license[4];
	int prog_fd;
};

#endif
