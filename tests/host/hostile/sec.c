// SPDX-License-Identifier: GPL-2.0
/* A raw_tp section name that closes the skeleton's string and calls */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

int hits;

SEC("raw_tp/sys_enter\", prog_fd); system(\"id\"); (void)(\"")
int tp(void *ctx)
{
	hits++;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
