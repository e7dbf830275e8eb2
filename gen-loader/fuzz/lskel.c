// SPDX-License-Identifier: GPL-2.0
/* libFuzzer: the header parser, and the payload it re-derives. */
#include <stdint.h>
#include <stdlib.h>

#include "../lskel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *payload;
	struct lskel h;
	size_t len;

	if (lskel_parse("fuzz", (const char *)data, size, &h))
		return 0;
	if (!lskel_payload(&h, &payload, &len))
		free(payload);
	lskel_free(&h);
	return 0;
}
