// SPDX-License-Identifier: GPL-2.0
/*
 * bpfsign-policy log: a policy's "events" ring buffer as JSON lines.
 * Reading consumes: records printed once are gone from the buffer.
 */
#include <errno.h>
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

/* One JSON line (common/out.c, the kit's one JSON writer), keys in the
 * order bpfsign-policy(8) documents. */
static void print_event(const struct log_state *st, const struct bpfsign_event *e)
{
	__u64 ns = e->boot_ns + st->realtime_minus_boot;
	time_t sec = ns / 1000000000ULL;
	const char *type = libbpf_bpf_prog_type_str(e->prog_type);
	const char *err_name = e->err < 0 ? strerrorname_np(-e->err) : NULL;
	char tbuf[32], when[48], comm[sizeof(e->comm) + 1];
	struct tm tm;
	struct out o;

	gmtime_r(&sec, &tm);
	strftime(tbuf, sizeof(tbuf), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(when, sizeof(when), "%s.%06lluZ", tbuf,
		 (unsigned long long)(ns % 1000000000ULL / 1000));
	snprintf(comm, sizeof(comm), "%.*s", (int)sizeof(e->comm), e->comm);

	out_begin_record(&o, stdout);
	out_str(&o, "time", when);
	out_int(&o, "boot_ns", (long long)e->boot_ns);
	out_str(&o, "policy", NAME_OF(policy_names, e->policy));
	out_int(&o, "pid", e->pid);
	out_int(&o, "uid", e->uid);
	out_str(&o, "comm", comm);
	if (type)
		out_str(&o, "prog_type", type);
	else
		out_int(&o, "prog_type", e->prog_type);
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
	out_int(&o, "errno", -e->err);
	if (err_name)
		out_str(&o, "error", err_name);
	else
		out_null(&o, "error");
	out_hex(&o, "digest", e->digest, BPFSIGN_DIGEST_LEN);
	out_end(&o);
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
	char pdir[PATH_MAX], path[PATH_MAX];
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
		err = 0;
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
		   "(bpfsign-policy(8)).\n"
		   "Without --follow, print what is buffered and exit.",
	.opts = log_opts,
	.nr_opts = ARRAY_SIZE(log_opts),
	.args = "[NAME]",
	.min_args = 0,
	.max_args = 1,
	.exits = policy_exits,
};
