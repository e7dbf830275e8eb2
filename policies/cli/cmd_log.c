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
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cmds.h"
#include "err.h"
#include "out.h"
#include "pins.h"
#include "policies.h"
#include "policy_maps.h"

enum { G_PIN_DIR, G_STATE_DIR, G_FOLLOW, G_COUNT };

#define DEFAULT_STATE_DIR "/run/bpfsign-policy"

static const struct opt log_opts[] = {
	[G_PIN_DIR] = { .name = "pin-dir", .arg = "DIR", .help = "bpffs directory of the pins (default " DEFAULT_PIN_DIR ")" },
	[G_STATE_DIR] = { .name = "state-dir", .arg = "DIR", .help = "where log keeps the last seq it printed, per policy (default " DEFAULT_STATE_DIR ")" },
	[G_FOLLOW] = { .name = "follow", .help = "wait for new records (until --count or a signal)" },
	[G_COUNT] = { .name = "count", .arg = "N", .help = "stop after N records" },
};

struct log_state {
	__u64 realtime_minus_boot;	/* ns */
	long max, printed;
	__u64 hi_start;			/* the last seq an earlier log printed */
	__u64 *seqs;			/* the seqs this run printed */
	size_t nr_seqs, cap;
	long replayed;			/* records at or below hi_start, or twice */
	bool nomem;
};

#define COUNT_REACHED 1000

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static const char *const decisions[] = { "allow", "deny", "would-deny", "reject" };
static const char *const stages[] = { "lsm", "signature", "verifier", "loaded", "guard",
				       "hook", "mac-admin" };
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
	/* keyring_serial, as audit names it: "serial" is a certificate's (vocab.h) */
	out_int(&o, "keyring_serial", e->serial);
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
	/* tally_any: the tally was full, any caller (the last one's pid) */
	if (t->key.uid == BPFSIGN_ANY_UID)
		out_null(&o, "uid");
	else
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
	if (t->key.uid == BPFSIGN_ANY_UID) {
		out_null(&o, "errno");
		out_null(&o, "error");
	} else {
		out_errno(&o, t->key.err);
	}
	out_end(&o);
}

static int by_first_seen(const void *a, const void *b)
{
	const struct tally_entry *x = a, *y = b;

	if (x->val.first_ns != y->val.first_ns)
		return x->val.first_ns < y->val.first_ns ? -1 : 1;
	return memcmp(&x->key, &y->key, sizeof(x->key));
}

/* The entries of a tally map (tally or tally_any) into tab from *n */
static int read_tally(const char *what, int fd, struct tally_entry *tab, int max, int *n)
{
	struct bpfsign_tally_key key, *prev = NULL;

	while (*n < max && !bpf_map_get_next_key(fd, prev, &key)) {
		tab[*n].key = key;
		prev = &tab[*n].key;
		/* entries are never deleted: every key found has a value */
		if (bpf_map_lookup_elem(fd, &key, &tab[*n].val))
			return kit_err(-errno, "%s: lookup: %s", what, strerror(errno));
		(*n)++;
	}
	return 0;
}

/* The whole tally and tally_any, oldest entry first. */
static int print_tallies(const struct log_state *st, const char *name, const struct policy_maps *m)
{
	int max = BPFSIGN_MAX_TALLIES + BPFSIGN_MAX_TALLY_ANY, n = 0, i, err;
	struct tally_entry *tab;

	tab = calloc(max, sizeof(*tab));
	if (!tab)
		return kit_err(-ENOMEM, "%s: tally: out of memory", name);
	err = read_tally("tally", m->fd[PM_TALLY], tab, BPFSIGN_MAX_TALLIES, &n);
	if (!err && m->fd[PM_TALLY_ANY] >= 0)
		err = read_tally("tally_any", m->fd[PM_TALLY_ANY], tab, max, &n);
	if (!err) {
		qsort(tab, n, sizeof(*tab), by_first_seen);
		for (i = 0; i < n; i++)
			print_tally(st, &tab[i]);
	}
	free(tab);
	return err;
}

