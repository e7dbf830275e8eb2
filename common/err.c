// SPDX-License-Identifier: GPL-2.0
/* The reason of the last failure of this thread. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "err.h"

#define ERR_MAX 1024

static _Thread_local char last_error[ERR_MAX];

/*
 * File names, option values and header bytes come from whoever made the
 * input: a control character in them must not reach the terminal raw (an
 * escape sequence could rewrite what the operator sees), so each becomes
 * \xHH.  Bytes >= 0x80 pass, so UTF-8 stays readable.
 */
static void escape_ctrl(char *dst, size_t size, const char *src)
{
	size_t o = 0;

	for (; *src && o + 1 < size; src++) {
		unsigned char c = (unsigned char)*src;

		if (c >= 0x20 && c != 0x7f) {
			dst[o++] = (char)c;
			continue;
		}
		if (o + 5 >= size)
			break;
		o += (size_t)snprintf(dst + o, size - o, "\\x%02x", c);
	}
	dst[o] = '\0';
}

int kit_verr(int err, const char *fmt, va_list ap)
{
	char buf[ERR_MAX];

	/* formatted apart: the arguments may point into last_error */
	vsnprintf(buf, sizeof(buf), fmt, ap);
	escape_ctrl(last_error, sizeof(last_error), buf);
	return err;
}

int kit_err(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kit_verr(err, fmt, ap);
	va_end(ap);
	return err;
}

const char *kit_last_error(void)
{
	return last_error;
}
