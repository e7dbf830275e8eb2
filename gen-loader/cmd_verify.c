// SPDX-License-Identifier: GPL-2.0
/* gen-loader verify: audit a signed light skeleton offline. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cmds.h"
#include "libbpfsign.h"
#include "err.h"
#include "file.h"
#include "loader.h"
#include "hex.h"
#include "regen.h"
#include "skel_internal_sha.h"

enum { O_CERT, O_CA, O_JSON, O_PRETTY, O_SKEL_INTERNAL, O_OBJECT, O_NAME, O_KEYRING, O_BTF, O_TARGET_CONFIG, O_MAX_CPUS,
       O_MAP_SIZE };

static const struct opt verify_opts[] = {
	[O_CERT] = { "cert", 0, "CERT", "the signer's certificate, PEM or DER", false, 1 },
	[O_CA] = { "ca", 0, "BUNDLE", "PEM certificates, as a kernel keyring: the signer is one of them", false, 1 },
	[O_JSON] = { "json", 'j', NULL, "print each report as one JSON object on one line" },
	[O_PRETTY] = { "pretty", 'p', NULL, "print each report as indented JSON (implies --json)" },
	[O_SKEL_INTERNAL] = { "skel-internal", 0, "PATH", "check first that PATH is byte for byte the skel_internal.h this kit ships (where bpf_load_and_run() is, which every header's load runs); else exit 3 and no header is audited" },
	[O_OBJECT] = { "object", 0, "OBJ.bpf.o", "re-emit the whole header from this object and the generation options below, with its signature, and compare byte for byte: a format 2 header can then be verified (one HEADER)" },
	[O_NAME] = { "name", 0, "NAME", "with --object: as gen-loader --name (default: the header's name)" },
	[O_KEYRING] = { "keyring-id", 0, "N", "with --object: as gen-loader --keyring-id (default 0)" },
	[O_BTF] = { "btf", 0, "VMLINUX", "with --object: as gen-loader --btf" },
	[O_TARGET_CONFIG] = { "target-config", 0, "KCONFIG", "with --object: as gen-loader --target-config" },
	[O_MAX_CPUS] = { "max-cpus", 0, "N", "with --object: as gen-loader --max-cpus" },
	[O_MAP_SIZE] = { "map-size", 0, "MAP=N[:VSIZE],...", "with --object: as gen-loader --map-size" },
};

/*
 * --object: the header must be what gen-loader writes for the auditor's
 * object and options, with the header's signature, byte for byte.
 */
static int verify_object(const struct parsed *p, const char *path, const char *text, size_t len,
			 const struct lskel *h, struct verdict *v)
{
	struct regen_opts o = {
		.obj = p->val[O_OBJECT],
		.name = p->val[O_NAME] ? p->val[O_NAME] : h->name,
		.btf = p->val[O_BTF],
		.target_config = p->val[O_TARGET_CONFIG],
		.max_cpus = p->val[O_MAX_CPUS],
		.map_size = p->val[O_MAP_SIZE],
		.format = h->format,
		.sig = h->r[R_SIGNATURE].len ? h->r[R_SIGNATURE].buf : NULL,
		.sig_sz = h->r[R_SIGNATURE].len,
	};
	size_t want_len;
	char *want;
	int err;

	if (h->generator == LSKEL_GEN_BPFTOOL)
		return kit_err(-EOPNOTSUPP, "%s: --object re-emits gen-loader's headers; this one is bpftool's (compare it with what bpftool gen skeleton writes for the object)",
			       path);
	err = p->val[O_KEYRING] ? parse_keyring_id(p->val[O_KEYRING], &o.keyring_id) : 0;
	if (!err)
		err = regen_header(&o, &want, &want_len);
	if (err)
		return err;
	err = check_object(v, path, o.obj, text, len, want, want_len);
	free(want);
	return err;
}

/*
 * --skel-internal: "verified" covers the header, and its load is made by
 * bpf_load_and_run() of the skel_internal.h it includes: that file must
 * be the kit's, byte for byte.
 */
