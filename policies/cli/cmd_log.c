// SPDX-License-Identifier: GPL-2.0
/*
 * bpfsign-policy log: a policy's "events" ring buffer as JSON lines, then
 * its "tally", the records the buffer had no room for, one line per caller
 * and reason with a count.  Reading consumes the buffer: records printed
 * once are gone from it.  The tally is frozen (no bpf(2) command deletes
 * from it): it is printed whole each time, cumulative since the load.
 */
#include <errno.h>
#include <stdio.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cmds.h"
#include "err.h"
#include "out.h"
#include "pins.h"
#include "policies.h"

enum { G_PIN_DIR, G_FOLLOW, G_COUNT };

static const struct opt log_opts[] = {
	[G_PIN_DIR] = { .name = "pin-dir", .arg = "DIR", .help = "bpffs directory of the pins (default " DEFAULT_PIN_DIR ")" },
	[G_FOLLOW] = { .name = "follow", .help = "wait for new records (until --count or a signal)" },
	[G_COUNT] = { .name = "count", .arg = "N", .help = "stop after N records" },
};

struct log_state {
	__u64 realtime_minus_boot;	/* ns */
	long max, printed;
};

#define COUNT_REACHED 1000

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static const char *const decisions[] = { "allow", "deny", "would-deny", "reject" };
static const char *const stages[] = { "lsm", "signature", "verifier", "loaded" };
static const char *const policy_names[] = { NULL, "deny-unsigned", "keyring-allowlist", "audit-log" };

#define NAME_OF(tab, i) ((i) < ARRAY_SIZE(tab) && (tab)[i] ? (tab)[i] : "unknown")

static const char *verdict_str(__u32 v)
{
	return v == BPFSIGN_VERIFIED ? "verified" : v == BPFSIGN_UNSIGNED ? "unsigned" : "unknown";
}

static const char *keyring_str(__u32 k)
{
	const char *name = policy_keyring_name(k);

	return k == BPFSIGN_KEYRING_NONE ? "none" : name ? name : "unknown";
}

