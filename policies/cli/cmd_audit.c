// SPDX-License-Identifier: GPL-2.0
/*
 * bpfsign-policy audit: every BPF program loaded on this host, with the
 * signature verdict the kernel shows in its fdinfo (the kit's kernel:
 * sig_verdict, sig_keyring, sig_key, sig_key_sha256, kernel_load,
 * loader_*), judged against a policy file as keyring-allowlist would judge
 * its load: the kernel's own loads (kernel_load, CONFIG_BPF_PRELOAD) are
 * admitted as kernel_own_load() admits them.  JSON lines, one program
 * each, like bpfsign-policy log.  Read-only: BPF_PROG_GET_NEXT_ID and
 * BPF_PROG_GET_FD_BY_ID (CAP_SYS_ADMIN), nothing is loaded or changed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cmds.h"
#include "err.h"
#include "out.h"
#include "policy_file.h"
#include "policy_load.h"

enum { A_POLICY };

static const struct opt audit_opts[] = {
	[A_POLICY] = { .name = "policy", .arg = "FILE", .help = "judge against this policy file (default: the builtin and secondary keyrings, as 'load keyring-allowlist' without --policy)" },
};

static const char default_policy[] = "keyring allow builtin\nkeyring allow secondary\n";

#define EXIT_NOT_ADMITTED EXIT_REJECTED

/* One side of a program's verdict in fdinfo: its own (sig_*) or its loader's */
struct sig_view {
	char verdict[16];
	char keyring[16];
	long keyring_serial;
	char key_id[2 * 64 + 1];	/* the skid as fdinfo shows it, "" for none */
	struct bpfsign_key_digest key;	/* the key's identity */
	bool has_key;			/* key is set: not "none" */
	long key_serial;
};

struct prog_view {
	__u32 id, type;
	char name[BPF_OBJ_NAME_LEN];
	struct sig_view sig;
	long loader_id;
	bool kernel_load;		/* fdinfo kernel_load: the kernel's own */
	struct sig_view loader;
};

/* "KEY:\tVALUE" lines of /proc/self/fdinfo/FD into the view; -ENOTSUP when
 * the kernel shows no verdict.
 */
static int read_fdinfo(int fd, struct prog_view *v)
{
	char path[64], line[256], *val;
	bool seen = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return kit_err(-errno, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		struct sig_view *s;
		const char *k;

		val = strchr(line, '\t');
		if (!val)
			continue;
		*val++ = 0;
		val[strcspn(val, "\n")] = 0;
		if (!strcmp(line, "loader_id:")) {
			v->loader_id = strtol(val, NULL, 10);
			continue;
		}
		if (!strcmp(line, "kernel_load:")) {
			v->kernel_load = !strcmp(val, "1");
			continue;
		}
		if (!strncmp(line, "sig_", 4)) {
			s = &v->sig;
			k = line + 4;
		} else if (!strncmp(line, "loader_", 7)) {
			s = &v->loader;
			k = line + 7;
		} else {
			continue;
		}
		if (!strcmp(k, "verdict:")) {
			snprintf(s->verdict, sizeof(s->verdict), "%s", val);
			seen = seen || s == &v->sig;
		} else if (!strcmp(k, "keyring:")) {
			snprintf(s->keyring, sizeof(s->keyring), "%s", val);
		} else if (!strcmp(k, "keyring_serial:")) {
			s->keyring_serial = strtol(val, NULL, 10);
		} else if (!strcmp(k, "key:")) {
			snprintf(s->key_id, sizeof(s->key_id), "%s", strcmp(val, "none") ? val : "");
		} else if (!strcmp(k, "key_sha256:")) {
			/* "none", or a digest that does not parse: no key */
			s->has_key = policy_parse_key_digest(val, &s->key);
		} else if (!strcmp(k, "key_serial:")) {
			s->key_serial = strtol(val, NULL, 10);
		}
	}
	fclose(f);
	return seen ? 0 : kit_err(-ENOTSUP, "%s: no sig_verdict: this kernel does not show the signature verdict of programs (the bpfsign kernel series does)",
				  path);
}

