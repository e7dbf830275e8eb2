/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one vocabulary of the kit's tools (bpfsign, gen-loader,
 * bpfsign-policy): what an exit code means and what a JSON key holds, the
 * same whichever tool printed it.  A script learns the same thing from the
 * same number or key.  tests/host/cli checks that every key the three tools
 * print is in KIT_JSON_KEYS below, and runs the same wrong inputs through
 * them; bpfsign(1) EXIT STATUS and JSON KEYS are this file in prose.
 */
#ifndef KIT_VOCAB_H
#define KIT_VOCAB_H

/*
 * Exit codes.  Each command uses the codes that apply to it; a code that
 * stands for an errno stands for that errno in every command of every tool.
 */
#define EXIT_FAIL	1	/* any other failure: unreadable input, I/O, memory */
#define EXIT_USAGE	2	/* usage error */
#define EXIT_REJECTED	3	/* EKEYREJECTED: does not verify, modified, refused */
#define EXIT_MALFORMED	4	/* EBADMSG: not the format the tool reads */
#define EXIT_NOKEY	5	/* ENOKEY: no given certificate is the signer */
#define EXIT_NOPKG	6	/* ENOPKG: an algorithm the kernel does not have */
#define EXIT_KPARSE	7	/* EINVAL, E2BIG: the kernel's parser or bounds refuse it */
#define EXIT_PARTIAL	8	/* not an error, not verified: part of the input is unsigned */
#define EXIT_UNSIGNED	9	/* ENODATA: no signature at all */

/*
 * A batch (several SIG or HEADER arguments) exits with its worst result:
 * first the evidence of tampering, then what the kernel would refuse, then
 * what is not what the tool reads, then what could not be checked at all,
 * then what is only partly signed.  Worst first:
 *
 *   3 rejected > 5 unknown key > 6 algorithm > 7 kernel parser >
 *   4 malformed > 9 unsigned > 1 failed > 8 arrays-verified > 0
 *
 * exit_rank(): higher is worse; a usage error (2) stops a batch at once.
 */
static inline int exit_rank(int code)
{
	static const int order[] = {
		[0] = 0, [EXIT_PARTIAL] = 1, [EXIT_FAIL] = 2, [EXIT_UNSIGNED] = 3,
		[EXIT_MALFORMED] = 4, [EXIT_KPARSE] = 5, [EXIT_NOPKG] = 6,
		[EXIT_NOKEY] = 7, [EXIT_REJECTED] = 8, [EXIT_USAGE] = 9,
	};

	return code >= 0 && code < (int)(sizeof(order) / sizeof(order[0])) ?
	       order[code] : order[EXIT_FAIL];
}

/*
 * JSON keys: KEY(name, what it holds).  A value that was never computed
 * (a signature that did not parse, a header refused before it was hashed,
 * a field the input does not have) is null, never 0 or "".  Sizes are
 * bytes; hashes and key ids are lowercase hex without separators.
 */
