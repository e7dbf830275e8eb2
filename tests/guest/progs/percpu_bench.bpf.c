// SPDX-License-Identifier: GPL-2.0
/*
 * make bench: three ways to reach this CPU's counter, one access per run
 * (BPF_PROG_TEST_RUN repeats the run), next to an empty program that
 * measures what a run costs without any access.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

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

SEC("socket")
int bench_empty(void *ctx)
{
	return 0;
}

SEC("socket")
int bench_percpu_data(void *ctx)
{
	pc_counter++;
	return 0;
}

SEC("socket")
int bench_map_lookup(void *ctx)
{
	__u32 zero = 0;
	__u64 *v = bpf_map_lookup_elem(&pcpu, &zero);

	if (!v) {
		errors++;
		return 0;
	}
	(*v)++;
	return 0;
}

SEC("socket")
int bench_cpu_index(void *ctx)
{
	__u32 cpu = bpf_get_smp_processor_id();

	if (cpu >= MAX_CPUS) {
		errors++;
		return 0;
	}
	by_cpu[cpu]++;
	return 0;
}

char _license[] SEC("license") = "GPL";
