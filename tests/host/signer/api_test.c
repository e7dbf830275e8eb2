// SPDX-License-Identifier: GPL-2.0
/*
 * The library API as gen-loader uses it: sign from memory, verify, inspect,
 * and the errno of each failure.  Prints one "# ..." line per failed check.
 * Usage: api_test KEYS_DIR
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libbpfsign.h"

static int failures;

#define EXPECT_EQ(got, want, what) do {					\
	long long __g = (got), __w = (want);				\
	if (__g != __w) {						\
		printf("# %s: expected %lld, got %lld (%s)\n", what,	\
		       __w, __g, bpfsign_last_error());		\
		failures++;						\
	}								\
} while (0)

static char *path(const char *dir, const char *name)
{
	static char buf[4][1024];
	static int i;

	snprintf(buf[i & 3], sizeof(buf[0]), "%s/%s", dir, name);
	return buf[i++ & 3];
}

int main(int argc, char **argv)
{
	static const unsigned char payload[] = "insns || map values";
	BPFSIGN_OPTS(bpfsign_sign_opts, opts, .digest = "sha384");
	struct bpfsign_signer *s = NULL;
	unsigned char *sig = NULL, *sig2 = NULL;
	struct bpfsign_report rep;
	struct bpfsign_info info;
	size_t len = 0, len2 = 0;
	const char *k;

	if (argc != 2)
		return 2;
	k = argv[1];

	EXPECT_EQ(bpfsign_signer_load(path(k, "signing.key"), path(k, "signing.crt"),
				      NULL, &s), 0, "load RSA signer, default opts");
	EXPECT_EQ(bpfsign_sign(s, payload, sizeof(payload), &sig, &len), 0, "sign");
	EXPECT_EQ(bpfsign_sign(s, payload, sizeof(payload), &sig2, &len2), 0, "sign again");
	EXPECT_EQ(len == len2 && !memcmp(sig, sig2, len), 1, "RSA signatures identical");
	bpfsign_signer_free(s);

	EXPECT_EQ(bpfsign_inspect(sig, len, &info), 0, "inspect");
	EXPECT_EQ(strcmp(info.digest, "sha256"), 0, "default digest is sha256");
	EXPECT_EQ(info.id_type, BPFSIGN_ID_KEYID, "signer named by SKI");
	EXPECT_EQ(info.keyid_len, 20, "SKI length");
	EXPECT_EQ(info.kernel_ok, 1, "kernel_ok");

	EXPECT_EQ(bpfsign_verify(payload, sizeof(payload), sig, len,
				 path(k, "signing.crt"), NULL, &rep), 0, "verify --cert");
	EXPECT_EQ(rep.verified, 1, "report.verified");
	EXPECT_EQ(bpfsign_verify(payload, sizeof(payload), sig, len, NULL,
				 path(k, "kernel-trusted.pem"), NULL), 0,
		  "verify against the keyring, NULL report");
	/* the signature check: parse, lookup and key type pass */
	EXPECT_EQ(bpfsign_verify(payload, sizeof(payload) - 1, sig, len,
				 path(k, "signing.crt"), NULL, &rep), -EKEYREJECTED,
		  "digest mismatch");
	EXPECT_EQ(rep.err, -EKEYREJECTED, "report.err");
	/* the signer lookup */
	EXPECT_EQ(bpfsign_verify(payload, sizeof(payload), sig, len,
				 path(k, "team.crt"), NULL, &rep), -ENOKEY, "unknown signer");
	/* the DER parser */
	EXPECT_EQ(bpfsign_verify(payload, sizeof(payload), sig, len - 1,
				 path(k, "signing.crt"), NULL, &rep), -EBADMSG, "truncated");
	EXPECT_EQ(bpfsign_inspect(sig + 1, len - 1, &info), -EBADMSG, "inspect garbage");
	/* the argument check: exactly one of cert and bundle */
	EXPECT_EQ(bpfsign_verify(payload, sizeof(payload), sig, len,
				 path(k, "signing.crt"), path(k, "ca.crt"), &rep), -EINVAL,
		  "cert and bundle");
	free(sig);
	free(sig2);

	EXPECT_EQ(bpfsign_signer_load(path(k, "signing-ec.key"), path(k, "signing-ec.crt"),
				      &opts, &s), 0, "load P-256 signer, sha384");
	EXPECT_EQ(bpfsign_sign(s, payload, sizeof(payload), &sig, &len), 0, "sign P-256");
	EXPECT_EQ(bpfsign_inspect(sig, len, &info), 0, "inspect P-256");
	EXPECT_EQ(strcmp(info.sig_alg, "ecdsa-with-SHA384"), 0, "P-256/sha384 sig alg");
	EXPECT_EQ(bpfsign_verify(payload, sizeof(payload), sig, len,
				 path(k, "signing-ec.crt"), NULL, NULL), 0, "verify P-256");
	bpfsign_signer_free(s);
	free(sig);

	/* the digest allow-list */
	opts.digest = "sha1";
	EXPECT_EQ(bpfsign_signer_load(path(k, "signing.key"), path(k, "signing.crt"),
				      &opts, &s), -EINVAL, "sha1 refused");
	/* the key/cert match */
	EXPECT_EQ(bpfsign_signer_load(path(k, "signing.key"), path(k, "team.crt"),
				      NULL, &s), -EKEYREJECTED, "key/cert mismatch");
	/* reading the key file */
	EXPECT_EQ(bpfsign_signer_load(path(k, "nonexistent.key"), path(k, "signing.crt"),
				      NULL, &s), -ENOENT, "missing key file");
	/* the opts size check: a newer caller's nonzero extra field */
	{
		struct { struct bpfsign_sign_opts o; long extra; } big = {
			.o = { .sz = sizeof(big) }, .extra = 1,
		};
		EXPECT_EQ(bpfsign_signer_load(path(k, "signing.key"),
					      path(k, "signing.crt"), &big.o, &s),
			  -EINVAL, "unknown nonzero opts field");
	}
	return failures ? 1 : 0;
}
