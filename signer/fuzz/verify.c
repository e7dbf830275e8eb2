// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer: the parse and check path of bpfsign_verify(), through the
 * public API.  Input: one byte n, then n bytes of payload, then the
 * signature; the signers are the test keys' certificates, loaded once.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "libbpfsign.h"

static struct bpfsign_verifier *verifier;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *bundle = getenv("BPFSIGN_FUZZ_CERTS");

	(void)argc;
	(void)argv;
	if (!bundle || bpfsign_verifier_load(NULL, bundle, &verifier)) {
		fprintf(stderr, "fuzz-verify: set BPFSIGN_FUZZ_CERTS to a PEM bundle\n");
		exit(1);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bpfsign_report rep;
	size_t n;

	if (size < 1)
		return 0;
	n = data[0];
	if (n > size - 1)
		n = size - 1;
	bpfsign_verifier_verify(verifier, data + 1, n, data + 1 + n, size - 1 - n, &rep);
	return 0;
}
