// SPDX-License-Identifier: GPL-2.0
/*
 * The signed light skeleton of test_signed_inputs.c: a .rodata string and
 * a .data value whose signed initial values a caller must not replace, and
 * a hash map whose signed max_entries a caller must not change.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

const volatile char banner[32] = "the signed initial value";	/* .rodata */
__u64 value = 0x5167ed;						/* .data */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} table SEC(".maps");

SEC("syscall")
int read_inputs(void *ctx)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&table, &key);

	return (v ? *v : value) + banner[0];
}

char LICENSE[] SEC("license") = "GPL";
