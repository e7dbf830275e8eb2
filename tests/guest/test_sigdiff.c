// SPDX-License-Identifier: GPL-2.0
/*
 * The differential test of offline and kernel verdicts: every signature
 * variant of tools/sigvariants.py (openssl options, structural mutations,
 * wrong keys, truncations; made on the host with a fixed seed, each with the
 * errno `bpfsign verify --ca keys-example/kernel-trusted.pem` gives) is
 * loaded with BPF_PROG_LOAD over the same payload and the builtin keyring,
 * which holds kernel-trusted.pem.  The kernel's errno must be the offline one
 * for every variant.  The classes of tools/sigcerts.py (embedded
 * certificates the kernel's X.509 parser refuses or takes, keys and curves,
 * RSA sizes, AKID chains, non-DER ECDSA values, 17 certificates or
 * SignerInfos) load the same way; a variant named vNNN.zN.p7s is over
 * insns || N zero bytes, one exclusive frozen map of N bytes (the 16 MiB
 * signed-bytes bound).  One load per variant, one test: it changes no kernel
 * state (a verified load is closed at once), so it runs in the default boot.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "runner.h"
#include "sign.h"
#include "signed.h"
#include "util.h"

#define MANIFEST	"sigdiff/manifest"
#define MIN_VARIANTS	500

/* an exclusive, frozen metadata map of size zero bytes for l's insns */
static int zero_map(const struct load *l, __u32 size)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	unsigned char digest[32];
	int fd;

	prog_digest(l->insns, l->cnt, digest);
	opts.excl_prog_hash = digest;
	opts.excl_prog_hash_size = sizeof(digest);
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "zeros", 4, size, 1, &opts);
	if (fd >= 0 && bpf_map_freeze(fd)) {
		close(fd);
		return -1;
	}
	return fd;
}

TEST(sigdiff_offline_verdict_is_the_kernels)
{
	int total = 0, agree = 0, want, got, fd, meta, zfd = -1;
	unsigned int zeros;
	const char *z;
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
		meta = l.fds[0];
		z = strstr(name, ".z");
		if (z && sscanf(z, ".z%u.", &zeros) == 1) {
			zfd = zero_map(&l, zeros);
			if (!ASSERT_OK(zfd, "a metadata map of zeros")) {
				free(sig);
				break;
			}
			l.fds[0] = zfd;
		}
		fd = sys_prog_load(&l);
		got = fd >= 0 ? 0 : errno;
		if (fd >= 0)
			close(fd);
		if (zfd >= 0)
			close(zfd);
		zfd = -1;
		l.fds[0] = meta;
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
