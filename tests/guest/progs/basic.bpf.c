// SPDX-License-Identifier: GPL-2.0
/* The smallest program that proves load + test_run + global data work. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

int value = 40;
int runs;

SEC("syscall")
int basic(void *ctx)
{
	runs++;
	return value + 2;
}

char LICENSE[] SEC("license") = "GPL";
