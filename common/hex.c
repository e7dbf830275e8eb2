// SPDX-License-Identifier: GPL-2.0
/* The kit's one hex formatter and digit parser. */
#include "hex.h"

char *hex_str(char *dst, size_t size, const void *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *b = p;
	size_t i;

	if (!size)
		return dst;
	for (i = 0; i < n && 2 * i + 2 < size; i++) {
		dst[2 * i] = digits[b[i] >> 4];
		dst[2 * i + 1] = digits[b[i] & 15];
	}
	dst[2 * i] = '\0';
	return dst;
}

int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}
