// SPDX-License-Identifier: GPL-2.0
/* The offline audit of a header: the same checks, in the kernel's terms. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpftool_skel.h"
#include "check.h"
#include "emit.h"
#include "err.h"
#include "hex.h"
#include "info.h"
#include "tail_audit.h"
#include "trailer.h"

#define SHOW_MAX 48	/* bytes of a line quoted in a message */

/* err: the errno bpfsign verify gives for the same signature (vocab.h) */
static int reject_err(struct verdict *v, const char *path, int err, const char *fmt,
		      const char *detail)
{
	snprintf(v->reason, sizeof(v->reason), fmt, detail);
	return kit_err(err, "%s: %s: %s", path, err == -ENODATA ? "unsigned" : "rejected",
		       v->reason);
}

static int reject(struct verdict *v, const char *path, const char *fmt, const char *detail)
{
	return reject_err(v, path, -EKEYREJECTED, fmt, detail);
}

/* At most SHOW_MAX bytes of s[0..n) as printable ASCII, others as \\xHH. */
static void quote(char *out, size_t outsz, const char *s, size_t n)
{
	size_t i, o = 0;

	for (i = 0; i < n && i < SHOW_MAX && o + 5 < outsz; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			out[o++] = (char)c;
		else
			o += (size_t)snprintf(out + o, outsz - o, "\\x%02x", c);
	}
	if (i < n && o + 4 < outsz)
		o += (size_t)snprintf(out + o, outsz - o, "...");
	out[o] = '\0';
}

static size_t line_len(const char *s, size_t left)
{
	const char *nl = memchr(s, '\n', left);

	return nl ? (size_t)(nl - s) : left;
}

/* The first line where text is not want, in v->reason; false if none. */
static bool first_diff(struct verdict *v, const char *text, size_t len,
		       const char *want, size_t want_len)
{
	size_t i = 0, j = 0, a, b, lineno = 1;
	char got[4 * SHOW_MAX + 8], exp[4 * SHOW_MAX + 8];

	if (len == want_len && !memcmp(text, want, len))
		return false;
	for (;;) {
		a = line_len(text + i, len - i);
		b = line_len(want + j, want_len - j);
		if (i == len || j == want_len || a != b || memcmp(text + i, want + j, a) ||
		    (i + a < len) != (j + b < want_len))
			break;
		i += a + 1;
		j += b + 1;
		lineno++;
	}
	quote(got, sizeof(got), text + i, a);
	quote(exp, sizeof(exp), want + j, b);
	if (i >= len)
		snprintf(v->reason, sizeof(v->reason),
			 "line %zu: the header ends where gen-loader writes '%s'", lineno, exp);
	else if (j >= want_len)
		snprintf(v->reason, sizeof(v->reason),
			 "line %zu: '%s' after the end of what gen-loader writes", lineno, got);
	else
		snprintf(v->reason, sizeof(v->reason),
			 "line %zu: the header has '%s', gen-loader writes '%s'", lineno, got, exp);
	v->modified_line = lineno;
	return true;
}

/*
 * Format 2: the header up to the end of the arrays is what gen-loader
 * writes for them (want[0..want_len), re-emitted without C), and the C
 * after them, which no signature covers, passes tail_audit().
 */
static void check_no_trailer(struct verdict *v, const char *text, size_t len,
			     const struct lskel *h, const char *want, size_t want_len)
{
	size_t i, first = 1;

	v->modified = first_diff(v, text, len < want_len ? len : want_len, want, want_len);
	if (v->modified)
		return;
	for (i = 0; i < want_len; i++)
		first += want[i] == '\n';
	v->c_off = want_len;
	v->modified = tail_audit(text + want_len, len - want_len, h->name, h->r[R_DATA].len,
				 first, v->reason, sizeof(v->reason), &v->modified_line);
}

