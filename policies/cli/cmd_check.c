// SPDX-License-Identifier: GPL-2.0
/*
 * bpfsign-policy check: parse a policy file and print what keyring-allowlist
 * would enforce.  No bpf(2) call: safe anywhere.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "err.h"
#include "out.h"
#include "policy_load.h"

enum { C_POLICY, C_JSON, C_PRETTY };

static const struct opt check_opts[] = {
	[C_POLICY] = { .name = "policy", .arg = "FILE", .help = "the policy file to check", .required = true },
	[C_JSON] = { .name = "json", .short_name = 'j',
		.help = "print the result as one JSON object: file, error, errno, reason, policy_text" },
	[C_PRETTY] = { .name = "pretty", .short_name = 'p',
		.help = "print it as indented JSON (implies --json)" },
};

/* key allow sha256:HEX, in file order, lowercase hex without separators */
static void print_policy_keys(FILE *f, const struct policy *pol)
{
	char hex[2 * BPFSIGN_KEY_SHA256_LEN + 1];
	int i;

	for (i = 0; i < pol->nr_keys; i++) {
		policy_key_digest_str(&pol->keys[i], hex);
		fprintf(f, "key allow sha256:%s\n", hex);
	}
}

static void print_policy(FILE *f, const struct policy *pol)
{
	const char *name;
	__u32 t;
	int i;

	fprintf(f, "mode %s\n", pol->permissive ? "permissive" : "enforce");
	fprintf(f, "unsigned %s\n", pol->allow_unsigned ? "allow " POLICY_WEAKENS : "deny");
	/* in type order, not file order: the printed form is a fixed point */
	for (t = 0; t < BPFSIGN_MAX_PROG_TYPES; t++)
		if (pol->allow_types & (1ULL << t))
			fprintf(f, "unsigned allow type %s%s\n", policy_prog_type_name(t),
			       pol->ack_types & (1ULL << t) ? " " POLICY_WEAKENS : "");
	fprintf(f, "children %s\n", pol->allow_children ? "allow" : "deny");
	for (i = 0; i < pol->nr_rules; i++) {
		const struct policy_rule *r = &pol->rules[i];

		name = policy_keyring_name(r->keyring);
		fprintf(f, "keyring %s ", r->allow ? "allow" : "deny");
		if (name)
			fprintf(f, "%s", name);
		else
			fprintf(f, "%u", r->keyring);
		if (!r->any)
			fprintf(f, " serial %d", r->serial);
		fprintf(f, "\n");
	}
	print_policy_keys(f, pol);
}

/* --json: the normalised policy as one string, one directive a line */
static int print_json(enum out_fmt fmt, const char *path, const struct policy *pol)
{
	char *text = NULL;
	size_t len = 0;
	struct out o;
	FILE *f;

	f = open_memstream(&text, &len);
	if (!f)
		return kit_err(-ENOMEM, "%s: %s", path, strerror(ENOMEM));
	print_policy(f, pol);
	fclose(f);
	out_begin(&o, stdout, fmt);
	out_str(&o, "file", path);
	out_error(&o, out_errno_name(0), 0, "");
	out_str(&o, "policy_text", text);
	out_end(&o);
	free(text);
	return 0;
}

/* A file that is not a policy: EBADMSG, the errno of every tool's "not the
 * format it reads" (vocab.h EXIT_MALFORMED), exit 4. */
static int invalid(enum out_fmt fmt, const char *path)
{
	struct out o;

	fprintf(stderr, "bpfsign-policy check: %s\n", kit_last_error());
	if (fmt != OUT_PLAIN)
		out_failure(&o, fmt, path, -EBADMSG, kit_last_error());
	return EXIT_INVALID;
}

static int run_check(const struct cmd *cmd, const struct parsed *p)
{
	enum out_fmt fmt = out_fmt(p->val[C_JSON], p->val[C_PRETTY]);
	const char *path = p->val[C_POLICY];
	struct policy pol;
	struct out o;
	int err;

	(void)cmd;
	err = policy_load_file(path, &pol);
	if (err == -EINVAL)
		return invalid(fmt, path);
	if (err) {
		if (fmt != OUT_PLAIN)
			out_failure(&o, fmt, path, err, kit_last_error());
		return err;
	}
	if (pol.nr_signers) {
		kit_err(-EINVAL, "%s:%d: signer: not enforceable, use 'key allow sha256:HEX' (load refuses it)",
			path, pol.signer_lines[0]);
		return invalid(fmt, path);
	}
	policy_warn("bpfsign-policy check", path, &pol);
	if (fmt != OUT_PLAIN)
		return print_json(fmt, path, &pol);
	print_policy(stdout, &pol);
	return 0;
}

static const struct exit_code check_exits[] = {
	POLICY_EXITS,
	{ EXIT_INVALID, ERR_NONE, "the policy file is malformed (the message names the line), has a\n"
				  "     signer line, which cannot be enforced, or allows unsigned ext, lsm or\n"
				  "     syscall programs ('unsigned allow', or 'unsigned allow type' of one of\n"
				  "     them) without 'weakens-policy' on the line" },
	{ 0, 0, NULL },
};

const struct cmd cmd_check = {
	.prog = "bpfsign-policy",
	.name = "check",
	.run = run_check,
	.summary = "Parse the policy file FILE and print the allowlist that 'load keyring-allowlist'\n"
		   "would install, one directive a line.  Warns on stderr, with the line and\n"
		   "why, for each 'unsigned allow type' of a type that weakens the policy\n"
		   "(ext, lsm, syscall: refused without 'weakens-policy'; tracing, kprobe,\n"
		   "tracepoint, raw_tracepoint, raw_tracepoint_writable, perf_event,\n"
		   "struct_ops), and for each of them under a blanket 'unsigned allow', which\n"
		   "is refused without 'weakens-policy'.  Needs no kernel support and makes\n"
		   "no bpf(2) call.",
	.opts = check_opts,
	.nr_opts = ARRAY_SIZE(check_opts),
	.exits = check_exits,
};