/* boot_ns as UTC wall-clock time, microseconds */
static void wall_time(const struct log_state *st, __u64 boot_ns, char *when, size_t size)
{
	__u64 ns = boot_ns + st->realtime_minus_boot;
	time_t sec = ns / 1000000000ULL;
	char tbuf[32];
	struct tm tm;

	gmtime_r(&sec, &tm);
	strftime(tbuf, sizeof(tbuf), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(when, size, "%s.%06lluZ", tbuf, (unsigned long long)(ns % 1000000000ULL / 1000));
}

static void out_prog_type(struct out *o, __u32 prog_type)
{
	const char *type = libbpf_bpf_prog_type_str(prog_type);

	if (type)
		out_str(o, "prog_type", type);
	else
		out_int(o, "prog_type", prog_type);
}

static void out_errno(struct out *o, int err)
{
	const char *err_name = err < 0 ? strerrorname_np(-err) : NULL;

	out_int(o, "errno", -err);
	if (err_name)
		out_str(o, "error", err_name);
	else
		out_null(o, "error");
}

/* One JSON line (common/out.c, the kit's one JSON writer), keys in the
 * order bpfsign-policy(8) documents. */
static void print_event(const struct log_state *st, const struct bpfsign_event *e)
{
	char when[48], comm[sizeof(e->comm) + 1];
	struct out o;

	wall_time(st, e->boot_ns, when, sizeof(when));
	snprintf(comm, sizeof(comm), "%.*s", (int)sizeof(e->comm), e->comm);

	out_begin_record(&o, stdout);
	out_str(&o, "time", when);
	out_int(&o, "boot_ns", (long long)e->boot_ns);
	out_str(&o, "policy", NAME_OF(policy_names, e->policy));
	out_int(&o, "pid", e->pid);
	out_int(&o, "uid", e->uid);
	out_str(&o, "comm", comm);
	out_prog_type(&o, e->prog_type);
	out_bool(&o, "signed", e->signed_load);
	out_bool(&o, "kernel", e->kernel);
	out_str(&o, "verdict", verdict_str(e->verdict));
	out_str(&o, "keyring", keyring_str(e->keyring));
	out_int(&o, "serial", e->serial);
	out_int(&o, "keyring_id", e->keyring_id);
	out_int(&o, "loader_id", e->loader_id);
	if (e->loader_id) {
		out_str(&o, "loader_verdict", verdict_str(e->loader_verdict));
		out_str(&o, "loader_keyring", keyring_str(e->loader_keyring));
	} else {
		out_null(&o, "loader_verdict");
		out_null(&o, "loader_keyring");
	}
	out_str(&o, "decision", NAME_OF(decisions, e->decision));
	out_str(&o, "stage", NAME_OF(stages, e->stage));
	out_errno(&o, e->err);
	out_hex(&o, "digest", e->digest, BPFSIGN_DIGEST_LEN);
	out_end(&o);
}

struct tally_entry {
	struct bpfsign_tally_key key;
	struct bpfsign_tally val;
};

/* One line per tally entry: "tally" (the count) first, so that a reader
 * tells it from a record; then the fields of the records it stands for.
 */
static void print_tally(const struct log_state *st, const struct tally_entry *t)
{
	char first[48], last[48], comm[sizeof(t->val.last_comm) + 1];
	struct out o;

	wall_time(st, t->val.first_ns, first, sizeof(first));
	wall_time(st, t->val.last_ns, last, sizeof(last));
	snprintf(comm, sizeof(comm), "%.*s", (int)sizeof(t->val.last_comm), t->val.last_comm);

	out_begin_record(&o, stdout);
	out_int(&o, "tally", (long long)t->val.count);
	out_str(&o, "first", first);
	out_int(&o, "first_boot_ns", (long long)t->val.first_ns);
	out_str(&o, "last", last);
	out_int(&o, "last_boot_ns", (long long)t->val.last_ns);
	out_str(&o, "policy", NAME_OF(policy_names, t->key.policy));
	out_int(&o, "uid", t->key.uid);
	out_int(&o, "first_pid", t->val.first_pid);
	out_int(&o, "last_pid", t->val.last_pid);
	out_str(&o, "last_comm", comm);
	out_prog_type(&o, t->key.prog_type);
	out_bool(&o, "kernel", t->key.kernel);
	out_str(&o, "verdict", verdict_str(t->key.verdict));
	out_str(&o, "keyring", keyring_str(t->key.keyring));
	if (t->key.loader)
		out_str(&o, "loader_verdict", verdict_str(t->key.loader_verdict));
	else
		out_null(&o, "loader_verdict");
	out_str(&o, "decision", NAME_OF(decisions, t->key.decision));
	out_str(&o, "stage", NAME_OF(stages, t->key.stage));
	out_errno(&o, t->key.err);
	out_end(&o);
}

static int by_first_seen(const void *a, const void *b)
{
	const struct tally_entry *x = a, *y = b;

	if (x->val.first_ns != y->val.first_ns)
		return x->val.first_ns < y->val.first_ns ? -1 : 1;
	return memcmp(&x->key, &y->key, sizeof(x->key));
}

/* The whole tally, oldest entry first. */
static int print_tallies(const struct log_state *st, const char *path)
{
	struct bpfsign_tally_key key, *prev = NULL;
	struct tally_entry *tab;
	int fd, n = 0, i, err = 0;

	fd = bpf_obj_get(path);
	if (fd < 0)
		return kit_err(-errno, "%s: %s", path, strerror(errno));
	tab = calloc(BPFSIGN_MAX_TALLIES, sizeof(*tab));
	if (!tab) {
		close(fd);
		return kit_err(-ENOMEM, "%s: out of memory", path);
	}
	while (n < BPFSIGN_MAX_TALLIES && !bpf_map_get_next_key(fd, prev, &key)) {
		tab[n].key = key;
		prev = &tab[n].key;
		/* entries are never deleted: every key found has a value */
		if (bpf_map_lookup_elem(fd, &key, &tab[n].val)) {
			err = kit_err(-errno, "%s: lookup: %s", path, strerror(errno));
			goto out;
		}
		n++;
	}
	qsort(tab, n, sizeof(*tab), by_first_seen);
	for (i = 0; i < n; i++)
		print_tally(st, &tab[i]);
out:
	free(tab);
	close(fd);
	return err;
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct log_state *st = ctx;

	if (size < sizeof(struct bpfsign_event))
		return 0;	/* a record of another layout: skip it */
	print_event(st, data);
	st->printed++;
	return st->max && st->printed >= st->max ? -COUNT_REACHED : 0;
}

static __u64 clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int run_log(const struct cmd *cmd, const struct parsed *p)
{
	const struct policy_desc *d = policy_find(p->nr_args ? p->args[0] : "audit-log");
	const char *dir = p->val[G_PIN_DIR] ? p->val[G_PIN_DIR] : DEFAULT_PIN_DIR;
	struct log_state st = {};
	struct ring_buffer *rb;
	char pdir[PATH_MAX], path[PATH_MAX], tpath[PATH_MAX];
	char *end;
	int fd, err;

	if (!d)
		return usage_error(cmd, "unknown policy '%s'", p->args[0]);
	if (p->val[G_COUNT]) {
		errno = 0;
		st.max = strtol(p->val[G_COUNT], &end, 10);
		if (errno || *end || st.max < 1)
			return usage_error(cmd, "bad --count '%s' (a number >= 1)", p->val[G_COUNT]);
	}
	err = pin_path(pdir, sizeof(pdir), dir, d->name);
	err = err ?: pin_path(path, sizeof(path), pdir, "map_events");
	err = err ?: pin_path(tpath, sizeof(tpath), pdir, "map_tally");
	if (err)
		return err;
	fd = bpf_obj_get(path);
	if (fd < 0)
		return kit_err(-errno, "%s: not loaded? %s: %s", d->name, path, strerror(errno));
	st.realtime_minus_boot = clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_BOOTTIME);
	rb = ring_buffer__new(fd, on_event, &st, NULL);
	if (!rb) {
		err = kit_err(-errno, "%s: ring buffer: %s", path, strerror(errno));
		goto out;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	err = ring_buffer__consume(rb);
	while (p->val[G_FOLLOW] && err >= 0 && !stop)
		err = ring_buffer__poll(rb, 200);
	if (err == -COUNT_REACHED || (err == -EINTR && stop))
		err = 0;
	if (err < 0)
		err = kit_err(err, "%s: ring buffer: %s", path, strerror(-err));
	else
		err = print_tallies(&st, tpath);
	ring_buffer__free(rb);
out:
	close(fd);
	return err;
}

const struct cmd cmd_log = {
	.prog = "bpfsign-policy",
	.name = "log",
	.run = run_log,
	.summary = "Print the records of policy NAME (default audit-log) as JSON lines, and\n"
		   "consume them: time, pid, comm, prog_type, verdict, keyring, serial,\n"
		   "loader_id, loader_verdict, loader_keyring, decision, stage, errno, digest\n"
		   "(bpfsign-policy(8)).  Then the tally of the records the ring buffer had\n"
		   "no room for, one line per caller uid and reason, with \"tally\" (the\n"
		   "count), first and last time and pid; it is not consumed.\n"
		   "Without --follow, print what is buffered and exit.",
	.opts = log_opts,
	.nr_opts = ARRAY_SIZE(log_opts),
	.args = "[NAME]",
	.min_args = 0,
	.max_args = 1,
	.exits = policy_exits,
};
