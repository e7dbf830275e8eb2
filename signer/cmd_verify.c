// SPDX-License-Identifier: GPL-2.0
/* bpfsign verify: offline verification, with one exit code per failure. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "info.h"
#include "internal.h"

enum { O_CERT, O_CA, O_PAYLOAD, O_JSON, O_PRETTY };

static const struct opt opts[] = {
	[O_CERT] = { .name = "cert", .arg = "CERT",
		.help = "the signer's certificate, PEM or DER", .group = 1 },
	[O_CA] = { .name = "ca", .arg = "BUNDLE",
		.help = "PEM certificates, as a kernel keyring: the signer is one of them",
		.group = 1 },
	[O_PAYLOAD] = { .name = "payload", .arg = "FILE",
		.help = "the signed payload of every SIG (default: each SIG without .p7s; \"-\": standard input)" },
	[O_JSON] = { .name = "json", .short_name = 'j',
		.help = "print each report as one JSON object on one line" },
	[O_PRETTY] = { .name = "pretty", .short_name = 'p',
		.help = "print each report as indented JSON (implies --json)" },
};

static const struct exit_code exits[] = {
	{ 0, 0, "the signature verifies" },
	{ EXIT_FAIL, ERR_ANY, "an input file cannot be read" },
	{ EXIT_USAGE, ERR_NONE, "usage error" },
	{ EXIT_REJECTED, -EKEYREJECTED, "rejected: the signature does not verify with the key (payload or\n     signature altered), or a kernel rule refuses it (S/MIME capabilities)" },
	{ EXIT_MALFORMED, -EBADMSG, "malformed signature: not BER the kernel reads, truncated, not detached,\n     or an embedded certificate the kernel's X.509 parser refuses; CERT or\n     BUNDLE is not a certificate" },
	{ EXIT_NOKEY, -ENOKEY, "unknown signer: no given certificate is the signer or its issuer" },
	{ EXIT_NOPKG, -ENOPKG, "a digest or algorithm the kernel does not have (sha1; Ed25519, DSA,\n     P-224 or RSA-PSS in an embedded certificate)" },
	{ EXIT_KPARSE, -EINVAL, "the kernel's parser refuses it (EINVAL): a version other than 1 or 3,\n     not SignedData or pkcs7-data, no SignerInfo, or a size BPF_PROG_LOAD refuses;\n     a key the kernel cannot hold (RSA-2560), a bad ECDSA INTEGER" },
	{ EXIT_KPARSE, -E2BIG, "E2BIG: a payload over the kernel's bound of 16 MiB of signed bytes" },
	{ 0, 0, NULL },
};

static char *payload_name(const char *sig)
{
	size_t n = strlen(sig);

	if (n <= 4 || strcmp(sig + n - 4, ".p7s"))
		return NULL;
	return strndup(sig, n - 4);
}

/* --json: a failure without a report is still one JSON object */
static void report_error(const struct parsed *a, const char *sig, int err)
{
	enum out_fmt fmt = out_fmt(a->val[O_JSON], a->val[O_PRETTY]);
	struct out o;

	if (fmt != OUT_PLAIN)
		out_failure(&o, fmt, sig, err, bpfsign_last_error());
}

