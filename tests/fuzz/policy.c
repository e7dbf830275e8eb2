// SPDX-License-Identifier: GPL-2.0
/*
 * Policy mode (--policy): the BPF LSM policies of policies/ attached for
 * the whole run, deny-unsigned and keyring-allowlist, loaded and pinned by
 * the guest's /tests/bpfsign-policy as an operator would, with a policy
 * file that allows every system keyring (builtin, secondary, platform,
 * .bpf) and the children of loaders they verified.  What the model then
 * predicts: an unsigned program from user space, a program verified by a
 * caller keyring, and the children of an unsigned or caller-keyring loader
 * are refused with EPERM where bpf_check() calls the LSM (after the
 * signature and bpf_sig_enforce, before the verifier proper).
 *
 * And the provenance invariant, from the kernel's own record of each
 * admitted load (AUDIT_BPF, the fuzzer is the audit daemon): every
 * program that loads carries as loader-id and loader-verdict the loader
 * whose run loaded it, and none for a load from user space; no program
 * that is neither verified nor the child of a verified loader loads.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/netlink.h>
#include <bpf/bpf.h>
#undef MAX_LINKS	/* linux/audit.h's; the pool's is fuzz.h's */

#include "fuzz.h"
#include "ops.h"
#include "audit.h"

#define CLI		"/tests/bpfsign-policy"
#define POLICY_FILE	"/tmp/fuzz.policy"

static bool on;
static int audit_fd = -1;
static struct prov { u32 loader; bool set, verified, seen; } *prov;
static u32 nprov;
static u64 records, admitted, checked;

bool policy_mode(void)
{
	return on;
}

bool policy_denies_unsigned(void)
{
	return on;
}

/* what the policies refuse of a program of class vc (a loader's child: its loader's) */
bool policy_denies(enum verdict_class vc)
{
	return on && vc != VC_TRUSTED;
}

static int cli(const char *a1, const char *a2, const char *a3, const char *a4)
{
	const char *argv[] = { CLI, a1, a2, a3, a4, NULL };
	int status;
	pid_t pid = fork();

	if (!pid) {
		execv(CLI, (char **)argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void policy_setup(void)
{
	static const char text[] = "keyring allow builtin\nkeyring allow secondary\n"
				   "keyring allow platform\nkeyring allow bpf\nchildren allow\n";
	int fd, rcvbuf = 8 << 20;

	on = true;
	fd = open(POLICY_FILE, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, text, sizeof(text) - 1) != (ssize_t)sizeof(text) - 1)
		violation("policy mode: cannot write %s", POLICY_FILE);
	close(fd);
	op_desc("bpfsign-policy load deny-unsigned; load keyring-allowlist --policy %s", POLICY_FILE);
	if (cli("load", "deny-unsigned", NULL, NULL))
		violation("policy mode: bpfsign-policy load deny-unsigned failed");
	if (cli("load", "keyring-allowlist", "--policy", POLICY_FILE))
		violation("policy mode: bpfsign-policy load keyring-allowlist failed");
	audit_fd = audit_open();
	if (audit_fd < 0)
		violation("policy mode: cannot become the audit daemon: %s", strerror(errno));
	/* the records of a checkpoint's worth of loads wait here */
	setsockopt(audit_fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf));
	/* the CLI's loader maps and session keyring reference go after it exits */
	counts_quiet();
	printf("# policy mode: deny-unsigned and keyring-allowlist attached, audit records read\n");
}

void policy_teardown(void)
{
	if (!on)
		return;
	policy_drain(true);
	op_desc("bpfsign-policy unload keyring-allowlist; unload deny-unsigned");
	if (cli("unload", "keyring-allowlist", NULL, NULL) || cli("unload", "deny-unsigned", NULL, NULL))
		violation("policy mode: bpfsign-policy unload failed");
	audit_close(audit_fd);
	audit_fd = -1;
	unlink(POLICY_FILE);
}

/*
 * A violation ends the run: the policies must not outlive it, or they
 * refuse the next run's unsigned skeletons in the same boot.
 */
void policy_abort(void)
{
	if (!on)
		return;
	on = false;
	if (cli("unload", "keyring-allowlist", NULL, NULL) | cli("unload", "deny-unsigned", NULL, NULL))
		printf("# policy mode: bpfsign-policy unload failed, the policies stay attached\n");
	else
		printf("# policy mode: the policies unloaded\n");
}

/* a program this process loaded: its loader (0 from user space) */
void prov_expect(int fd, u32 loader_id, bool loader_verified)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (!on)
		return;
	if (bpf_prog_get_info_by_fd(fd, &info, &len) || !info.id)
		violation("BPF_OBJ_GET_INFO_BY_FD of a program just loaded: %s", strerror(errno));
	if (info.id >= nprov) {
		u32 n = info.id + 1024;

		prov = realloc(prov, n * sizeof(*prov));
		memset(prov + nprov, 0, (n - nprov) * sizeof(*prov));
		nprov = n;
	}
	prov[info.id] = (struct prov){ loader_id, true, loader_verified, false };
}