static int on_event(void *ctx, void *data, size_t size)
{
	const struct bpfsign_event *e = data;
	struct log_state *st = ctx;
	__u64 *more;

	if (size < sizeof(struct bpfsign_event))
		return 0;	/* a record of another layout: skip it */
	/* printed by an earlier log: the consumer position was moved back */
	if (e->seq <= st->hi_start) {
		st->replayed++;
		return 0;
	}
	if (st->nr_seqs == st->cap) {
		more = realloc(st->seqs, (st->cap ? st->cap * 2 : 1024) * sizeof(*more));
		if (!more) {
			st->nomem = true;
			return -ENOMEM;
		}
		st->seqs = more;
		st->cap = st->cap ? st->cap * 2 : 1024;
	}
	st->seqs[st->nr_seqs++] = e->seq;
	print_event(st, data);
	st->printed++;
	return st->max && st->printed >= st->max ? -COUNT_REACHED : 0;
}

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/* DIR/NAME.seq: "PROG_ID SEQ", the last seq log printed of that program */
static void state_path(char *buf, size_t size, const char *dir, const char *name)
{
	snprintf(buf, size, "%s/%s.seq", dir, name);
}

static __u64 state_read(const char *path, __u32 prog_id)
{
	unsigned long long seq = 0;
	unsigned int id = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return 0;
	/* another load of the policy numbers from 1 again */
	if (fscanf(f, "%u %llu", &id, &seq) != 2 || id != prog_id)
		seq = 0;
	fclose(f);
	return seq;
}

static void state_write(const char *dir, const char *path, __u32 prog_id, __u64 seq)
{
	char tmp[PATH_MAX + 8];
	FILE *f;

	/* and its parent, /run in an initramfs that has none yet */
	if (mkdir(dir, 0700) && errno == ENOENT) {
		snprintf(tmp, sizeof(tmp), "%s", dir);
		if (strrchr(tmp, '/') && strrchr(tmp, '/') != tmp) {
			*strrchr(tmp, '/') = 0;
			mkdir(tmp, 0755);
		}
		mkdir(dir, 0700);
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f)
		goto fail;
	fprintf(f, "%u %llu\n", prog_id, (unsigned long long)seq);
	if (fclose(f) || rename(tmp, path))
		goto fail;
	return;
fail:
	fprintf(stderr, "bpfsign-policy log: warning: %s: %s: the next log cannot tell replayed records\n",
		path, strerror(errno));
}

/*
 * The last line: what the seqs and the counters say about the records.
 * Every record has a seq 1, 2, ... in the order it was reserved: a seq
 * an earlier log printed (state file) or printed twice is "replayed"
 * (someone moved the ring buffer's consumer position back), a seq never
 * printed is "missing" (moved forward, or read by another consumer).  And
 * stats: each decision recorded (allow only by audit-log) is ringed,
 * tallied or lost.  Non-zero
 * replayed or missing, or counters that do not add up: -EBADMSG.
 */
