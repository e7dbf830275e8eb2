/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libbpfsign: detached CMS (PKCS#7) signatures in the form the Linux
 * kernel's PKCS#7 verifier takes, and their offline verification.
 *
 * The form: CMS SignedData, DER, content type pkcs7-data, detached (the
 * payload is not inside), no certificates, no signed attributes, exactly one
 * SignerInfo naming its signer by subject key identifier, digest SHA-256,
 * SHA-384 or SHA-512, signature RSA PKCS#1 v1.5 (>= 2048 bits) or ECDSA
 * (P-256, P-384).  It is what `scripts/sign-file -dk` and
 * `openssl cms -sign -binary -noattr -nocerts -keyid -outform DER` produce;
 * with RSA the bytes are reproducible.
 *
 * Every function returns 0 or a negative errno.  On failure
 * bpfsign_last_error() describes it in one line, naming the file or object
 * first; OpenSSL's error queue may hold more detail, which the library
 * leaves for the caller to print (ERR_print_errors_cb) or clear.
 *
 * Errors, shared by every function:
 *   -EINVAL        bad argument; unknown or refused digest (sha1, md5, ...);
 *                  a key or certificate file that does not parse
 *   -ENOENT, -EACCES, -EISDIR, ...
 *                  a file that cannot be read (errno of open/read);
 *                  -ENOENT also for a pkcs11: object the token does not
 *                  give (no such object, or a wrong PIN)
 *   -EFBIG         a file or payload too large (2 GiB payloads, 1 MiB
 *                  signatures and certificate files)
 *   -ENOMEM        out of memory
 *   -EIO           the signing operation itself failed (OpenSSL, PKCS#11)
 * bpfsign_signer_load():
 *   -EKEYREJECTED  key or certificate refused: RSA below 2048 bits, a curve
 *                  other than P-256/P-384, another key type, a certificate
 *                  without the digitalSignature key usage (when it has a
 *                  keyUsage extension) or without a subject key identifier,
 *                  a key that does not match the certificate
 * bpfsign_verify(): the errno BPF_PROG_LOAD returns for the same signature,
 * payload and keyring, by the kernel's rules (bpfsign(1), KERNEL RULES;
 * pkcs7.h); report.checked says the rules ran:
 *   -EINVAL        the kernel's parser refuses it (versions, content type,
 *                  no SignerInfo, size)
 *   -EBADMSG       malformed as the kernel's BER decoder reads it, truncated,
 *                  mismatched versions, content embedded
 *   -ENOKEY        no given certificate is the signer or its issuer
 *   -ENOPKG        a digest or algorithm the kernel does not have (sha1)
 *   -EKEYREJECTED  the signature does not verify with the key, or a rule
 *                  refuses it (S/MIME capabilities, a repeated attribute)
 * bpfsign_inspect():
 *   neither OpenSSL nor the kernel's parser reads it: the kernel's errno,
 *   as bpfsign_verify() returns it for the same bytes (-EBADMSG: not BER
 *   the kernel reads; -EINVAL: a size BPF_PROG_LOAD refuses, ...)
 */
#ifndef LIBBPFSIGN_H
#define LIBBPFSIGN_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BPFSIGN_VERSION "1.1.0"

/*
 * The library exports these functions and nothing else (libbpfsign.map);
 * everything else in it is hidden, in the shared and the static library.
 */
#ifndef LIBBPFSIGN_API
#define LIBBPFSIGN_API __attribute__((visibility("default")))
#endif

/* Largest signature and certificate file the library reads. */
#define BPFSIGN_MAX_SIG_SIZE (1u << 20)

/*
 * Options carry their own size so that fields can be added at the end:
 *	BPFSIGN_OPTS(bpfsign_sign_opts, opts, .digest = "sha384");
 */
#define BPFSIGN_OPTS(TYPE, NAME, ...)					\
	struct TYPE NAME = { .sz = sizeof(struct TYPE), __VA_ARGS__ }

