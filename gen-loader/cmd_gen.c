// SPDX-License-Identifier: GPL-2.0
/* gen-loader OBJ.bpf.o -o NAME.lskel.h: the signed light skeleton. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "digest.h"
#include "emit.h"
#include "err.h"
#include "file.h"
#include "libbpfsign.h"
#include "loader.h"
#include "lskel.h"
#include "regen.h"
#include "tail_audit.h"
#include "trailer.h"

enum { O_OUT, O_NAME, O_KEY, O_CERT, O_KEYRING, O_DIGEST, O_BTF, O_TARGET_CONFIG, O_MAX_CPUS,
       O_MAP_SIZE, O_PAYLOAD, O_NO_TRAILER, O_VERBOSE };

static const struct opt gen_opts[] = {
	[O_OUT] = { "out", 'o', "HEADER", "the light skeleton header to write", true },
	[O_NAME] = { "name", 0, "NAME", "skeleton name: struct NAME, NAME__load() (default: the file name)" },
	[O_KEY] = { "key", 0, "KEY", "signing key: PEM or DER file, or pkcs11: URI (PIN in BPFSIGN_PIN)" },
	[O_CERT] = { "cert", 0, "CERT", "the key's X.509 certificate, PEM or DER" },
	[O_KEYRING] = { "keyring-id", 0, "N", "default keyring of NAME__load(): 0 builtin (default), 1 +secondary, 2 platform, or a key serial" },
	[O_DIGEST] = { "digest", 0, "sha256|sha384|sha512", "digest of the signature (default sha256)" },
	[O_BTF] = { "btf", 0, "VMLINUX", "the target kernel's vmlinux, for BTF (nothing is read from this machine's kernel)" },
	[O_TARGET_CONFIG] = { "target-config", 0, "KCONFIG", "the target kernel's .config: __kconfig externs, LINUX_KERNEL_VERSION (its '# Linux/ARCH RELEASE' line), CONFIG_NR_CPUS, CONFIG_PAGE_SHIFT" },
	[O_MAX_CPUS] = { "max-cpus", 0, "N", "most CPUs of the target: size of perf event arrays without max_entries (default CONFIG_NR_CPUS of --target-config, else 8192)" },
	[O_MAP_SIZE] = { "map-size", 0, "MAP=N[:VSIZE],...", "signed sizes of maps a tool sizes at run time: max_entries N (or 'cpus') and value size" },
	[O_PAYLOAD] = { "payload-out", 0, "FILE", "write the bytes to sign (insns || data) and an unsigned header, instead of --key/--cert" },
	[O_NO_TRAILER] = { "no-trailer", 0, NULL, "sign bpftool's payload, insns || libbpf's metadata, without the header's C: the signature of bpftool gen skeleton -L -S; the C after the arrays and the default keyring are then NOT signed (format 2: gen-loader verify says arrays-verified at best)" },
	[O_VERBOSE] = { "verbose", 'v', NULL, "print libbpf's debug messages" },
};

static int sign_payload(const struct parsed *p, const void *payload, size_t len,
			unsigned char **sig, size_t *sig_len)
{
	BPFSIGN_OPTS(bpfsign_sign_opts, sopts, .digest = p->val[O_DIGEST]);
	struct bpfsign_verifier *vf = NULL;
	struct bpfsign_signer *s;
	int err;

	err = bpfsign_signer_load(p->val[O_KEY], p->val[O_CERT], &sopts, &s);
	if (err)
		return kit_err(err, "%s", bpfsign_last_error());
	err = bpfsign_sign(s, payload, len, sig, sig_len);
	if (err) {
		bpfsign_signer_free(s);
		return kit_err(err, "%s", bpfsign_last_error());
	}
	/* never write a header the certificate does not verify: the
	 * signer's certificate, not read a second time */
	err = bpfsign_signer_verifier(s, &vf);
	bpfsign_signer_free(s);
	if (!err)
		err = bpfsign_verifier_verify(vf, payload, len, *sig, *sig_len, NULL);
	bpfsign_verifier_free(vf);
	if (err) {
		free(*sig);
		*sig = NULL;
		return kit_err(err, "%s: the new signature does not verify: %s",
			       p->val[O_CERT], bpfsign_last_error());
	}
	return 0;
}

