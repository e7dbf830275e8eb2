// SPDX-License-Identifier: GPL-2.0
/* bpfsign sign: sign every payload, then write every signature. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "internal.h"

enum { O_KEY, O_CERT, O_DIGEST, O_OUT };

static const struct opt opts[] = {
	[O_KEY] = { .name = "key", .arg = "KEY",
		.help = "private key: PEM or DER file, or pkcs11: URI (PIN in BPFSIGN_PIN)",
		.required = true },
	[O_CERT] = { .name = "cert", .arg = "CERT",
		.help = "the key's X.509 certificate, PEM or DER", .required = true },
	[O_DIGEST] = { .name = "digest", .arg = "sha256|sha384|sha512",
		.help = "digest algorithm (default sha256)" },
	[O_OUT] = { .name = "out", .short_name = 'o', .arg = "SIG",
		.help = "signature file, for a single PAYLOAD (default PAYLOAD.p7s; \"-\": standard output)" },
};

static const struct exit_code exits[] = {
	{ 0, 0, "every signature was written" },
	{ EXIT_FAIL, ERR_ANY, "refused or failed, as the message says: nothing written" },
	{ EXIT_USAGE, ERR_NONE, "usage error" },
	{ 0, 0, NULL },
};

struct pending {
	const char *payload;
	char *dest;
	unsigned char *sig;
	size_t sig_len;
};

static char *dest_name(const char *out, const char *payload)
{
	size_t n = strlen(payload) + sizeof(".p7s");
	char *s;

	if (out)
		return strdup(out);
	/* standard input has no name to add .p7s to */
	if (!strcmp(payload, "-"))
		return strdup("-");
	s = malloc(n);
	if (s)
		snprintf(s, n, "%s.p7s", payload);
	return s;
}

static int sign_one(struct bpfsign_signer *s, struct pending *p,
		    const char *out)
{
	unsigned char *data;
	char why[256];
	size_t len;
	int err;

	err = read_input(p->payload, INT_MAX, &data, &len);
	if (err)
		return err;
	err = bpfsign_sign(s, data, len, &p->sig, &p->sig_len);
	free(data);
	if (err) {
		snprintf(why, sizeof(why), "%s", bpfsign_last_error());
		return kit_err(err, "%s: %s", p->payload, why);
	}
	p->dest = dest_name(out, p->payload);
	if (!p->dest)
		return kit_err(-ENOMEM, "%s: %s", p->payload,
			       strerror(ENOMEM));
	return 0;
}

/* An output that is an input (the payload, the key, the certificate) would
 * be replaced by the signature. */
static int check_dest(const struct parsed *a, const struct pending *p)
{
	const char *const in[] = { p->payload, a->val[O_KEY], a->val[O_CERT] };

	if (output_is_input(p->dest, in, ARRAY_SIZE(in)))
		return kit_err(-EINVAL, "%s: the output is an input, refusing to replace it",
			       p->dest);
	return 0;
}

static int run(const struct cmd *cmd, const struct parsed *a)
{
	struct bpfsign_signer *s = NULL;
	struct pending *p = NULL;
	struct file_out *f;
	int i, n, err;

	if (a->val[O_OUT] && a->nr_args > 1)
		return usage_error(cmd, "--out takes a single PAYLOAD");
	for (i = 0; i < a->nr_args; i++)
		if (!strcmp(a->args[i], "-") && a->nr_args > 1)
			return usage_error(cmd, "PAYLOAD \"-\" (standard input) is the only PAYLOAD");

	BPFSIGN_OPTS(bpfsign_sign_opts, sopts, .digest = a->val[O_DIGEST]);
	err = bpfsign_signer_load(a->val[O_KEY], a->val[O_CERT], &sopts, &s);
	if (err)
		return err;
	n = a->nr_args;
	p = calloc(n, sizeof(*p));
	if (!p) {
		err = kit_err(-ENOMEM, "sign: %s", strerror(ENOMEM));
		goto out;
	}
	/* All in memory first: a refused payload leaves no file at all. */
	for (i = 0; i < n && !err; i++) {
		p[i].payload = a->args[i];
		err = sign_one(s, &p[i], a->val[O_OUT]);
		if (!err)
			err = check_dest(a, &p[i]);
	}
	if (!err) {
		f = calloc(n, sizeof(*f));
		if (!f)
			err = kit_err(-ENOMEM, "sign: %s", strerror(ENOMEM));
		for (i = 0; f && i < n; i++)
			f[i] = (struct file_out){ p[i].dest, p[i].sig, p[i].sig_len };
		if (f)
			err = write_files(f, n);
		free(f);
	}
out:
	for (i = 0; p && i < n; i++) {
		free(p[i].dest);
		free(p[i].sig);
	}
	free(p);
	bpfsign_signer_free(s);
	return err;
}

const struct cmd cmd_sign = {
	.prog = "bpfsign",
	.name = "sign",
	.run = run,
	.summary = "Sign each PAYLOAD: a detached CMS signature, DER, no certificates,\n"
		   "no signed attributes, signer named by subject key identifier.\n"
		   "Several payloads are each signed to PAYLOAD.p7s.  PAYLOAD \"-\" is\n"
		   "standard input, signed to standard output unless --out names a file.",
	.opts = opts,
	.nr_opts = ARRAY_SIZE(opts),
	.args = "PAYLOAD...",
	.min_args = 1,
	.max_args = -1,
	.exits = exits,
};
