/* SPDX-License-Identifier: GPL-2.0 */
/* The policies this CLI ships, as signed light skeletons. */
#ifndef BPFSIGN_POLICY_POLICIES_H
#define BPFSIGN_POLICY_POLICIES_H

#include <stdbool.h>

#include "policy_file.h"

struct load_args {
	const char *dir;		/* the policy's pin directory, created */
	const struct policy *pol;	/* keyring-allowlist: the allowlist */
	bool set_keyring;
	int keyring_id;			/* of the policy's own signature */
};

struct policy_desc {
	const char *name;		/* "deny-unsigned" */
	bool has_policy_file;		/* takes --policy */
	bool records_allow;		/* its allows are records too, not only
					 * counted (audit-log) */
	/* Load, configure, attach and pin into args->dir; on failure nothing
	 * stays attached (the caller removes what was pinned).
	 */
	int (*load)(const struct policy_desc *d, const struct load_args *args);
};

extern const struct policy_desc policy_descs[];
extern const int nr_policy_descs;

const struct policy_desc *policy_find(const char *name);

#endif /* BPFSIGN_POLICY_POLICIES_H */
