// SPDX-License-Identifier: GPL-2.0
/* Programs the verifier must refuse for __arena kfunc arguments. No arena. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

/* declared with plain pointers: these programs pass what they should not */
int bpf_test_arena_write(__u64 *p, __u64 val) __ksym;

/* a scalar, but the program has no arena */
SEC("?syscall")
int no_arena(void *ctx)
{
	return bpf_test_arena_write((__u64 *)0x1000, 1);
}

char LICENSE[] SEC("license") = "GPL";
