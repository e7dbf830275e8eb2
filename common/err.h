/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Failures are recorded where they happen, the object first and then the
 * reason ("%s: %s", path, strerror(-err)), and printed once by main().
 * Every function returns 0 or a negative errno.
 */
#ifndef KIT_ERR_H
#define KIT_ERR_H

#include <stdarg.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* Record "fmt..." as the reason of the failure err; returns err.  The
 * arguments may include kit_last_error() itself, to prefix the reason.
 * Control characters are recorded as \xHH: the reason goes to a terminal. */
int kit_err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int kit_verr(int err, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* The reason of the last failure of this thread. */
const char *kit_last_error(void);

#endif /* KIT_ERR_H */
