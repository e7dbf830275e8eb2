// SPDX-License-Identifier: GPL-2.0
/* The smallest program that proves load + test_run + global data work. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

/* for libbpf's one-CPU value checks (test_percpu_flags.c) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} pcpu SEC(".maps");

/* a value size that is not a multiple of 8: one CPU's value is 4 bytes */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} pcpu4 SEC(".maps");

int value = 40;
int runs;

SEC("syscall")
int basic(void *ctx)
{
	runs++;
	return value + 2;
}

char LICENSE[] SEC("license") = "GPL";
