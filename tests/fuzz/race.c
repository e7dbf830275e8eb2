// SPDX-License-Identifier: GPL-2.0
/*
 * The second thread, and the kernel log.
 *
 * op_race() is an episode of the main sequence: the main thread sets up
 * objects of the episode's own (never the pool's), wakes the race thread,
 * runs its side, waits for the race thread's, checks and closes them.
 * The two sides:
 *
 *   freeze     main: BPF_MAP_UPDATE_ELEM in a loop    race: BPF_MAP_FREEZE
 *   key        main: signed loads, caller keyring     race: revoke or unlink
 *                                                     the key or its keyring
 *   enforce    main: unsigned loads                   race: writes of 0, junk
 *                                                     and (the seed's plan) 1
 *                                                     to bpf_sig_enforce
 *   fdswap     main: runs of a verified loader        race: dup2() of other
 *              writing and binding fd F               maps and /dev/null on F
 *
 * What must hold whatever the interleaving: no update succeeds that began
 * after BPF_MAP_FREEZE returned, and the map holds from then on what the
 * race thread read after it; no signed load verifies that began after its
 * key or keyring was revoked or unlinked; no unsigned program loads that
 * began after a write of 1 returned (nor any under enforcement); a
 * verified loader's run writes and binds nothing it did not create,
 * whatever F is at that moment.
 *
 * The race thread draws from its own splitmix64 stream, seeded from the
 * run's seed: a seed gives each thread the same operations, in the same
 * order, on any run.  Only how they interleave varies.
 *
 * kmsg_check() reads what the kernel logged since the last check: a
 * KASAN, UBSAN, lockdep or WARNING report is a violation.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <keyutils.h>
#include <bpf/bpf.h>

#include "fuzz.h"
#include "ops.h"

enum race_kind { R_FREEZE, R_KEY, R_ENFORCE, R_FDSWAP, NRACE, R_QUIT = NRACE };
static const char *const race_names[NRACE] = { "freeze/update", "key revoke or unlink/signed load",
					       "bpf_sig_enforce write/unsigned load",
					       "dup2 over a map fd/verified loader run" };

#define RACE_ELEMS	4
#define MAX_WRITES	4

static struct episode {
	enum race_kind kind;
	int map_a, map_b, swap_fd;	/* fdswap: F and what goes on it */
	s32 keyring, cert;
	bool raise;			/* enforce: write 1 (the seed's plan) */
	bool enforced;			/* enforcement on at the start */
	atomic_int flag;		/* the race thread's decisive call returned */
	atomic_int stop;		/* main's side is over */
	/* what the race thread did and saw */
	int action, tries, swaps;
	u64 snapshot[RACE_ELEMS];
	char err[256];
} ep;

static pthread_t thread;
static sem_t go, done;
static bool running;
static u64 rstate;		/* the race thread's stream */
static u64 episodes[NRACE], main_calls[NRACE], main_refused[NRACE], race_calls[NRACE];