/*
 * Format 1: the C after the arrays is re-emitted from the signed metadata,
 * but whoever made the payload a signer signed (--payload-out handed to a
 * signing service) wrote that C, and the object it should come from is not
 * here (--object).  The structure check of format 2's unsigned C runs on it
 * too: it only ever refuses, and a header that passes is "verified" as the
 * signer's C, which the report says.  text[0..len) is the re-emitted header,
 * ending with tail[0..tail_len).
 */
static void check_signed_tail(struct verdict *v, const char *text, size_t len,
			      const struct lskel *h, const char *tail, size_t tail_len)
{
	size_t i, off = len - tail_len, first = 1, skip = 0;
	int k;

	/* the keyring's #define and a blank line: a line of the prologue in format 2 */
	if (v->keyring_signed && !emit_tail_keyring(h->name, tail, tail_len, &k))
		skip = (size_t)((const char *)memchr(tail, '\n', tail_len) - tail) + 2;
	for (i = 0; i < off + skip; i++)
		first += text[i] == '\n';
	v->modified = tail_audit(text + off + skip, tail_len - skip, h->name, h->r[R_DATA].len,
				 first, v->reason, sizeof(v->reason), &v->modified_line);
}

/*
 * Is text what gen-loader writes for the arrays, name and keyring it
 * carries?  Sets v->modified and v->reason when it is not.
 */
static int check_reemit(struct verdict *v, const char *text, size_t len,
			const struct lskel *h)
{
	struct skel_parts parts = {
		.format = h->format,
		.name = h->name,
		.keyring_id = h->keyring_id,
		.insns = h->r[R_INSNS].buf,
		.insns_sz = h->r[R_INSNS].len,
		.data = h->r[R_DATA].buf,
		.data_sz = h->r[R_DATA].len,
		.excl_hash = h->r[R_EXCL_HASH].buf,
		.sig = h->r[R_SIGNATURE].len ? h->r[R_SIGNATURE].buf : NULL,
		.sig_sz = h->r[R_SIGNATURE].len,
	};

	const char *tail = NULL;
	size_t tail_len, blob_sz;
	char *want;
	size_t want_len;
	int err;

	/* format 1: the keyring of the prologue is re-emitted from the signed C */
	if (h->format == LSKEL_FORMAT_TRAILER &&
	    !trailer_find(parts.data, parts.data_sz, &tail, &tail_len, &blob_sz)) {
		if (!emit_tail_keyring(h->name, tail, tail_len, &parts.keyring_id))
			v->keyring_signed = true;
		else
			v->unsigned_part = "the default keyring id: its #define is in the prologue, not in the signed C (a header of gen-loader 1.0: regenerate it)";
	}
	err = emit_header(&parts, &want, &want_len);
	if (err == -ENOEXEC) {
		/* no C in the metadata: not a header this gen-loader writes */
		v->no_tail = true;
		snprintf(v->reason, sizeof(v->reason), "%s", kit_last_error());
		return 0;
	}
	if (err)
		return err;
	if (h->format == LSKEL_FORMAT_NO_TRAILER)
		check_no_trailer(v, text, len, h, want, want_len);
	else
		v->modified = first_diff(v, text, len, want, want_len);
	free(want);
	if (!v->modified && h->format == LSKEL_FORMAT_TRAILER)
		check_signed_tail(v, text, len, h, tail, tail_len);
	return 0;
}

static int audit_header(const char *path, const char *text, size_t text_len,
			const struct lskel *h, const struct bpfsign_verifier *vf,
			struct verdict *v)
{
	const struct lskel_block *sig = &h->r[R_SIGNATURE];
	unsigned char *payload;
	size_t len;
	int err = 0;

