// SPDX-License-Identifier: GPL-2.0
/* The fields of a parsed signature, as a report. */
#include <stdio.h>

#include "info.h"

void out_info(struct out *o, const struct bpfsign_info *info)
{
	static const char *const id_names[] = {
		[BPFSIGN_ID_NONE] = "none",
		[BPFSIGN_ID_KEYID] = "subject-key-identifier",
		[BPFSIGN_ID_ISSUER_SERIAL] = "issuer-and-serial",
	};
	out_int(o, "size", (long long)info->der_len);
	out_bool(o, "detached", info->detached);
	out_bool(o, "data_content", info->data_content);
	out_int(o, "signers", info->nr_signers);
	out_str(o, "digest", info->digest);
	out_str(o, "signature_algorithm", info->sig_alg);
	out_str(o, "key_type", info->key_type);
	out_int(o, "signature_size", (long long)info->sig_value_len);
	out_str(o, "signer_id", id_names[info->id_type]);
	out_hex(o, "key_id", info->keyid, info->keyid_len);
	out_str(o, "issuer", info->issuer);
	out_str(o, "serial", info->serial);
	out_int(o, "certificates", info->nr_certs);
	out_int(o, "crls", info->nr_crls);
	out_bool(o, "signed_attributes", info->has_signed_attrs);
	out_bool(o, "unsigned_attributes", info->has_unsigned_attrs);
	out_bool(o, "kernel_ok", info->kernel_ok);
	out_str(o, "kernel_reason", info->reason);
	out_str(o, "kernel_errno", bpfsign_errno_name(info->kernel_err));
}
