// SPDX-License-Identifier: GPL-2.0
/*
 * What LSMs see when a signed light skeleton loads: the verdict of its
 * loader (BPF_PROG_TYPE_SYSCALL, loaded by the caller) and of the programs
 * the loader then loads.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

int target_tgid;
int loaders;		/* loader programs seen */
int loader_verdict;	/* its sig.verdict, enum bpf_sig_verdict */
int loader_keyring;	/* its sig.keyring_type, enum bpf_sig_keyring */
int loader_serial;	/* its sig.keyring_serial, the resolved serial */
int progs;		/* other programs seen */

SEC("lsm/bpf_prog_load")
int BPF_PROG(skel_verdict, struct bpf_prog *prog, union bpf_attr *attr,
	     struct bpf_token *token, bool kernel, int ret)
{
	if ((bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return ret;
	if (prog->type != BPF_PROG_TYPE_SYSCALL) {
		progs++;
		return ret;
	}
	loaders++;
	loader_verdict = prog->aux->sig.verdict;
	loader_keyring = prog->aux->sig.keyring_type;
	loader_serial = prog->aux->sig.keyring_serial;
	return ret;
}

char LICENSE[] SEC("license") = "GPL";
