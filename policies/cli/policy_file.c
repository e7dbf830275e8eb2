// SPDX-License-Identifier: GPL-2.0
/*
 * Policy files, one directive a line:
 *
 *   # comment                       (also after a directive)
 *   mode enforce|permissive          default enforce
 *   unsigned allow [weakens-policy]|deny
 *                                    default deny; allow admits every type,
 *                                    ext, lsm and syscall too: it needs
 *                                    weakens-policy
 *   unsigned allow type NAME [weakens-policy]
 *                                    repeatable: unsigned programs of that type
 *                                    pass even with unsigned deny; NAME as
 *                                    libbpf_bpf_prog_type_str() spells it;
 *                                    ext, lsm and syscall need weakens-policy
 *   children allow|deny              default allow: programs of a VERIFIED loader
 *                                    whose keyring type has an allow rule
 *   keyring allow|deny KEYRING [serial N]
 *                                    KEYRING: builtin, secondary, platform, user,
 *                                    bpf, or its enum bpf_sig_keyring number
 *                                    (1-255); serial N (user keyrings, numbers):
 *                                    only the keyring with that serial
 *   signer KEYID                     hex key id; parsed, not enforceable
 *   key allow sha256:HEX             repeatable: signed programs pass only if the
 *                                    key that verified them (their loader's) is
 *                                    listed by its public key's SHA-256, besides
 *                                    their keyring (policy_keys.c)
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "err.h"
#include "policy_file.h"

#define MAX_WORDS 6
#define MAX_LINE 512
/* how far to ask libbpf for names: past BPFSIGN_MAX_PROG_TYPES, so that a
 * newer libbpf's type that does not fit the bitmap is refused by name
 * rather than called unknown
 */
#define PROG_TYPE_SCAN 256

static const char *const keyring_names[] = {
	[BPFSIGN_KEYRING_BUILTIN] = "builtin",
	[BPFSIGN_KEYRING_SECONDARY] = "secondary",
	[BPFSIGN_KEYRING_PLATFORM] = "platform",
	[BPFSIGN_KEYRING_USER] = "user",
	[BPFSIGN_KEYRING_BPF] = "bpf",
};

const char *policy_keyring_name(__u32 keyring)
{
	if (keyring < sizeof(keyring_names) / sizeof(keyring_names[0]))
		return keyring_names[keyring];
	return NULL;
}

const char *policy_prog_type_name(__u32 type)
{
	if (type >= PROG_TYPE_SCAN)
		return NULL;
	return libbpf_bpf_prog_type_str((enum bpf_prog_type)type);
}

/* " bpf_lsm_bpf_prog_load bpf_lsm_bpf_prog ...": BPFSIGN_POLICY_HOOKS */
#define HOOK_NAME(fn)		" " #fn
#define POLICY_HOOK_NAMES	BPFSIGN_POLICY_HOOKS(HOOK_NAME)

/*
 * The types whose unsigned programs reach past what they attach to.  The
 * first three take over signed code or the policy's own job, and need
 * weakens-policy on their line; the others read kernel memory or change
 * kernel behaviour, and are warned about.
 */
static const struct policy_type_risk type_risks[] = {
	{ BPF_PROG_TYPE_EXT, true,
	  "an unsigned freplace program replaces a global function of a loaded program, "
	  "a signed one's too: the signed program then runs unsigned code" },
	{ BPF_PROG_TYPE_LSM, true,
	  "an unsigned BPF LSM program is a security policy of its own: it can refuse "
	  "any operation its hook covers (loading and unloading the kit's policies "
	  "included) and read kernel memory; one on the policies' own hooks is "
	  "refused all the same (stage hook)" },
	{ BPF_PROG_TYPE_SYSCALL, true,
	  "an unsigned syscall program runs bpf(2) commands from inside the kernel "
	  "(bpf_sys_bpf()): it is an unsigned loader, creating and updating maps, "
	  "loading programs (its children are unsigned here) and attaching them" },
	{ BPF_PROG_TYPE_TRACING, false,
	  "fentry/fexit/iterator programs read kernel memory; fmod_ret programs are "
	  "refused all the same (on security_*() they decide for every LSM, this policy "
	  "included), and so is any unsigned program that would attach to a function "
	  "the kit's policies attach to:" POLICY_HOOK_NAMES " (their trampolines "
	  "must keep room for the policies: stage hook)" },
	{ BPF_PROG_TYPE_KPROBE, false,
	  "kprobes read kernel memory, write user memory, and with bpf_override_return() "
	  "make error-injectable kernel functions fail" },
	{ BPF_PROG_TYPE_TRACEPOINT, false,
	  "tracepoint programs read kernel memory and write user memory" },
	{ BPF_PROG_TYPE_RAW_TRACEPOINT, false,
	  "raw tracepoint programs read kernel memory and write user memory" },
	{ BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, false,
	  "writable raw tracepoint programs also write the tracepoint's buffer" },
	{ BPF_PROG_TYPE_PERF_EVENT, false,
	  "perf event programs read kernel memory and write user memory" },
	{ BPF_PROG_TYPE_STRUCT_OPS, false,
	  "struct_ops programs replace kernel operations: TCP congestion control, "
	  "sched_ext schedulers" },
};