/* No output may be an input, or the other output: each would be lost. */
static int check_outputs(const struct cmd *cmd, const struct parsed *p)
{
	const char *out = p->val[O_OUT], *pay = p->val[O_PAYLOAD], *in;
	const char *const ins[] = { p->args[0], p->val[O_KEY], p->val[O_CERT], p->val[O_BTF],
				    p->val[O_TARGET_CONFIG] };

	if (pay && same_file(out, pay))
		return usage_error(cmd, "%s: --out and --payload-out are the same file", out);
	in = output_is_input(out, ins, ARRAY_SIZE(ins));
	if (!in && pay)
		in = output_is_input(pay, ins, ARRAY_SIZE(ins));
	if (in == ins[0])
		return usage_error(cmd, "%s: an output is the object itself", in);
	if (in)
		return usage_error(cmd, "%s: an output is the --%s input", in,
				   in == ins[1] ? gen_opts[O_KEY].name :
				   in == ins[2] ? gen_opts[O_CERT].name :
				   in == ins[3] ? gen_opts[O_BTF].name : gen_opts[O_TARGET_CONFIG].name);
	return 0;
}

/*
 * gen-loader verify runs the structure check of tail_audit.h on the C after
 * the arrays of both formats (format 1: after the keyring's #define and its
 * blank line): refuse an object whose C would not pass it, before anything
 * is written.
 */
static int check_tail(const char *obj, const struct loader *l, const char *hdr, size_t hdr_len,
		      size_t tail_len, bool no_trailer, size_t data_sz)
{
	size_t line, first = 1, i, skip = 0;
	const char *tail = hdr + hdr_len - tail_len, *nl;
	char reason[512];

	if (!no_trailer) {
		nl = memchr(tail, '\n', tail_len);
		skip = nl ? (size_t)(nl - tail) + 2 : 0;
		if (skip > tail_len)
			skip = tail_len;
	}
	for (i = 0; i < hdr_len - tail_len + skip; i++)
		first += hdr[i] == '\n';
	if (!tail_audit(tail + skip, tail_len - skip, l->name, data_sz, first, reason,
			sizeof(reason), &line))
		return 0;
	if (!no_trailer)
		return kit_err(-EOPNOTSUPP, "%s: the header's C would not pass gen-loader verify's structure check (%s)",
			       obj, reason);
	return kit_err(-EOPNOTSUPP, "%s: --no-trailer: the header's C would not pass gen-loader verify's audit of unsigned C (%s): generate it without --no-trailer",
		       obj, reason);
}