static u64 rrnd(void)
{
	u64 z = (rstate += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static u32 rr_below(u32 n)
{
	return n ? (u32)(rrnd() % n) : 0;
}

/* ---- the race thread's side ---- */

static void race_freeze(void)
{
	u32 i;
	int ret;

	usleep(rr_below(3000));
	/* EBUSY while an update is in flight: try again */
	for (ep.tries = 1;; ep.tries++) {
		ret = bpf_map_freeze(ep.map_a);
		race_calls[R_FREEZE]++;
		if (!ret || errno != EBUSY || ep.tries > 100000)
			break;
	}
	if (ret) {
		snprintf(ep.err, sizeof(ep.err), "BPF_MAP_FREEZE: %s after %d tries",
			 strerror(errno), ep.tries);
		atomic_store(&ep.flag, 1);
		return;
	}
	atomic_store(&ep.flag, 1);
	for (i = 0; i < RACE_ELEMS; i++)
		if (bpf_map_lookup_elem(ep.map_a, &i, &ep.snapshot[i]))
			snprintf(ep.err, sizeof(ep.err), "lookup after freeze: %s", strerror(errno));
}

static void race_key(void)
{
	int ret;

	usleep(rr_below(40000));
	ep.action = rr_below(4);
	switch (ep.action) {
	case 0: ret = keyctl_revoke(ep.cert); break;
	case 1: ret = keyctl_unlink(ep.cert, ep.keyring); break;
	case 2: ret = keyctl_revoke(ep.keyring); break;
	default: ret = keyctl_unlink(ep.keyring, KEY_SPEC_SESSION_KEYRING); break;
	}
	race_calls[R_KEY]++;
	if (ret)
		snprintf(ep.err, sizeof(ep.err), "keyctl action %d: %s", ep.action,
			 strerror(errno));
	atomic_store(&ep.flag, 1);
}

static void race_enforce(void)
{
	static const char *const vals[] = { "0", "2", "x", "-1" };
	int n = 1 + rr_below(MAX_WRITES), at = ep.raise ? (int)rr_below(n) : -1, i, ret, want;
	bool on = ep.enforced;
	const char *v;

	for (i = 0; i < n; i++) {
		usleep(rr_below(4000));
		v = i == at ? "1" : vals[rr_below(ARRAY_SIZE(vals))];
		ret = sysctl_write("/proc/sys/kernel/bpf_sig_enforce", v, NULL, 0);
		race_calls[R_ENFORCE]++;
		/* bpf_sig_enforce_handler(): 1 always, 0 only while 0, junk EINVAL */
		want = !strcmp(v, "1") ? 0 : !strcmp(v, "0") ? (on ? -EPERM : 0) : -EINVAL;
		if (ret != want && !ep.err[0])
			snprintf(ep.err, sizeof(ep.err), "write \"%s\" (enforcement %s): %s, "
				 "expected %s", v, on ? "on" : "off", strerror(-ret),
				 want ? strerror(-want) : "success");
		if (i == at && !ret) {
			on = true;
			atomic_store(&ep.flag, 1);
		}
	}
}

#define SWAP_PLAN 64

static void race_fdswap(void)
{
	int targets[3] = { ep.map_a, ep.map_b, pool.devnull }, plan[SWAP_PLAN], i;
	u32 pause[SWAP_PLAN];

	/* drawn up front: how many swaps fit the main side is timing, the draws are not */
	for (i = 0; i < SWAP_PLAN; i++) {
		plan[i] = targets[rr_below(3)];
		pause[i] = rr_below(2) ? rr_below(500) : 0;
	}
	for (i = 0; !atomic_load(&ep.stop) && ep.swaps < 10000; i = (i + 1) % SWAP_PLAN) {
		if (dup2(plan[i], ep.swap_fd) < 0 && !ep.err[0])
			snprintf(ep.err, sizeof(ep.err), "dup2: %s", strerror(errno));
		ep.swaps++;
		race_calls[R_FDSWAP]++;
		if (pause[i])
			usleep(pause[i]);
	}
}

static void *race_main(void *arg)
{
	(void)arg;
	for (;;) {
		sem_wait(&go);
		switch (ep.kind) {
		case R_FREEZE: race_freeze(); break;
		case R_KEY: race_key(); break;
		case R_ENFORCE: race_enforce(); break;
		case R_FDSWAP: race_fdswap(); break;
		default:
			sem_post(&done);
			return NULL;
		}
		sem_post(&done);
	}
}

void race_start(void)
{
	rstate = st.seed ^ 0x7261636574687264ull;	/* "racethrd" */
	sem_init(&go, 0, 0);
	sem_init(&done, 0, 0);
	if (pthread_create(&thread, NULL, race_main, NULL)) {
		printf("# cannot start the race thread\n");
		exit(2);
	}
	running = true;
}

void race_stop(void)
{
	if (!running)
		return;
	ep.kind = R_QUIT;
	sem_post(&go);
	sem_wait(&done);
	pthread_join(thread, NULL);
	running = false;
}

static void begin(enum race_kind k)
{
	ep.kind = k;
	atomic_store(&ep.flag, 0);
	atomic_store(&ep.stop, 0);
	ep.err[0] = 0;
	ep.tries = ep.swaps = ep.action = 0;
	episodes[k]++;
	sem_post(&go);
}

static void end(void)
{
	atomic_store(&ep.stop, 1);
	sem_wait(&done);
	if (ep.err[0])
		violation("race %s: the race thread: %s", race_names[ep.kind], ep.err);
}

/* ---- the main thread's side ---- */

static int race_map(u32 type)
{
	LIBBPF_OPTS(bpf_map_create_opts, o);
	u64 v;
	u32 i;
	int fd = bpf_map_create(type, "fz_race", 4, 8, RACE_ELEMS, &o);

	if (fd < 0)
		violation("race: BPF_MAP_CREATE of the episode's map: %s", strerror(errno));
	for (i = 0; i < RACE_ELEMS; i++) {
		v = 0x1000 + i;
		if (bpf_map_update_elem(fd, &i, &v, 0))
			violation("race: filling the episode's map: %s", strerror(errno));
	}
	return fd;
}

/* template 0 (no map references), signed or not */
static long load_t0(const u8 *sig, int sig_len, s32 keyring)
{
	const u32 sz = offsetofend(union bpf_attr, keyring_id);
	struct bpf_insn insns[MAX_INSNS];
	union bpf_attr attr;

	memset(&attr, 0, sz);
	attr.prog_type = tmpls[0].prog_type;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = tmpl_insns(0, -1, insns);
	attr.license = (uintptr_t)"GPL";
	if (sig) {
		attr.signature = (uintptr_t)sig;
		attr.signature_size = sig_len;
		attr.keyring_id = keyring;
	}
	snprintf(attr.prog_name, sizeof(attr.prog_name), "fz_race");
	return sys_bpf(BPF_PROG_LOAD, &attr, sz);
}

static void main_freeze(void)
{
	u32 n = 40 + rnd_below(120), i, k;
	u64 v, got;
	int ret, f;

	ep.map_a = race_map(BPF_MAP_TYPE_ARRAY);
	op_desc("race: %u updates of a plain array against BPF_MAP_FREEZE", n);
	begin(R_FREEZE);
	for (i = 0; i < n; i++) {
		k = i % RACE_ELEMS;
		v = 0x2000 + i;
		f = atomic_load(&ep.flag);
		ret = bpf_map_update_elem(ep.map_a, &k, &v, 0) ? -errno : 0;
		main_calls[R_FREEZE]++;
		if (ret)
			main_refused[R_FREEZE]++;
		if (f && !ret)
			violation("race freeze/update: an update that began after BPF_MAP_FREEZE "
				  "returned succeeded (update %u)", i);
		if (ret && ret != -EPERM)
			violation("race freeze/update: update %u: %s, expected success or EPERM",
				  i, strerror(-ret));
	}
	end();
	/* the frozen-map invariant: what the race thread read after freezing stays */
	for (k = 0; k < RACE_ELEMS; k++) {
		if (bpf_map_lookup_elem(ep.map_a, &k, &got))
			violation("race freeze/update: lookup: %s", strerror(errno));
		if (got != ep.snapshot[k])
			violation("race freeze/update: element %u changed after BPF_MAP_FREEZE "
				  "returned (%#llx then %#llx)", k,
				  (unsigned long long)ep.snapshot[k], (unsigned long long)got);
	}
	v = 1;
	k = 0;
	ret = bpf_map_update_elem(ep.map_a, &k, &v, 0) ? -errno : 0;
	expect_check("race_freeze_after", EXPECT_FAIL(EPERM, "frozen map"), ret);
	close(ep.map_a);
}

static bool key_gone_err(long err)
{
	return err == -ENOKEY || err == -EKEYREVOKED || err == -EACCES || err == -EINVAL;
}

static void main_key(void)
{
	struct bpf_insn insns[MAX_INSNS];
	u32 n = 2 + rnd_below(5), i;
	const u8 *der, *sig;
	int sig_len, cnt, f;
	long fd;

	cnt = tmpl_insns(0, -1, insns);
	/* no signed attributes: the kernel refuses those before any key */
	sig_len = sig_make(K_SIGNING, insns, cnt * sizeof(struct bpf_insn), false, &sig);
	if (sig_len < 0)
		violation("race: signing template 0 failed");
	ep.keyring = add_key("keyring", "fz-race", NULL, 0, KEY_SPEC_SESSION_KEYRING);
	if (ep.keyring < 0)
		violation("race: add_key keyring: %s", strerror(errno));
	cnt = cert_of(K_SIGNING, &der);
	ep.cert = add_key("asymmetric", "", der, cnt, ep.keyring);
	if (ep.cert < 0)
		violation("race: add_key of the signing certificate: %s", strerror(errno));
	op_desc("race: %u signed loads (caller keyring %d) against revoking or unlinking the key",
		n, ep.keyring);
	begin(R_KEY);
	for (i = 0; i < n; i++) {
		f = atomic_load(&ep.flag);
		fd = load_t0(sig, sig_len, ep.keyring);
		main_calls[R_KEY]++;
		if (fd >= 0) {
			prov_expect(fd, 0, false);
			close(fd);
			/* admission: the key had to be there when the load began */
			if (f)
				violation("race key: a signed load that began after the key (or "
					  "its keyring) was %s verified (action %d)",
					  ep.action & 1 ? "unlinked" : "revoked", ep.action);
			if (st.enforce || policy_mode())
				violation("race key: a caller-keyring program loaded under "
					  "%s", st.enforce ? "bpf_sig_enforce" : "keyring-allowlist");
			continue;
		}
		main_refused[R_KEY]++;
		/*
		 * before: EPERM (enforcement or a policy, caller keyring);
		 * after: the key gone (ENOKEY, EKEYREVOKED), the keyring
		 * revoked, no longer ours (EACCES) or freed (EINVAL: no such
		 * serial)
		 */
		if (!key_gone_err(fd) && fd != -EPERM)
			violation("race key: load %u: %s, expected success, ENOKEY, EKEYREVOKED, "
				  "EACCES, EINVAL or EPERM (action %d)", i, strerror(-fd), ep.action);
		if (fd == -EPERM && f)
			violation("race key: load %u began after the key was gone, and was "
				  "refused for what it is (EPERM) not for its key", i);
	}
	end();
	fd = load_t0(sig, sig_len, ep.keyring);
	if (fd >= 0) {
		prov_expect(fd, 0, false);
		violation("race key: a load after the key's removal verified");
	}
	if (!key_gone_err(fd))
		violation("race key: a load after the key's removal (action %d): %s", ep.action,
			  strerror(-fd));
	stat_check(&(struct expect){ EXP_FAIL, -fd, "no key" });
	keyctl_unlink(ep.cert, ep.keyring);
	keyctl_unlink(ep.keyring, KEY_SPEC_SESSION_KEYRING);
}

static void main_enforce(bool policy_denies)
{
	u32 n = 4 + rnd_below(12), i;
	int f;
	long fd;

	ep.enforced = st.enforce;
	ep.raise = !st.enforce && sysctl_may_raise() && rnd_chance(1, 2);
	op_desc("race: %u unsigned loads against bpf_sig_enforce writes%s", n,
		ep.raise ? " (one of 1)" : "");
	begin(R_ENFORCE);
	for (i = 0; i < n; i++) {
		f = atomic_load(&ep.flag);
		fd = load_t0(NULL, 0, 0);
		main_calls[R_ENFORCE]++;
		if (fd >= 0) {
			prov_expect(fd, 0, false);
			close(fd);
			if (f || ep.enforced)
				violation("race enforce: an unsigned program loaded %s",
					  ep.enforced ? "under bpf_sig_enforce" :
					  "after the write of 1 returned");
			if (policy_denies)
				violation("race enforce: an unsigned program loaded under deny-unsigned");
			continue;
		}
		main_refused[R_ENFORCE]++;
		if (fd != -EPERM)
			violation("race enforce: unsigned load %u: %s, expected success or EPERM", i,
				  strerror(-fd));
		/* EPERM only from enforcement, a write of 1 under way, or the policy */
		if (!ep.enforced && !ep.raise && !policy_denies)
			violation("race enforce: unsigned load %u refused (EPERM) with "
				  "enforcement off and no write of 1", i);
	}
	end();
	if (atomic_load(&ep.flag))
		sysctl_raised();
	enforce_read();
	fd = load_t0(NULL, 0, 0);
	if (fd >= 0) {
		prov_expect(fd, 0, false);
		close(fd);
	}
	expect_check("race_enforce_after", st.enforce || policy_denies ?
		     EXPECT_FAIL(EPERM, "unsigned under enforcement or deny-unsigned") :
		     EXPECT_OK("unsigned, enforcement off"), fd);
}

/* a verified loader: a signed one, by a system or the caller's keyring */
static struct pprog *verified_loader(void)
{
	int cand[MAX_PROGS], n = 0, i;

	for (i = 0; i < pool.nprogs; i++)
		if (pool.progs[i].kind == PK_LOADER && pool.progs[i].vc != VC_UNSIGNED)
			cand[n++] = i;
	return n ? &pool.progs[cand[rnd_below(n)]] : NULL;
}

static void main_fdswap(struct pprog *lp)
{
	static u8 buf[1024];
	struct loader_ctx *c = (struct loader_ctx *)buf;
	union bpf_attr *a = (union bpf_attr *)c->attr;
	u32 n = 8 + rnd_below(16), i, k, progs_before = 0, progs_after = 0, id = 0;
	u64 v;
	int ret;
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = buf, .ctx_size_in = sizeof(*c));

	ep.map_a = race_map(BPF_MAP_TYPE_ARRAY);
	ep.map_b = race_map(BPF_MAP_TYPE_HASH);
	ep.swap_fd = dup(ep.map_a);
	if (ep.swap_fd < 0)
		violation("race: dup: %s", strerror(errno));
	op_desc("race: %u runs of verified loader fd %d on fd %d against dup2() over it",
		n, lp->fd, ep.swap_fd);
	while (!bpf_prog_get_next_id(id, &id))
		progs_before++;
	begin(R_FDSWAP);
	for (i = 0; i < n; i++) {
		memset(buf, 0, sizeof(buf));
		if (i & 1) {
			/* a child whose instructions name fd F */
			struct bpf_insn *in = (struct bpf_insn *)c->bufa;

			c->cmd = BPF_PROG_LOAD;
			in[0] = (struct bpf_insn){ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = 1,
						   .src_reg = BPF_PSEUDO_MAP_FD, .imm = ep.swap_fd };
			in[2] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K };
			in[3] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
			a->prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
			a->insn_cnt = 4;
			strcpy((char *)c->bufb, "GPL");
			c->patch = 1 | 2 | 4;
			c->size = offsetofend(union bpf_attr, keyring_id) - 1;
		} else {
			c->cmd = BPF_MAP_UPDATE_ELEM;
			a->map_fd = ep.swap_fd;
			k = i % RACE_ELEMS;
			memcpy(c->bufa, &k, 4);
			v = 0x3000 + i;
			memcpy(c->bufb, &v, 8);
			c->patch = 1 | 2;
			c->size = offsetofend(union bpf_attr, flags) - 1;
		}
		c->ret = 0x7777;
		ret = bpf_prog_test_run_opts(lp->fd, &opts);
		main_calls[R_FDSWAP]++;
		if (ret)
			violation("race fdswap: BPF_PROG_TEST_RUN of the loader: %s", strerror(-ret));
		if (c->ret >= 0) {
			if (i & 1)
				close(c->ret);
			violation("race fdswap: a verified loader's run %s fd %d, whatever it was "
				  "then (run %u)", i & 1 ? "loaded a child binding" : "wrote through",
				  ep.swap_fd, i);
		}
		main_refused[R_FDSWAP]++;
		/* a map (EPERM, or the loader's verdict under enforcement), /dev/null (EINVAL) */
		if (c->ret != -EPERM && c->ret != -EINVAL)
			violation("race fdswap: run %u: %s, expected EPERM or EINVAL", i,
				  strerror(-c->ret));
	}
	end();
	id = 0;
	while (!bpf_prog_get_next_id(id, &id))
		progs_after++;
	if (progs_after != progs_before)
		violation("race fdswap: the number of programs changed (%u -> %u)", progs_before,
			  progs_after);
	/* neither map took a write */
	for (k = 0; k < RACE_ELEMS; k++) {
		if (bpf_map_lookup_elem(ep.map_a, &k, &v) || v != 0x1000 + k)
			violation("race fdswap: the array's element %u changed", k);
		if (bpf_map_lookup_elem(ep.map_b, &k, &v) || v != 0x1000 + k)
			violation("race fdswap: the hash's element %u changed", k);
	}
	stat_check(&(struct expect){ EXP_FAIL, EPERM, "swapped fds" });
	close(ep.swap_fd);
	close(ep.map_a);
	close(ep.map_b);
}