const struct policy_type_risk *policy_type_risk(__u32 type)
{
	size_t i;

	for (i = 0; i < sizeof(type_risks) / sizeof(type_risks[0]); i++)
		if (type_risks[i].type == type)
			return &type_risks[i];
	return NULL;
}

void policy_init(struct policy *pol)
{
	memset(pol, 0, sizeof(*pol));
	pol->allow_children = true;
}

/* A decimal number in [min, max], the whole word. */
static bool parse_num(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!*s || strchr(s, '+'))
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

static bool parse_keyring(const char *s, __u32 *keyring)
{
	long v;
	__u32 i;

	for (i = 1; i < sizeof(keyring_names) / sizeof(keyring_names[0]); i++) {
		if (keyring_names[i] && !strcmp(s, keyring_names[i])) {
			*keyring = i;
			return true;
		}
	}
	if (!parse_num(s, 1, 255, &v))
		return false;
	*keyring = v;
	return true;
}

/* allow|deny */
static int parse_action(const char *name, int line, const char *what, const char *s, bool *allow)
{
	if (!s)
		return kit_err(-EINVAL, "%s:%d: %s: expected allow or deny", name, line, what);
	if (!strcmp(s, "allow"))
		*allow = true;
	else if (!strcmp(s, "deny"))
		*allow = false;
	else
		return kit_err(-EINVAL, "%s:%d: %s: expected allow or deny, got '%s'",
			       name, line, what, s);
	return 0;
}

static bool hex_keyid(const char *s)
{
	size_t n = strlen(s);

	if (n < 2 || n > 128 || n % 2)
		return false;
	return strspn(s, "0123456789abcdefABCDEF") == n;
}

static int parse_keyring_rule(const char *name, int line, char **w, int nw, struct policy *pol)
{
	struct policy_rule r = { .line = line, .any = true };
	long serial;
	int i, err;

	err = parse_action(name, line, "keyring", nw > 1 ? w[1] : NULL, &r.allow);
	if (err)
		return err;
	if (nw < 3)
		return kit_err(-EINVAL, "%s:%d: keyring: expected a keyring after %s",
			       name, line, w[1]);
	if (!parse_keyring(w[2], &r.keyring))
		return kit_err(-EINVAL, "%s:%d: keyring: unknown keyring '%s' (builtin, secondary, platform, user, bpf or 1-255)",
			       name, line, w[2]);
	if (nw > 3) {
		if (strcmp(w[3], "serial") || nw != 5)
			return kit_err(-EINVAL, "%s:%d: keyring: expected 'serial N' after %s",
				       name, line, w[2]);
		/* the named system keyrings have one fixed serial each */
		if (r.keyring != BPFSIGN_KEYRING_USER && policy_keyring_name(r.keyring))
			return kit_err(-EINVAL, "%s:%d: keyring: serial applies to user keyrings, not %s",
				       name, line, w[2]);
		if (!parse_num(w[4], 1, INT_MAX, &serial))
			return kit_err(-EINVAL, "%s:%d: keyring: bad serial '%s' (1-%d)",
				       name, line, w[4], INT_MAX);
		r.any = false;
		r.serial = serial;
	}
	for (i = 0; i < pol->nr_rules; i++) {
		const struct policy_rule *o = &pol->rules[i];

		if (o->keyring == r.keyring && o->any == r.any && o->serial == r.serial)
			return kit_err(-EINVAL, "%s:%d: keyring: %s%s already given on line %d",
				       name, line, w[2], r.any ? "" : " with this serial", o->line);
	}
	if (pol->nr_rules == BPFSIGN_MAX_KEYRINGS)
		return kit_err(-EINVAL, "%s:%d: keyring: more than %d keyring lines",
			       name, line, BPFSIGN_MAX_KEYRINGS);
	pol->rules[pol->nr_rules++] = r;
	return 0;
}

