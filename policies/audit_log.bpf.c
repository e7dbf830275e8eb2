// SPDX-License-Identifier: GPL-2.0
/*
 * audit-log: one record per program load in "events", printed as JSON
 * lines by `bpfsign-policy log`.  It decides nothing.
 *
 *   fexit/security_bpf_prog_load   the combined decision of every LSM
 *                                  (a BPF LSM program would see only the
 *                                  BPF programs attached before it), kept
 *                                  per program until bpf_check() returns
 *   fexit/bpf_check                the outcome: loaded (allow), refused by
 *                                  an LSM (deny), or refused by the kernel
 *                                  (reject) before the LSM hook (fd_array,
 *                                  signature: tampered, unknown key, ...;
 *                                  bpf_sig_enforce) or after it (verifier)
 *
 * Threat model: after the fact, who loaded what, signed by which keyring,
 * and who tried to load what was refused.  Not protected against: root can
 * unpin (unload) it or drain the ring buffer (`bpfsign-policy log`
 * consumes what it prints); when the buffer is full a record is counted
 * in the frozen tally, per caller uid and reason (policy.bpf.h); no other
 * program reaches these maps (the guard, policy.bpf.h).  Loads
 * that fail before bpf_check() (attr, capability and token checks) and
 * classic BPF never reach it.  The kernel audit log (AUDIT_BPF, issue 9) is
 * the record that cannot be switched off from bpf(2); it logs a refused
 * load only for a signature decision or an enforcement denial, so an
 * unsigned load the verifier refused is recorded here alone.
 */
#include "vmlinux.h"
#include "policy.bpf.h"

/* the LSM decision of a load in progress, by its bpf_prog_aux */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, int);
} lsm_ret SEC(".maps");

SEC("fexit/security_bpf_prog_load")
int BPF_PROG(audit_lsm, struct bpf_prog *prog, union bpf_attr *attr,
	     struct bpf_token *token, bool kernel, int ret)
{
	__u64 key = (__u64)(long)prog->aux;

	bpf_map_update_elem(&lsm_ret, &key, &ret, BPF_ANY);
	return 0;
}

/* int bpf_check(struct bpf_prog **prog, union bpf_attr *attr,
 *		 bpfptr_t uattr, __u32 uattr_size): the verifier gives no typed
 * access to a pointer to a pointer, so prog is read from the raw context.
 * uattr is a 16-byte struct passed by value: it takes ctx[2] and ctx[3],
 * uattr_size ctx[4], and the return value comes last, in ctx[5].
 */
SEC("fexit/bpf_check")
int audit_check(unsigned long long *ctx)
{
	union bpf_attr *attr = (union bpf_attr *)ctx[1];
	bool kernel = ctx[3] & 1;	/* uattr.is_kernel, bit 0 after the pointer */
	int ret = (int)ctx[5], *lsm;
	struct bpf_prog **pprog, *prog;
	__u8 decision, stage;
	__u64 key;

	if (bpf_probe_read_kernel(&pprog, sizeof(pprog), &ctx[0]) ||
	    bpf_probe_read_kernel(&prog, sizeof(prog), pprog))
		return 0;
	key = (__u64)(long)BPF_CORE_READ(prog, aux);
	lsm = bpf_map_lookup_elem(&lsm_ret, &key);
	if (!ret) {
		decision = BPFSIGN_ALLOW;
		stage = BPFSIGN_STAGE_LOADED;
	} else if (!lsm) {
		decision = BPFSIGN_REJECT;
		stage = BPFSIGN_STAGE_SIGNATURE;
	} else if (*lsm) {
		decision = BPFSIGN_DENY;
		stage = BPFSIGN_STAGE_LSM;
	} else {
		decision = BPFSIGN_REJECT;
		stage = BPFSIGN_STAGE_VERIFIER;
	}
	if (lsm)
		bpf_map_delete_elem(&lsm_ret, &key);
	record(prog, attr, kernel, BPFSIGN_POLICY_AUDIT_LOG, decision, stage, ret);
	return 0;
}

/* every map above: only this policy's programs reach them (policy.bpf.h) */
#define POLICY_MAPS(X)	BPFSIGN_COMMON_MAPS(X) X(lsm_ret)
BPFSIGN_GUARD(BPFSIGN_POLICY_AUDIT_LOG, POLICY_MAPS, false)
