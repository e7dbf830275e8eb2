// SPDX-License-Identifier: GPL-2.0
/* gen-loader verify: audit a signed light skeleton offline. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "cmds.h"
#include "err.h"
#include "file.h"

enum { O_CERT, O_CA, O_JSON };

static const struct opt verify_opts[] = {
	[O_CERT] = { "cert", 0, "CERT", "the signer's certificate, PEM or DER", false, 1 },
	[O_CA] = { "ca", 0, "BUNDLE", "PEM certificates, as a kernel keyring: the signer is one of them", false, 1 },
	[O_JSON] = { "json", 0, NULL, "print the report as one JSON object" },
};

static int run_verify(const struct cmd *cmd, const struct parsed *p)
{
	const char *path = p->args[0];
	unsigned char *text;
	struct verdict v;
	struct lskel h;
	struct out o;
	size_t len;
	int err;

	(void)cmd;
	err = read_file(path, LSKEL_MAX_SIZE, &text, &len);
	if (err)
		return err;
	err = lskel_parse(path, (const char *)text, len, &h);
	if (err) {
		free(text);
		if (p->val[O_JSON]) {
			out_begin(&o, stdout, true);
			out_str(&o, "header", path);
			out_str(&o, "verdict", "malformed");
			out_str(&o, "reason", kit_last_error());
			out_end(&o);
		}
		return err;
	}
	err = check_header(path, (const char *)text, len, &h, p->val[O_CERT], p->val[O_CA], &v);
	free(text);
	if (!err || err == -EKEYREJECTED) {
		out_begin(&o, stdout, p->val[O_JSON] != NULL);
		check_report(&o, path, &h, &v);
		out_end(&o);
	}
	lskel_free(&h);
	return err;
}

static const struct exit_code verify_exits[] = {
	{ 0, 0, "the header verifies" },
	{ 1, ERR_ANY, "failed, as the message says (an unreadable file or certificate)" },
	{ EXIT_USAGE, ERR_NONE, "usage error" },
	{ 3, -EKEYREJECTED, "rejected or modified: a region was altered, another key signed it, or\n     the text is not what gen-loader writes for its arrays" },
	{ 4, -ENOEXEC, "HEADER is not a header gen-loader wrote (malformed, truncated)" },
	{ 0, 0, NULL },
};

const struct cmd cmd_verify = {
	.prog = "gen-loader",
	.name = "verify",
	.run = run_verify,
	.summary = "Audit HEADER offline, as compiled: re-emit it from the arrays, name and\n"
		   "keyring it carries and compare byte for byte (else the verdict is modified),\n"
		   "rebuild insns || metadata, check that excl_hash is the loader's digest\n"
		   "(SHA-256 of insns) and verify the signature.",
	.opts = verify_opts,
	.nr_opts = ARRAY_SIZE(verify_opts),
	.args = "HEADER",
	.min_args = 1,
	.max_args = 1,
	.exits = verify_exits,
};
