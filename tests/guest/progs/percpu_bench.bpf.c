// SPDX-License-Identifier: GPL-2.0
/* make bench: three ways to reach this CPU's counter, CALLS times a run. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define CALLS 10000
#define MAX_CPUS 64

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} pcpu SEC(".maps");

__u64 pc_counter SEC(".percpu");
__u64 by_cpu[MAX_CPUS];
int errors;

static int inc_percpu_data(__u32 i, void *ctx)
{
	pc_counter++;
	return 0;
}

static int inc_map_lookup(__u32 i, void *ctx)
{
	__u32 zero = 0;
	__u64 *v = bpf_map_lookup_elem(&pcpu, &zero);

	if (!v) {
		errors++;
		return 1;
	}
	(*v)++;
	return 0;
}

static int inc_cpu_index(__u32 i, void *ctx)
{
	__u32 cpu = bpf_get_smp_processor_id();

	if (cpu >= MAX_CPUS) {
		errors++;
		return 1;
	}
	by_cpu[cpu]++;
	return 0;
}

SEC("syscall")
int bench_percpu_data(void *ctx)
{
	return bpf_loop(CALLS, inc_percpu_data, NULL, 0);
}

SEC("syscall")
int bench_map_lookup(void *ctx)
{
	return bpf_loop(CALLS, inc_map_lookup, NULL, 0);
}

SEC("syscall")
int bench_cpu_index(void *ctx)
{
	return bpf_loop(CALLS, inc_cpu_index, NULL, 0);
}

char _license[] SEC("license") = "GPL";
