// SPDX-License-Identifier: GPL-2.0
/* A program name (its symbol, an asm label) that is code */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

int hits;

int tp(void *ctx) __asm__("tp_x); system(\"id\"); int y(void");

SEC("raw_tp/sys_enter")
int tp(void *ctx)
{
	hits++;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
