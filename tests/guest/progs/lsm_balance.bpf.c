// SPDX-License-Identifier: GPL-2.0
/* Counts the LSM load and free hooks of programs named "lsm_balance": each
 * free must pair with a load (a hook that never saw the program must not be
 * told to free it).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

int loads;
int frees;

static __always_inline bool ours(struct bpf_prog *prog)
{
	char name[12];

	bpf_probe_read_kernel(name, sizeof(name), prog->aux->name);
	return !__builtin_memcmp(name, "lsm_balance", sizeof(name));
}

SEC("lsm/bpf_prog_load")
int BPF_PROG(count_load, struct bpf_prog *prog, union bpf_attr *attr,
	     struct bpf_token *token, bool kernel, int ret)
{
	if (ours(prog))
		__sync_fetch_and_add(&loads, 1);
	return ret;
}

SEC("lsm/bpf_prog_free")
int BPF_PROG(count_free, struct bpf_prog *prog)
{
	if (ours(prog))
		__sync_fetch_and_add(&frees, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