static __u32 keyring_type(const char *name)
{
	const char *n;
	__u32 k;

	for (k = 1; k < BPFSIGN_KEYRING_TYPES; k++) {
		n = policy_keyring_name(k);
		if (n && !strcmp(n, name))
			return k;
	}
	return BPFSIGN_KEYRING_NONE;
}

/* keyring_allowed(): the exact (type, serial) rule, else the type's "any" */
static bool keyring_allowed(const struct policy *pol, __u32 type, long serial)
{
	const struct policy_rule *any = NULL;
	int i;

	for (i = 0; i < pol->nr_rules; i++) {
		const struct policy_rule *r = &pol->rules[i];

		if (r->keyring != type)
			continue;
		if (!r->any && r->serial == serial)
			return r->allow;
		if (r->any)
			any = r;
	}
	return any && any->allow;
}

static bool loader_keyring_allowed(const struct policy *pol, __u32 type)
{
	int i;

	for (i = 0; i < pol->nr_rules; i++)
		if (pol->rules[i].keyring == type && pol->rules[i].allow)
			return true;
	return false;
}

static bool key_allowed(const struct policy *pol, const struct sig_view *s)
{
	int i;

	if (!pol->nr_keys)
		return true;
	for (i = 0; s->has_key && i < pol->nr_keys; i++)
		if (!memcmp(&pol->keys[i], &s->key, sizeof(s->key)))
			return true;
	return false;
}

/* NULL when the policy admits the program, else why not */
static const char *judge(const struct policy *pol, const struct prog_view *v,
			 const char **admitted_as)
{
	*admitted_as = NULL;
	/* kernel_own_load(): the kernel's own, admitted before any rule */
	if (v->kernel_load && !v->loader_id) {
		*admitted_as = "kernel";
		return NULL;
	}
	if (!strcmp(v->sig.verdict, "verified")) {
		if (!keyring_allowed(pol, keyring_type(v->sig.keyring), v->sig.keyring_serial))
			return "keyring not allowed";
		return key_allowed(pol, &v->sig) ? NULL : "key not allowed";
	}
	if (v->loader_id && !strcmp(v->loader.verdict, "verified")) {
		if (!pol->allow_children)
			return "children denied";
		if (!loader_keyring_allowed(pol, keyring_type(v->loader.keyring)))
			return "loader's keyring not allowed";
		return key_allowed(pol, &v->loader) ? NULL : "loader's key not allowed";
	}
	if (pol->allow_unsigned)
		return NULL;
	if (v->type < BPFSIGN_MAX_PROG_TYPES && (pol->allow_types >> v->type) & 1)
		return NULL;
	return v->loader_id ? "loaded by an unsigned loader" : "unsigned";
}

/* name_id: the skid, name_sha256: the digest of the key, null when none */
static void out_key(struct out *o, const char *name_id, const char *name_sha256,
		    const struct sig_view *s)
{
	char hex[2 * BPFSIGN_KEY_SHA256_LEN + 1];

	if (s->key_id[0])
		out_str(o, name_id, s->key_id);
	else
		out_null(o, name_id);
	if (!s->has_key)
		return out_null(o, name_sha256);
	policy_key_digest_str(&s->key, hex);
	out_str(o, name_sha256, hex);
}