static int verify_one(const struct cmd *cmd, const struct parsed *a, const char *path,
		      const struct bpfsign_verifier *v)
{
	unsigned char *sig = NULL, *data = NULL;
	struct bpfsign_report rep;
	size_t sig_len, len;
	char *payload;
	struct out o;
	int err;

	payload = a->val[O_PAYLOAD] ? strdup(a->val[O_PAYLOAD]) : payload_name(path);
	if (!payload) {
		err = kit_err(-EINVAL, "%s: no .p7s suffix: give --payload", path);
		report_error(a, path, err);
		return a->nr_args == 1 ? usage_error(cmd, "%s", bpfsign_last_error()) : err;
	}
	err = read_input(path, BPFSIGN_MAX_SIG_SIZE, &sig, &sig_len);
	if (!err)
		err = read_input(payload, INT_MAX, &data, &len);
	if (!err) {
		err = bpfsign_verifier_verify(v, data, len, sig, sig_len, &rep);
		out_begin(&o, stdout, out_fmt(a->val[O_JSON], a->val[O_PRETTY]));
		out_sig_report(&o, path, payload, &rep, &rep.info,
			       rep.key_sha256[0] ? rep.key_sha256 : NULL, rep.err, rep.reason);
		out_end(&o);
	} else {
		/* an input that is not what it should be: not the kernel's EINVAL,
		 * the errno of exit 4 in every tool (vocab.h) */
		if (err == -EINVAL)
			err = kit_err(-EBADMSG, "%s", bpfsign_last_error());
		report_error(a, path, err);
	}
	free(sig);
	free(data);
	free(payload);
	return err;
}

/*
 * Every SIG against the same certificates, read once: a fleet's signatures
 * are one process.  The exit code is the worst failure's (exit_rank(),
 * vocab.h); each failure is also on stderr, one line each, the worst
 * again last, by main().
 */
static int run(const struct cmd *cmd, const struct parsed *a)
{
	const char *certs_name = a->val[O_CERT] ? a->val[O_CERT] : a->val[O_CA];
	struct bpfsign_verifier *v;
	int i, err, first = 0, failed = 0;
	char first_msg[512] = "";

	for (i = 0; i < a->nr_args; i++)
		if (!strcmp(a->args[i], "-") && (a->nr_args > 1 || !a->val[O_PAYLOAD]))
			return usage_error(cmd, "SIG \"-\" (standard input): one SIG, and --payload");
	/* standard input is read once: it is one file */
	if (a->val[O_PAYLOAD] && !strcmp(a->val[O_PAYLOAD], "-") &&
	    (a->nr_args > 1 || !strcmp(a->args[0], "-")))
		return usage_error(cmd, "--payload \"-\" (standard input): one SIG, not \"-\" too");

	err = bpfsign_verifier_load(a->val[O_CERT], a->val[O_CA], &v);
	if (err) {
		/* not a certificate: not the kernel parser's EINVAL, the errno
		 * of exit 4 in every tool (vocab.h) */
		if (err == -EINVAL)
			err = kit_err(-EBADMSG, "%s", bpfsign_last_error());
		report_error(a, certs_name, err);
		return err;
	}
	for (i = 0; i < a->nr_args; i++) {
		err = verify_one(cmd, a, a->args[i], v);
		if (err > 0) {		/* a usage error, printed */
			first = first ? first : err;
			break;
		}
		if (!err)
			continue;
		failed++;
		if (!first || exit_rank(exit_code(cmd, err)) > exit_rank(exit_code(cmd, first))) {
			first = err;
			snprintf(first_msg, sizeof(first_msg), "%s", bpfsign_last_error());
		}
		if (a->nr_args > 1)
			fprintf(stderr, "bpfsign verify: %s\n", bpfsign_last_error());
	}
	bpfsign_verifier_free(v);
	if (first < 0 && a->nr_args > 1)
		kit_err(first, "%d of %d signatures failed; the worst: %s", failed,
			a->nr_args, first_msg);
	else if (first < 0)
		kit_err(first, "%s", first_msg);
	return first;
}

const struct cmd cmd_verify = {
	.prog = "bpfsign",
	.name = "verify",
	.run = run,
	.summary = "Verify each detached signature SIG over its payload, offline, by the\n"
		   "kernel's rules, and report the signer and the form of the signature:\n"
		   "one report per SIG (one JSON object per line with --json).  SIG \"-\"\n"
		   "is standard input.  With several SIG, the exit status is the worst\n"
		   "failure's: 3 over 5, 6, 7, 4 over 1 (bpfsign(1) EXIT STATUS).",
	.opts = opts,
	.nr_opts = ARRAY_SIZE(opts),
	.args = "SIG...",
	.min_args = 1,
	.max_args = -1,
	.exits = exits,
};
