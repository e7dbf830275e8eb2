// SPDX-License-Identifier: GPL-2.0
/* gen-loader attach: embed a signature made elsewhere into a header. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cmds.h"
#include "emit.h"
#include "err.h"
#include "file.h"

enum { O_SIG, O_CERT, O_CA, O_OUT };

static const struct opt attach_opts[] = {
	[O_SIG] = { "signature", 0, "SIG", "detached PKCS#7 (DER) over the header's payload, e.g. from bpfsign sign", true },
	[O_CERT] = { "cert", 0, "CERT", "the signer's certificate: the signature must verify with it", false, 1 },
	[O_CA] = { "ca", 0, "BUNDLE", "PEM certificates, as a kernel keyring: the signer is one of them", false, 1 },
	[O_OUT] = { "out", 'o', "FILE", "write the signed header here (default: replace HEADER)" },
};

static int run_attach(const struct cmd *cmd, const struct parsed *p)
{
	const char *path = p->args[0], *out = p->val[O_OUT] ? p->val[O_OUT] : path;
	unsigned char *text = NULL, *sig = NULL, *old_sig;
	size_t len, sig_len, old_len, new_len;
	struct lskel_block *b;
	struct verdict v;
	struct lskel h;
	char *blk = NULL, *buf = NULL;
	FILE *f;
	int err;

	(void)cmd;
	err = read_file(path, LSKEL_MAX_SIZE, &text, &len);
	if (err)
		return err;
	err = lskel_parse(path, (const char *)text, len, &h);
	if (err)
		goto out_text;
	err = read_file(p->val[O_SIG], BPFSIGN_MAX_SIG_SIZE, &sig, &sig_len);
	if (err)
		goto out;
	if (!sig_len) {
		err = kit_err(-EINVAL, "%s: empty signature", p->val[O_SIG]);
		goto out;
	}

	/* the header as it will be, checked before anything is written */
	b = &h.r[R_SIGNATURE];
	old_sig = b->buf;
	old_len = b->len;
	b->buf = sig;
	b->len = sig_len;
	err = check_header(p->val[O_SIG], &h, p->val[O_CERT], p->val[O_CA], &v);
	b->buf = old_sig;
	b->len = old_len;
	if (err)
		goto out;

	f = open_memstream(&blk, &new_len);
	if (!f) {
		err = kit_err(-ENOMEM, "%s: %s", path, strerror(ENOMEM));
		goto out;
	}
	emit_block(f, "signature", sig, sig_len);
	if (fclose(f)) {
		err = kit_err(-ENOMEM, "%s: %s", path, strerror(ENOMEM));
		goto out;
	}
	buf = malloc(b->begin + new_len + (len - b->end));
	if (!buf) {
		err = kit_err(-ENOMEM, "%s: %s", path, strerror(ENOMEM));
		goto out;
	}
	memcpy(buf, text, b->begin);
	memcpy(buf + b->begin, blk, new_len);
	memcpy(buf + b->begin + new_len, text + b->end, len - b->end);
	err = write_file(out, buf, b->begin + new_len + (len - b->end));
out:
	free(buf);
	free(blk);
	free(sig);
	lskel_free(&h);
out_text:
	free(text);
	return err;
}

static const struct exit_code attach_exits[] = {
	{ 0, 0, "the signature verifies and was embedded" },
	{ 1, ERR_ANY, "failed, as the message says: nothing written" },
	{ EXIT_USAGE, ERR_NONE, "usage error" },
	{ 3, -EKEYREJECTED, "the signature does not verify over the header's payload" },
	{ 4, -ENOEXEC, "HEADER is not a header gen-loader wrote (malformed, truncated)" },
	{ 0, 0, NULL },
};

const struct cmd cmd_attach = {
	.prog = "gen-loader",
	.name = "attach",
	.run = run_attach,
	.summary = "Embed a signature made elsewhere (split signing: gen-loader --payload-out,\n"
		   "then e.g. bpfsign sign on the key's host) after checking that it verifies\n"
		   "over the payload re-derived from HEADER.",
	.opts = attach_opts,
	.nr_opts = ARRAY_SIZE(attach_opts),
	.args = "HEADER",
	.min_args = 1,
	.max_args = 1,
	.exits = attach_exits,
};
