// SPDX-License-Identifier: GPL-2.0
/*
 * The fields of a parsed signature, as a report: the keys of vocab.h, null
 * for what was never computed (a signature OpenSSL could not read has no
 * SignerInfo to describe; one that failed before the kernel's rules ran
 * has no kernel verdict).
 */
#include <stdio.h>

#include "info.h"

/* bpfsign__parse() names the key type ("?" at worst) once the CMS parsed. */
static bool cms_parsed(const struct bpfsign_info *info)
{
	return info->key_type[0] != '\0';
}

/* kernel_form() ran: a verdict, ok or an errno */
static bool kernel_checked(const struct bpfsign_info *info)
{
	return info->kernel_ok || info->kernel_err;
}

void out_info(struct out *o, const struct bpfsign_info *info, const char *key_sha256)
{
	static const char *const id_names[] = {
		[BPFSIGN_ID_NONE] = "none",
		[BPFSIGN_ID_KEYID] = "subject-key-identifier",
		[BPFSIGN_ID_ISSUER_SERIAL] = "issuer-and-serial",
	};
	bool cms = cms_parsed(info), si = cms && info->nr_signers > 0;

	out_int(o, "signature_size", (long long)info->der_len);
	if (cms) {
		out_bool(o, "detached", info->detached);
		out_bool(o, "data_content", info->data_content);
		out_int(o, "signers", info->nr_signers);
	} else {
		out_null(o, "detached");
		out_null(o, "data_content");
		out_null(o, "signers");
	}
	out_str_or_null(o, "digest_algorithm", si ? info->digest : NULL);
	out_str_or_null(o, "signature_algorithm", si ? info->sig_alg : NULL);
	out_str_or_null(o, "key_type", si ? info->key_type : NULL);
	if (si)
		out_int(o, "signature_value_size", (long long)info->sig_value_len);
	else
		out_null(o, "signature_value_size");
	out_str_or_null(o, "signer_id", si ? id_names[info->id_type] : NULL);
	if (si && info->id_type == BPFSIGN_ID_KEYID && info->keyid_len)
		out_hex(o, "key_id", info->keyid, info->keyid_len);
	else
		out_null(o, "key_id");
	out_str_or_null(o, "issuer", si ? info->issuer : NULL);
	out_str_or_null(o, "serial", si ? info->serial : NULL);
	/* the key's identity, as the kernel records it: not the key id */
	out_str_or_null(o, "key_sha256", key_sha256);
	if (cms) {
		out_int(o, "certificates", info->nr_certs);
		out_int(o, "crls", info->nr_crls);
	} else {
		out_null(o, "certificates");
		out_null(o, "crls");
	}
	if (si) {
		out_bool(o, "signed_attributes", info->has_signed_attrs);
		out_bool(o, "unsigned_attributes", info->has_unsigned_attrs);
	} else {
		out_null(o, "signed_attributes");
		out_null(o, "unsigned_attributes");
	}
	if (kernel_checked(info)) {
		out_bool(o, "kernel_ok", info->kernel_ok);
		out_str(o, "kernel_error", bpfsign_errno_name(info->kernel_err));
		out_str(o, "kernel_reason", info->reason);
	} else {
		out_null(o, "kernel_ok");
		out_null(o, "kernel_error");
		out_null(o, "kernel_reason");
	}
}

void out_sig_report(struct out *o, const char *file, const char *payload,
		    const struct bpfsign_report *rep, const struct bpfsign_info *info,
		    const char *key_sha256, int err, const char *reason)
{
	out_str(o, "file", file);
	out_str_or_null(o, "payload", payload);
	if (rep)
		out_bool(o, "verified", rep->verified);
	else
		out_null(o, "verified");
	out_str(o, "error", bpfsign_errno_name(err));
	out_int(o, "errno", -err);
	out_str(o, "reason", reason);
	out_str_or_null(o, "signer", rep ? rep->signer : NULL);
	out_info(o, info, key_sha256);
}