static void print_prog(const struct prog_view *v, const char *why, const char *admitted_as)
{
	const char *type = libbpf_bpf_prog_type_str(v->type);
	struct out o;

	out_begin_record(&o, stdout);
	out_int(&o, "id", v->id);
	out_str(&o, "name", v->name);
	if (type)
		out_str(&o, "prog_type", type);
	else
		out_int(&o, "prog_type", v->type);
	out_str(&o, "verdict", v->sig.verdict);
	out_str(&o, "keyring", v->sig.keyring);
	out_int(&o, "keyring_serial", v->sig.keyring_serial);
	out_key(&o, "key_id", "key_sha256", &v->sig);
	out_int(&o, "key_serial", v->sig.key_serial);
	out_bool(&o, "kernel_load", v->kernel_load);
	out_int(&o, "loader_id", v->loader_id);
	if (v->loader_id) {
		out_str(&o, "loader_verdict", v->loader.verdict);
		out_str(&o, "loader_keyring", v->loader.keyring);
		out_key(&o, "loader_key_id", "loader_key_sha256", &v->loader);
	} else {
		out_null(&o, "loader_verdict");
		out_null(&o, "loader_keyring");
		out_null(&o, "loader_key_id");
		out_null(&o, "loader_key_sha256");
	}
	out_bool(&o, "admitted", !why);
	/* why not, or "kernel" for the kernel's own loads */
	if (why || admitted_as)
		out_str(&o, "reason", why ? why : admitted_as);
	else
		out_null(&o, "reason");
	out_end(&o);
}

static int run_audit(const struct cmd *cmd, const struct parsed *p)
{
	const char *path = p->val[A_POLICY];
	struct bpf_prog_info info;
	int err, fd, flagged = 0;
	struct prog_view v;
	struct policy pol;
	__u32 id = 0, len;
	const char *why, *as;

	(void)cmd;
	err = path ? policy_load_file(path, &pol) :
		     policy_parse("(default policy)", default_policy, sizeof(default_policy) - 1, &pol);
	if (err == -EINVAL)
		return fprintf(stderr, "bpfsign-policy audit: %s\n", kit_last_error()), EXIT_INVALID;
	if (err)
		return err;
	while (!bpf_prog_get_next_id(id, &id)) {
		fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0 && errno == ENOENT)
			continue;	/* unloaded since: nothing to audit */
		if (fd < 0)
			return kit_err(-errno, "program %u: %s", id, strerror(errno));
		memset(&v, 0, sizeof(v));
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		err = bpf_prog_get_info_by_fd(fd, &info, &len);
		if (err) {
			err = kit_err(-errno, "program %u: info: %s", id, strerror(errno));
			close(fd);
			return err;
		}
		v.id = id;
		v.type = info.type;
		snprintf(v.name, sizeof(v.name), "%s", info.name);
		err = read_fdinfo(fd, &v);
		close(fd);
		if (err)
			return err;
		why = judge(&pol, &v, &as);
		flagged += !!why;
		print_prog(&v, why, as);
	}
	if (errno != ENOENT)
		return kit_err(-errno, "BPF_PROG_GET_NEXT_ID: %s", strerror(errno));
	return flagged ? EXIT_NOT_ADMITTED : 0;
}

static const struct exit_code audit_exits[] = {
	POLICY_EXITS,
	{ EXIT_NOT_ADMITTED, ERR_NONE, "some program is not admitted by the policy (\"admitted\": false)" },
	{ EXIT_INVALID, ERR_NONE, "the policy file is malformed (the message names the line)" },
	{ 0, 0, NULL },
};

const struct cmd cmd_audit = {
	.prog = "bpfsign-policy",
	.name = "audit",
	.run = run_audit,
	.summary = "List every BPF program loaded on this host as JSON lines: id, name, prog_type,\n"
		   "verdict, keyring, keyring_serial, key_id, key_sha256, key_serial, kernel_load,\n"
		   "loader_id, loader_verdict, loader_keyring, loader_key_id, loader_key_sha256,\n"
		   "admitted, reason (bpfsign-policy(8)), from the\n"
		   "verdict the kernel shows in each program's fdinfo, and flag (\"admitted\": false)\n"
		   "what the policy FILE would not admit, as keyring-allowlist judges a load.",
	.opts = audit_opts,
	.nr_opts = ARRAY_SIZE(audit_opts),
	.exits = audit_exits,
};