#define KIT_JSON_KEYS(KEY) \
	/* every report and every failure */ \
	KEY(file, "the input the report is about (SIG, HEADER, policy FILE)") \
	KEY(error, "the errno's name of the verdict or failure (\"OK\": none)") \
	KEY(errno, "its number (0: none)") \
	KEY(reason, "why, in words (\"\" when nothing failed)") \
	/* a signature: bpfsign inspect and verify, gen-loader inspect and verify */ \
	KEY(payload, "the file of the signed bytes (bpfsign verify)") \
	KEY(verified, "the signature verifies (bpfsign verify)") \
	KEY(signer, "the subject of the certificate that verified it") \
	KEY(signature_size, "the PKCS#7 blob, as BPF_PROG_LOAD's signature_size") \
	KEY(signature_value_size, "the raw signature value inside it (RSA: the modulus size)") \
	KEY(detached, "the payload is not inside the signature") \
	KEY(data_content, "eContentType is pkcs7-data") \
	KEY(signers, "SignerInfos") \
	KEY(digest_algorithm, "the signature's digest: sha256, sha384, sha512") \
	KEY(signature_algorithm, "rsaEncryption, ecdsa-with-SHA256, ...") \
	KEY(key_type, "RSA, EC") \
	KEY(signer_id, "how the signer is named: subject-key-identifier, issuer-and-serial") \
	KEY(key_id, "the signer's subject key identifier, the kernel's sig_key") \
	KEY(issuer, "issuer-and-serial: the issuer") \
	KEY(serial, "issuer-and-serial: the serial, hex") \
	KEY(key_sha256, "SHA-256 of the signer's public key (null when unknown)") \
	KEY(certificates, "certificates embedded in the signature") \
	KEY(crls, "CRLs embedded in the signature") \
	KEY(signed_attributes, "the first signer has signed attributes (the [0] SET the kernel refuses)") \
	KEY(unsigned_attributes, "the first signer has unsigned attributes") \
	KEY(ignored_attributes, "the first signer has a [2] attribute SEQUENCE: parsed and ignored by the kernel, not signed attributes") \
	KEY(kernel_ok, "the kernel's parser and form checks take it (no key needed)") \
	KEY(kernel_error, "their errno's name (\"OK\")") \
	KEY(kernel_reason, "why not") \
	/* a header: gen-loader inspect and verify */ \
	KEY(name, "the skeleton's NAME; bpfsign-policy: the program's name") \
	KEY(generator, "gen-loader or bpftool") \
	KEY(checked, "what the verdict rests on") \
	KEY(object, "--object: the object the header was re-emitted from") \
	KEY(skel_internal, "--skel-internal: the skel_internal.h checked") \
	KEY(unsigned, "what the load takes from unsigned bytes") \
	KEY(format, "1: signed C, 2: --no-trailer") \
	KEY(keyring_id, "the keyring of the load") \
	KEY(insns_size, "the loader's instructions") \
	KEY(data_size, "the signed metadata") \
	KEY(payload_size, "insns || data, the signed bytes") \
	KEY(insns_digest, "SHA-256 of the instructions, the kernel's loader digest") \
	KEY(excl_hash, "the metadata map's exclusive hash") \
	KEY(excl_hash_matches, "excl_hash is insns_digest") \
	KEY(data_sha256, "SHA-256 of the metadata") \
	KEY(payload_sha256, "SHA-256 of insns || data") \
	KEY(signature_check, "the signature's errno name (\"OK\"): error says the verdict's") \
	KEY(target, "the target values in the signed C (verified headers)") \
	KEY(verdict, "verified, arrays-verified, modified, rejected, unsigned, malformed; bpfsign-policy: the kernel's") \
	/* bpfsign-policy audit and log */ \
	KEY(id, "program id") \
	KEY(prog_type, "program type") \
	KEY(keyring, "the keyring that verified it") \
	KEY(keyring_serial, "the serial of that keyring") \
	KEY(key_serial, "the serial of the key that verified it") \
	KEY(loader_id, "the program id of its signed loader (0: none)") \
	KEY(loader_verdict, "the loader's verdict") \
	KEY(loader_keyring, "the loader's keyring") \
	KEY(loader_key_id, "the loader's key_id") \
	KEY(loader_key_sha256, "the loader's key_sha256") \
	KEY(kernel_load, "the kernel loaded it itself (CONFIG_BPF_PRELOAD's iterators)") \
	KEY(admitted, "the policy admits it") \
	KEY(time, "when, wall clock") \
	KEY(boot_ns, "when, ns since boot") \
	KEY(policy, "which policy decided") \
	KEY(pid, "the loading process") \
	KEY(uid, "its uid") \
	KEY(comm, "its comm") \
	KEY(signed, "the load carried a signature") \
	KEY(kernel, "the load came from the kernel") \
	KEY(decision, "allow, reject, ...") \
	KEY(stage, "where the decision was made") \
	KEY(digest, "the program's SHA-256, as the kernel computed it") \
	KEY(tally, "a summary: how many events") \
	KEY(first, "the first event, wall clock") \
	KEY(first_boot_ns, "the first event, ns since boot") \
	KEY(last, "the last event, wall clock") \
	KEY(last_boot_ns, "the last event, ns since boot") \
	KEY(first_pid, "the first event's process") \
	KEY(last_pid, "the last event's process") \
	KEY(last_comm, "the last event's comm") \
	KEY(summary, "a summary record's map") \
	KEY(prog_id, "the program id of the policy") \
	KEY(printed, "records printed") \
	KEY(replayed, "records replayed") \
	KEY(missing, "records the ring buffer lost before they were printed") \
	KEY(last_seq, "the last seq printed") \
	KEY(ringed, "the policy's count of records put into the ring buffer") \
	KEY(tallied, "its count of records kept in the tally") \
	KEY(lost, "its count of records neither ringed nor tallied") \
	KEY(recorded, "records seen: ringed + tallied + lost when consistent") \
	KEY(consistent, "the counters add up") \
	/* bpfsign-policy check */ \
	KEY(policy_text, "the allowlist load would install, one directive a line")

#endif /* KIT_VOCAB_H */
