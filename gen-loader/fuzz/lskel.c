// SPDX-License-Identifier: GPL-2.0
/* libFuzzer: the header parser, the payload it re-derives, the C trailer of data. */
#include <stdint.h>
#include <stdlib.h>

#include "../lskel.h"
#include "../trailer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len, tail_len, blob_sz;
	unsigned char *payload;
	const char *tail;
	struct lskel h;

	if (lskel_parse("fuzz", (const char *)data, size, &h))
		return 0;
	if (!lskel_payload(&h, &payload, &len))
		free(payload);
	trailer_find(h.r[R_DATA].buf, h.r[R_DATA].len, &tail, &tail_len, &blob_sz);
	lskel_free(&h);
	return 0;
}