static int check_skel_internal(const char *path)
{
	char got[2 * DIGEST_SIZE + 1];
	__u8 d[DIGEST_SIZE];
	unsigned char *buf;
	size_t len;
	int err;

	err = read_file(path, 16 << 20, &buf, &len);
	if (err)
		return err;
	sha256(buf, len, d);
	free(buf);
	hex_str(got, sizeof(got), d, DIGEST_SIZE);
	if (strcmp(got, SKEL_INTERNAL_SHA256))
		return kit_err(-EKEYREJECTED, "%s: modified: not the skel_internal.h this kit ships (SHA-256 %s, the kit's %s): bpf_load_and_run() there is what every header's load runs",
			       path, got, SKEL_INTERNAL_SHA256);
	return 0;
}

/* --json: a failure without a report is still one JSON object, the same
 * four keys as every tool's (file, error, errno, reason) */
static void report_error(const struct parsed *p, const char *path, int err)
{
	enum out_fmt fmt = out_fmt(p->val[O_JSON], p->val[O_PRETTY]);
	struct out o;

	if (fmt != OUT_PLAIN)
		out_failure(&o, fmt, path, err, kit_last_error());
}

/* 0 verified, EXIT_PARTIAL arrays-verified (partial_msg says why), or a negative errno */
static int verify_one(const struct parsed *p, const char *path,
		      const struct bpfsign_verifier *vf, char *partial_msg, size_t msg_sz)
{
	unsigned char *text;
	struct verdict v;
	struct lskel h;
	struct out o;
	size_t len;
	int err;

	err = read_input(path, LSKEL_MAX_SIZE, &text, &len);
	if (err) {
		report_error(p, path, err);
		return err;
	}
	err = lskel_parse(path, (const char *)text, len, &h);
	if (err) {
		free(text);
		err = malformed_input(err);
		report_error(p, path, err);
		return err;
	}
	err = check_header(path, (const char *)text, len, &h, vf, &v);
	if (!err && p->val[O_OBJECT])
		err = verify_object(p, path, (const char *)text, len, &h, &v);
	free(text);
	v.skel_internal = p->val[O_SKEL_INTERNAL];
	/* a part the structure checks cannot read: not the format read (4) */
	if (err == -ENOEXEC && !(v.judged && err == v.err))
		err = malformed_input(err);
	if (v.judged && err == v.err) {
		out_begin(&o, stdout, out_fmt(p->val[O_JSON], p->val[O_PRETTY]));
		check_report(&o, path, &h, &v);
		out_end(&o);
	} else {
		report_error(p, path, err);
	}
	lskel_free(&h);
	/* not an error, and not "verified" either: its own exit code */
	if (!err && v.arrays_verified) {
		snprintf(partial_msg, msg_sz, "%s: arrays-verified, not verified: not signed: %s",
			 path, v.unsigned_part);
		return EXIT_PARTIAL;
	}
	return err;
}

/* How bad a header's result is, for the batch's exit: exit_rank() (vocab.h). */
static int severity(const struct cmd *cmd, int err)
{
	return exit_rank(err > 0 ? err : err < 0 ? exit_code(cmd, err) : 0);
}

/* Every HEADER in one process; the exit code is the worst header's (severity()). */
static int run_verify(const struct cmd *cmd, const struct parsed *p)
{
	struct bpfsign_verifier *vf;
	int i, err, first = 0, failed = 0;
	char first_msg[1024] = "", msg[1024];

	for (i = O_NAME; i <= O_MAP_SIZE; i++)
		if (p->val[i] && !p->val[O_OBJECT])
			return usage_error(cmd, "--%s is an option of --object", verify_opts[i].name);
	if (p->val[O_OBJECT] && p->nr_args != 1)
		return usage_error(cmd, "--object: one HEADER, the object's");
	if (p->val[O_OBJECT])
		gl_libbpf_print_init(0);
	/* what every header's load runs, before any header is called verified */
	if (p->val[O_SKEL_INTERNAL]) {
		err = check_skel_internal(p->val[O_SKEL_INTERNAL]);
		if (err) {
			for (i = 0; i < p->nr_args; i++)
				report_error(p, p->args[i], err);
			return err;
		}
	}
	/* the certificates are read once, for every header */
	err = bpfsign_verifier_load(p->val[O_CERT], p->val[O_CA], &vf);
	if (err) {
		kit_err(err, "%s", bpfsign_last_error());
		/* not a certificate: not the kernel parser's EINVAL (vocab.h) */
		err = malformed_input(err);
		for (i = 0; i < p->nr_args; i++)
			report_error(p, p->args[i], err);
		return err;
	}
	for (i = 0; i < p->nr_args; i++) {
		err = verify_one(p, p->args[i], vf, msg, sizeof(msg));
		if (!err)
			continue;
		failed++;
		if (err > 0 && p->nr_args > 1)
			fprintf(stderr, "gen-loader verify: %s\n", msg);
		else if (p->nr_args > 1)
			fprintf(stderr, "gen-loader verify: %s\n", kit_last_error());
		if (severity(cmd, err) > severity(cmd, first)) {
			first = err;
			snprintf(first_msg, sizeof(first_msg), "%s", err > 0 ? msg : kit_last_error());
		}
	}
	bpfsign_verifier_free(vf);
	/* EXIT_PARTIAL is returned as is: prog_main() prints only errnos */
	if (first > 0 && p->nr_args > 1)
		fprintf(stderr, "gen-loader verify: %d of %d headers not verified; the worst: %s\n",
			failed, p->nr_args, first_msg);
	else if (first > 0)
		fprintf(stderr, "gen-loader verify: %s\n", first_msg);
	else if (first && p->nr_args > 1)
		kit_err(first, "%d of %d headers not verified; the worst: %s", failed, p->nr_args,
			first_msg);
	else if (first)
		kit_err(first, "%s", first_msg);
	return first;
}

