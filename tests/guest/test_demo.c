// SPDX-License-Identifier: GPL-2.0
/*
 * make demo: the story in two steps, narrated as TAP comments.  A signed
 * light skeleton loads and runs; the same header with one signature byte
 * flipped is refused by the kernel, which says why.
 */
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "runner.h"
#include "util.h"
#include "audit.h"
#include "skel_counter.lskel.h"
#include "skel_counter_bad_signature.lskel.h"

static char log_buf[16384];

/* The loader's verifier log, one TAP comment per non-empty line */
static void print_log(void)
{
	char *line, *save;

	for (line = strtok_r(log_buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (strstr(line, "signature") || strstr(line, "map '"))
			printf("#   kernel: %s\n", line);
}

TEST_EXPLICIT(demo_signed)
{
	struct skel_counter *skel = skel_counter__open();
	int i, err;

	if (!ASSERT_TRUE(skel, "open"))
		return;
	printf("# loading skel_counter.lskel.h, signed with keys-example/signing.key, keyring %d (builtin)\n",
	       skel->keyring_id);
	err = skel_counter__load(skel);
	if (!ASSERT_EQ(err, 0, "signed skeleton loads"))
		goto out;
	skel->bss->target_tgid = getpid();
	printf("# accepted: the kernel verified insns || metadata\n");
	if (!ASSERT_OK(skel_counter__attach(skel), "attach"))
		goto out;
	for (i = 0; i < 4; i++)
		syscall(SYS_getppid);
	printf("# attached; 4 getppid() calls counted %llu hits (step %llu)\n",
	       (unsigned long long)skel->bss->hits, (unsigned long long)skel->data->step);
	ASSERT_EQ(skel->bss->hits, 4 * skel->data->step, "the program ran");
out:
	skel_counter__destroy(skel);
}

TEST_EXPLICIT(demo_tampered)
{
	struct skel_counter_bad_signature *skel = skel_counter_bad_signature__open();
	int err;

	if (!ASSERT_TRUE(skel, "open"))
		return;
	printf("# loading the same header with one byte of the signature flipped\n");
	skel->ctx.log_buf = (long)log_buf;
	skel->ctx.log_size = sizeof(log_buf);
	skel->ctx.log_level = 1;
	err = skel_counter_bad_signature__load(skel);
	printf("# rejected: %s (%s) at step \"%s\"\n", strerrorname_np(-err), strerror(-err),
	       skel->errstr ? skel->errstr : "?");
	print_log();
	ASSERT_EQ(err, -EKEYREJECTED, "tampered skeleton refused with -EKEYREJECTED");
	skel_counter_bad_signature__destroy(skel);
}

/* Boot with bpf_sig_enforce=1: unsigned and tampered refused, audited. */
TEST_EXPLICIT(demo_enforce)
{
	static const struct bpf_insn ret0[] = { MOV64_IMM(BPF_REG_0, 0), EXIT_INSN() };
	struct skel_counter_bad_signature *bad;
	struct skel_counter *skel;
	int afd = audit_open(), err;
	char rec[1024];

	if (!ASSERT_OK(afd, "register as the audit daemon"))
		return;
	printf("# kernel.bpf_sig_enforce=1 (boot parameter)\n");

	err = load_prog(ret0, ARRAY_LEN(ret0), NULL);
	printf("# unsigned program: %s\n", err < 0 ? strerrorname_np(errno) : "loaded?!");
	ASSERT_ERR(err, EPERM, "unsigned program refused");
	if (!audit_find(afd, "op=LOAD res=0", rec, sizeof(rec), 2000))
		printf("#   audit: %s\n", rec);

	bad = skel_counter_bad_signature__open();
	err = bad ? skel_counter_bad_signature__load(bad) : -ENOMEM;
	printf("# tampered skeleton: %s\n", strerrorname_np(-err));
	ASSERT_EQ(err, -EKEYREJECTED, "tampered skeleton refused");
	if (!audit_find(afd, "verdict=rejected", rec, sizeof(rec), 2000))
		printf("#   audit: %s\n", rec);
	skel_counter_bad_signature__destroy(bad);

	skel = skel_counter__open_and_load();
	printf("# signed skeleton: %s\n", skel ? "loaded, loader and children" : "refused?!");
	ASSERT_TRUE(skel, "signed skeleton loads under enforcement");
	if (!audit_find(afd, "loader-verdict=verified", rec, sizeof(rec), 2000))
		printf("#   audit: %s\n", rec);
	skel_counter__destroy(skel);
	audit_close(afd);
}
