// SPDX-License-Identifier: GPL-2.0
/* The offline audit of a header: the same checks, in the kernel's terms. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "err.h"

static bool is_verdict(int err)
{
	return err == -EKEYREJECTED || err == -EBADMSG || err == -ENOKEY || err == -ENOPKG;
}

static int reject(struct verdict *v, const char *path, const char *fmt, const char *detail)
{
	snprintf(v->reason, sizeof(v->reason), fmt, detail);
	return kit_err(-EKEYREJECTED, "%s: rejected: %s", path, v->reason);
}

int check_header(const char *path, const struct lskel *h, const char *cert,
		 const char *ca, struct verdict *v)
{
	const struct lskel_block *sig = &h->r[R_SIGNATURE];
	unsigned char *payload;
	size_t len;
	int err;

	memset(v, 0, sizeof(*v));
	err = prog_digest(h->r[R_INSNS].buf, h->r[R_INSNS].len, v->digest);
	if (err)
		return err;
	v->excl_ok = !memcmp(v->digest, h->r[R_EXCL_HASH].buf, DIGEST_SIZE);
	sha256(h->r[R_DATA].buf, h->r[R_DATA].len, v->data_sha);
	err = lskel_payload(h, &payload, &len);
	if (err)
		return err;
	sha256(payload, len, v->payload_sha);
	v->payload_sz = len;

	v->signed_ = sig->len > 0;
	if (!v->signed_) {
		free(payload);
		return reject(v, path, "%sthe header is unsigned (sign its payload and run gen-loader attach)",
			      v->excl_ok ? "" : "excl_hash is not the loader's digest, and ");
	}
	v->sig_err = bpfsign_verify(payload, len, sig->buf, sig->len, cert, ca, &v->rep);
	free(payload);
	if (v->sig_err && !is_verdict(v->sig_err))
		return kit_err(v->sig_err, "%s", bpfsign_last_error());

	/* Which region was altered: the exclusive hash is not signed, the insns
	 * are signed and hashed, the metadata and the signature are signed.
	 */
	if (!v->sig_err && !v->excl_ok)
		return reject(v, path, "excl_hash: not SHA-256 of the signed loader instructions; the exclusive hash was altered%s",
			      " (the kernel refuses the metadata map: EACCES)");
	if (v->sig_err && !v->excl_ok)
		return reject(v, path, "insns: the loader instructions were altered: their digest is not excl_hash and the signature does not verify%s",
			      "");
	switch (v->sig_err) {
	case 0:
		v->verified = true;
		return 0;
	case -EKEYREJECTED:
		return reject(v, path, "signature does not verify over insns || data: the metadata or the signature was altered (%s)",
			      v->rep.reason);
	case -EBADMSG:
		return reject(v, path, "signature: malformed PKCS#7 (%s)", v->rep.reason);
	case -ENOKEY:
		return reject(v, path, "signature: made by another key than the certificate's (%s)",
			      v->rep.reason);
	default:
		return reject(v, path, "signature: refused algorithm or key type (%s)", v->rep.reason);
	}
}

static void hex(char *out, size_t outsz, const unsigned char *p, size_t n)
{
	size_t i;

	out[0] = '\0';
	for (i = 0; i < n && 2 * i + 2 < outsz; i++)
		snprintf(out + 2 * i, 3, "%02x", p[i]);
}

void check_report(struct out *o, const char *path, const struct lskel *h,
		  const struct verdict *v)
{
	const struct bpfsign_info *info = &v->rep.info;
	char d[2 * DIGEST_SIZE + 1], keyid[2 * BPFSIGN_KEYID_MAX + 1];

	out_str(o, "header", path);
	out_str(o, "name", h->name);
	out_int(o, "format", h->format);
	out_int(o, "keyring_id", h->keyring_id);
	out_int(o, "insns_size", (long long)h->r[R_INSNS].len);
	out_int(o, "data_size", (long long)h->r[R_DATA].len);
	out_int(o, "payload_size", (long long)v->payload_sz);
	out_int(o, "signature_size", (long long)h->r[R_SIGNATURE].len);
	hex_digest(v->digest, d);
	out_str(o, "insns_digest", d);
	hex(d, sizeof(d), h->r[R_EXCL_HASH].buf, h->r[R_EXCL_HASH].len);
	out_str(o, "excl_hash", d);
	out_bool(o, "excl_hash_matches", v->excl_ok);
	hex_digest(v->data_sha, d);
	out_str(o, "data_sha256", d);
	hex_digest(v->payload_sha, d);
	out_str(o, "payload_sha256", d);
	if (v->signed_) {
		out_str(o, "signature_digest", info->digest);
		out_str(o, "signature_algorithm", info->sig_alg);
		if (info->id_type == BPFSIGN_ID_KEYID) {
			hex(keyid, sizeof(keyid), info->keyid, info->keyid_len);
			out_str(o, "signer_key_id", keyid);
		} else {
			out_str(o, "signer_key_id", "");
		}
		out_str(o, "signer", v->rep.signer);
		out_str(o, "signature_check", bpfsign_errno_name(v->sig_err));
	}
	out_str(o, "verdict", v->verified ? "verified" : v->signed_ ? "rejected" : "unsigned");
	out_str(o, "reason", v->verified ? "" : v->reason);
}
