// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer: the header parser, the payload it re-derives, the C trailer of
 * data, and the audit of a format 2 header's unsigned C (the input as C).
 */
#include <stdint.h>
#include <stdlib.h>

#include "../lskel.h"
#include "../tail_audit.h"
#include "../trailer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len, tail_len, blob_sz;
	unsigned char *payload;
	const char *tail;
	char reason[256];
	struct lskel h;
	size_t line;

	tail_audit((const char *)data, size, "fuzz", size, 1, reason, sizeof(reason), &line);
	if (lskel_parse("fuzz", (const char *)data, size, &h))
		return 0;
	if (!lskel_payload(&h, &payload, &len))
		free(payload);
	trailer_find(h.r[R_DATA].buf, h.r[R_DATA].len, &tail, &tail_len, &blob_sz);
	/* format 2: what follows the arrays, as gen-loader verify audits it */
	if (h.format == LSKEL_FORMAT_NO_TRAILER)
		tail_audit((const char *)data + h.r[R_SIGNATURE].end, size - h.r[R_SIGNATURE].end,
			   h.name, h.r[R_DATA].len, 1, reason, sizeof(reason), &line);
	lskel_free(&h);
	return 0;
}
