// SPDX-License-Identifier: GPL-2.0
/* The last failure of this thread, and errno names for JSON output. */
#include <errno.h>

#include "internal.h"

/* kit_err() of common/err.c records it, per thread */
const char *bpfsign_last_error(void)
{
	return kit_last_error();
}

const char *bpfsign_errno_name(int err)
{
	static const struct {
		int err;
		const char *name;
	} names[] = {
		{ 0, "OK" },
		{ -EINVAL, "EINVAL" },
		{ -ENOENT, "ENOENT" },
		{ -EACCES, "EACCES" },
		{ -EISDIR, "EISDIR" },
		{ -EFBIG, "EFBIG" },
		{ -ENOMEM, "ENOMEM" },
		{ -EIO, "EIO" },
		{ -EBADMSG, "EBADMSG" },
		{ -ENOKEY, "ENOKEY" },
		{ -ENOPKG, "ENOPKG" },
		{ -EKEYREJECTED, "EKEYREJECTED" },
		{ -EMSGSIZE, "EMSGSIZE" },
		{ -E2BIG, "E2BIG" },
		{ -ENOEXEC, "ENOEXEC" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].err == err)
			return names[i].name;
	return "EOTHER";
}