static int run_gen(const struct cmd *cmd, const struct parsed *p)
{
	unsigned char *payload = NULL, *sig = NULL, *data = NULL;
	const char *obj = p->args[0];
	bool no_trailer = p->val[O_NO_TRAILER] != NULL;
	size_t len = 0, sig_len = 0, hdr_len, tail_len, data_sz;
	struct skel_parts parts = { 0 };
	__u8 excl_hash[DIGEST_SIZE];
	char *hdr = NULL, *tail = NULL;
	const void *signed_data;
	struct target t;
	struct loader l;
	int err;

	if (p->val[O_PAYLOAD] && (p->val[O_KEY] || p->val[O_CERT] || p->val[O_DIGEST]))
		return usage_error(cmd, "--payload-out makes an unsigned header: no --key, --cert or --digest");
	if (!p->val[O_PAYLOAD] && (!p->val[O_KEY] || !p->val[O_CERT]))
		return usage_error(cmd, "--key and --cert are required (or --payload-out)");
	err = check_outputs(cmd, p);
	if (err)
		return err;
	if (p->val[O_KEYRING]) {
		err = parse_keyring_id(p->val[O_KEYRING], &parts.keyring_id);
		if (err)
			return err;
	}
	gl_libbpf_print_init(p->val[O_VERBOSE] != NULL);

	err = target_init(&t, p->val[O_TARGET_CONFIG], p->val[O_MAX_CPUS], p->val[O_MAP_SIZE]);
	if (!err)
		err = loader_gen(obj, p->val[O_NAME], p->val[O_BTF], &t, &l);
	if (err) {
		target_free(&t);
		return err;
	}
	err = prog_digest(l.insns, l.insns_sz, excl_hash);
	if (err)
		goto out;
	/* the C after the arrays goes into the signed metadata, first;
	 * with --no-trailer the metadata is libbpf's alone, as bpftool signs it
	 */
	err = emit_tail(&l, no_trailer ? NULL : &parts.keyring_id, &tail, &tail_len);
	if (err) {
		kit_err(err, "%s: %s", obj, kit_last_error());
		goto out;
	}
	if (no_trailer) {
		signed_data = l.data;
		data_sz = l.data_sz;
	} else {
		err = trailer_append(l.data, l.data_sz, tail, tail_len, &data, &data_sz);
		if (err) {
			kit_err(err, "%s: %s", obj, kit_last_error());
			goto out;
		}
		signed_data = data;
	}
	len = l.insns_sz + data_sz;
	if (len > LOADER_MAX_SIGNED) {
		err = kit_err(-E2BIG, "%s: %zu signed bytes (insns || data): the kernel verifies at most %u; split the object",
			      obj, len, LOADER_MAX_SIGNED);
		goto out;
	}
	payload = malloc(len);
	if (!payload) {
		err = kit_err(-ENOMEM, "%s: %s", obj, strerror(ENOMEM));
		goto out;
	}
	memcpy(payload, l.insns, l.insns_sz);
	memcpy(payload + l.insns_sz, signed_data, data_sz);

	if (!p->val[O_PAYLOAD]) {
		err = sign_payload(p, payload, len, &sig, &sig_len);
		if (err)
			goto out;
	}
	parts.format = no_trailer ? LSKEL_FORMAT_NO_TRAILER : LSKEL_FORMAT_TRAILER;
	parts.name = l.name;
	parts.insns = l.insns;
	parts.insns_sz = l.insns_sz;
	parts.data = signed_data;
	parts.data_sz = data_sz;
	parts.excl_hash = excl_hash;
	parts.sig = sig;
	parts.sig_sz = sig_len;
	if (no_trailer) {
		parts.c = tail;
		parts.c_len = tail_len;
	}
	err = emit_header(&parts, &hdr, &hdr_len);
	if (err) {
		kit_err(err, "%s: %s", obj, kit_last_error());
		goto out;
	}
	/* data_sz: of the signed metadata, libbpf's blob alone in format 2 */
	err = check_tail(obj, &l, hdr, hdr_len, tail_len, no_trailer, data_sz);
	if (err)
		goto out;
	/* header and payload both, or neither */
	err = write_files((const struct file_out[]){
				{ p->val[O_OUT], hdr, hdr_len },
				{ p->val[O_PAYLOAD], payload, len },
			  }, p->val[O_PAYLOAD] ? 2 : 1);
out:
	free(hdr);
	free(tail);
	free(data);
	free(sig);
	free(payload);
	loader_free(&l);
	target_free(&t);
	return err;
}

/* every failure is 1: ENOEXEC or EKEYREJECTED here is not about a header */
static const struct exit_code gen_exits[] = {
	{ 0, 0, "the header was written" },
	{ EXIT_FAIL, ERR_ANY, "refused or failed, as the message says: nothing written" },
	{ EXIT_USAGE, ERR_NONE, "usage error" },
	{ 0, 0, NULL },
};

const struct cmd cmd_gen = {
	.prog = "gen-loader",
	.name = NULL,
	.run = run_gen,
	.summary = "Generate the loader of a BPF object with the patched libbpf (no bpf() syscall),\n"
		   "sign insns || metadata and write a light skeleton header that loads it\n"
		   "signed: NAME__open_and_load(), NAME__load_keyring(), NAME__attach() ...\n"
		   "The metadata ends with the header's C and its default keyring, so that\n"
		   "they are signed too; with --no-trailer it does not (bpftool's payload\n"
		   "and signature, unsigned C).",
	.opts = gen_opts,
	.nr_opts = ARRAY_SIZE(gen_opts),
	.args = "OBJ.bpf.o",
	.min_args = 1,
	.max_args = 1,
	.exits = gen_exits,
};
