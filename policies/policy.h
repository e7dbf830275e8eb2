/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the BPF policies and bpfsign-policy share: the decision record they
 * put into their "events" ring buffer, the counters of their "stats" array,
 * and the keyring-allowlist's map layout.  Included by the BPF programs
 * (after vmlinux.h) and by the CLI (after linux/types.h).
 */
#ifndef BPFSIGN_POLICY_H
#define BPFSIGN_POLICY_H

#define BPFSIGN_COMM_LEN	16
#define BPFSIGN_DIGEST_LEN	32
#define BPFSIGN_MAX_KEYRINGS	64
#define BPFSIGN_EVENTS_SIZE	(64 * 1024)
/* tally entries: one per (caller uid, reason) whose record found the ring
 * buffer full; the key's fields are bounded (uid, 33 program types, a few
 * verdicts, keyrings and errnos), so a flood from one caller is one entry
 */
#define BPFSIGN_MAX_TALLIES	4096
/* tally_any entries: the records neither events nor tally had room for,
 * one per (decision, stage, prog_type) whoever the caller (uid
 * BPFSIGN_ANY_UID, the other key fields 0): 4 x 7 x 64 keys, all fit, so
 * no record is ever lost, whatever uids and reasons filled the tally
 */
#define BPFSIGN_MAX_TALLY_ANY	(4 * BPFSIGN_STAGES * 64)
#define BPFSIGN_ANY_UID		0xffffffffU	/* (uid_t)-1, no caller's uid */
/* bits of bpfsign_allow_config.allow_types: enum bpf_prog_type values below
 * this fit; 6.12 has 33 (UNSPEC to NETFILTER)
 */
#define BPFSIGN_MAX_PROG_TYPES	64
/* enum bpf_sig_keyring values a policy file can name: 1..255 */
#define BPFSIGN_KEYRING_TYPES	256

/* The kernel's enum bpf_sig_verdict and enum bpf_sig_keyring values, for
 * the CLI (the BPF side has them from vmlinux.h).
 */
enum {
	BPFSIGN_UNSIGNED	= 0,
	BPFSIGN_VERIFIED	= 1,
};

enum {
	BPFSIGN_KEYRING_NONE		= 0,
	BPFSIGN_KEYRING_BUILTIN		= 1,
	BPFSIGN_KEYRING_SECONDARY	= 2,
	BPFSIGN_KEYRING_PLATFORM	= 3,
	BPFSIGN_KEYRING_USER		= 4,
	BPFSIGN_KEYRING_BPF		= 5,	/* .bpf, KEY_SPEC_BPF_KEYRING */
};

enum bpfsign_decision {
	BPFSIGN_ALLOW		= 0,	/* the load went through */
	BPFSIGN_DENY		= 1,	/* an LSM refused it */
	BPFSIGN_WOULD_DENY	= 2,	/* a permissive policy would have refused it */
	BPFSIGN_REJECT		= 3,	/* the kernel refused it, not an LSM */
};

enum bpfsign_stage {
	BPFSIGN_STAGE_LSM	= 0,	/* decided at security_bpf_prog_load() */
	BPFSIGN_STAGE_SIGNATURE	= 1,	/* refused before the LSM hook: fd_array,
					 * signature, bpf_sig_enforce */
	BPFSIGN_STAGE_VERIFIER	= 2,	/* admitted by LSMs, refused by the verifier */
	BPFSIGN_STAGE_LOADED	= 3,	/* bpf_check() succeeded */
	BPFSIGN_STAGE_GUARD	= 4,	/* verified, refused its fd by the guard:
					 * it would reach the policy's maps */
	BPFSIGN_STAGE_HOOK	= 5,	/* decided at security_bpf_prog_load(): not
					 * signed, and it would attach to a function
					 * a policy attaches to (BPFSIGN_POLICY_HOOKS) */
	BPFSIGN_STAGE_MAC_ADMIN	= 6,	/* decided at security_bpf_prog_load(): it
					 * installs MAC policy (LSM, fmod_ret, a
					 * policy's function), signed or not, and the
					 * caller lacks CAP_MAC_ADMIN in the initial
					 * user namespace */
};
#define BPFSIGN_STAGES		7

