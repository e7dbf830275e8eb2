// SPDX-License-Identifier: GPL-2.0
/*
 * A perf-event-array tool as tools are written: the array declares no
 * max_entries (libbpf would size it by the CPUs of the machine that
 * generates the loader), and each getppid() of one process sends the
 * number of the CPU it ran on.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

__u32 target_tgid;	/* .bss, set after load */
__u64 lost;		/* outputs that failed (E2BIG past max_entries) */

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
} events SEC(".maps");

SEC("fentry/__do_sys_getppid")
int BPF_PROG(send_cpu)
{
	__u32 cpu = bpf_get_smp_processor_id();

	if ((bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return 0;
	if (bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &cpu, sizeof(cpu)))
		__sync_fetch_and_add(&lost, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
