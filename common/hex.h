/* SPDX-License-Identifier: GPL-2.0 */
/* The kit's one hex formatter (digests, key identifiers, serials) and digit parser. */
#ifndef KIT_HEX_H
#define KIT_HEX_H

#include <stddef.h>

/* At most (size - 1) / 2 bytes of p as lowercase hex, no separator,
 * NUL-terminated; returns dst. */
char *hex_str(char *dst, size_t size, const void *p, size_t n);

/* The value of hex digit c (either case), or -1. */
int hex_digit(char c);

#endif /* KIT_HEX_H */