/* unsigned allow type NAME */
static int parse_type_rule(const char *name, int line, char **w, int nw, struct policy *pol)
{
	const struct policy_type_risk *risk;
	const char *tname;
	bool allow;
	__u32 t;
	int err;

	err = parse_action(name, line, "unsigned", w[1], &allow);
	if (err)
		return err;
	/* a deny would be a no-op: every type without an allow line is denied */
	if (!allow)
		return kit_err(-EINVAL, "%s:%d: unsigned: 'deny type' is the default, only 'allow type NAME' is a rule",
			       name, line);
	if (nw < 4)
		return kit_err(-EINVAL, "%s:%d: unsigned: expected a program type after 'type'",
			       name, line);
	if (nw > 5 || (nw == 5 && strcmp(w[4], POLICY_WEAKENS)))
		return kit_err(-EINVAL, "%s:%d: unsigned: unexpected '%s'", name, line,
			       strcmp(w[4], POLICY_WEAKENS) ? w[4] : w[5]);
	for (t = 0; t < PROG_TYPE_SCAN; t++) {
		tname = policy_prog_type_name(t);
		if (tname && !strcmp(tname, w[3]))
			break;
	}
	if (t == PROG_TYPE_SCAN)
		return kit_err(-EINVAL, "%s:%d: unsigned: unknown program type '%s' (libbpf's names: socket_filter, kprobe, cgroup_skb, tracing, lsm, syscall, ...)",
			       name, line, w[3]);
	/* the kernel refuses to load it anyway: a rule for it is a mistake */
	if (t == BPF_PROG_TYPE_UNSPEC)
		return kit_err(-EINVAL, "%s:%d: unsigned: program type 'unspec' names no loadable program",
			       name, line);
	if (t >= BPFSIGN_MAX_PROG_TYPES)
		return kit_err(-EINVAL, "%s:%d: unsigned: program type '%s' (%u) does not fit the policy's %d-bit type set",
			       name, line, w[3], t, BPFSIGN_MAX_PROG_TYPES);
	if (pol->type_lines[t])
		return kit_err(-EINVAL, "%s:%d: unsigned: type %s already given on line %d",
			       name, line, w[3], pol->type_lines[t]);
	risk = policy_type_risk(t);
	if (nw == 5 && !risk)
		return kit_err(-EINVAL, "%s:%d: unsigned: type %s is not one that weakens the policy beyond what it attaches to: remove '" POLICY_WEAKENS "'",
			       name, line, w[3]);
	if (nw == 4 && risk && risk->confirm)
		return kit_err(-EINVAL, "%s:%d: unsigned: type %s weakens the policy: %s; end the line with '" POLICY_WEAKENS "' to allow it all the same",
			       name, line, w[3], risk->why);
	pol->allow_types |= 1ULL << t;
	if (nw == 5)
		pol->ack_types |= 1ULL << t;
	pol->type_lines[t] = line;
	return 0;
}

