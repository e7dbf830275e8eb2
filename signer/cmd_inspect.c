// SPDX-License-Identifier: GPL-2.0
/* bpfsign inspect: what a signature is made of, and whether the kernel takes it. */
#include <errno.h>
#include <stdlib.h>

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
			"and that 'key allow sha256:HEX' names" },
};

/* The codes of verify for the same bytes: inspect needs no key, so no 5. */
static const struct exit_code exits[] = {
	{ 0, 0, "the signature has the form the kernel takes" },
	{ EXIT_FAIL, ERR_ANY, "SIG or CERT cannot be read" },
	{ EXIT_USAGE, ERR_NONE, "usage error" },
	{ EXIT_REJECTED, -EKEYREJECTED, "a kernel rule refuses its form (S/MIME capabilities, a repeated\n     attribute)" },
	{ EXIT_MALFORMED, -EBADMSG, "malformed signature: neither OpenSSL nor the kernel's parser reads it;\n     CERT is not a certificate" },
	{ EXIT_NOPKG, -ENOPKG, "a digest or algorithm the kernel does not have" },
	{ EXIT_KPARSE, -EINVAL, "the kernel's parser refuses it (EINVAL): a version, content type or\n     size BPF_PROG_LOAD refuses" },
	{ 0, 0, NULL },
};

/* key_sha256 of the one certificate in path, into hex */
static int cert_key_sha256(const char *path, char hex[2 * 32 + 1])
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
	sk_X509_pop_free(certs, X509_free);
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
	unsigned char *sig;
	struct out o;
	size_t len;
	int err;

	(void)cmd;
	if (a->val[O_CERT]) {
		err = cert_key_sha256(a->val[O_CERT], key_sha256);
		if (err) {
			if (fmt != OUT_PLAIN)
				out_failure(&o, fmt, a->val[O_CERT], err, bpfsign_last_error());
			return err;
		}
	}
	err = read_input(a->args[0], BPFSIGN_MAX_SIG_SIZE, &sig, &len);
	if (err) {
		if (fmt != OUT_PLAIN)
			out_failure(&o, fmt, a->args[0], err, bpfsign_last_error());
		return err;
	}
	err = bpfsign_inspect(sig, len, &info);
	free(sig);
	if (!err && !info.kernel_ok) {
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
