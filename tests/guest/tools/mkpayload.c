// SPDX-License-Identifier: GPL-2.0
/*
 * Host side: write the fixture's insns || metadata to a file; metadata of
 * map M (default 0), as fixture_meta(M, i).
 */
#include <stdio.h>
#include <stdlib.h>

#include "../fixture.h"

int main(int argc, char **argv)
{
	const struct bpf_insn insns[] = FIXTURE_INSNS;
	unsigned char meta[META_SZ];
	int i, m = argc > 2 ? atoi(argv[2]) : 0;
	FILE *f;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: mkpayload FILE [M]\n");
		return 2;
	}
	for (i = 0; i < META_SZ; i++)
		meta[i] = fixture_meta(m, i);
	f = fopen(argv[1], "wb");
	if (!f || fwrite(insns, sizeof(insns), 1, f) != 1 ||
	    fwrite(meta, sizeof(meta), 1, f) != 1 || fclose(f)) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
