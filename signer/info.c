// SPDX-License-Identifier: GPL-2.0
/*
 * The fields of a parsed signature, as a report: the keys of vocab.h, null
 * for what was never computed (a signature OpenSSL could not read has no
 * SignerInfo to describe; one that failed before the kernel's rules ran
 * has no kernel verdict).
 */
#include <stdio.h>

#include "info.h"

/* bpfsign__parse() names the key type ("?" at worst) once the CMS parsed,
 * by OpenSSL or, for a form it cannot read, by the kernel's parser. */
static bool cms_parsed(const struct bpfsign_info *info)
{
	return info->key_type[0] != '\0';
}

/* kernel_form() ran: a verdict, ok or an errno */
static bool kernel_checked(const struct bpfsign_info *info)
{
	return info->kernel_ok || info->kernel_err;
}

void out_sig_algs(struct out *o, const struct bpfsign_info *info, bool si)
{
	out_str_or_null(o, "digest_algorithm", si ? info->digest : NULL);
	out_str_or_null(o, "signature_algorithm", si ? info->sig_alg : NULL);
}

void out_key_id(struct out *o, const struct bpfsign_info *info, bool si)
{
	if (si && info->id_type == BPFSIGN_ID_KEYID && info->keyid_len)
		out_hex(o, "key_id", info->keyid, info->keyid_len);
	else
		out_null(o, "key_id");
}

void out_signer_id(struct out *o, const struct bpfsign_info *info, bool si)
{
	static const char *const id_names[] = {
		[BPFSIGN_ID_NONE] = "none",
		[BPFSIGN_ID_KEYID] = "subject-key-identifier",
		[BPFSIGN_ID_ISSUER_SERIAL] = "issuer-and-serial",
	};

	out_str_or_null(o, "signer_id", si ? id_names[info->id_type] : NULL);
	out_key_id(o, info, si);
	out_str_or_null(o, "issuer", si ? info->issuer : NULL);
	out_str_or_null(o, "serial", si ? info->serial : NULL);
}

void out_kernel_form(struct out *o, const struct bpfsign_info *info, bool checked)
{
	if (checked) {
		out_bool(o, "kernel_ok", info->kernel_ok);
		out_str(o, "kernel_error", bpfsign_errno_name(info->kernel_err));
		out_str(o, "kernel_reason", info->reason);
	} else {
		out_null(o, "kernel_ok");
		out_null(o, "kernel_error");
		out_null(o, "kernel_reason");
	}
}

void out_info(struct out *o, const struct bpfsign_info *info, const char *key_sha256)
{
	bool cms = cms_parsed(info), si = cms && info->nr_signers > 0;

	out_int(o, "signature_size", (long long)info->der_len);
	out_bool_or_null(o, "detached", cms, info->detached);
	out_bool_or_null(o, "data_content", cms, info->data_content);
	out_int_or_null(o, "signers", cms, info->nr_signers);
	out_sig_algs(o, info, si);
	out_str_or_null(o, "key_type", si ? info->key_type : NULL);
	out_int_or_null(o, "signature_value_size", si, (long long)info->sig_value_len);
	out_signer_id(o, info, si);
	/* the key's identity, as the kernel records it: not the key id */
	out_str_or_null(o, "key_sha256", key_sha256);
	out_int_or_null(o, "certificates", cms, info->nr_certs);
	/* the kernel's parser has no action for CRLs: not counted */
	out_int_or_null(o, "crls", cms && !info->kernel_parsed, info->nr_crls);
	/* the [0] SET the kernel acts on (and refuses) */
	out_bool_or_null(o, "signed_attributes", si, info->has_signed_attrs);
	out_bool_or_null(o, "unsigned_attributes", si, info->has_unsigned_attrs);
	/* the [2] SEQUENCE the kernel parses and ignores: the signature must
	 * be over the payload; OpenSSL cannot read that form */
	out_bool_or_null(o, "ignored_attributes", si, info->has_seq_attrs);
	out_kernel_form(o, info, kernel_checked(info));
}

void out_sig_report(struct out *o, const char *file, const char *payload,
		    const struct bpfsign_report *rep, const struct bpfsign_info *info,
		    const char *key_sha256, int err, const char *reason)
{
	out_str(o, "file", file);
	out_str_or_null(o, "payload", payload);
	out_bool_or_null(o, "verified", rep, rep && rep->verified);
	out_str(o, "error", bpfsign_errno_name(err));
	out_int(o, "errno", -err);
	out_str(o, "reason", reason);
	out_str_or_null(o, "signer", rep ? rep->signer : NULL);
	out_info(o, info, key_sha256);
}
