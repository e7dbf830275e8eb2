/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The declarative policy file of keyring-allowlist (format: bpfsign-policy(8),
 * policies/README.md).  The parser is a pure function of the text: no file,
 * no kernel.
 */
#ifndef BPFSIGN_POLICY_FILE_H
#define BPFSIGN_POLICY_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "policy.h"

#define POLICY_MAX_SIZE (64 * 1024)
#define POLICY_MAX_SIGNERS 8

struct policy_rule {
	__u32 keyring;		/* enum bpf_sig_keyring, 1..255 */
	bool any;		/* every serial of that keyring */
	__s32 serial;
	bool allow;
	int line;
};

struct policy {
	bool permissive;
	bool allow_unsigned;
	bool ack_unsigned;	/* "unsigned allow weakens-policy" */
	int unsigned_line;	/* the line of "unsigned allow|deny", 0: none */
	bool allow_children;
	__u64 allow_types;	/* bit T: unsigned programs of enum bpf_prog_type T */
	__u64 ack_types;	/* bit T: its line ends in "weakens-policy" */
	int type_lines[BPFSIGN_MAX_PROG_TYPES];	/* the line that allowed each */
	struct policy_rule rules[BPFSIGN_MAX_KEYRINGS];
	int nr_rules;
	/* parsed but not enforceable: the lines of the signer rules */
	int signer_lines[POLICY_MAX_SIGNERS];
	int nr_signers;
	/* key allow sha256:HEX: the keys allowed, by their public key's digest */
	struct bpfsign_key_digest keys[BPFSIGN_MAX_KEYS];
	int key_lines[BPFSIGN_MAX_KEYS];
	int nr_keys;
};

/* The defaults: enforce, unsigned deny, children allow, no keyring allowed. */
void policy_init(struct policy *pol);

/*
 * Parse text (len bytes, need not be NUL-terminated) named name in
 * messages.  0, or -EINVAL with kit_last_error() = "NAME:LINE: reason".
 */
int policy_parse(const char *name, const char *text, size_t len, struct policy *pol);

/* key allow sha256:HEX (policy_keys.c): one line's words, as policy_parse() does */
int policy_parse_key_rule(const char *name, int line, char **w, int nw, struct policy *pol);

/* A key's digest: exactly 64 hex digits (BPFSIGN_KEY_SHA256_LEN bytes),
 * bytes optionally separated by ':'.  false if malformed.
 */
bool policy_parse_key_digest(const char *s, struct bpfsign_key_digest *d);

/* d as lowercase hex, no separator: out holds 2 * BPFSIGN_KEY_SHA256_LEN + 1 */
void policy_key_digest_str(const struct bpfsign_key_digest *d, char *out);

/* "builtin", ..., or NULL for a number without a name */
const char *policy_keyring_name(__u32 keyring);

/* libbpf's name of enum bpf_prog_type type ("cgroup_skb"), or NULL */
const char *policy_prog_type_name(__u32 type);

/*
 * What an unsigned program of a type can do beyond the object it attaches
 * to: "unsigned allow type" of such a type weakens the policy.  confirm:
 * the worst, refused unless the line ends in POLICY_WEAKENS.
 */
struct policy_type_risk {
	__u32 type;		/* enum bpf_prog_type */
	bool confirm;
	const char *why;
};

#define POLICY_WEAKENS "weakens-policy"

/* The risk of an unsigned program of type type, or NULL for none listed. */
const struct policy_type_risk *policy_type_risk(__u32 type);

#endif /* BPFSIGN_POLICY_FILE_H */
