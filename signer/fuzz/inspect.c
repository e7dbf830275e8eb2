// SPDX-License-Identifier: GPL-2.0
/* libFuzzer: bpfsign_inspect() on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "libbpfsign.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bpfsign_info info;

	if (!bpfsign_inspect(data, size, &info) &&
	    info.keyid_len > BPFSIGN_KEYID_MAX)
		abort();
	return 0;
}