	memset(v, 0, sizeof(*v));
	/* what no signature covers and nothing signed re-emits: never "verified" */
	if (h->generator == LSKEL_GEN_BPFTOOL)
		v->unsigned_part = UNSIGNED_BPFTOOL;
	else if (h->format == LSKEL_FORMAT_NO_TRAILER)
		v->unsigned_part = UNSIGNED_NO_TRAILER;
	/*
	 * Data that ends with gen-loader's trailer carries the signed C of a
	 * format 1 header: relabelled format 2 (or put in bpftool's C), the
	 * signature still verifies and the C beside it is the editor's.  The
	 * auditor holds the signed C the header should have: modified.
	 */
	if ((h->generator == LSKEL_GEN_BPFTOOL || h->format == LSKEL_FORMAT_NO_TRAILER) &&
	    h->r[R_DATA].len >= TRAILER_SZ &&
	    !memcmp(h->r[R_DATA].buf + h->r[R_DATA].len - (sizeof(TRAILER_MAGIC) - 1),
		    TRAILER_MAGIC, sizeof(TRAILER_MAGIC) - 1)) {
		v->modified = true;
		snprintf(v->reason, sizeof(v->reason),
			 "%s, but its signed data ends with gen-loader's %s trailer: the payload of a format 1 header, whose signed C is not this header's (regenerate it, or audit it as format 1)",
			 h->generator == LSKEL_GEN_BPFTOOL ? "a bpftool header" : "format 2",
			 TRAILER_MAGIC);
		return kit_err(-EKEYREJECTED, "%s: modified: %s", path, v->reason);
	}
	/* the structure checks only ever refuse: a C lexer lags the compiler */
	if (h->generator == LSKEL_GEN_BPFTOOL)
		v->modified = bpftool_skel_modified(text, text_len, h, v->reason,
						    sizeof(v->reason), &v->modified_line);
	else
		err = check_reemit(v, text, text_len, h);
	if (err)
		return err;
	if (v->modified)
		return kit_err(-EKEYREJECTED, "%s: modified: %s", path, v->reason);
	err = prog_digest(h->r[R_INSNS].buf, h->r[R_INSNS].len, v->digest);
	if (err)
		return err;
	/* an unsigned bpftool header has no exclusive hash */
	v->excl_ok = h->r[R_EXCL_HASH].len == DIGEST_SIZE &&
		     !memcmp(v->digest, h->r[R_EXCL_HASH].buf, DIGEST_SIZE);
	sha256(h->r[R_DATA].buf, h->r[R_DATA].len, v->data_sha);
	err = lskel_payload(h, &payload, &len);
	if (err)
		return err;
	sha256(payload, len, v->payload_sha);
	v->payload_sz = len;
	v->hashed = true;

	v->signed_ = sig->len > 0;
	if (!v->signed_ && h->generator == LSKEL_GEN_BPFTOOL) {
		free(payload);
		return reject_err(v, path, -ENODATA, "%sthe header is unsigned (bpftool gen skeleton -L without -S)", "");
	}
	if (!v->signed_) {
		free(payload);
		return reject_err(v, path, -ENODATA, "%sthe header is unsigned (sign its payload and run gen-loader attach)",
				  v->excl_ok ? "" : "excl_hash is not the loader's digest, and ");
	}
	v->sig_err = bpfsign_verifier_verify(vf, payload, len, sig->buf, sig->len, &v->rep);
	free(payload);
	/* the kernel's rules did not run: bad arguments */
	if (v->sig_err && !v->rep.checked)
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
		if (v->no_tail) {
			v->modified = true;
			return kit_err(-EKEYREJECTED, "%s: modified: %s", path, v->reason);
		}
		if (v->unsigned_part)
			v->arrays_verified = true;
		else
			v->verified = true;
		return 0;
	case -EKEYREJECTED:
		return reject(v, path, "signature does not verify over insns || data: the metadata or the signature was altered (%s)",
			      v->rep.reason);
	/* the errno bpfsign verify gives for this signature and certificate */
	case -EBADMSG:
		return reject_err(v, path, v->sig_err, "signature: malformed PKCS#7 (%s)", v->rep.reason);
	case -ENOKEY:
		return reject_err(v, path, v->sig_err,
				  "signature: made by another key than the certificate's (%s)",
				  v->rep.reason);
	case -EINVAL:
	case -E2BIG:
		return reject_err(v, path, v->sig_err, "signature: the kernel's parser refuses it (%s)",
				  v->rep.reason);
	case -ENOPKG:
		return reject_err(v, path, v->sig_err, "signature: refused algorithm or key type (%s)",
				  v->rep.reason);
	default:
		return reject(v, path, "signature: refused algorithm or key type (%s)", v->rep.reason);
	}
}