struct bpfsign_sign_opts {
	size_t sz;		/* sizeof(struct bpfsign_sign_opts) */
	const char *digest;	/* "sha256" (default, NULL), "sha384", "sha512" */
};

struct bpfsign_signer;

/*
 * Load a signer: a private key and its X.509 certificate.
 *   key    PEM or DER file (PKCS#8, traditional RSA/EC), or a PKCS#11 URI
 *          ("pkcs11:token=...;object=...") opened through the OpenSSL
 *          engine "pkcs11".  The PIN or the passphrase of an encrypted PEM
 *          file comes from the environment: BPFSIGN_PIN, else
 *          KBUILD_SIGN_PIN (as scripts/sign-file).  BPFSIGN_PKCS11_MODULE
 *          names the PKCS#11 module (default: the engine's, p11-kit-proxy).
 *   cert   PEM or DER certificate file.
 *   opts   NULL for the defaults.
 * The key and certificate are checked as described above (-EKEYREJECTED).
 */
LIBBPFSIGN_API int bpfsign_signer_load(const char *key, const char *cert,
				       const struct bpfsign_sign_opts *opts,
				       struct bpfsign_signer **out);
LIBBPFSIGN_API void bpfsign_signer_free(struct bpfsign_signer *s);

/*
 * Sign len bytes at data.  On success *sig is a malloc()ed DER detached
 * CMS SignedData of *sig_len bytes; free() it.
 */
LIBBPFSIGN_API int bpfsign_sign(struct bpfsign_signer *s, const void *data, size_t len,
				unsigned char **sig, size_t *sig_len);

enum bpfsign_signer_id {
	BPFSIGN_ID_NONE = 0,		/* no SignerInfo */
	BPFSIGN_ID_KEYID,		/* subjectKeyIdentifier (the kernel form) */
	BPFSIGN_ID_ISSUER_SERIAL,	/* issuerAndSerialNumber */
};

#define BPFSIGN_KEYID_MAX	64
#define BPFSIGN_NAME_MAX	256

/* What a signature is made of; filled by bpfsign_inspect(). */
struct bpfsign_info {
	size_t der_len;			/* bytes of the whole signature */
	size_t sig_value_len;		/* bytes of the signature value */
	int nr_signers;			/* SignerInfos */
	int nr_certs;			/* embedded certificates */
	int nr_crls;			/* embedded CRLs */
	bool detached;			/* the payload is not inside */
	bool data_content;		/* eContentType is pkcs7-data */
	bool has_signed_attrs;		/* first signer has signed attributes:
					 * the [0] SET the kernel acts on */
	bool has_unsigned_attrs;
	/* Of the first SignerInfo: */
	char digest[32];		/* "sha256", ... */
	char sig_alg[48];		/* "rsaEncryption", "ecdsa-with-SHA256" */
	char key_type[8];		/* "RSA", "EC", "?" */
	enum bpfsign_signer_id id_type;
	unsigned char keyid[BPFSIGN_KEYID_MAX];	/* BPFSIGN_ID_KEYID */
	size_t keyid_len;
	char issuer[BPFSIGN_NAME_MAX];	/* BPFSIGN_ID_ISSUER_SERIAL, RFC 2253 */
	char serial[2 * 32 + 1];	/* hex */
	/* Would the kernel take this form (its parser and form checks,
	 * bpfsign(1) KERNEL RULES; no key needed)?  If not, reason says why
	 * and kernel_err is the kernel's errno.
	 */
	bool kernel_ok;
	char reason[256];
	/*
	 * Added in what was padding before kernel_err (the size and every
	 * offset are those of 1.1.0, whose library leaves them 0):
	 * has_seq_attrs: the first signer has attributes in the [2] EXPLICIT
	 * SEQUENCE form, which the kernel parses and ignores: not signed
	 * attributes (has_signed_attrs is false), the signature must be over
	 * the payload itself.  kernel_parsed: OpenSSL cannot read the message
	 * (that form, BER it does not take); the fields above are the
	 * kernel's parser's reading, and nr_crls is not counted.
	 */
	bool has_seq_attrs;
	bool kernel_parsed;
	int kernel_err;
};