/*
 * The kernel functions the kit's policy programs attach to, X(name) each:
 * one trampoline per function, BPF_MAX_TRAMP_LINKS (38 on x86) programs of
 * any kind (fentry, fexit, fmod_ret, LSM) in all.  A program that is not
 * signed (nor a VERIFIED loader's child, nor the kernel's own) and whose
 * attach target is one of them is refused at load, stage "hook": filled
 * with unsigned programs, a trampoline would keep the policy from being
 * attached again after an unload (-E2BIG).  Signed or not, such a program
 * (as every LSM and fmod_ret one) also needs a caller with CAP_MAC_ADMIN
 * in the initial user namespace, stage "mac-admin".  The one list:
 * policy.bpf.h compares against it, bpfsign-policy names it.
 */
#define BPFSIGN_POLICY_HOOKS(X)						\
	X(bpf_lsm_bpf_prog_load)	/* deny-unsigned, keyring-allowlist */	\
	X(bpf_lsm_bpf_prog)		/* every policy's guard */		\
	X(security_bpf_prog_load)	/* audit-log, fexit */			\
	X(bpf_check)			/* audit-log, fexit */


enum bpfsign_policy_id {
	BPFSIGN_POLICY_DENY_UNSIGNED		= 1,
	BPFSIGN_POLICY_KEYRING_ALLOWLIST	= 2,
	BPFSIGN_POLICY_AUDIT_LOG		= 3,
};

struct bpfsign_event {
	__u64 boot_ns;			/* bpf_ktime_get_boot_ns() */
	__u64 seq;			/* 1, 2, ...: the policy's records put into
					 * events, stats[ringed] when reserved */
	__u32 pid;			/* tgid of the loading process */
	__u32 uid;
	char comm[BPFSIGN_COMM_LEN];
	__u8 digest[BPFSIGN_DIGEST_LEN];	/* prog->digest, SHA-256 of the insns */
	__u32 prog_type;
	__u32 verdict;			/* aux->sig.verdict, enum bpf_sig_verdict */
	__u32 keyring;			/* aux->sig.keyring_type, enum bpf_sig_keyring */
	__s32 serial;			/* aux->sig.keyring_serial */
	__u32 loader_id;		/* 0: not loaded by a loader */
	__u32 loader_verdict;		/* enum bpf_sig_verdict of the loader */
	__u32 loader_keyring;		/* enum bpf_sig_keyring that verified it */
	__s32 keyring_id;		/* attr->keyring_id the caller asked for */
	__s32 err;			/* 0 or the negative errno of the load */
	__u8 decision;			/* enum bpfsign_decision */
	__u8 stage;			/* enum bpfsign_stage */
	__u8 policy;			/* enum bpfsign_policy_id */
	__u8 signed_load;		/* attr->signature was given */
	__u8 kernel;			/* made through bpf_sys_bpf(): the hook's bool kernel */
};

/*
 * stats[] indices: decisions, counted by every policy.  Each record a
 * policy makes goes to exactly one place: the "events" ring buffer, else
 * (ring full) a count in the "tally" map (stats[tallied]), else (tally
 * full too) a count in "tally_any" under its decision, stage and program
 * type only (stats[tallied] too), else stats[lost] alone: tally_any has a
 * slot for every such triple of program types below 64.  So for each decision that is recorded,
 * stats[decision] = records put into events + their tally counts + lost.
 * The CLI freezes stats and tally before attaching: bpf(2) cannot reset
 * them.
 */
enum {
	BPFSIGN_STAT_ALLOW	= BPFSIGN_ALLOW,
	BPFSIGN_STAT_DENY	= BPFSIGN_DENY,
	BPFSIGN_STAT_WOULD_DENY	= BPFSIGN_WOULD_DENY,
	BPFSIGN_STAT_REJECT	= BPFSIGN_REJECT,
	BPFSIGN_STAT_LOST	= 4,	/* records in neither events nor tally nor
					 * tally_any (prog_type >= 64 only) */
	BPFSIGN_STAT_TALLIED	= 5,	/* records counted in tally or tally_any,
					 * ring full */
	BPFSIGN_STAT_RINGED	= 6,	/* records put into events: the last seq */
	BPFSIGN_STAT_MAX	= 7,
};

/* A "tally" key: who, and why, for the records the ring buffer had no
 * room for.  Only bounded fields: a caller cannot split its flood into
 * more entries than it has uids (the uid as the initial namespace sees
 * it) times reasons.
 */
