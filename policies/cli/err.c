// SPDX-License-Identifier: GPL-2.0
/* The reason of the last failure. */
#include <stdarg.h>
#include <stdio.h>

#include "err.h"

static char last_error[1024];

int pol_err(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	return err;
}

const char *pol_last_error(void)
{
	return last_error;
}