static int summary(const struct policy_desc *d, struct log_state *st, const struct policy_maps *m,
		   __u64 ringed_before, bool drained, __u64 *hi)
{
	__u64 n[BPFSIGN_STAT_MAX], recorded, max, missing = 0, uniq = 0;
	int tries;
	struct out o;
	size_t i;
	__u32 k;

	/* a load between count(decision) and its ring buffer or tally count
	 * makes them differ for a moment: only a lasting difference counts
	 */
	for (tries = 0; tries < 5; tries++) {
		if (tries)
			usleep(20000);
		memset(n, 0, sizeof(n));
		recorded = 0;
		for (k = 0; k < BPFSIGN_STAT_MAX; k++)
			bpf_map_lookup_elem(m->fd[PM_STATS], &k, &n[k]);
		/* deny-unsigned and keyring-allowlist count their allows,
		 * record only the rest
		 */
		for (k = d->records_allow ? BPFSIGN_STAT_ALLOW : BPFSIGN_STAT_DENY;
		     k <= BPFSIGN_STAT_REJECT; k++)
			recorded += n[k];
		if (recorded == n[BPFSIGN_STAT_RINGED] + n[BPFSIGN_STAT_TALLIED] +
				n[BPFSIGN_STAT_LOST])
			break;
	}
	qsort(st->seqs, st->nr_seqs, sizeof(*st->seqs), cmp_u64);
	for (i = 0; i < st->nr_seqs; i++) {
		if (i && st->seqs[i] == st->seqs[i - 1])
			st->replayed++;
		else
			uniq++;
	}
	max = st->nr_seqs ? st->seqs[st->nr_seqs - 1] : st->hi_start;
	/* all read: every seq reserved before log started should have been
	 * printed (not stats[ringed] now: later loads may still be writing)
	 */
	if (drained && ringed_before > max)
		max = ringed_before;
	if (max > st->hi_start + uniq)
		missing = max - st->hi_start - uniq;
	*hi = max;

	out_begin_record(&o, stdout);
	out_str(&o, "summary", d->name);
	out_int(&o, "prog_id", m->prog_id);
	out_int(&o, "printed", st->printed);
	out_int(&o, "replayed", st->replayed);
	out_int(&o, "missing", missing);
	out_int(&o, "last_seq", max);
	out_int(&o, "ringed", n[BPFSIGN_STAT_RINGED]);
	out_int(&o, "tallied", n[BPFSIGN_STAT_TALLIED]);
	out_int(&o, "lost", n[BPFSIGN_STAT_LOST]);
	out_int(&o, "recorded", recorded);
	out_bool(&o, "consistent", recorded == n[BPFSIGN_STAT_RINGED] + n[BPFSIGN_STAT_TALLIED] +
					      n[BPFSIGN_STAT_LOST]);
	out_end(&o);
	if (st->replayed || missing)
		return kit_err(-EBADMSG, "%s: %ld records replayed (printed by an earlier log, or twice), %llu missing (never printed): the ring buffer's consumer position was moved",
			       d->name, st->replayed, (unsigned long long)missing);
	if (recorded != n[BPFSIGN_STAT_RINGED] + n[BPFSIGN_STAT_TALLIED] + n[BPFSIGN_STAT_LOST])
		return kit_err(-EBADMSG, "%s: counters do not add up: %llu recorded, %llu ringed + %llu tallied + %llu lost: written by a program other than the policy",
			       d->name, (unsigned long long)recorded,
			       (unsigned long long)n[BPFSIGN_STAT_RINGED],
			       (unsigned long long)n[BPFSIGN_STAT_TALLIED],
			       (unsigned long long)n[BPFSIGN_STAT_LOST]);
	return 0;
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
	const char *sdir = p->val[G_STATE_DIR] ? p->val[G_STATE_DIR] : DEFAULT_STATE_DIR;
	char pdir[PATH_MAX], path[PATH_MAX], spath[PATH_MAX];
	struct policy_maps m;
	__u32 ringed_key = BPFSIGN_STAT_RINGED;
	__u64 hi, ringed_before = 0;
	bool drained;
	char *end;
	int err, err2;

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
	if (err)
		return err;
	if (access(pdir, F_OK))
		return kit_err(-errno, "%s: not loaded? %s: %s", d->name, pdir, strerror(errno));
	/* the maps of the policy's program, never a map pin alone */
	err = policy_maps_open(d->name, pdir, &m);
	if (err)
		return err;
	state_path(spath, sizeof(spath), sdir, d->name);
	st.hi_start = state_read(spath, m.prog_id);
	st.realtime_minus_boot = clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_BOOTTIME);
	rb = ring_buffer__new(m.fd[PM_EVENTS], on_event, &st, NULL);
	if (!rb) {
		err = kit_err(-errno, "%s: ring buffer: %s", path, strerror(errno));
		goto out;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	bpf_map_lookup_elem(m.fd[PM_STATS], &ringed_key, &ringed_before);
	err = ring_buffer__consume(rb);
	while (p->val[G_FOLLOW] && err >= 0 && !stop)
		err = ring_buffer__poll(rb, 200);
	drained = err >= 0 && !p->val[G_FOLLOW];
	if (err == -COUNT_REACHED || (err == -EINTR && stop))
		err = 0;
	if (st.nomem)
		err = kit_err(-ENOMEM, "%s: out of memory", d->name);
	else if (err < 0)
		err = kit_err(err, "%s: ring buffer: %s", path, strerror(-err));
	else
		err = print_tallies(&st, d->name, &m);
	ring_buffer__free(rb);
	if (!err) {
		err2 = summary(d, &st, &m, ringed_before, drained, &hi);
		state_write(sdir, spath, m.prog_id, hi);
		err = err2;
	}
out:
	free(st.seqs);
	policy_maps_close(&m);
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
		   "count), first and last time and pid; it is not consumed.  When the tally\n"
		   "is full too, per reason alone (\"uid\": null, any caller).\n"
		   "Last, a \"summary\" line: records replayed (a seq an earlier log printed:\n"
		   "the consumer position was moved back) or missing (a seq never printed),\n"
		   "and whether recorded = ringed + tallied + lost in the counters; exit\n"
		   "non-zero if not.  The last seq printed is kept in --state-dir.\n"
		   "Without --follow, print what is buffered and exit.",
	.opts = log_opts,
	.nr_opts = ARRAY_SIZE(log_opts),
	.args = "[NAME]",
	.min_args = 0,
	.max_args = 1,
	.exits = policy_exits,
};
