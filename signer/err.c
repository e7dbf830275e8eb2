// SPDX-License-Identifier: GPL-2.0
/* The last failure of this thread, and errno names for JSON output. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

static _Thread_local char last_error[512];

int bpfsign__err(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	return err;
}

const char *bpfsign_last_error(void)
{
	return last_error;
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
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].err == err)
			return names[i].name;
	return "EOTHER";
}