static const char *field(const char *rec, const char *name, char *out, size_t len)
{
	const char *p = rec;
	size_t n = strlen(name), i;

	while ((p = strstr(p, name))) {
		if ((p == rec || p[-1] == ' ') && p[n] == '=') {
			p += n + 1;
			for (i = 0; i + 1 < len && p[i] && p[i] != ' '; i++)
				out[i] = p[i];
			out[i] = 0;
			return out;
		}
		p += n;
	}
	return NULL;
}

static void check_record(char *rec)
{
	char id_s[16], verdict[16], lid_s[16], lverdict[16];
	bool has_loader;
	u32 id, lid;
	struct prov *e;

	records++;
	if (!strstr(rec, "op=LOAD") || strstr(rec, " res=0"))
		return;		/* unloads, and denied loads */
	if (!field(rec, "prog-id", id_s, sizeof(id_s)) || !field(rec, "verdict", verdict, sizeof(verdict)))
		violation("policy mode: an AUDIT_BPF record without prog-id or verdict: %s", rec);
	admitted++;
	id = strtoul(id_s, NULL, 10);
	has_loader = field(rec, "loader-id", lid_s, sizeof(lid_s)) &&
		     field(rec, "loader-verdict", lverdict, sizeof(lverdict));
	lid = has_loader ? strtoul(lid_s, NULL, 10) : 0;
	/* admission under deny-unsigned */
	if (strcmp(verdict, "verified") && !(has_loader && !strcmp(lverdict, "verified")))
		violation("policy mode: program %u loaded, neither verified nor the child of a "
			  "verified loader: %s", id, rec);
	/* provenance: the loader that ran it, or none */
	e = id < nprov ? &prov[id] : NULL;
	if (!e || !e->set)
		violation("policy mode: program %u loaded, not by this process or its loaders: %s",
			  id, rec);
	if (e->seen)
		violation("policy mode: two admissions of program %u: %s", id, rec);
	e->seen = true;
	if (lid != e->loader)
		violation("policy mode: program %u has loader-id %u, the loader that ran it is %u: %s",
			  id, lid, e->loader, rec);
	if (lid && !strcmp(lverdict, "verified") != e->verified)
		violation("policy mode: program %u has loader-verdict %s, its loader was %s: %s",
			  id, lverdict, e->verified ? "verified" : "not verified", rec);
	checked++;
}

static u32 missing(void)
{
	u32 i;

	for (i = 0; i < nprov; i++)
		if (prov[i].set && !prov[i].seen)
			return i;
	return 0;
}

/*
 * The records so far, checked; call when this process knows each id.
 * kauditd delivers them a little later than the load returns: with all,
 * wait for the record of every program this process loaded.
 */
void policy_drain(bool all)
{
	struct pollfd p = { .fd = audit_fd, .events = POLLIN };
	double until = now() + 5;
	char buf[8192];
	u32 id;

	if (!on || audit_fd < 0)
		return;
	for (;;) {
		int r = poll(&p, 1, all ? 100 : 0);
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
		ssize_t n;

		if (r != 1) {
			if (!all || !missing() || now() > until)
				break;
			continue;
		}
		n = recv(audit_fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
		if (n < 0 && errno == ENOBUFS)
			violation("policy mode: audit records were dropped (ENOBUFS)");
		if (n < (ssize_t)NLMSG_HDRLEN)
			continue;
		if (nlh->nlmsg_type != AUDIT_BPF)
			continue;
		/* audit sets nlmsg_len to the payload length alone: trust n */
		((char *)NLMSG_DATA(nlh))[n - NLMSG_HDRLEN] = 0;
		check_record(NLMSG_DATA(nlh));
	}
	if (all && (id = missing()))
		violation("policy mode: program %u loaded and the kernel has no AUDIT_BPF record "
			  "of it", id);
}

void policy_stats(void)
{
	if (on)
		printf("# policy mode: %llu AUDIT_BPF records, %llu admitted loads, %llu checked for "
		       "provenance\n", (unsigned long long)records, (unsigned long long)admitted,
		       (unsigned long long)checked);
}
