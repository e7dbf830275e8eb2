// SPDX-License-Identifier: GPL-2.0
/* Records the signature verdict that LSMs see at bpf_prog_load. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

int target_tgid;
int seen;
int verdict;
int keyring;
int serial;
int loader_id;
int loader_verdict;
int loader_keyring;

SEC("lsm/bpf_prog_load")
int BPF_PROG(on_prog_load, struct bpf_prog *prog, union bpf_attr *attr,
	     struct bpf_token *token, bool kernel, int ret)
{
	if ((bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return ret;
	seen++;
	/* upstream's names (Documentation/bpf/signing.rst) */
	verdict = prog->aux->sig.verdict;
	keyring = prog->aux->sig.keyring_type;
	serial = prog->aux->sig.keyring_serial;
	/* provenance, our addition */
	loader_id = prog->aux->loader_id;
	loader_verdict = prog->aux->loader_verdict;
	loader_keyring = prog->aux->loader_keyring_type;
	return ret;
}

char LICENSE[] SEC("license") = "GPL";
