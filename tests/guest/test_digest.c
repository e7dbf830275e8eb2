// SPDX-License-Identifier: GPL-2.0
/* Program digest: SHA-256 of the instructions, the tag its first 8 bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "runner.h"
#include "util.h"

/* libbpf's internal SHA-256 (linked from the static libbpf.a) */
void libbpf_sha256(const void *data, size_t len, __u8 out[32]);

TEST(prog_tag_is_sha256_prefix)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	unsigned char digest[32], lib[32];
	char cmd[128], out[4096], want[32];
	int m = array_map(8, 1, NULL), prog, i;
	struct bpf_insn insns[] = {
		LD_MAP(BPF_REG_1, BPF_PSEUDO_MAP_FD, m),
		MOV64_IMM(BPF_REG_0, 7),
		EXIT_INSN(),
	};
	FILE *f;
	size_t n;

	prog = load_prog(insns, ARRAY_LEN(insns), NULL);
	if (!ASSERT_OK(prog, "load"))
		return;
	ASSERT_OK(bpf_prog_get_info_by_fd(prog, &info, &len), "prog info");
	prog_digest(insns, ARRAY_LEN(insns), digest);
	ASSERT_TRUE(!memcmp(info.tag, digest, 8), "tag == SHA-256(insns, map fd zeroed)[0:8]");

	/* libbpf's SHA-256 gives the kernel's bytes */
	for (i = 0; i < 2; i++)
		insns[i].imm = 0;
	libbpf_sha256(insns, sizeof(insns), lib);
	ASSERT_TRUE(!memcmp(lib, digest, 32), "libbpf_sha256 == OpenSSL SHA-256");

	/* and the patched bpftool reports that tag */
	snprintf(cmd, sizeof(cmd), "bpftool prog show id %u", info.id);
	f = popen(cmd, "r");
	n = f ? fread(out, 1, sizeof(out) - 1, f) : 0;
	out[n] = 0;
	if (f)
		pclose(f);
	for (i = 0; i < 8; i++)
		sprintf(want + 2 * i, "%02x", digest[i]);
	ASSERT_HAS(out, want, "bpftool prog show tag");
	close(prog);
	close(m);
}
