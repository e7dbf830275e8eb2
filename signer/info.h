/* SPDX-License-Identifier: GPL-2.0 */
/* The fields of a parsed signature, as a report (common/out.h). */
#ifndef BPFSIGN_INFO_H
#define BPFSIGN_INFO_H

#include "libbpfsign.h"
#include "out.h"

/*
 * The pieces of out_info(), which gen-loader's inspect and verify print
 * too (gen-loader compiles this file in: it knows libbpfsign's public
 * header and common/out.h only).  si: a SignerInfo was parsed; else each
 * key is null.
 */
/* digest_algorithm, signature_algorithm */
void out_sig_algs(struct out *o, const struct bpfsign_info *info, bool si);
/* key_id: the subject key identifier, null for an issuer-and-serial signer */
void out_key_id(struct out *o, const struct bpfsign_info *info, bool si);
/* signer_id (how the signer is named), key_id, issuer, serial */
void out_signer_id(struct out *o, const struct bpfsign_info *info, bool si);
/* kernel_ok, kernel_error, kernel_reason: the kernel's rules on the
 * signature's form; null unless checked (they ran) */
void out_kernel_form(struct out *o, const struct bpfsign_info *info, bool checked);
/*
 * Shared by inspect and verify, so both name a signature's fields alike.
 * key_sha256: the digest of the key that verified it (verify) or of the
 * certificate given (inspect --cert); NULL, printed null, when unknown.
 */
void out_info(struct out *o, const struct bpfsign_info *info, const char *key_sha256);
/*
 * The report of one signature, the same keys from inspect and verify:
 * file, payload, verified, error, errno, reason, signer, then out_info().
 * inspect has no payload and no key (rep NULL: payload, verified and
 * signer are null); err is the verdict (0, or the kernel's errno).
 */
void out_sig_report(struct out *o, const char *file, const char *payload,
		    const struct bpfsign_report *rep, const struct bpfsign_info *info,
		    const char *key_sha256, int err, const char *reason);

#endif /* BPFSIGN_INFO_H */
