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
	unsigned char *text = NULL, *sig = NULL;
	struct skel_parts parts = { 0 };
	size_t len, sig_len, new_len;
	struct bpfsign_verifier *vf = NULL;
	struct verdict v;
	struct lskel h, signed_h;
	char *buf = NULL;
	int err;

	/* replacing HEADER is the default; any other input would be lost */
	if (output_is_input(out, (const char *const[]){ p->val[O_SIG], p->val[O_CERT], p->val[O_CA] },
			    3))
		return usage_error(cmd, "%s: the output is an input", out);
	err = read_file(path, LSKEL_MAX_SIZE, &text, &len);
	if (err)
		return err;
	err = lskel_parse(path, (const char *)text, len, &h);
	if (err) {
		err = malformed_input(err);
		goto out_text;
	}
	if (h.generator != LSKEL_GEN_GEN_LOADER) {
		err = kit_err(-ENOEXEC, "%s: a bpftool light skeleton: attach writes gen-loader headers (sign with bpftool gen skeleton -S)",
			      path);
		goto out;
	}
	err = read_file(p->val[O_SIG], BPFSIGN_MAX_SIG_SIZE, &sig, &sig_len);
	if (err)
		goto out;
	if (!sig_len) {
		err = kit_err(-EINVAL, "%s: empty signature", p->val[O_SIG]);
		goto out;
	}

	/* the certificates, read once for both checks */
	err = bpfsign_verifier_load(p->val[O_CERT], p->val[O_CA], &vf);
	if (err) {
		kit_err(err, "%s", bpfsign_last_error());
		/* not a certificate: not the kernel parser's EINVAL (vocab.h) */
		err = malformed_input(err);
		goto out;
	}
	/* refuse to sign a header that is not what gen-loader wrote */
	err = check_header(path, (const char *)text, len, &h, vf, &v);
	/* unsigned, or signed by another key: a verdict, the new one replaces it */
	if (v.modified || (err && !v.judged))
		goto out;
	parts.format = h.format;
	parts.name = h.name;
	parts.keyring_id = h.keyring_id;
	parts.insns = h.r[R_INSNS].buf;
	parts.insns_sz = h.r[R_INSNS].len;
	parts.data = h.r[R_DATA].buf;
	parts.data_sz = h.r[R_DATA].len;
	parts.excl_hash = h.r[R_EXCL_HASH].buf;
	parts.sig = sig;
	parts.sig_sz = sig_len;
	/* format 2: the unsigned C after the arrays, as audited */
	if (h.format == LSKEL_FORMAT_NO_TRAILER) {
		parts.c = (const char *)text + v.c_off;
		parts.c_len = len - v.c_off;
	}
	/* the header as it will be, checked before anything is written */
	err = emit_header(&parts, &buf, &new_len);
	if (!err)
		err = lskel_parse(out, buf, new_len, &signed_h);
	if (!err) {
		err = check_header(p->val[O_SIG], buf, new_len, &signed_h, vf, &v);
		lskel_free(&signed_h);
	}
	if (!err)
		err = write_file(out, buf, new_len);
out:
	bpfsign_verifier_free(vf);
	free(buf);
	free(sig);
	lskel_free(&h);
out_text:
	free(text);
	return err;
}

static const struct exit_code attach_exits[] = {
	{ 0, 0, "the signature verifies and was embedded" },
	{ EXIT_FAIL, ERR_ANY, "failed, as the message says: nothing written" },
	{ EXIT_USAGE, ERR_NONE, "usage error" },
	{ EXIT_REJECTED, -EKEYREJECTED, "the signature does not verify over the header's payload, or HEADER is\n     not what gen-loader writes for its arrays (modified)" },
	{ EXIT_MALFORMED, -EBADMSG, "HEADER is not a header gen-loader wrote (malformed, truncated), the\n     signature is malformed, or CERT or BUNDLE is not a certificate" },
	{ EXIT_MALFORMED, -ENOEXEC, "HEADER is bpftool's: attach writes gen-loader headers" },
	SIG_EXITS,
	{ 0, 0, NULL },
};

const struct cmd cmd_attach = {
	.prog = "gen-loader",
	.name = "attach",
	.run = run_attach,
	.summary = "Embed a signature made elsewhere (split signing: gen-loader --payload-out,\n"
		   "then e.g. bpfsign sign on the key's host) after checking that it verifies\n"
		   "over the payload re-derived from HEADER.  The payload carries the\n"
		   "header's C: a signer signs C that whoever made the payload wrote;\n"
		   "regenerate the payload from the object before signing it.",
	.opts = attach_opts,
	.nr_opts = ARRAY_SIZE(attach_opts),
	.args = "HEADER",
	.min_args = 1,
	.max_args = 1,
	.exits = attach_exits,
};
