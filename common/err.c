// SPDX-License-Identifier: GPL-2.0
/* The reason of the last failure of this thread. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "err.h"

#define ERR_MAX 1024

static _Thread_local char last_error[ERR_MAX];

int kit_err(int err, const char *fmt, ...)
{
	char buf[ERR_MAX];
	va_list ap;

	/* formatted apart: the arguments may point into last_error */
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	memcpy(last_error, buf, sizeof(buf));
	return err;
}

const char *kit_last_error(void)
{
	return last_error;
}
