/* SPDX-License-Identifier: GPL-2.0 */
/* What lib/asn1_decoder.c takes from the kernel, for a user-space build. */
#ifndef BPFSIGN_COMPAT_KERNEL_H
#define BPFSIGN_COMPAT_KERNEL_H

#include <linux/types.h>

#define unlikely(x)		__builtin_expect(!!(x), 0)
#define fallthrough		__attribute__((__fallthrough__))
/* the decoder's diagnostics: the kernel's pr_debug/pr_err, silenced */
#define pr_debug(fmt, ...)	do { } while (0)
#define pr_err(fmt, ...)	do { } while (0)

#endif
