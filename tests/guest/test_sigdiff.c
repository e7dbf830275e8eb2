// SPDX-License-Identifier: GPL-2.0
/*
 * The differential test of offline and kernel verdicts: every signature
 * variant of tools/sigvariants.py (openssl options, structural mutations,
 * wrong keys, truncations; made on the host with a fixed seed, each with the
 * errno `bpfsign verify --ca keys-example/kernel-trusted.pem` gives) is
 * loaded with BPF_PROG_LOAD over the same payload and the builtin keyring,
 * which holds kernel-trusted.pem.  The kernel's errno must be the offline one
 * for every variant.  One load per variant, one test: it changes no kernel
 * state (a verified load is closed at once), so it runs in the default boot.
 */
#include <stdlib.h>
#include <unistd.h>

#include "runner.h"
#include "sign.h"
#include "signed.h"
#include "util.h"

#define MANIFEST	"sigdiff/manifest"
#define MIN_VARIANTS	500

TEST(sigdiff_offline_verdict_is_the_kernels)
{
	int total = 0, agree = 0, want, got, fd;
	char line[512], name[64], ename[32], path[96];
	unsigned char *sig;
	struct load l;
	long len;
	FILE *f;

	f = fopen(MANIFEST, "r");
	if (!ASSERT_TRUE(f, "open " MANIFEST " (tools/sigvariants.py)"))
		return;
	/* the fixture load of tools/mkpayload's bytes; only the signature varies */
	if (!make_load(&l, 1, "signing", BUILTIN)) {
		fclose(f);
		return;
	}
	free(l.sig);
	l.sig = NULL;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %d %31s", name, &want, ename) != 3)
			continue;
		snprintf(path, sizeof(path), "sigdiff/%s", name);
		len = read_file(path, &sig);
		if (!ASSERT_GE(len, 1, path))
			break;
		l.sig = sig;
		l.sig_len = (int)len;
		fd = sys_prog_load(&l);
		got = fd >= 0 ? 0 : errno;
		if (fd >= 0)
			close(fd);
		total++;
		if (got == want)
			agree++;
		else
			/* the line names the variant, the offline and the kernel errno */
			FAIL("%s: offline %s (%d), kernel %d (%s); %.*s", name, ename, want, got,
			     got ? strerror(got) : "verified", (int)strcspn(line, "\n"), line);
		free(sig);
		l.sig = NULL;
	}
	fclose(f);
	l.sig_len = 0;
	free_load(&l);
	printf("# sigdiff: %d/%d agree\n", agree, total);
	ASSERT_GE(total, MIN_VARIANTS, "signature variants");
	ASSERT_EQ(agree, total, "variants whose offline errno is the kernel's");
}
