// SPDX-License-Identifier: GPL-2.0
/* The header's C after the arrays, carried at the end of the signed metadata. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "trailer.h"

int trailer_append(const void *blob, size_t blob_sz, const char *tail, size_t tail_len,
		   unsigned char **data, size_t *data_sz)
{
	unsigned char *p;
	size_t n;

	if (tail_len > UINT32_MAX || blob_sz > SIZE_MAX - tail_len - TRAILER_SZ)
		return kit_err(-EFBIG, "header: %zu bytes of C is too large", tail_len);
	n = blob_sz + tail_len + TRAILER_SZ;
	p = malloc(n);
	if (!p)
		return kit_err(-ENOMEM, "header: %s", strerror(ENOMEM));
	memcpy(p, blob, blob_sz);
	memcpy(p + blob_sz, tail, tail_len);
	p[blob_sz + tail_len + 0] = tail_len & 0xff;
	p[blob_sz + tail_len + 1] = (tail_len >> 8) & 0xff;
	p[blob_sz + tail_len + 2] = (tail_len >> 16) & 0xff;
	p[blob_sz + tail_len + 3] = (tail_len >> 24) & 0xff;
	memcpy(p + blob_sz + tail_len + 4, TRAILER_MAGIC, sizeof(TRAILER_MAGIC) - 1);
	*data = p;
	*data_sz = n;
	return 0;
}

int trailer_find(const void *data, size_t data_sz, const char **tail, size_t *tail_len,
		 size_t *blob_sz)
{
	const unsigned char *p = data, *t;
	size_t n, left;

	if (data_sz < TRAILER_SZ ||
	    memcmp(p + data_sz - (sizeof(TRAILER_MAGIC) - 1), TRAILER_MAGIC,
		   sizeof(TRAILER_MAGIC) - 1))
		return kit_err(-ENOEXEC, "data: no %s trailer: the metadata does not carry the header's C",
			       TRAILER_MAGIC);
	t = p + data_sz - TRAILER_SZ;
	n = (size_t)t[0] | (size_t)t[1] << 8 | (size_t)t[2] << 16 | (size_t)t[3] << 24;
	left = data_sz - TRAILER_SZ;
	if (n > left)
		return kit_err(-ENOEXEC, "data: the trailer says %zu bytes of C, the metadata has %zu",
			       n, left);
	if (memchr(p + left - n, '\0', n))
		return kit_err(-ENOEXEC, "data: the header's C in the metadata has a NUL byte");
	*tail = (const char *)p + left - n;
	*tail_len = n;
	*blob_sz = left - n;
	return 0;
}
