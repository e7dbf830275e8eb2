// SPDX-License-Identifier: GPL-2.0
/*
 * keyring-allowlist: a signed program passes only if the keyring that
 * verified it is allowed: by type (builtin, secondary, platform, user) or
 * by the serial of a user keyring; bpf is the operator's .bpf keyring.
 * bpfsign-policy fills "config" and "keyrings" from a policy file, freezes
 * both and only then attaches.
 *
 *   signed, VERIFIED      exact (aux->sig.keyring_type, sig.keyring_serial)
 *                         entry, else the keyring's "any serial" entry, else
 *                         deny
 *   loaded by a loader    VERIFIED loader: allow_children, and the loader's
 *                         keyring type (aux->loader_keyring_type) has an
 *                         allow rule (children_keyrings).  The kernel
 *                         records the loader's keyring type in its children,
 *                         not its serial: a child of a loader verified by
 *                         user keyring A passes if some user keyring is
 *                         allowed.  The loader itself went through the
 *                         serial rules when it was loaded, if this policy
 *                         was attached by then.  Unsigned loader: as an
 *                         unsigned program.
 *   unsigned              allow_unsigned (default: deny), or prog->type
 *                         in allow_types ("unsigned allow type NAME": e.g.
 *                         systemd's unsigned cgroup_skb filters); never one
 *                         that would attach to a function a policy attaches
 *                         to (policy_hook_target(), stage "hook"), whatever
 *                         the rules: it would take a slot of that function's
 *                         trampoline, and 38 of them keep the policy from
 *                         being attached again
 *   MAC policy            an LSM or fmod_ret program, or any program on a
 *                         policy's function, from a caller without
 *                         CAP_MAC_ADMIN in the initial user namespace:
 *                         denied first, signed or not, stage "mac-admin"
 *                         (policy.bpf.h, mac_policy_stage())
 *
 * Permissive mode counts and logs what it would deny, and denies nothing.
 *
 * Threat model: a caller with CAP_BPF that holds a key the kernel would
 * accept but the deployment does not trust, typically a certificate it
 * added to its own session or user keyring and names with keyring_id.
 * Under kernel.bpf_sig_enforce=1 the kernel itself refuses those (user
 * keyring type, -EPERM), for programs and for a loader's children; this
 * policy then decides among the system and .bpf keyrings, and is the
 * whole keyring rule with enforcement off.
 *
 * Who can rewrite the allowlist once it is attached:
 *   bpf(2)       no: both maps are frozen before attaching, and the map
 *                commands that write (update, delete, lookup-and-delete,
 *                their batches) refuse a frozen map with -EPERM, from user
 *                space and from a syscall program's bpf_sys_bpf() alike.
 *   programs     no: BPF_F_RDONLY_PROG, fixed at map creation.  The
 *                verifier refuses map_update_elem/map_delete_elem on the
 *                maps ("write into map forbidden") and stores through a
 *                looked-up value, in this program and in any other that
 *                uses the maps (map-in-map included: an inner map must have
 *                the flags of the outer map's template).
 *   iterators    no: the kernel refuses to attach a bpf_map_elem iterator
 *                that can write ctx->value to a BPF_F_RDONLY_PROG map
 *                (-EACCES at BPF_LINK_CREATE); one that only reads still
 *                attaches.  An iterator that names the maps in its code
 *                is a program, as above.
 *                Nor can another program read them: the guard
 *                (policy.bpf.h) refuses its fd.
 *   mmap         no: neither map is BPF_F_MMAPABLE (a hash map cannot be).
 *   root         yes, by unloading: unpinning the links detaches the
 *                policy, and a new allowlist is a new load.  Root can also
 *                load a module or write kernel memory.
 * Keys: with "key allow sha256:HEX" lines (the "keys" map,
 * keys_config.key_rules), a VERIFIED program passes only if, besides its
 * keyring, the key that verified it (aux->sig_key.sha256, the SHA-256 of
 * its public key, the kit's kernel) is listed, and a VERIFIED loader's
 * child only if its loader's key (aux->loader_key.sha256) is.  A
 * certificate chooses its subject key identifier but not its public key:
 * a certificate in the secondary or a caller's keyring that copies an
 * allowed key's skid has another key and another digest, and one that
 * copies the public key is useless without its private key.  On a kernel
 * that records no digest, a policy with key rules denies every signed
 * program.
 */
#include "vmlinux.h"
#include "policy.bpf.h"

/* Written by bpfsign-policy, then frozen; read only by programs. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_RDONLY_PROG);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfsign_allow_config);
} config SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_RDONLY_PROG);
	__uint(max_entries, BPFSIGN_MAX_KEYRINGS);
	__type(key, struct bpfsign_keyring_key);
	__type(value, __u32);
} keyrings SEC(".maps");

static __always_inline bool keyring_allowed(struct bpf_prog_aux *aux)
{
	struct bpfsign_keyring_key key = {
		.keyring = aux->sig.keyring_type,
		.serial = aux->sig.keyring_serial,
	};
	__u32 *v = bpf_map_lookup_elem(&keyrings, &key);

	if (!v) {
		key.any = 1;
		key.serial = 0;
		v = bpf_map_lookup_elem(&keyrings, &key);
	}
	return v && *v == BPFSIGN_KEYRING_ALLOWED;
}

/* The key that verified a program, the kit's struct bpf_sig_key: declared
 * here (CO-RE flavours) so that the policy builds against any vmlinux.h and
 * fails closed where the kernel lacks it.  Only the digest of the public key
 * is read: the key's skid is whatever its certificate says.
 */
