// SPDX-License-Identifier: GPL-2.0
/*
 * keyring-allowlist: a signed program passes only if the keyring that
 * verified it is allowed: by type (builtin, secondary, platform, user) or
 * by the serial of a user keyring; bpf is the operator's .bpf keyring.  bpfsign-policy fills "config" and
 * "keyrings" from a policy file, freezes both and only then attaches.
 *
 *   signed, VERIFIED      exact (keyring, serial) entry, else the keyring's
 *                         "any serial" entry, else deny
 *   loaded by a loader    VERIFIED loader: allow_children; unsigned loader:
 *                         as an unsigned program.  The loader itself went
 *                         through this policy when it was loaded (if the
 *                         policy was attached by then); the kernel does not
 *                         record the loader's keyring in its children.
 *   unsigned              allow_unsigned (default: deny), or prog->type
 *                         in allow_types ("unsigned allow type NAME": e.g.
 *                         systemd's unsigned cgroup_skb filters)
 *
 * Permissive mode counts and logs what it would deny, and denies nothing.
 *
 * Threat model: a caller with CAP_BPF that holds a key the kernel would
 * accept but the deployment does not trust, typically a certificate it
 * added to its own session or user keyring and names with keyring_id.
 *
 * Not protected against: root can unpin the links (unload), load a module
 * or write kernel memory.  The maps are frozen, so no one can rewrite the
 * allowlist through bpf(2), but a new allowlist is loaded by unloading
 * this one first.  The signer's key id is not visible to LSMs: a policy
 * can allow a keyring, not a key in it.
 */
#include "vmlinux.h"
#include "policy.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfsign_allow_config);
} config SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFSIGN_MAX_KEYRINGS);
	__type(key, struct bpfsign_keyring_key);
	__type(value, __u32);
} keyrings SEC(".maps");

static __always_inline bool keyring_allowed(struct bpf_prog_aux *aux)
{
	struct bpfsign_keyring_key key = {
		.keyring = aux->sig_keyring,
		.serial = aux->sig_keyring_serial,
	};
	__u32 *v = bpf_map_lookup_elem(&keyrings, &key);

	if (!v) {
		key.any = 1;
		key.serial = 0;
		v = bpf_map_lookup_elem(&keyrings, &key);
	}
	return v && *v == BPFSIGN_KEYRING_ALLOWED;
}

/* prog->type is attr->prog_type as the caller gave it: an ext (freplace)
 * program counts as ext, not as the type of the program it would replace,
 * so allowing cgroup_skb does not let an unsigned ext program in.
 */
static __always_inline bool type_allowed(const struct bpfsign_allow_config *cfg,
					 enum bpf_prog_type type)
{
	return type < BPFSIGN_MAX_PROG_TYPES && (cfg->allow_types >> type) & 1;
}

SEC("lsm/bpf_prog_load")
int BPF_PROG(keyring_allowlist, struct bpf_prog *prog, union bpf_attr *attr,
	     struct bpf_token *token, int ret)
{
	struct bpf_prog_aux *aux = prog->aux;
	struct bpfsign_allow_config *cfg;
	__u32 zero = 0;
	bool allow;

	if (ret)
		return ret;
	cfg = bpf_map_lookup_elem(&config, &zero);
	if (!cfg)
		return -EPERM;
	if (aux->sig_verdict == BPF_SIG_VERIFIED)
		allow = keyring_allowed(aux);
	else if (verified_loader(aux))
		allow = cfg->allow_children;
	else
		allow = cfg->allow_unsigned || type_allowed(cfg, prog->type);
	/* attached only once configured; fail closed all the same */
	allow = allow && cfg->configured;

	if (allow) {
		count(BPFSIGN_STAT_ALLOW);
		return 0;
	}
	if (cfg->permissive) {
		record(prog, attr, BPFSIGN_POLICY_KEYRING_ALLOWLIST, BPFSIGN_WOULD_DENY,
		       BPFSIGN_STAGE_LSM, 0);
		return 0;
	}
	record(prog, attr, BPFSIGN_POLICY_KEYRING_ALLOWLIST, BPFSIGN_DENY, BPFSIGN_STAGE_LSM,
	       -EPERM);
	return -EPERM;
}
