// SPDX-License-Identifier: GPL-2.0
/*
 * A struct member whose BTF name build.sh edits into code, same length: an
 * anonymous struct in .bss is declared inline by btf_dump, so its member
 * names are C in the skeleton's view of .bss
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

struct { int QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ; } holder;

SEC("raw_tp/sys_enter")
int tp(void *ctx)
{
	holder.QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ++;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
