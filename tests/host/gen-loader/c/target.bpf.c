// SPDX-License-Identifier: GPL-2.0
/*
 * For tests/host/gen-loader/run.sh.
 * A perf event array without max_entries, a ring buffer, kconfig externs
 * and a map sized at run time: what depends on the target (target_obj()).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
extern unsigned int LINUX_KERNEL_VERSION __kconfig;
extern unsigned int CONFIG_HZ __kconfig;
extern int CONFIG_BPFSIGN_NOT_SET __kconfig __weak;
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
} events SEC(".maps");
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 5000);
} rb SEC(".maps");
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, int);
	__type(value, long);
} per_cpu_sized SEC(".maps");
unsigned int version, hz;
int unset;
SEC("syscall")
int p(void *ctx)
{
	int v = 1;

	version = LINUX_KERNEL_VERSION;
	hz = CONFIG_HZ;
	unset = CONFIG_BPFSIGN_NOT_SET;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &v, sizeof(v));
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
