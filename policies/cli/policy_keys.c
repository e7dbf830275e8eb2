// SPDX-License-Identifier: GPL-2.0
/*
 * "key allow sha256:HEX" lines of a policy file: the keys of a shared
 * keyring that keyring-allowlist admits, by the SHA-256 of the public key
 * that the kernel records for the key that verified a program
 * (aux->sig_key.sha256, fdinfo sig_key_sha256, the audit record's
 * sig-key-sha256=).  A subject key identifier is refused: a certificate
 * chooses its skid, so a copy of one names no key.  Pure functions of the
 * text.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "hex.h"
#include "policy_file.h"

#define SHA256_PREFIX "sha256:"

bool policy_parse_key_digest(const char *s, struct bpfsign_key_digest *d)
{
	bool colons = strchr(s, ':');
	unsigned int n = 0;
	int hi, lo;

	memset(d, 0, sizeof(*d));
	while (*s) {
		if (n == BPFSIGN_KEY_SHA256_LEN)
			return false;
		hi = hex_digit(s[0]);
		lo = hi < 0 ? -1 : hex_digit(s[1]);
		if (lo < 0)
			return false;
		d->sha256[n++] = hi << 4 | lo;
		s += 2;
		/* "df:51:38", not "df51:38" nor a trailing ':' */
		if (colons && *s && (*s++ != ':' || !*s))
			return false;
	}
	return n == BPFSIGN_KEY_SHA256_LEN;
}

void policy_key_digest_str(const struct bpfsign_key_digest *d, char *out)
{
	int i;

	for (i = 0; i < BPFSIGN_KEY_SHA256_LEN; i++)
		sprintf(out + 2 * i, "%02x", d->sha256[i]);
	out[2 * i] = 0;
}

int policy_parse_key_rule(const char *name, int line, char **w, int nw, struct policy *pol)
{
	static const struct bpfsign_key_digest zero;
	struct bpfsign_key_digest d;
	int i;

	if (nw < 2 || strcmp(w[1], "allow")) {
		/* every key without an allow line is refused once one is given */
		if (nw > 1 && !strcmp(w[1], "deny"))
			return kit_err(-EINVAL, "%s:%d: key: 'deny' is the default once a key is allowed, only 'key allow sha256:HEX' is a rule",
				       name, line);
		return kit_err(-EINVAL, "%s:%d: key: expected 'key allow sha256:HEX'", name, line);
	}
	if (nw != 3)
		return kit_err(-EINVAL, "%s:%d: key: expected one key after allow", name, line);
	if (strncmp(w[2], SHA256_PREFIX, strlen(SHA256_PREFIX)))
		return kit_err(-EINVAL, "%s:%d: key: '%s' is not 'sha256:HEX': a key is named by the SHA-256 of its public key, not by a subject key identifier, which any certificate can claim (a certificate chooses its skid, not its key); get the digest with 'bpfsign inspect --cert CERT' or 'gen-loader verify --ca CA HEADER' (key_sha256)",
			       name, line, w[2]);
	if (!policy_parse_key_digest(w[2] + strlen(SHA256_PREFIX), &d))
		return kit_err(-EINVAL, "%s:%d: key: bad digest '%s': expected sha256: and 64 hex digits (32 bytes, optionally 'df:51:...'), the SHA-256 of the key's public key",
			       name, line, w[2]);
	/* the kernel's "no key": it would never match, so it is a mistake */
	if (!memcmp(&d, &zero, sizeof(d)))
		return kit_err(-EINVAL, "%s:%d: key: %s is all zeroes, no key's digest", name, line, w[2]);
	for (i = 0; i < pol->nr_keys; i++)
		if (!memcmp(&pol->keys[i], &d, sizeof(d)))
			return kit_err(-EINVAL, "%s:%d: key: %s already given on line %d",
				       name, line, w[2], pol->key_lines[i]);
	if (pol->nr_keys == BPFSIGN_MAX_KEYS)
		return kit_err(-EINVAL, "%s:%d: key: more than %d key lines",
			       name, line, BPFSIGN_MAX_KEYS);
	pol->key_lines[pol->nr_keys] = line;
	pol->keys[pol->nr_keys++] = d;
	return 0;
}
