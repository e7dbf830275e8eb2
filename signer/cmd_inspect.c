// SPDX-License-Identifier: GPL-2.0
/* bpfsign inspect: what a signature is made of, and whether the kernel takes it. */
#include <errno.h>
#include <stdlib.h>

#include "cmds.h"
#include "info.h"
#include "internal.h"

enum { O_JSON, O_PRETTY };

static const struct opt opts[] = {
	[O_JSON] = { .name = "json", .short_name = 'j',
		.help = "print the report as one JSON object" },
	[O_PRETTY] = { .name = "pretty", .short_name = 'p',
		.help = "print it as indented JSON (implies --json)" },
};

/* The codes of verify for the same bytes: inspect needs no key, so no 5. */
static const struct exit_code exits[] = {
	{ 0, 0, "the signature has the form the kernel takes" },
	{ EXIT_FAIL, ERR_ANY, "SIG cannot be read" },
	{ EXIT_USAGE, ERR_NONE, "usage error" },
	{ EXIT_REJECTED, -EKEYREJECTED, "a kernel rule refuses its form (S/MIME capabilities, a repeated\n     attribute)" },
	{ EXIT_MALFORMED, -EBADMSG, "malformed signature: neither OpenSSL nor the kernel's parser reads it" },
	{ EXIT_NOPKG, -ENOPKG, "a digest or algorithm the kernel does not have" },
	{ EXIT_KPARSE, -EINVAL, "the kernel's parser refuses it (EINVAL): a version, content type or\n     size BPF_PROG_LOAD refuses" },
	{ 0, 0, NULL },
};

/*
 * Who signed, with what, and whether the kernel takes the form: no key is
 * needed, as modinfo(8) shows a module's signer.  A signature only the
 * kernel's parser would judge still gets the whole report (nulls where
 * nothing was parsed), with the errno verify gives for the same bytes.
 */
static int run(const struct cmd *cmd, const struct parsed *a)
{
	enum out_fmt fmt = out_fmt(a->val[O_JSON], a->val[O_PRETTY]);
	struct bpfsign_info info;
	unsigned char *sig;
	struct out o;
	size_t len;
	int err;

	(void)cmd;
	err = read_input(a->args[0], BPFSIGN_MAX_SIG_SIZE, &sig, &len);
	if (err) {
		if (fmt != OUT_PLAIN)
			out_failure(&o, fmt, a->args[0], err, bpfsign_last_error());
		return err;
	}
	err = bpfsign_inspect(sig, len, &info);
	free(sig);
	if (!err && !info.kernel_ok) {
		err = info.kernel_err;
		kit_err(err, "%s: %s", a->args[0], info.reason);
	} else if (err) {
		kit_err(err, "%s: %s", a->args[0], bpfsign_last_error());
	}
	out_begin(&o, stdout, fmt);
	out_sig_report(&o, a->args[0], NULL, NULL, &info, err, err ? kit_last_error() : "");
	out_end(&o);
	return err;
}

const struct cmd cmd_inspect = {
	.prog = "bpfsign",
	.name = "inspect",
	.run = run,
	.summary = "Describe the signature SIG (\"-\": standard input) without a key, as\n"
		   "modinfo shows a module's signer: who signed (key id, or issuer and\n"
		   "serial), with which digest and algorithm, the sizes, and whether it has\n"
		   "the form the kernel takes (else the errno verify gives for it).",
	.opts = opts,
	.nr_opts = ARRAY_SIZE(opts),
	.args = "SIG",
	.min_args = 1,
	.max_args = 1,
	.exits = exits,
};
