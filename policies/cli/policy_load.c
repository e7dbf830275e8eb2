// SPDX-License-Identifier: GPL-2.0
/* A policy file from disk, bounded, into the pure parser. */
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
