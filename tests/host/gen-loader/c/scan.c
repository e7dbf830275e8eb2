// SPDX-License-Identifier: GPL-2.0
/*
 * For tests/host/gen-loader/run.sh.
 * Scans the loader's instructions for reads of the caller's ctx other than
 * the log fields and the prog_fd skip test (t_loader_reads_no_input).
 */
#include <stddef.h>
#include <stdio.h>
#include "skel_counter.lskel.h"

static const short log_off[] = {
	offsetof(struct bpf_loader_ctx, log_level),
	offsetof(struct bpf_loader_ctx, log_size),
	offsetof(struct bpf_loader_ctx, log_buf),
};

int main(void)
{
	const struct bpf_insn *insn = (const void *)skel_counter__lskel_insns;
	size_t i, j, n = (sizeof(skel_counter__lskel_insns) - 1) / sizeof(*insn);
	int bad = 0, reads = 0, skips = 0;

	for (i = 0; i < n; i++) {
		const struct bpf_insn *in = &insn[i], *prev = i ? &insn[i - 1] : NULL;

		/* r6 is the ctx pointer for the whole loader */
		if (BPF_CLASS(in->code) == BPF_LDX && in->src_reg == BPF_REG_6) {
			for (j = 0; j < 3 && in->off != log_off[j]; j++)
				;
			/* a program's prog_fd, only to skip its load */
			if (j == 3 && in->off >= (short)offsetof(struct skel_counter, progs) &&
			    in->off < (short)offsetof(struct skel_counter, links) &&
			    i + 1 < n && insn[i + 1].code == (BPF_JMP32 | BPF_JEQ | BPF_K) &&
			    insn[i + 1].dst_reg == in->dst_reg &&
			    insn[i + 1].imm == BPF_SKEL_PROG_SKIP) {
				skips++;
				continue;
			}
			if (j == 3) {
				printf("insn %zu reads ctx at offset %d\n", i, in->off);
				bad = 1;
			}
			reads++;
		}
		if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg)
			continue;
		if (in->imm == BPF_FUNC_copy_from_user) {
			printf("insn %zu calls bpf_copy_from_user()\n", i);
			bad = 1;
		}
		if (in->imm == BPF_FUNC_probe_read_kernel &&
		    !(prev && prev->code == (BPF_ALU64 | BPF_MOV | BPF_K) &&
		      prev->dst_reg == BPF_REG_3 && prev->imm == 0)) {
			printf("insn %zu calls bpf_probe_read_kernel() with a source\n", i);
			bad = 1;
		}
	}
	if (!reads) {
		printf("no ctx read found: the scan does not see the loader's log fields\n");
		bad = 1;
	}
	if (skips != 1) {
		printf("%d reads of a prog_fd to skip, expected 1 (one program)\n", skips);
		bad = 1;
	}
	return bad;
}