static int parse_line(const char *name, int line, char **w, int nw, struct policy *pol,
		      int *seen_mode, int *seen_unsigned, int *seen_children)
{
	int err;

	if (!strcmp(w[0], "keyring"))
		return parse_keyring_rule(name, line, w, nw, pol);
	if (!strcmp(w[0], "key"))
		return policy_parse_key_rule(name, line, w, nw, pol);

	if (!strcmp(w[0], "mode")) {
		if (*seen_mode)
			return kit_err(-EINVAL, "%s:%d: mode already given on line %d",
				       name, line, *seen_mode);
		if (nw != 2 || (strcmp(w[1], "enforce") && strcmp(w[1], "permissive")))
			return kit_err(-EINVAL, "%s:%d: mode: expected enforce or permissive",
				       name, line);
		pol->permissive = !strcmp(w[1], "permissive");
		*seen_mode = line;
		return 0;
	}
	/* independent of "unsigned allow|deny", which it may follow or precede */
	if (!strcmp(w[0], "unsigned") && nw > 2 && !strcmp(w[2], "type"))
		return parse_type_rule(name, line, w, nw, pol);
	if (!strcmp(w[0], "unsigned") || !strcmp(w[0], "children")) {
		int *seen = w[0][0] == 'u' ? seen_unsigned : seen_children;
		bool *allow = w[0][0] == 'u' ? &pol->allow_unsigned : &pol->allow_children;

		if (*seen)
			return kit_err(-EINVAL, "%s:%d: %s already given on line %d",
				       name, line, w[0], *seen);
		err = parse_action(name, line, w[0], nw > 1 ? w[1] : NULL, allow);
		if (err)
			return err;
		/* every type: the ones that need weakens-policy singly need it here */
		if (w[0][0] == 'u' && *allow && nw == 3 && !strcmp(w[2], POLICY_WEAKENS))
			pol->ack_unsigned = true;
		else if (nw > 2)
			return kit_err(-EINVAL, "%s:%d: %s: unexpected '%s'", name, line, w[0], w[2]);
		else if (w[0][0] == 'u' && *allow)
			return kit_err(-EINVAL, "%s:%d: unsigned: 'unsigned allow' admits unsigned programs of every type, ext, lsm and syscall included, and weakens the policy (unsigned freplace of signed code, LSM programs of their own, unsigned loaders); end the line with '" POLICY_WEAKENS "' to allow it all the same, or allow only the types you need with 'unsigned allow type NAME'",
				       name, line);
		if (w[0][0] == 'u')
			pol->unsigned_line = line;
		*seen = line;
		return 0;
	}
	if (!strcmp(w[0], "signer")) {
		if (nw != 2 || !hex_keyid(w[1]))
			return kit_err(-EINVAL, "%s:%d: signer: expected one hex key id", name, line);
		if (pol->nr_signers == POLICY_MAX_SIGNERS)
			return kit_err(-EINVAL, "%s:%d: signer: more than %d signer lines",
				       name, line, POLICY_MAX_SIGNERS);
		pol->signer_lines[pol->nr_signers++] = line;
		return 0;
	}
	return kit_err(-EINVAL, "%s:%d: unknown directive '%s' (mode, unsigned, children, keyring, key, signer)",
		       name, line, w[0]);
}

int policy_parse(const char *name, const char *text, size_t len, struct policy *pol)
{
	int line = 0, seen_mode = 0, seen_unsigned = 0, seen_children = 0, nw, err;
	char buf[MAX_LINE + 1], *w[MAX_WORDS + 1], *tok, *save;
	size_t off = 0, n;
	const char *nl;

	policy_init(pol);
	while (off < len) {
		line++;
		nl = memchr(text + off, '\n', len - off);
		n = nl ? (size_t)(nl - (text + off)) : len - off;
		if (n > MAX_LINE)
			return kit_err(-EINVAL, "%s:%d: line longer than %d bytes", name, line, MAX_LINE);
		memcpy(buf, text + off, n);
		buf[n] = 0;
		off += n + (nl ? 1 : 0);
		if (strlen(buf) != n)
			return kit_err(-EINVAL, "%s:%d: NUL byte in the line", name, line);
		if ((tok = strchr(buf, '#')))
			*tok = 0;
		nw = 0;
		for (tok = strtok_r(buf, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
			if (nw == MAX_WORDS)
				return kit_err(-EINVAL, "%s:%d: too many words", name, line);
			w[nw++] = tok;
		}
		if (!nw)
			continue;
		w[nw] = NULL;
		err = parse_line(name, line, w, nw, pol, &seen_mode, &seen_unsigned, &seen_children);
		if (err)
			return err;
	}
	return 0;
}
