// SPDX-License-Identifier: GPL-2.0
/*
 * bpfsign-policy check: parse a policy file and print what keyring-allowlist
 * would enforce.  No bpf(2) call: safe anywhere.
 */
#include <errno.h>
#include <stdio.h>

#include "cmds.h"
#include "err.h"
#include "policy_load.h"

enum { C_POLICY };

static const struct opt check_opts[] = {
	[C_POLICY] = { .name = "policy", .arg = "FILE", .help = "the policy file to check", .required = true },
};

/* key allow sha256:HEX, in file order, lowercase hex without separators */
static void print_policy_keys(const struct policy *pol)
{
	char hex[2 * BPFSIGN_KEY_SHA256_LEN + 1];
	int i;

	for (i = 0; i < pol->nr_keys; i++) {
		policy_key_digest_str(&pol->keys[i], hex);
		printf("key allow sha256:%s\n", hex);
	}
}

static void print_policy(const struct policy *pol)
{
	const char *name;
	__u32 t;
	int i;

	printf("mode %s\n", pol->permissive ? "permissive" : "enforce");
	printf("unsigned %s\n", pol->allow_unsigned ? "allow " POLICY_WEAKENS : "deny");
	/* in type order, not file order: the printed form is a fixed point */
	for (t = 0; t < BPFSIGN_MAX_PROG_TYPES; t++)
		if (pol->allow_types & (1ULL << t))
			printf("unsigned allow type %s%s\n", policy_prog_type_name(t),
			       pol->ack_types & (1ULL << t) ? " " POLICY_WEAKENS : "");
	printf("children %s\n", pol->allow_children ? "allow" : "deny");
	for (i = 0; i < pol->nr_rules; i++) {
		const struct policy_rule *r = &pol->rules[i];

		name = policy_keyring_name(r->keyring);
		printf("keyring %s ", r->allow ? "allow" : "deny");
		if (name)
			printf("%s", name);
		else
			printf("%u", r->keyring);
		if (!r->any)
			printf(" serial %d", r->serial);
		printf("\n");
	}
	print_policy_keys(pol);
}

static int run_check(const struct cmd *cmd, const struct parsed *p)
{
	const char *path = p->val[C_POLICY];
	struct policy pol;
	int err;

	(void)cmd;
	err = policy_load_file(path, &pol);
	if (err == -EINVAL)
		return fprintf(stderr, "bpfsign-policy check: %s\n", kit_last_error()), EXIT_INVALID;
	if (err)
		return err;
	if (pol.nr_signers) {
		fprintf(stderr, "bpfsign-policy check: %s:%d: signer: not enforceable, use 'key allow sha256:HEX' (load refuses it)\n",
			path, pol.signer_lines[0]);
		return EXIT_INVALID;
	}
	policy_warn("bpfsign-policy check", path, &pol);
	print_policy(&pol);
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