int check_header(const char *path, const char *text, size_t text_len,
		 const struct lskel *h, const struct bpfsign_verifier *vf,
		 struct verdict *v)
{
	int err = audit_header(path, text, text_len, h, vf, v);

	/* a verdict names its reason; out of memory or bad arguments do not */
	v->judged = !err || v->modified || v->reason[0];
	v->err = v->judged ? err : 0;
	return err;
}

int check_object(struct verdict *v, const char *path, const char *obj, const char *text,
		 size_t len, const char *want, size_t want_len)
{
	v->verified = v->arrays_verified = false;
	if (first_diff(v, text, len, want, want_len)) {
		v->modified = true;
		v->err = -EKEYREJECTED;
		return kit_err(-EKEYREJECTED, "%s: modified: not the header gen-loader writes for %s: %s",
			       path, obj, v->reason);
	}
	/* the unsigned C and keyring are now re-emitted from the auditor's input */
	v->object = obj;
	v->unsigned_part = NULL;
	v->verified = true;
	return 0;
}

/*
 * The "@target" lines of the header's signed C, joined by "; " into buf:
 * what the loader was generated for (gen-loader --target-config ...).
 */
static void target_of(const struct lskel *h, char *buf, size_t sz)
{
	const char *tail, *s, *end, *nl, *m;
	size_t tail_len, blob_sz, o = 0, n = strlen(" * " TARGET_MARK);

	if (h->generator != LSKEL_GEN_GEN_LOADER || h->format != LSKEL_FORMAT_TRAILER ||
	    trailer_find(h->r[R_DATA].buf, h->r[R_DATA].len, &tail, &tail_len, &blob_sz))
		return;
	end = tail + tail_len;
	for (s = tail; s < end; s = nl + 1) {
		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			nl = end;
		if ((size_t)(nl - s) <= n || memcmp(s, " * " TARGET_MARK, n))
			continue;
		m = s + n;
		o += (size_t)snprintf(buf + o, o < sz ? sz - o : 0, "%s%.*s", o ? "; " : "",
				      (int)(nl - m), m);
		if (o >= sz) {
			buf[sz - 1] = '\0';
			return;
		}
	}
}

void out_lskel_id(struct out *o, const char *path, const struct lskel *h)
{
	out_str(o, "file", path);
	out_str(o, "name", h->name);
	out_str(o, "generator", h->generator == LSKEL_GEN_BPFTOOL ? "bpftool" : "gen-loader");
}

void out_lskel_sizes(struct out *o, const struct lskel *h)
{
	/* bpftool's headers have no format line of the kit */
	if (h->generator == LSKEL_GEN_BPFTOOL)
		out_null(o, "format");
	else
		out_int(o, "format", h->format);
	out_int(o, "keyring_id", h->keyring_id);
	out_int(o, "insns_size", (long long)h->r[R_INSNS].len);
	out_int(o, "data_size", (long long)h->r[R_DATA].len);
}

