// SPDX-License-Identifier: GPL-2.0
/* bpfsign inspect: what a signature is made of, and whether the kernel takes it. */
#include <errno.h>
#include <stdlib.h>
#include <openssl/err.h>

#include "cmds.h"
#include "info.h"
#include "internal.h"

enum { O_JSON, O_PRETTY, O_CERT };

static const struct opt opts[] = {
	[O_JSON] = { .name = "json", .short_name = 'j',
		.help = "print the report as one JSON object" },
	[O_PRETTY] = { .name = "pretty", .short_name = 'p',
		.help = "print it as indented JSON (implies --json)" },
	[O_CERT] = { .name = "cert", .arg = "CERT",
		.help = "also print key_sha256, the SHA-256 of CERT's public key: the\n"
			"identity the kernel records for the key (fdinfo sig_key_sha256)\n"
			"and that 'key allow sha256:HEX' names; CERT must be the signer\n"
			"the SignerInfo names (key id, or issuer and serial), else exit 5" },
};

/* The codes of verify for the same bytes: inspect needs no key; 5 only for --cert. */
static const struct exit_code exits[] = {
	{ 0, 0, "the signature has the form the kernel takes" },
	{ EXIT_FAIL, ERR_ANY, "SIG or CERT cannot be read" },
	{ EXIT_USAGE, ERR_NONE, "usage error" },
	{ EXIT_REJECTED, -EKEYREJECTED, "a kernel rule refuses its form (signed attributes, S/MIME\n     capabilities, a repeated attribute)" },
	{ EXIT_MALFORMED, -EBADMSG, "malformed signature: neither OpenSSL nor the kernel's parser reads it;\n     CERT is not a certificate" },
	{ EXIT_NOKEY, -ENOKEY, "CERT is not the signer the signature names" },
	{ EXIT_NOPKG, -ENOPKG, "a digest or algorithm the kernel does not have" },
	{ EXIT_KPARSE, -EINVAL, "the kernel's parser refuses it (EINVAL): a version, content type or\n     size BPF_PROG_LOAD refuses" },
	{ 0, 0, NULL },
};

/* key_sha256 of the one certificate in path, into hex; the certificate in *out */
static int cert_key_sha256(const char *path, char hex[2 * 32 + 1], X509 **out)
{
	STACK_OF(X509) *certs = NULL;
	int err;

	err = bpfsign__load_certs(path, 1, &certs);
	/* not a certificate: the errno of exit 4 in every tool (vocab.h) */
	if (err == -EINVAL)
		err = kit_err(-EBADMSG, "%s", bpfsign_last_error());
	if (err)
		return err;
	err = bpfsign__key_sha256(sk_X509_value(certs, 0), hex);
	if (!err) {
		*out = sk_X509_value(certs, 0);
		X509_up_ref(*out);
	}
	sk_X509_pop_free(certs, X509_free);
	return err;
}

/*
 * The digest printed for --cert is a claim about the signer: CERT must be
 * the one the first SignerInfo names, as the kernel finds its key (subject
 * key identifier, or issuer and serial number).  A signature OpenSSL does
 * not read is left to inspect's own error.
 */
static int cert_is_signer(X509 *cert, const char *path, const unsigned char *sig, size_t len)
{
	const unsigned char *p = sig;
	STACK_OF(CMS_SignerInfo) *sis;
	CMS_ContentInfo *cms;
	int err = 0;

	ERR_set_mark();
	cms = d2i_CMS_ContentInfo(NULL, &p, (long)len);
	ERR_pop_to_mark();
	if (!cms)
		return 0;
	sis = CMS_get0_SignerInfos(cms);
	if (sis && sk_CMS_SignerInfo_num(sis) > 0 &&
	    CMS_SignerInfo_cert_cmp(sk_CMS_SignerInfo_value(sis, 0), cert))
		err = kit_err(-ENOKEY, "%s: not the signer the signature names (its subject key identifier, or issuer and serial number, differ)",
			      path);
	CMS_ContentInfo_free(cms);
	return err;
}

/*
 * Who signed, with what, and whether the kernel takes the form: no key is
 * needed, as modinfo(8) shows a module's signer.  A signature only the
 * kernel's parser would judge still gets the whole report (nulls where
 * nothing was parsed), with the errno verify gives for the same bytes.
 */
static int run(const struct cmd *cmd, const struct parsed *a)
{
	enum out_fmt fmt = out_fmt(a->val[O_JSON], a->val[O_PRETTY]);
	char key_sha256[2 * 32 + 1] = "";
	struct bpfsign_info info;
	X509 *cert = NULL;
	unsigned char *sig;
	struct out o;
	size_t len;
	int err, nerr = 0;

	(void)cmd;
	if (a->val[O_CERT]) {
		err = cert_key_sha256(a->val[O_CERT], key_sha256, &cert);
		if (err) {
			if (fmt != OUT_PLAIN)
				out_failure(&o, fmt, a->val[O_CERT], err, bpfsign_last_error());
			return err;
		}
	}
	err = read_input(a->args[0], BPFSIGN_MAX_SIG_SIZE, &sig, &len);
	if (err) {
		X509_free(cert);
		if (fmt != OUT_PLAIN)
			out_failure(&o, fmt, a->args[0], err, bpfsign_last_error());
		return err;
	}
	err = bpfsign_inspect(sig, len, &info);
	if (cert) {
		nerr = cert_is_signer(cert, a->val[O_CERT], sig, len);
		X509_free(cert);
	}
	free(sig);
	if (nerr) {
		/* its kit_err() stands; no key_sha256 for a certificate that did not sign */
		key_sha256[0] = 0;
		err = nerr;
	} else if (!err && !info.kernel_ok) {
		err = info.kernel_err;
		kit_err(err, "%s: %s", a->args[0], info.reason);
	} else if (err) {
		kit_err(err, "%s: %s", a->args[0], bpfsign_last_error());
	}
	out_begin(&o, stdout, fmt);
	/* the key's identity (--cert), not its key id: null without a cert */
	out_sig_report(&o, a->args[0], NULL, NULL, &info, key_sha256[0] ? key_sha256 : NULL,
		       err, err ? kit_last_error() : "");
	out_end(&o);
	return err;
}

const struct cmd cmd_inspect = {
	.prog = "bpfsign",
	.name = "inspect",
	.run = run,
	.summary = "Describe the signature SIG (\"-\": standard input) without a key, as\n"
		   "modinfo shows a module's signer: who signed (key id, or issuer and\n"
		   "serial), with which digest and algorithm, the sizes, and whether it has\n"
		   "the form the kernel takes (else the errno verify gives for it).",
	.opts = opts,
	.nr_opts = ARRAY_SIZE(opts),
	.args = "SIG",
	.min_args = 1,
	.max_args = 1,
	.exits = exits,
};
