// SPDX-License-Identifier: GPL-2.0
/*
 * __kconfig externs, resolved for the target at generation (gen-loader
 * --target-config) and signed with the loader: the kernel version, an
 * int, a bool and a weak option the target does not set.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

extern unsigned int LINUX_KERNEL_VERSION __kconfig;
extern int CONFIG_NR_CPUS __kconfig;
extern bool CONFIG_BPF_SYSCALL __kconfig;
extern int CONFIG_BPFSIGN_NEVER_SET __kconfig __weak;

__u32 version;
int nr_cpus;
bool bpf_syscall;
int never_set = -1;

SEC("syscall")
int read_kconfig(void *ctx)
{
	version = LINUX_KERNEL_VERSION;
	nr_cpus = CONFIG_NR_CPUS;
	bpf_syscall = CONFIG_BPF_SYSCALL;
	never_set = CONFIG_BPFSIGN_NEVER_SET;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
