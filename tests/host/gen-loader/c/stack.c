// SPDX-License-Identifier: GPL-2.0
/*
 * For tests/host/gen-loader/run.sh.
 * Checks that every stack access of a 73-program loader stays within 512
 * bytes (t_many_programs).
 */
#include <stdio.h>
#include "many.lskel.h"
int main(void)
{
	const struct bpf_insn *insn = (const void *)many__lskel_insns;
	size_t i, n = (sizeof(many__lskel_insns) - 1) / sizeof(*insn);
	int bad = 0, seen = 0;

	for (i = 0; i < n; i++) {
		int cls = BPF_CLASS(insn[i].code);
		int r10 = (cls == BPF_LDX && insn[i].src_reg == BPF_REG_10) ||
			  ((cls == BPF_STX || cls == BPF_ST) && insn[i].dst_reg == BPF_REG_10);

		if (!r10)
			continue;
		seen++;
		if (insn[i].off < -512 || insn[i].off >= 0) {
			printf("insn %zu: stack offset %d, outside [-512, 0)\n", i, insn[i].off);
			bad = 1;
		}
	}
	if (!seen)
		printf("no stack access found: the scan sees nothing\n");
	return bad || !seen;
}
