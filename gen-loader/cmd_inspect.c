// SPDX-License-Identifier: GPL-2.0
/*
 * gen-loader inspect: what a header carries and who signed it, without a
 * key, as modinfo(8) shows a module's signer.  Nothing is verified: the
 * verdict is gen-loader verify's, with a certificate.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cmds.h"
#include "digest.h"
#include "err.h"
#include "file.h"
#include "info.h"
#include "libbpfsign.h"
#include "lskel.h"
#include "out.h"

enum { O_JSON, O_PRETTY };

static const struct opt inspect_opts[] = {
	[O_JSON] = { "json", 'j', NULL, "print the report as one JSON object" },
	[O_PRETTY] = { "pretty", 'p', NULL, "print it as indented JSON (implies --json)" },
};

/* The signature's fields, as bpfsign inspect names them (signer/info.c). */
static void out_signature(struct out *o, const struct lskel_block *sig,
			  const struct bpfsign_info *info, bool parsed)
{
	bool si = parsed && info->nr_signers > 0;

	out_int_or_null(o, "signature_size", sig->len, (long long)sig->len);
	out_sig_algs(o, info, si);
	out_str_or_null(o, "key_type", si ? info->key_type : NULL);
	out_signer_id(o, info, si);
	/* the digest of the key that verified it: no certificate here, so
	 * unknown (gen-loader verify --ca names it) */
	out_null(o, "key_sha256");
	out_kernel_form(o, info, sig->len);
}

/* 0, -ENODATA (unsigned), or the kernel's errno for the signature's form */
static int inspect_header(const char *path, const struct lskel *h, struct out *o)
{
	const struct lskel_block *sig = &h->r[R_SIGNATURE];
	__u8 digest[DIGEST_SIZE], d[DIGEST_SIZE];
	struct bpfsign_info info = { 0 };
	unsigned char *payload = NULL;
	size_t len = 0;
	bool parsed = false;
	int err, ret = 0;

	err = prog_digest(h->r[R_INSNS].buf, h->r[R_INSNS].len, digest);
	if (!err)
		err = lskel_payload(h, &payload, &len);
	if (err)
		return kit_err(err, "%s: %s", path, kit_last_error());
	if (!sig->len) {
		ret = kit_err(-ENODATA, "%s: unsigned: the header carries no signature", path);
	} else {
		err = bpfsign_inspect(sig->buf, sig->len, &info);
		parsed = !err;
		if (err)
			ret = kit_err(err, "%s: signature: %s", path, bpfsign_last_error());
		else if (!info.kernel_ok)
			ret = kit_err(info.kernel_err, "%s: signature: %s", path, info.reason);
	}

	out_lskel_id(o, path, h);
	out_lskel_sizes(o, h);
	out_int(o, "payload_size", (long long)len);
	out_hex(o, "insns_digest", digest, DIGEST_SIZE);
	if (h->r[R_EXCL_HASH].len) {
		out_hex(o, "excl_hash", h->r[R_EXCL_HASH].buf, h->r[R_EXCL_HASH].len);
		out_bool(o, "excl_hash_matches", h->r[R_EXCL_HASH].len == DIGEST_SIZE &&
			 !memcmp(digest, h->r[R_EXCL_HASH].buf, DIGEST_SIZE));
	} else {
		out_null(o, "excl_hash");
		out_null(o, "excl_hash_matches");
	}
	sha256(h->r[R_DATA].buf, h->r[R_DATA].len, d);
	out_hex(o, "data_sha256", d, DIGEST_SIZE);
	sha256(payload, len, d);
	out_hex(o, "payload_sha256", d, DIGEST_SIZE);
	free(payload);
	out_signature(o, sig, &info, parsed);
	/* no certificate: no verdict, and no subject to name the signer */
	out_null(o, "signer");
	out_null(o, "verdict");
	out_str(o, "error", bpfsign_errno_name(ret));
	out_int(o, "errno", -ret);
	out_str(o, "reason", ret ? kit_last_error() : "");
	return ret;
}

static int run_inspect(const struct cmd *cmd, const struct parsed *p)
{
	enum out_fmt fmt = out_fmt(p->val[O_JSON], p->val[O_PRETTY]);
	const char *path = p->args[0];
	unsigned char *text;
	struct lskel h;
	struct out o;
	size_t len;
	int err;

	(void)cmd;
	err = read_input(path, LSKEL_MAX_SIZE, &text, &len);
	if (!err) {
		err = lskel_parse(path, (const char *)text, len, &h);
		free(text);
		err = malformed_input(err);
	}
	if (err) {
		if (fmt != OUT_PLAIN)
			out_failure(&o, fmt, path, err, kit_last_error());
		return err;
	}
	out_begin(&o, stdout, fmt);
	err = inspect_header(path, &h, &o);
	out_end(&o);
	lskel_free(&h);
	return err;
}

static const struct exit_code inspect_exits[] = {
	{ 0, 0, "HEADER is signed, and its signature has the form the kernel takes" },
	{ EXIT_FAIL, ERR_ANY, "HEADER cannot be read" },
	{ EXIT_USAGE, ERR_NONE, "usage error" },
	{ EXIT_REJECTED, -EKEYREJECTED, "a kernel rule refuses the signature's form" },
	{ EXIT_MALFORMED, -EBADMSG, "HEADER is not a header gen-loader or bpftool wrote, or its signature\n     is malformed" },
	SIG_EXITS,
	{ EXIT_UNSIGNED, -ENODATA, "unsigned: the header carries no signature" },
	{ 0, 0, NULL },
};

const struct cmd cmd_inspect = {
	.prog = "gen-loader",
	.name = "inspect",
	.run = run_inspect,
	.summary = "Describe HEADER (\"-\": standard input) without a key, as modinfo shows a\n"
		   "module's signer: its name, format, sizes and hashes, and who signed it\n"
		   "(key id, or issuer and serial), with which digest and algorithm.  Nothing\n"
		   "is verified: that is gen-loader verify, with the signer's certificate.",
	.opts = inspect_opts,
	.nr_opts = ARRAY_SIZE(inspect_opts),
	.args = "HEADER",
	.min_args = 1,
	.max_args = 1,
	.exits = inspect_exits,
};
