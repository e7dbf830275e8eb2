// SPDX-License-Identifier: GPL-2.0
/* A minimal unsigned loader: loads one child program through bpf_sys_bpf(). */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "loader_args.h"

SEC("syscall")
int load_child(struct loader_args *ctx)
{
	union bpf_attr attr = {};

	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (long)ctx->insns;
	attr.insn_cnt = 2;
	attr.license = (long)ctx->license;
	ctx->prog_fd = bpf_sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
