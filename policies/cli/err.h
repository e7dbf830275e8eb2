/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Failures are recorded where they happen, the object first and then the
 * reason, and printed once by main().  Functions return 0 or -errno.
 */
#ifndef BPFSIGN_POLICY_ERR_H
#define BPFSIGN_POLICY_ERR_H

/* Record "fmt..." as the reason of the failure err; returns err. */
int pol_err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *pol_last_error(void);

#endif /* BPFSIGN_POLICY_ERR_H */