void op_race(void)
{
	enum race_kind k = rnd_below(NRACE);
	struct pprog *lp;

	switch (k) {
	case R_FREEZE: return main_freeze();
	case R_KEY: return main_key();
	case R_ENFORCE: return main_enforce(policy_denies_unsigned());
	default:
		lp = verified_loader();
		if (!lp)
			return main_freeze();
		return main_fdswap(lp);
	}
}

void race_stats(void)
{
	int k;

	for (k = 0; k < NRACE; k++)
		printf("# race %s: %llu episodes, main %llu calls (%llu refused), race thread "
		       "%llu calls\n", race_names[k], (unsigned long long)episodes[k],
		       (unsigned long long)main_calls[k], (unsigned long long)main_refused[k],
		       (unsigned long long)race_calls[k]);
}

/* ---- the kernel log ---- */

static int kmsg_fd = -1;

void kmsg_open(void)
{
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg_fd < 0) {
		printf("# cannot open /dev/kmsg: %s\n", strerror(errno));
		exit(2);
	}
	lseek(kmsg_fd, 0, SEEK_END);
}

static bool kmsg_bad(const char *msg)
{
	static const char *const bad[] = {
		"BUG:", "WARNING:", "KASAN", "UBSAN", "lockdep", "INFO: possible",
		"inconsistent lock state", "Oops", "general protection fault",
		"refcount_t:", "list_add corruption", "list_del corruption",
		"rcu: INFO", "INFO: task", "kernel BUG",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (strstr(msg, bad[i]))
			return true;
	return false;
}

void kmsg_check(const char *when)
{
	char rec[2048];
	const char *msg;
	int shown = -1;
	ssize_t n;

	if (kmsg_fd < 0)
		return;
	for (;;) {
		n = read(kmsg_fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on with the next */
		if (n <= 0)
			break;
		rec[n] = 0;
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		if (shown < 0 && kmsg_bad(msg))
			shown = 0;
		if (shown >= 0 && shown++ < 60)
			printf("# kernel: %s", msg);
	}
	stat_note("kernel log checks");
	if (shown >= 0)
		violation("the kernel reported a bug (KASAN, UBSAN, lockdep or WARNING) by %s", when);
}
