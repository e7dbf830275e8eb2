/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Failures are recorded where they happen, with the file first and then the
 * reason, and printed once by main().  Every function returns 0 or a
 * negative errno.
 */
#ifndef GEN_LOADER_ERR_H
#define GEN_LOADER_ERR_H

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Record "fmt..." as the reason of the failure err; returns err. */
int gl_err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *gl_last_error(void);

#endif /* GEN_LOADER_ERR_H */