static const struct exit_code verify_exits[] = {
	{ 0, 0, "verified: every byte of the header is signed or re-emitted byte for byte\n     from signed bytes, and the signature verifies" },
	{ EXIT_FAIL, ERR_ANY, "failed, as the message says (an unreadable file or certificate; --object:\n     an object gen-loader refuses, or a bpftool header)" },
	{ EXIT_USAGE, ERR_NONE, "usage error" },
	{ EXIT_REJECTED, -EKEYREJECTED, "rejected or modified: a region was altered, another key signed it, or\n     the text is not what gen-loader writes for its arrays (--object: for the\n     object and options given)" },
	{ EXIT_MALFORMED, -EBADMSG, "HEADER is not a header gen-loader or bpftool wrote (malformed,\n     truncated), its signature is malformed, or CERT or BUNDLE is not a\n     certificate" },
	SIG_EXITS,
	{ EXIT_PARTIAL, ERR_NONE, "arrays-verified: the signed arrays verify, but C the load runs is neither\n     signed nor re-emitted from signed bytes (--no-trailer, bpftool -L -S, and\n     gen-loader 1.0 headers); \"unsigned\" names it" },
	{ EXIT_UNSIGNED, -ENODATA, "unsigned: the header carries no signature" },
	{ 0, 0, NULL },
};

const struct cmd cmd_verify = {
	.prog = "gen-loader",
	.name = "verify",
	.run = run_verify,
	.summary = "Audit each HEADER file offline (one report each, one JSON object per line\n"
		   "with --json; with several, the exit status is the worst\n"
		   "header's: 3 (rejected or modified) over 4 (malformed) over 1 (failed)\n"
		   "over 8 (arrays-verified), so that 8 means every header not verified is\n"
		   "arrays-verified):\n"
		   "re-emit it from the arrays, name and keyring it carries and compare byte\n"
		   "for byte (else the verdict is modified;\n"
		   "format 2, --no-trailer: up to the end of the arrays; the unsigned C\n"
		   "after them and bpftool's C are checked for structure, which only refuses),\n"
		   "rebuild insns || metadata, check that excl_hash is the loader's digest\n"
		   "(SHA-256 of insns) and verify the signature.  The verdict is verified only\n"
		   "when every byte is signed or re-emitted from signed bytes; a header with\n"
		   "unsigned C (format 2, bpftool -L -S) is arrays-verified at best, exit 8;\n"
		   "with --object, a gen-loader header is re-emitted whole from the object\n"
		   "and can be verified.  The verdict covers the header file, not the\n"
		   "skel_internal.h (bpf_load_and_run()) nor the headers it is compiled with:\n"
		   "--skel-internal compares the former with the kit's.",
	.opts = verify_opts,
	.nr_opts = ARRAY_SIZE(verify_opts),
	.args = "HEADER...",
	.min_args = 1,
	.max_args = -1,
	.exits = verify_exits,
};
