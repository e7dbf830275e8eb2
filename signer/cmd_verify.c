// SPDX-License-Identifier: GPL-2.0
/* bpfsign verify: offline verification, with one exit code per failure. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "info.h"
#include "internal.h"

enum { O_CERT, O_CA, O_PAYLOAD, O_JSON };

static const struct opt opts[] = {
	[O_CERT] = { .name = "cert", .arg = "CERT",
		.help = "the signer's certificate, PEM or DER", .group = 1 },
	[O_CA] = { .name = "ca", .arg = "BUNDLE",
		.help = "PEM certificates, as a kernel keyring: the signer is one of them",
		.group = 1 },
	[O_PAYLOAD] = { .name = "payload", .arg = "FILE",
		.help = "the signed payload (default: SIG without .p7s)" },
	[O_JSON] = { .name = "json",
		.help = "print the report as one JSON object" },
};

static const struct exit_code exits[] = {
	{ 0, 0, "the signature verifies" },
	{ 1, -EKEYREJECTED, "rejected: the signature does not verify with the key (payload or\n     signature altered), or a kernel rule refuses it (S/MIME capabilities)" },
	{ EXIT_USAGE, ERR_NONE, "usage error" },
	{ 3, -ENOKEY, "unknown signer: no given certificate is the signer or its issuer" },
	{ 4, -ENOPKG, "a digest or algorithm the kernel does not have (sha1)" },
	{ 5, -EBADMSG, "malformed signature: not BER the kernel reads, truncated, not detached" },
	{ 6, ERR_ANY, "an input file cannot be read, or is not a certificate" },
	{ 7, -EINVAL, "the kernel's parser refuses it (EINVAL): a version other than 1 or 3,\n     not SignedData or pkcs7-data, no SignerInfo, or a size BPF_PROG_LOAD refuses" },
	{ 0, 0, NULL },
};

static char *payload_name(const char *sig)
{
	size_t n = strlen(sig);

	if (n <= 4 || strcmp(sig + n - 4, ".p7s"))
		return NULL;
	return strndup(sig, n - 4);
}

static void report(const struct parsed *a, const char *payload,
		   const struct bpfsign_report *rep)
{
	struct out o;

	out_begin(&o, stdout, a->val[O_JSON]);
	out_str(&o, "signature", a->args[0]);
	out_str(&o, "payload", payload);
	out_bool(&o, "verified", rep->verified);
	out_str(&o, "error", bpfsign_errno_name(rep->err));
	out_str(&o, "reason", rep->reason);
	out_str(&o, "signer", rep->signer);
	out_info(&o, &rep->info);
	out_end(&o);
}

static int run(const struct cmd *cmd, const struct parsed *a)
{
	unsigned char *sig = NULL, *data = NULL;
	struct bpfsign_report rep;
	size_t sig_len, len;
	char *payload;
	int err;

	payload = a->val[O_PAYLOAD] ? strdup(a->val[O_PAYLOAD]) :
				      payload_name(a->args[0]);
	if (!payload)
		return usage_error(cmd, "%s: no .p7s suffix: give --payload",
				   a->args[0]);

	err = read_file(a->args[0], BPFSIGN_MAX_SIG_SIZE, &sig, &sig_len);
	if (!err)
		err = read_file(payload, INT_MAX, &data, &len);
	if (!err) {
		err = bpfsign_verify(data, len, sig, sig_len, a->val[O_CERT],
				     a->val[O_CA], &rep);
		if (rep.checked)
			report(a, payload, &rep);
		/* EINVAL before the kernel's rules ran: not a certificate file */
		else if (err == -EINVAL)
			err = -ENOEXEC;
	}
	free(sig);
	free(data);
	free(payload);
	return err;
}

const struct cmd cmd_verify = {
	.prog = "bpfsign",
	.name = "verify",
	.run = run,
	.summary = "Verify the detached signature SIG over its payload, offline, and\n"
		   "report the signer and the form of the signature.",
	.opts = opts,
	.nr_opts = ARRAY_SIZE(opts),
	.args = "SIG",
	.min_args = 1,
	.max_args = 1,
	.exits = exits,
};