void check_report(struct out *o, const char *path, const struct lskel *h,
		  const struct verdict *v)
{
	char target[2048];

	const struct bpfsign_info *info = &v->rep.info;
	bool sig = v->signed_ && v->rep.checked && info->nr_signers > 0;

	out_lskel_id(o, path, h);
	/* what the verdict rests on: bpftool's C cannot be re-emitted here */
	out_str(o, "checked", v->object ?
		"the whole header, re-emitted byte for byte from the object and options given (--object) and the header's signature; signature over insns || data; excl_hash" :
		h->generator == LSKEL_GEN_BPFTOOL ?
		"the arrays: signature over insns || data, excl_hash; bpftool's C around them: no byte of it is signed, a structure check only refuses (each array once, the opts assignments, bpftool's preprocessor lines only, the guard's #endif)" :
		h->format == LSKEL_FORMAT_NO_TRAILER ?
		"the header up to the end of the arrays, re-emitted byte for byte; signature over insns || data; excl_hash; the C after the arrays: not signed (--no-trailer), a structure check only refuses (" TAIL_AUDIT_CHECKED ")" :
		v->keyring_signed ?
		"the whole header, re-emitted byte for byte from the signed bytes (the keyring id too): its C is the C the signer signed, as whoever made the payload wrote it, not re-derived from an object (--object does; a " TAIL_AUDIT_CHECKED_SHORT " only refuses); signature over insns || data; excl_hash" :
		"the whole header, re-emitted byte for byte: its C is the C the signer signed, as whoever made the payload wrote it, not re-derived from an object (--object does; a " TAIL_AUDIT_CHECKED_SHORT " only refuses); signature over insns || data; excl_hash; the default keyring id: not signed");
	out_str_or_null(o, "object", v->object);
	/* the skel_internal.h checked to be the kit's (--skel-internal), or none */
	out_str_or_null(o, "skel_internal", v->skel_internal);
	/* what the load takes from bytes no signature covers: why not "verified" */
	out_str_or_null(o, "unsigned", v->unsigned_part);
	out_lskel_sizes(o, h);
	/* a header refused before it was hashed: never computed, null */
	out_int_or_null(o, "payload_size", v->hashed, (long long)v->payload_sz);
	out_int_or_null(o, "signature_size", h->r[R_SIGNATURE].len,
			(long long)h->r[R_SIGNATURE].len);
	if (v->hashed)
		out_hex(o, "insns_digest", v->digest, DIGEST_SIZE);
	else
		out_null(o, "insns_digest");
	if (h->r[R_EXCL_HASH].len)
		out_hex(o, "excl_hash", h->r[R_EXCL_HASH].buf, h->r[R_EXCL_HASH].len);
	else
		out_null(o, "excl_hash");
	if (v->hashed) {
		out_bool(o, "excl_hash_matches", v->excl_ok);
		out_hex(o, "data_sha256", v->data_sha, DIGEST_SIZE);
		out_hex(o, "payload_sha256", v->payload_sha, DIGEST_SIZE);
	} else {
		out_null(o, "excl_hash_matches");
		out_null(o, "data_sha256");
		out_null(o, "payload_sha256");
	}
	/* of the signature, as bpfsign verify names them (vocab.h) */
	out_sig_algs(o, info, sig);
	out_key_id(o, info, sig);
	out_str_or_null(o, "signer", sig ? v->rep.signer : NULL);
	/* the key's identity, as the kernel records it: not the key id */
	out_str_or_null(o, "key_sha256", sig && v->rep.key_sha256[0] ? v->rep.key_sha256 : NULL);
	if (v->signed_ && v->rep.checked)
		out_str(o, "signature_check", bpfsign_errno_name(v->sig_err));
	else
		out_null(o, "signature_check");
	/* the values of the target it was generated for, signed in its C
	 * (only of a verified header: the C of another is no one's word; nor
	 * of a format 2 header, whose C is not signed)
	 */
	target[0] = '\0';
	if (v->verified)
		target_of(h, target, sizeof(target));
	out_str_or_null(o, "target", target);
	out_str(o, "verdict", v->verified ? "verified" : v->arrays_verified ? "arrays-verified" :
			      v->modified ? "modified" : v->signed_ ? "rejected" : "unsigned");
	out_str(o, "reason", v->verified ? "" : v->arrays_verified ?
		"the signed arrays verify; the header has C that is neither signed nor re-emitted from signed bytes (see unsigned)" :
		v->reason);
	/* arrays-verified: nothing refused (errno 0), and yet not verified */
	out_str(o, "error", v->arrays_verified ? "UNSIGNED_C" : bpfsign_errno_name(v->err));
	out_int(o, "errno", -v->err);
}
