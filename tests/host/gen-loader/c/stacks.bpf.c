// SPDX-License-Identifier: GPL-2.0
/*
 * For tests/host/gen-loader/run.sh.
 * A stack trace map without max_entries: sized at run time, refused
 * without --map-size (t_map_sizes).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(key_size, sizeof(__u32));
} stacks SEC(".maps");
SEC("syscall")
int p(void *ctx) { return 0; }
char LICENSE[] SEC("license") = "GPL";
