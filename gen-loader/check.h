/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Audit a parsed header offline as the kernel would check it at load time:
 * the exclusive hash is the loader's digest, and the signature verifies over
 * insns || data with the given certificate.
 */
#ifndef GEN_LOADER_CHECK_H
#define GEN_LOADER_CHECK_H

#include <stdbool.h>

#include "digest.h"
#include "libbpfsign.h"
#include "lskel.h"
#include "out.h"

struct verdict {
	__u8 digest[DIGEST_SIZE];	/* the loader's digest, as the kernel's */
	__u8 payload_sha[DIGEST_SIZE];
	__u8 data_sha[DIGEST_SIZE];
	size_t payload_sz;
	bool hashed;			/* digest, the sha256s, payload_sz, excl_ok */
	bool excl_ok;			/* excl_hash == digest */
	bool signed_;			/* has a signature */
	int sig_err;			/* bpfsign_verify() */
	struct bpfsign_report rep;
	bool verified;			/* every byte signed or re-emitted from signed bytes */
	bool arrays_verified;		/* the signed arrays verify, some C is unsigned */
	bool keyring_signed;		/* format 1: the keyring's #define is in the signed C */
	const char *unsigned_part;	/* what no signature and no re-emission covers */
	const char *object;		/* --object: the header is re-emitted from it */
	const char *skel_internal;	/* --skel-internal: the kit's, checked first */
	bool modified;			/* not what gen-loader writes for its arrays */
	bool no_tail;			/* the metadata carries no C of the header */
	size_t c_off;			/* format 2: where the unsigned C starts */
	size_t modified_line;		/* the first line that differs */
	char reason[512];		/* why not verified */
	bool judged;			/* a verdict, not a failure to reach one (memory) */
	int err;			/* the verdict's errno: 0, -EKEYREJECTED, -ENOKEY, ... */
};

/* What the load takes from unsigned bytes, by kind of header (v->unsigned_part). */
#define UNSIGNED_NO_TRAILER \
	"the C after the arrays (--no-trailer: NAME__open(), __load(), __attach() ...) and the default keyring id"
#define UNSIGNED_BPFTOOL \
	"bpftool's C around the arrays (NAME__open(), __load() with its opts, __attach() ...) and the keyring id"

/*
 * 0 when the header text[0..text_len) verifies: it is byte for byte what
 * gen-loader writes for the arrays, name and keyring it carries (else
 * v->modified, v->reason names the first differing line; in format 2, up
 * to the end of the arrays, and the unsigned C after them passes
 * tail_audit()), and its signature verifies over insns || data.  Then
 * v->verified when every byte of the header is signed or re-emitted from
 * signed bytes (format 1 of this gen-loader), else v->arrays_verified and
 * v->unsigned_part names the rest (format 2, bpftool's headers, format 1
 * of gen-loader 1.0): tail_audit() and bpftool_skel_modified() only ever
 * refuse.  -EKEYREJECTED when it does not, -ENODATA when it is unsigned,
 * or the errno of the signature's check as bpfsign verify gives it
 * (-ENOKEY, -EBADMSG, -EINVAL, -E2BIG, -ENOPKG): v->reason says why (and
 * is the recorded error).  Other negative errnos:
 * out of memory.  vf: the certificates, read once per command
 * (bpfsign_verifier_load()).
 */
int check_header(const char *path, const char *text, size_t text_len,
		 const struct lskel *h, const struct bpfsign_verifier *vf,
		 struct verdict *v);
/*
 * After check_header() returned 0: is text[0..len) byte for byte want, the
 * header gen-loader writes for the object obj (regen.h)?  Then v->verified,
 * whatever its format: no byte of it comes from the file alone.  Else
 * -EKEYREJECTED, v->modified, v->reason names the first differing line.
 */
int check_object(struct verdict *v, const char *path, const char *obj, const char *text,
		 size_t len, const char *want, size_t want_len);
/* What a header says of itself, the same keys from inspect and verify:
 * file, name, generator (out_lskel_id()); format, keyring_id, insns_size,
 * data_size (out_lskel_sizes()). */
void out_lskel_id(struct out *o, const char *path, const struct lskel *h);
void out_lskel_sizes(struct out *o, const struct lskel *h);
/* The report of check_header(), as key: value lines or JSON. */
void check_report(struct out *o, const char *path, const struct lskel *h,
		  const struct verdict *v);

#endif /* GEN_LOADER_CHECK_H */
