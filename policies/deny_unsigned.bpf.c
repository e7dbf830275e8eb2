// SPDX-License-Identifier: GPL-2.0
/*
 * deny-unsigned: every program must be signed (verdict VERIFIED) or loaded
 * by a VERIFIED loader (the programs of a signed light skeleton); any other
 * load fails with -EPERM.  The LSM alternative to kernel.bpf_sig_enforce:
 * it can be removed again (by root) and logs its denials.
 *
 * Threat model: a process with CAP_BPF (or a token) that loads programs it
 * wrote or altered.  Signatures are checked by the kernel against the
 * keyring the caller names, so with kernel.bpf_sig_enforce=0 this policy
 * admits a program signed by any key in any keyring the kernel accepts,
 * session keyrings included: pair it with keyring-allowlist to restrict
 * whose signatures count.  (With enforcement on, the kernel refuses caller
 * keyrings itself, -EPERM, before this hook.)  A loader's children pass
 * whatever keyring verified the loader (aux->loader_keyring_type is not
 * looked at).
 *
 * Installing MAC policy (an LSM or fmod_ret program, or any program on a
 * function a policy attaches to) needs CAP_MAC_ADMIN in the initial user
 * namespace besides, signed or not (policy.bpf.h, mac_policy_stage()):
 * else a CAP_BPF process could link an unconfigured copy of the signed
 * keyring-allowlist and refuse every load on the host.
 *
 * Not protected against: root (CAP_SYS_ADMIN) can unpin the link
 * (`bpfsign-policy unload deny-unsigned`, or rm in bpffs) and so detach the
 * policy, load a kernel module, or write kernel memory; programs loaded
 * before the policy was attached stay loaded.  The kernel's own light
 * skeletons (the hook's bool kernel, and no loader program) are admitted,
 * as bpf_sig_enforce admits them: whoever makes the kernel load one has
 * loaded a module already.
 */
#include "vmlinux.h"
#include "policy.bpf.h"

SEC("lsm/bpf_prog_load")
int BPF_PROG(deny_unsigned, struct bpf_prog *prog, union bpf_attr *attr,
	     struct bpf_token *token, bool kernel, int ret)
{
	struct bpf_prog_aux *aux = prog->aux;
	bool signed_load;
	__u8 stage;

	if (ret)
		return ret;	/* an earlier BPF LSM program refused it */
	if (kernel_own_load(kernel, aux)) {
		count(BPFSIGN_STAT_ALLOW);
		return 0;
	}
	signed_load = aux->sig.verdict == BPF_SIG_VERIFIED || verified_loader(aux);
	/* "hook": an attempt on a policy's trampoline; "mac-admin": MAC
	 * policy from a caller without CAP_MAC_ADMIN, signed or not
	 */
	stage = mac_policy_stage(prog, signed_load);
	if (stage == BPFSIGN_STAGE_LSM && signed_load) {
		count(BPFSIGN_STAT_ALLOW);
		return 0;
	}
	record(prog, attr, kernel, BPFSIGN_POLICY_DENY_UNSIGNED, BPFSIGN_DENY, stage, -EPERM);
	return -EPERM;
}

/* every map above: only this policy's programs reach them (policy.bpf.h) */
#define POLICY_MAPS(X)	BPFSIGN_COMMON_MAPS(X)
BPFSIGN_GUARD(BPFSIGN_POLICY_DENY_UNSIGNED, POLICY_MAPS, false)
