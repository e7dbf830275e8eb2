// SPDX-License-Identifier: GPL-2.0
/*
 * Alternatives, as real tools carry them: an fentry program whose attach
 * target this kernel lacks, and a kprobe doing the same work.  The caller
 * of the signed skeleton leaves the first out and loads the other.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

__u32 target_tgid;	/* .bss, set after load */
__u64 fentry_hits, kprobe_hits;

SEC("fentry/bpfsign_no_such_function")
int BPF_PROG(alt_fentry)
{
	__sync_fetch_and_add(&fentry_hits, 1);
	return 0;
}

SEC("kprobe/__x64_sys_getppid")
int alt_kprobe(struct pt_regs *ctx)
{
	if ((bpf_get_current_pid_tgid() >> 32) == target_tgid)
		__sync_fetch_and_add(&kprobe_hits, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