/*
 * Parse a DER signature and describe it.  A pure function of its input: no
 * I/O, and it leaves no entry on OpenSSL's error queue.  Fuzzed.
 */
LIBBPFSIGN_API int bpfsign_inspect(const unsigned char *sig, size_t len,
				   struct bpfsign_info *info);

/* The outcome of bpfsign_verify(). */
struct bpfsign_report {
	struct bpfsign_info info;	/* the parsed signature (if it parsed) */
	bool verified;			/* the signature verifies */
	int err;			/* the return value */
	char signer[BPFSIGN_NAME_MAX];	/* subject of the matching cert */
	char reason[256];		/* why it failed; on success "" or a warning
					 * the kernel does not act on (an ECDSA
					 * value it reads that is not DER) */
	bool checked;			/* the kernel's rules ran: err is their verdict */
	/* the identity of the key that verified it, as the kernel records it
	 * (fdinfo sig_key_sha256): SHA-256 of the matching certificate's
	 * subjectPublicKey BIT STRING contents, lowercase hex; "" when it did
	 * not verify, or when the signer's certificate is trusted through its
	 * issuer (no trusted key signed the data: the kernel records none).
	 * The signer key id is what a certificate says; this is what it
	 * cannot choose.
	 */
	char key_sha256[2 * 32 + 1];
};

/*
 * Verify the detached signature sig over the payload data, offline.
 * Exactly one of cert and ca_bundle is set:
 *   cert       the signer's certificate (PEM or DER): the signature must
 *              name it;
 *   ca_bundle  a PEM file of certificates, like a kernel keyring (e.g.
 *              keys-example/kernel-trusted.pem): the signer is one of them,
 *              or a certificate embedded in the signature chains to one.
 * Certificate validity dates are not checked (the kernel does not either).
 * rep may be NULL.  Returns 0 when the signature verifies, else the
 * negative errno of the first failed check (see above).
 */
LIBBPFSIGN_API int bpfsign_verify(const void *data, size_t len,
				  const unsigned char *sig, size_t sig_len,
				  const char *cert, const char *ca_bundle,
				  struct bpfsign_report *rep);

/*
 * Verifying many signatures against the same certificates: they are read
 * and parsed once.
 *   bpfsign_verifier_load()    exactly one of cert and ca_bundle, as in
 *                              bpfsign_verify(); -EINVAL, -ENOENT, ... as
 *                              for any file (report.checked stays false)
 *   bpfsign_signer_verifier()  the signer's own certificate, as cert (no
 *                              file is read): check what was just signed
 *   bpfsign_verifier_verify()  bpfsign_verify() against v; v is not
 *                              changed, and may be shared by threads
 */
struct bpfsign_verifier;

LIBBPFSIGN_API int bpfsign_verifier_load(const char *cert, const char *ca_bundle,
					 struct bpfsign_verifier **out);
LIBBPFSIGN_API int bpfsign_signer_verifier(const struct bpfsign_signer *s,
					   struct bpfsign_verifier **out);
LIBBPFSIGN_API int bpfsign_verifier_verify(const struct bpfsign_verifier *v,
					   const void *data, size_t len,
					   const unsigned char *sig, size_t sig_len,
					   struct bpfsign_report *rep);
LIBBPFSIGN_API void bpfsign_verifier_free(struct bpfsign_verifier *v);

/* One line about the last failure in this thread ("" if none). */
LIBBPFSIGN_API const char *bpfsign_last_error(void);

/* "EKEYREJECTED" for -EKEYREJECTED, ... (glibc's name), "OK" for 0, "EOTHER"
 * for what is not a negative errno: for machine-readable output. */
LIBBPFSIGN_API const char *bpfsign_errno_name(int err);

#ifdef __cplusplus
}
#endif

#endif /* LIBBPFSIGN_H */
