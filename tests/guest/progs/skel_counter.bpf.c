// SPDX-License-Identifier: GPL-2.0
/*
 * The signed light skeleton's program: counts getppid() calls of one
 * process.  Every kind of global data and a map, so that the signed
 * metadata carries them all: .rodata (a signed switch), .data (a signed
 * initial value, writable after load), .bss (the observed counter, and the
 * process to count, set after load) and a hash map.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

const volatile bool count_calls = true;	/* .rodata: keep calls[tgid] */
__u64 step = 3;				/* .data */
__u64 hits;				/* .bss */
__u32 target_tgid;			/* .bss: 0 counts every process */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u64);
} calls SEC(".maps");

SEC("fentry/__do_sys_getppid")
int BPF_PROG(count_getppid)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	__u64 one = 1, *n;

	if (target_tgid && tgid != target_tgid)
		return 0;
	__sync_fetch_and_add(&hits, step);
	if (!count_calls)
		return 0;
	n = bpf_map_lookup_elem(&calls, &tgid);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&calls, &tgid, &one, BPF_NOEXIST);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
