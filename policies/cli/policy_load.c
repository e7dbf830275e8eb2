// SPDX-License-Identifier: GPL-2.0
/* A policy file from disk, bounded, into the pure parser. */
#include <stdio.h>
#include <stdlib.h>

#include "file.h"
#include "policy_load.h"

int policy_load_file(const char *path, struct policy *pol)
{
	unsigned char *buf;
	size_t len;
	int err;

	err = read_file(path, POLICY_MAX_SIZE, &buf, &len);
	if (err)
		return err;
	err = policy_parse(path, (const char *)buf, len, pol);
	free(buf);
	return err;
}

void policy_warn(const char *prog, const char *path, const struct policy *pol)
{
	const struct policy_type_risk *risk;
	__u32 t;

	/* no warning that an admitted program writes the policy's maps: the
	 * guard (policy.bpf.h) refuses it the fd (policies/README.md)
	 */
	for (t = 0; t < BPFSIGN_MAX_PROG_TYPES; t++) {
		if (!(risk = policy_type_risk(t)))
			continue;
		/* the blanket allow admits each of them: one warning each */
		if (pol->allow_unsigned)
			fprintf(stderr, "%s: %s:%d: warning: unsigned allow admits type %s, which weakens the policy: %s\n",
				prog, path, pol->unsigned_line, policy_prog_type_name(t), risk->why);
		else if (pol->allow_types & (1ULL << t))
			fprintf(stderr, "%s: %s:%d: warning: unsigned allow type %s weakens the policy: %s\n",
				prog, path, pol->type_lines[t], policy_prog_type_name(t), risk->why);
	}
}