struct bpfsign_tally_key {
	__u32 uid;
	__u32 prog_type;
	__s32 err;		/* 0 or the negative errno of the decision */
	__u8 policy;		/* enum bpfsign_policy_id */
	__u8 decision;		/* enum bpfsign_decision */
	__u8 stage;		/* enum bpfsign_stage */
	__u8 verdict;		/* aux->sig.verdict */
	__u8 keyring;		/* aux->sig.keyring_type */
	__u8 loader_verdict;	/* of the loader, if loader */
	__u8 loader;		/* 1: loaded by a loader program (loader_id != 0) */
	__u8 kernel;		/* the hook's bool kernel */
};

/* and its value: how many, when, and the first and the last caller */
struct bpfsign_tally {
	__u64 count;
	__u64 first_ns;		/* bpf_ktime_get_boot_ns() */
	__u64 last_ns;
	__u32 first_pid;	/* tgid */
	__u32 last_pid;
	char last_comm[BPFSIGN_COMM_LEN];
};

/* "owner", every policy's one-element map: the ids of the policy's own
 * programs (all of its object's, the guard included), written by
 * bpfsign-policy after the load and frozen before the attach.  The guard
 * (lsm/bpf_prog, policy.bpf.h) gives a program fd that uses one of the
 * policy's maps only to these programs.
 */
#define BPFSIGN_MAX_OWN_PROGS	4

struct bpfsign_owner {
	__u32 prog_ids[BPFSIGN_MAX_OWN_PROGS];	/* 0: unused slot */
};

/* A record of every policy's "users" iterator (iter/bpf_prog,
 * policy.bpf.h): a program that is not one of "owner" and uses one of the
 * policy's maps, or a map-in-map whose inner template one of them fits
 * (map_in_map 1: map_id and map_name are the outer map's), the first such
 * map of its aux->used_maps.  Read by
 * bpfsign-policy load and status (policies/cli/policy_users.c).
 */
#define BPFSIGN_MAP_NAME_LEN	16	/* BPF_OBJ_NAME_LEN */

struct bpfsign_user {
	__u32 prog_id;
	__u32 map_id;
	char map_name[BPFSIGN_MAP_NAME_LEN];
	__u32 map_in_map;
};

/* keyring-allowlist: its one "config" element */
struct bpfsign_allow_config {
	__u32 configured;	/* 1 once the CLI wrote it: until then, deny all */
	__u32 permissive;	/* 1: count and log, never deny */
	__u32 allow_unsigned;	/* 1: unsigned programs (and an unsigned loader's) pass */
	__u32 allow_children;	/* 1: programs loaded by a VERIFIED loader pass */
	__u64 allow_types;	/* bit T: unsigned programs of enum bpf_prog_type T
				 * pass even with allow_unsigned 0 */
	/* bit K: with allow_children, the programs of a VERIFIED loader whose
	 * keyring type (aux->loader_keyring_type) is K pass: the keyring
	 * types with at least one "keyring allow" rule.  The kernel records
	 * the loader's keyring type in its children, not its serial.
	 */
	__u64 children_keyrings[BPFSIGN_KEYRING_TYPES / 64];
};

/* keyring-allowlist: a "keyrings" key; any = 1 matches every serial */
struct bpfsign_keyring_key {
	__u32 keyring;		/* enum bpf_sig_keyring */
	__u32 any;
	__s32 serial;
};

/* and its value */
enum {
	BPFSIGN_KEYRING_DENIED	= 0,
	BPFSIGN_KEYRING_ALLOWED	= 1,
};

/* keyring-allowlist: a "keys" key ("key allow sha256:HEX"), the identity
 * of a key as the kernel records the key that verified a program (struct
 * bpf_sig_key's sha256): the SHA-256 of its public key as the kernel holds
 * it, the contents of the certificate's subjectPublicKey BIT STRING.  Not
 * the subject key identifier: a certificate chooses that, not its key.
 */
#define BPFSIGN_KEY_SHA256_LEN	32
#define BPFSIGN_MAX_KEYS	64

struct bpfsign_key_digest {
	__u8 sha256[BPFSIGN_KEY_SHA256_LEN];
};

/* keyring-allowlist: "keys_config", its one element */
struct bpfsign_keys_config {
	__u32 key_rules;	/* 1: a VERIFIED program (a VERIFIED loader's child)
				 * passes only if its key (its loader's) is in "keys" */
};

#endif /* BPFSIGN_POLICY_H */
