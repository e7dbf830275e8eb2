// SPDX-License-Identifier: GPL-2.0
/* bpfsign inspect: what a signature is made of, and whether the kernel takes it. */
#include <errno.h>
#include <stdlib.h>

#include "cmds.h"
#include "info.h"
#include "internal.h"

enum { O_JSON, O_CERT };

static const struct opt opts[] = {
	[O_JSON] = { .name = "json",
		.help = "print the report as one JSON object" },
	[O_CERT] = { .name = "cert", .arg = "CERT",
		.help = "also print key_sha256, the SHA-256 of CERT's public key: the\n"
			"identity the kernel records for the key (fdinfo sig_key_sha256)\n"
			"and that 'key allow sha256:HEX' names" },
};

static const struct exit_code exits[] = {
	{ 0, 0, "the signature has the form the kernel takes" },
	{ EXIT_FAIL, ERR_ANY, "SIG cannot be read" },
	{ EXIT_USAGE, ERR_NONE, "usage error" },
	{ EXIT_REJECTED, ERR_NONE, "the kernel refuses its form (see kernel_reason, kernel_errno)" },
	{ EXIT_MALFORMED, -EBADMSG, "malformed signature: neither OpenSSL nor the kernel's parser reads it" },
	{ 0, 0, NULL },
};

/* --json: a failure is still one JSON object, as bpftool's p_err() */
static int report_error(const struct parsed *a, int err)
{
	struct out o;

	if (a->val[O_JSON]) {
		out_begin(&o, stdout, true);
		out_str(&o, "signature", a->args[0]);
		out_error(&o, bpfsign_errno_name(err), err, bpfsign_last_error());
		out_end(&o);
	}
	return err;
}

/* key_sha256 of the one certificate in path, into hex */
static int cert_key_sha256(const char *path, char hex[2 * 32 + 1])
{
	STACK_OF(X509) *certs = NULL;
	int err;

	err = bpfsign__load_certs(path, 1, &certs);
	if (err)
		return err;
	err = bpfsign__key_sha256(sk_X509_value(certs, 0), hex);
	sk_X509_pop_free(certs, X509_free);
	return err;
}

static int run(const struct cmd *cmd, const struct parsed *a)
{
	char key_sha256[2 * 32 + 1] = "";
	struct bpfsign_info info;
	unsigned char *sig;
	struct out o;
	size_t len;
	int err;

	(void)cmd;
	if (a->val[O_CERT]) {
		err = cert_key_sha256(a->val[O_CERT], key_sha256);
		if (err)
			return report_error(a, err);
	}
	err = read_file(a->args[0], BPFSIGN_MAX_SIG_SIZE, &sig, &len);
	if (err)
		return report_error(a, err);
	err = bpfsign_inspect(sig, len, &info);
	free(sig);
	if (err)
		return report_error(a, err);

	out_begin(&o, stdout, a->val[O_JSON]);
	out_str(&o, "signature", a->args[0]);
	out_info(&o, &info);
	/* the key's identity (--cert), not its key id: null without a cert */
	if (key_sha256[0])
		out_str(&o, "key_sha256", key_sha256);
	else
		out_null(&o, "key_sha256");
	out_end(&o);
	return info.kernel_ok ? 0 : EXIT_REJECTED;
}

const struct cmd cmd_inspect = {
	.prog = "bpfsign",
	.name = "inspect",
	.run = run,
	.summary = "Describe the signature SIG: algorithms, signer key id, sizes, and\n"
		   "whether it has the form the kernel takes.",
	.opts = opts,
	.nr_opts = ARRAY_SIZE(opts),
	.args = "SIG",
	.min_args = 1,
	.max_args = 1,
	.exits = exits,
};