struct bpf_sig_key___kit {
	__u8 sha256[BPFSIGN_KEY_SHA256_LEN];
} __attribute__((preserve_access_index));

struct bpf_prog_aux___kit {
	struct bpf_sig_key___kit sig_key;
	struct bpf_sig_key___kit loader_key;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_RDONLY_PROG);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfsign_keys_config);
} keys_config SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_RDONLY_PROG);
	__uint(max_entries, BPFSIGN_MAX_KEYS);
	__type(key, struct bpfsign_key_digest);
	__type(value, __u32);
} keys SEC(".maps");

/* No key rule, or the key that verified the program (its loader's) is
 * listed by its public key's digest.  A kernel without sig_key.sha256
 * (one that records only the skid) fails closed; an all-zero digest is
 * the kernel's "no key" and is never listed.
 */
static __always_inline bool key_allowed(struct bpf_prog_aux *aux, bool loader)
{
	struct bpf_prog_aux___kit *k = (void *)aux;
	struct bpfsign_key_digest d = {};
	struct bpfsign_keys_config *kc;
	__u32 zero = 0, *v;

	kc = bpf_map_lookup_elem(&keys_config, &zero);
	if (!kc)
		return false;
	if (!kc->key_rules)
		return true;
	if (!bpf_core_field_exists(k->sig_key.sha256))
		return false;
	if (loader)
		bpf_core_read(d.sha256, sizeof(d.sha256), &k->loader_key.sha256);
	else
		bpf_core_read(d.sha256, sizeof(d.sha256), &k->sig_key.sha256);
	v = bpf_map_lookup_elem(&keys, &d);
	return v && *v == BPFSIGN_KEYRING_ALLOWED;
}

/* The loader's keyring type has an allow rule: bit K of children_keyrings */
static __always_inline bool loader_keyring_allowed(const struct bpfsign_allow_config *cfg,
						   struct bpf_prog_aux *aux)
{
	__u32 k = aux->loader_keyring_type;

	return k < BPFSIGN_KEYRING_TYPES && (cfg->children_keyrings[k / 64] >> (k % 64)) & 1;
}

/* prog->type is attr->prog_type as the caller gave it: an ext (freplace)
 * program counts as ext, not as the type of the program it would replace,
 * so allowing cgroup_skb does not let an unsigned ext program in.
 */
static __always_inline bool type_allowed(const struct bpfsign_allow_config *cfg,
					 const struct bpf_prog *prog)
{
	enum bpf_prog_type type = prog->type;

	/* fmod_ret decides what a kernel function returns: on security_*()
	 * it answers for every LSM, this policy and its guard included, so
	 * no type rule admits an unsigned one
	 */
	if (type == BPF_PROG_TYPE_TRACING && prog->expected_attach_type == BPF_MODIFY_RETURN)
		return false;
	return type < BPFSIGN_MAX_PROG_TYPES && (cfg->allow_types >> type) & 1;
}

SEC("lsm/bpf_prog_load")
int BPF_PROG(keyring_allowlist, struct bpf_prog *prog, union bpf_attr *attr,
	     struct bpf_token *token, bool kernel, int ret)
{
	struct bpf_prog_aux *aux = prog->aux;
	struct bpfsign_allow_config *cfg;
	__u8 stage = BPFSIGN_STAGE_LSM;
	__u32 zero = 0;
	bool allow = false;

	if (ret)
		return ret;
	cfg = bpf_map_lookup_elem(&config, &zero);
	if (!cfg)
		return -EPERM;
	if (kernel_own_load(kernel, aux))
		allow = true;	/* as bpf_sig_enforce: the kernel's own */
	else if ((stage = mac_policy_stage(prog, aux->sig.verdict == BPF_SIG_VERIFIED ||
					   verified_loader(aux))) != BPFSIGN_STAGE_LSM)
		;	/* "hook" or "mac-admin": refused whatever the rules say */
	else if (aux->sig.verdict == BPF_SIG_VERIFIED)
		allow = keyring_allowed(aux) && key_allowed(aux, false);
	else if (verified_loader(aux))
		allow = cfg->allow_children && loader_keyring_allowed(cfg, aux) &&
			key_allowed(aux, true);
	else
		allow = cfg->allow_unsigned || type_allowed(cfg, prog);
	/* attached only once configured; fail closed all the same */
	allow = allow && cfg->configured;

	if (allow) {
		count(BPFSIGN_STAT_ALLOW);
		return 0;
	}
	if (cfg->permissive) {
		record(prog, attr, kernel, BPFSIGN_POLICY_KEYRING_ALLOWLIST, BPFSIGN_WOULD_DENY,
		       stage, 0);
		return 0;
	}
	record(prog, attr, kernel, BPFSIGN_POLICY_KEYRING_ALLOWLIST, BPFSIGN_DENY, stage, -EPERM);
	return -EPERM;
}

/* every map above: only this policy's programs reach them (policy.bpf.h) */
#define POLICY_MAPS(X)	BPFSIGN_COMMON_MAPS(X) X(config) X(keyrings) X(keys_config) X(keys)
/* the mode of the frozen config: a permissive policy's guard refuses nothing */
static __always_inline bool allowlist_permissive(void)
{
	struct bpfsign_allow_config *cfg;
	__u32 zero = 0;

	cfg = bpf_map_lookup_elem(&config, &zero);
	return cfg && cfg->permissive;
}

BPFSIGN_GUARD(BPFSIGN_POLICY_KEYRING_ALLOWLIST, POLICY_MAPS, allowlist_permissive())
