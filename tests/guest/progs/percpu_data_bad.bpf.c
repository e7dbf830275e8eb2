// SPDX-License-Identifier: GPL-2.0
/* Global percpu data the verifier must refuse; loaded one at a time. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char fmt[4] SEC(".percpu") = "%d";
char out[16];

SEC("?raw_tp/task_rename")
int percpu_fmt(void *ctx)
{
	__u64 args[1] = { 1 };

	/* each CPU has its own copy: not a constant string */
	bpf_snprintf(out, sizeof(out), fmt, args, sizeof(args));
	return 0;
}

char _license[] SEC("license") = "GPL";
