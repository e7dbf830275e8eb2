// SPDX-License-Identifier: GPL-2.0
/* The last failure of this thread, and errno names for JSON output. */
#include <string.h>

#include "internal.h"

/* kit_err() of common/err.c records it, per thread */
const char *bpfsign_last_error(void)
{
	return kit_last_error();
}

/* glibc's names (strerrorname_np(), 2.32), so every errno has its own */
const char *bpfsign_errno_name(int err)
{
	const char *name;

	if (!err)
		return "OK";
	name = err < 0 ? strerrorname_np(-err) : NULL;
	return name ? name : "EOTHER";
}
