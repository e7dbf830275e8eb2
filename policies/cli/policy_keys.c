// SPDX-License-Identifier: GPL-2.0
/*
 * "key allow KEYID" lines of a policy file: the keys of a shared keyring
 * that keyring-allowlist admits, by the subject key identifier the kernel
 * records for the key that verified a program (aux->sig_key, fdinfo
 * sig_key, the audit record's sig-key=).  Pure functions of the text.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "policy_file.h"

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool policy_parse_key_id(const char *s, struct bpfsign_key_id *id)
{
	bool colons = strchr(s, ':');
	int hi, lo;

	memset(id, 0, sizeof(*id));
	while (*s) {
		if (id->len == BPFSIGN_KEY_ID_MAX)
			return false;
		hi = hex_digit(s[0]);
		lo = hi < 0 ? -1 : hex_digit(s[1]);
		if (lo < 0)
			return false;
		id->id[id->len++] = hi << 4 | lo;
		s += 2;
		/* "df:51:38", not "df51:38" nor a trailing ':' */
		if (colons && *s && (*s++ != ':' || !*s))
			return false;
	}
	return id->len > 0;
}

void policy_key_id_str(const struct bpfsign_key_id *id, char *out)
{
	__u32 i;

	for (i = 0; i < id->len && i < BPFSIGN_KEY_ID_MAX; i++)
		sprintf(out + 2 * i, "%02x", id->id[i]);
	out[2 * i] = 0;
}

int policy_parse_key_rule(const char *name, int line, char **w, int nw, struct policy *pol)
{
	struct bpfsign_key_id id;
	int i;

	if (nw < 2 || strcmp(w[1], "allow")) {
		/* every key without an allow line is refused once one is given */
		if (nw > 1 && !strcmp(w[1], "deny"))
			return kit_err(-EINVAL, "%s:%d: key: 'deny' is the default once a key is allowed, only 'key allow KEYID' is a rule",
				       name, line);
		return kit_err(-EINVAL, "%s:%d: key: expected 'key allow KEYID'", name, line);
	}
	if (nw != 3)
		return kit_err(-EINVAL, "%s:%d: key: expected one key id after allow", name, line);
	if (!policy_parse_key_id(w[2], &id))
		return kit_err(-EINVAL, "%s:%d: key: bad key id '%s': expected 1-%d bytes of hex, as 'df51386f...' or 'DF:51:38:6F...' (a subjectKeyIdentifier)",
			       name, line, w[2], BPFSIGN_KEY_ID_MAX);
	for (i = 0; i < pol->nr_keys; i++)
		if (pol->keys[i].len == id.len && !memcmp(pol->keys[i].id, id.id, id.len))
			return kit_err(-EINVAL, "%s:%d: key: %s already given on line %d",
				       name, line, w[2], pol->key_lines[i]);
	if (pol->nr_keys == BPFSIGN_MAX_KEYS)
		return kit_err(-EINVAL, "%s:%d: key: more than %d key lines",
			       name, line, BPFSIGN_MAX_KEYS);
	pol->key_lines[pol->nr_keys] = line;
	pol->keys[pol->nr_keys++] = id;
	return 0;
}
