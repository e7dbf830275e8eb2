// SPDX-License-Identifier: GPL-2.0
/* A struct whose BTF name build.sh edits into code, same length */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

struct AAAAAAAAAAAA {
	int x;
} holder;

SEC("raw_tp/sys_enter")
int tp(void *ctx)
{
	holder.x++;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
