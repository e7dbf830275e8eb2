// SPDX-License-Identifier: GPL-2.0
/*
 * Records, at bpf_prog_load, the key that verified each load of one process
 * (prog->aux->sig_key: skid, serial, public key digest, builtin) and a
 * loader's program's loader key, read through
 * CO-RE as a policy would.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "sig_key.h"

int target_tgid;
int seen;
struct seen_key loads[SIG_KEY_MAX_LOADS];

SEC("lsm/bpf_prog_load")
int BPF_PROG(on_prog_load, struct bpf_prog *prog, union bpf_attr *attr,
	     struct bpf_token *token, bool kernel, int ret)
{
	struct bpf_prog_aux *aux = prog->aux;
	struct seen_key *k;
	int i = seen;

	if ((bpf_get_current_pid_tgid() >> 32) != target_tgid)
		return ret;
	seen++;
	if (i < 0 || i >= SIG_KEY_MAX_LOADS)
		return ret;
	k = &loads[i];
	k->verdict = BPF_CORE_READ(aux, sig.verdict);
	k->keyring = BPF_CORE_READ(aux, sig.keyring_type);
	k->serial = BPF_CORE_READ(aux, sig_key.serial);
	k->id_len = BPF_CORE_READ(aux, sig_key.id_len);
	bpf_core_read(k->id, sizeof(k->id), &aux->sig_key.id);
	k->loader_id = BPF_CORE_READ(aux, loader_id);
	k->loader_serial = BPF_CORE_READ(aux, loader_key.serial);
	k->loader_id_len = BPF_CORE_READ(aux, loader_key.id_len);
	bpf_core_read(k->loader_key, sizeof(k->loader_key), &aux->loader_key.id);
	bpf_core_read(k->sha256, sizeof(k->sha256), &aux->sig_key.sha256);
	bpf_core_read(k->loader_sha256, sizeof(k->loader_sha256), &aux->loader_key.sha256);
	k->builtin = BPF_CORE_READ(aux, sig_key.builtin);
	return ret;
}

char LICENSE[] SEC("license") = "GPL";
