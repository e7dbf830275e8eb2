// SPDX-License-Identifier: GPL-2.0
/* Host side: write the fixture's insns || metadata_0 to a file. */
#include <stdio.h>

#include "../fixture.h"

int main(int argc, char **argv)
{
	const struct bpf_insn insns[] = FIXTURE_INSNS;
	unsigned char meta[META_SZ];
	FILE *f;
	int i;

	if (argc != 2) {
		fprintf(stderr, "usage: mkpayload FILE\n");
		return 2;
	}
	for (i = 0; i < META_SZ; i++)
		meta[i] = fixture_meta(0, i);
	f = fopen(argv[1], "wb");
	if (!f || fwrite(insns, sizeof(insns), 1, f) != 1 ||
	    fwrite(meta, sizeof(meta), 1, f) != 1 || fclose(f)) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
