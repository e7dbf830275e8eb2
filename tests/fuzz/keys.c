// SPDX-License-Identifier: GPL-2.0
/*
 * Keys: certificates in the session keyring and a keyring under it, the
 * .bpf keyring (sealed unless bpf.keyring_unsealed=1, then the model follows
 * what the operations do to it), and enrolment into .secondary_trusted_keys.
 * ring_model() says what a keyring_id makes the verifier use.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <keyutils.h>

#include "fuzz.h"
#include "ops.h"

#ifndef KEY_SPEC_BPF_KEYRING
#define KEY_SPEC_BPF_KEYRING -9
#endif

#define K(k) (1u << (k))
/* CONFIG_SYSTEM_TRUSTED_KEYS: keys-example/kernel-trusted.pem (revoked.crt
 * too, which CONFIG_SYSTEM_REVOCATION_KEYS also puts into .blacklist)
 */
#define BUILTIN (K(K_SIGNING) | K(K_SIGNING_EC) | K(K_CA) | K(K_REVOKED))

static s32 setup_key;		/* the untrusted certificate in the session keyring */

static u32 secondary_set(void)
{
	u32 s = BUILTIN;
	int k;

	for (k = 0; k < NKEYS; k++)
		if (st.secondary_has[k])
			s |= K(k);
	return s;
}

static void ring_keys(int ring, u32 *present, u32 *revoked)
{
	int i;

	for (i = 0; i < st.nkeys; i++) {
		if (st.keys[i].ring != ring)
			continue;
		if (st.keys[i].revoked)
			*revoked |= K(st.keys[i].k);
		else
			*present |= K(st.keys[i].k);
	}
}

static bool is_key_serial(s32 id)
{
	int i;

	for (i = 0; i < st.nkeys; i++)
		if (st.keys[i].serial == id)
			return !st.keys[i].revoked;
	return id == setup_key;
}

struct ring_model ring_model(s32 id)
{
	struct ring_model rm = {};
	u32 rev = 0;

	switch (id) {
	case 0:
		rm.system = true;
		rm.present = BUILTIN;
		return rm;
	case 1:
		rm.system = true;
		rm.present = secondary_set();
		return rm;
	case 2:
		rm.system = true;	/* no .platform keyring in this kernel */
		return rm;
	case KEY_SPEC_BPF_KEYRING:
		rm.system = true;
		if (!st.bpf_sealed || !st.bpf_nkeys)
			rm.lookup_err = ENOKEY;
		for (int k = 0; k < NKEYS; k++)
			if (st.bpf_has[k])
				rm.present |= K(k);
		return rm;
	}
	/* bpf_keyring_active(): sealed with keys, .bpf refuses caller keyrings */
	if (st.bpf_sealed && st.bpf_nkeys) {
		rm.lookup_err = EPERM;
		return rm;
	}
	if (id == KEY_SPEC_SESSION_KEYRING || id == st.session) {
		rm.present = K(K_UNTRUSTED);
		ring_keys(0, &rm.present, &rev);
		if (st.subring)
			ring_keys(1, &rm.present, &rev);
	} else if (st.subring && id == st.subring) {
		ring_keys(1, &rm.present, &rev);
	} else if (id == KEY_SPEC_USER_KEYRING || id == KEY_SPEC_USER_SESSION_KEYRING) {
		/* created at setup, empty */
	} else if (id == st.builtin_ring && id) {
		rm.present = BUILTIN;
	} else if (id == st.secondary_ring && id) {
		rm.present = secondary_set();
	} else if (id == st.blacklist_ring && id) {
		rm.present = K(K_REVOKED);	/* CONFIG_SYSTEM_REVOCATION_KEYS */
	} else if (id == st.bpf_ring && id) {
		for (int k = 0; k < NKEYS; k++)
			if (st.bpf_has[k])
				rm.present |= K(k);
	} else if (!is_key_serial(id)) {
		/* no thread or process keyring, group keyrings unsupported, no
		 * request_key authorisation, or no such serial
		 */
		rm.lookup_err = EINVAL;
	}
	/* keyring_search() notes EKEYREVOKED for any revoked key of the type it
	 * passes, matching or not, and returns it when nothing matches
	 */
	rm.revoked_only = rev ? ~rm.present : 0;
	return rm;
}

s32 pick_keyring(void)
{
	static const s32 special[] = { -1, -2, -4, -5, -6, -7, -8, -10, (s32)0x80000000 };
	int i;

	switch (rnd_below(40)) {
	case 0 ... 9:
		return 0;
	case 10 ... 14:
		return 1;
	case 15:
		return 2;
	case 16 ... 19:
		return KEY_SPEC_BPF_KEYRING;
	case 20 ... 28:
		return KEY_SPEC_SESSION_KEYRING;
	case 29:
		return special[rnd_below(ARRAY_SIZE(special))];
	case 30:
		return st.session;
	case 31:
		return st.subring ? st.subring : st.session;
	case 32:
		i = st.nkeys ? (int)rnd_below(st.nkeys) : -1;
		return i >= 0 ? st.keys[i].serial : setup_key;
	case 33:
		return st.builtin_ring;
	case 34:
		return st.secondary_ring;
	case 35:
		return st.blacklist_ring;
	case 36:
		return st.bpf_ring;
	case 37:
		return (s32)(rnd() & 0x7fffffff);
	default:
		return (s32)rnd();
	}
}

/* ---- the session keyring and a keyring under it ---- */

static void drop_key(int i)
{
	st.keys[i] = st.keys[--st.nkeys];
}

/* which of our keys ring still holds: keys replaced by a later add leave */
static void resync(int ring)
{
	s32 serial = ring ? st.subring : st.session;
	void *buf = NULL;
	int n = keyctl_read_alloc(serial, &buf), i, j;
	s32 *ids = buf;

	if (n < 0)
		violation("keyctl read of keyring %d: %s", serial, strerror(errno));
	for (i = st.nkeys - 1; i >= 0; i--) {
		if (st.keys[i].ring != ring)
			continue;
		for (j = 0; j < n / 4 && ids[j] != st.keys[i].serial; j++)
			;
		if (j == n / 4)
			drop_key(i);
	}
	free(buf);
}

static void add_cert(int ring)
{
	int k = rnd_below(NKEYS);
	const u8 *der;
	int len = cert_of(k, &der);
	char desc[32] = "";
	s32 to = ring ? st.subring : KEY_SPEC_SESSION_KEYRING;
	long serial;

	if (st.nkeys == MAX_KEYS) {
		keyctl_unlink(st.keys[0].serial, st.keys[0].ring ? st.subring : st.session);
		drop_key(0);
	}
	if (rnd_chance(1, 2))
		snprintf(desc, sizeof(desc), "fz-%llu", (unsigned long long)st.op);
	op_desc("add_key asymmetric \"%s\" (%s) to %s", desc, key_names[k],
		ring ? "the sub-keyring" : "the session keyring");
	serial = add_key("asymmetric", desc, der, len, to);
	expect_check("key_add", k == K_REVOKED ? EXPECT_ESCAPE("the revoked certificate: blacklisted in this boot or not") :
		     EXPECT_OK("a valid certificate"),
		     serial < 0 ? -errno : serial);
	if (serial >= 0)
		st.keys[st.nkeys++] = (struct keyent){ serial, k, false, ring };
	resync(ring);
}

void op_key_session(void)
{
	int i = st.nkeys ? (int)rnd_below(st.nkeys) : -1;
	long ret;

	switch (rnd_below(20)) {
	case 0 ... 7:
		return add_cert(0);
	case 8 ... 10:
		if (!st.subring) {
			op_desc("add_key keyring fz-ring to the session keyring");
			ret = add_key("keyring", "fz-ring", NULL, 0, KEY_SPEC_SESSION_KEYRING);
			expect_check("key_subring_create", EXPECT_OK("a keyring"),
				     ret < 0 ? -errno : ret);
			st.subring = ret;
			return;
		}
		return add_cert(1);
	case 11 ... 14:
		if (i < 0)
			return add_cert(0);
		op_desc("keyctl unlink %d (%s)", st.keys[i].serial, key_names[st.keys[i].k]);
		ret = keyctl_unlink(st.keys[i].serial, st.keys[i].ring ? st.subring : st.session);
		expect_check("key_unlink", EXPECT_OK("a key we linked"), ret < 0 ? -errno : 0);
		drop_key(i);
		return;
	case 15 ... 16:
		if (i < 0 || st.keys[i].revoked)
			return;
		op_desc("keyctl revoke %d (%s)", st.keys[i].serial, key_names[st.keys[i].k]);
		ret = keyctl_revoke(st.keys[i].serial);
		expect_check("key_revoke", EXPECT_OK("a key we added"), ret < 0 ? -errno : 0);
		st.keys[i].revoked = true;
		return;
	case 17:
		if (!st.subring)
			return;
		op_desc("keyctl unlink the sub-keyring %d", st.subring);
		ret = keyctl_unlink(st.subring, st.session);
		expect_check("key_subring_unlink", EXPECT_OK("our keyring"), ret < 0 ? -errno : 0);
		for (i = st.nkeys - 1; i >= 0; i--)
			if (st.keys[i].ring == 1)
				drop_key(i);
		st.subring = 0;
		return;
	default:
		op_desc("keyctl read the session keyring");
		resync(0);
		stat_add(stat_of("key_read"), 0);
	}
}

/* ---- .bpf ---- */

static int bpf_ring_count(void)
{
	void *buf = NULL;
	int n = keyctl_read_alloc(KEY_SPEC_BPF_KEYRING, &buf);

	free(buf);
	return n < 0 ? -1 : n / 4;
}

static s32 bpf_serials[NKEYS];

void op_key_bpf(void)
{
	const bool sealed = st.bpf_sealed;
	const u32 write = KEY_USR_WRITE, setattr = KEY_USR_SETATTR;
	int k = rnd_below(NKEYS), n;
	const u8 *der;
	long ret;

	switch (rnd_below(7)) {
	case 0:
	case 1: {
		int len = cert_of(k, &der);

		op_desc("add_key asymmetric \"\" (%s) to .bpf", key_names[k]);
		ret = add_key("asymmetric", "", der, len, KEY_SPEC_BPF_KEYRING);
		expect_check("key_bpf_add",
			     !(st.bpf_perm_write_ok & write) ? EXPECT_FAIL(EACCES, "no write") :
			     sealed ? EXPECT_FAIL(EPERM, "the seal's reject-all restriction") :
			     k == K_REVOKED ?
			     EXPECT_ESCAPE("the revoked certificate: blacklisted in this boot or not") :
			     EXPECT_OK("unsealed .bpf"),
			     ret < 0 ? -errno : ret);
		if (ret >= 0) {
			if (!st.bpf_has[k])
				st.bpf_nkeys++;
			st.bpf_has[k] = true;
			bpf_serials[k] = ret;
		}
		break;
	}
	case 2:
		op_desc("keyctl restrict_keyring .bpf (reject all: the seal)");
		ret = keyctl_restrict_keyring(KEY_SPEC_BPF_KEYRING, NULL, NULL);
		expect_check("key_bpf_restrict", !(st.bpf_perm_write_ok & setattr) ?
			     EXPECT_FAIL(EACCES, "no setattr") :
			     sealed ? EXPECT_FAIL(EEXIST, "sealed .bpf: restricted already") :
			     EXPECT_OK("seals .bpf"), ret < 0 ? -errno : 0);
		if (!ret)
			st.bpf_sealed = true;
		break;
	case 3:
		op_desc("keyctl restrict_keyring .bpf asymmetric builtin_trusted");
		ret = keyctl_restrict_keyring(KEY_SPEC_BPF_KEYRING, "asymmetric",
					      rnd_chance(1, 2) ? "builtin_trusted" :
					      "builtin_and_secondary_trusted");
		expect_check("key_bpf_restrict_typed", !(st.bpf_perm_write_ok & setattr) ?
			     EXPECT_FAIL(EACCES, "no setattr") :
			     sealed ? EXPECT_FAIL(EEXIST, "sealed .bpf: restricted already") :
			     EXPECT_FAIL(EPERM, "a typed restriction is no seal"), ret < 0 ? -errno : 0);
		break;
	case 4:
		op_desc("keyctl clear .bpf");
		ret = keyctl_clear(KEY_SPEC_BPF_KEYRING);
		expect_check("key_bpf_clear", !(st.bpf_perm_write_ok & write) ?
			     EXPECT_FAIL(EACCES, "no write") :
			     sealed ? EXPECT_FAIL(EPERM, "KEY_FLAG_KEEP of the seal") :
			     EXPECT_OK("unsealed"),
			     ret < 0 ? -errno : 0);
		if (!ret) {
			memset(st.bpf_has, 0, sizeof(st.bpf_has));
			st.bpf_nkeys = 0;
		}
		break;
	case 5: {
		s32 victim = st.bpf_has[k] ? bpf_serials[k] : st.nkeys ? st.keys[0].serial : setup_key;

		op_desc("keyctl unlink %d .bpf", victim);
		ret = keyctl_unlink(victim, KEY_SPEC_BPF_KEYRING);
		expect_check("key_bpf_unlink", !(st.bpf_perm_write_ok & write) ?
			     EXPECT_FAIL(EACCES, "no write") :
			     sealed ? EXPECT_FAIL(EPERM, "sealed .bpf") : st.bpf_has[k] ?
			     EXPECT_OK("a key in .bpf") :
			     /* lookup_user_key() validates the key, then key_unlink() */
			     st.nkeys && victim == st.keys[0].serial && st.keys[0].revoked ?
			     EXPECT_FAIL(EKEYREVOKED, "a revoked key") :
			     EXPECT_FAIL(ENOENT, "not in .bpf"),
			     ret < 0 ? -errno : 0);
		if (!ret && st.bpf_has[k]) {
			st.bpf_has[k] = false;
			st.bpf_nkeys--;
		}
		break;
	}
	default: {
		/* keep the owner's possessor rights: only the user bits vary */
		u32 perm = KEY_POS_ALL | (rnd() & KEY_USR_ALL);

		op_desc("keyctl setperm .bpf %#x", perm);
		ret = keyctl_setperm(KEY_SPEC_BPF_KEYRING, perm);
		/* keyctl_setperm_key(): a sealed keyring's only narrow */
		expect_check("key_bpf_setperm", !(st.bpf_perm_write_ok & setattr) ?
			     EXPECT_FAIL(EACCES, "no setattr") :
			     sealed && (perm & ~st.bpf_perm_write_ok) ?
			     EXPECT_FAIL(EACCES, "widening a sealed .bpf") :
			     EXPECT_ESCAPE("setperm of .bpf: the model keeps no possessor rights"),
			     ret < 0 ? -errno : 0);
		if (!ret)
			st.bpf_perm_write_ok = perm;
	}
	}
	n = bpf_ring_count();
	if (n >= 0 && n != st.bpf_nkeys)
		violation(".bpf holds %d keys, the model %d%s", n, st.bpf_nkeys,
			  sealed ? " (sealed: nothing may change)" : "");
	if (st.bpf_sealed)
		st.permanent_keys = st.bpf_nkeys;
}

/* ---- .secondary_trusted_keys ---- */

void op_key_secondary(void)
{
	int k = rnd_below(NKEYS), len;
	const u8 *der;
	struct expect e;
	long ret;

	if (!st.secondary_ring)
		return;
	if (st.secondary_has[k] && rnd_chance(1, 2)) {
		op_desc("keyctl unlink %d (%s) from .secondary_trusted_keys",
			st.secondary_serial[k], key_names[k]);
		ret = keyctl_unlink(st.secondary_serial[k], st.secondary_ring);
		expect_check("key_secondary_unlink", EXPECT_OK("enrolled before"),
			     ret < 0 ? -errno : 0);
		st.secondary_has[k] = false;
		return;
	}
	len = cert_of(k, &der);
	op_desc("add_key asymmetric \"\" (%s) to .secondary_trusted_keys", key_names[k]);
	/* the restriction: vouched for by a builtin or secondary key */
	/* restrict_link_by_signature(): no key of the trusted rings signed it */
	e = k == K_UNTRUSTED ? EXPECT_FAIL(ENOKEY, "self-signed, not vouched for") :
	    k == K_TEAM ? EXPECT_OK("issued by the builtin CA") :
	    EXPECT_ESCAPE("enrolment of a key the builtin CA did not issue");
	ret = add_key("asymmetric", "", der, len, st.secondary_ring);
	expect_check("key_secondary_add", e, ret < 0 ? -errno : ret);
	if (ret >= 0) {
		st.secondary_has[k] = true;
		st.secondary_serial[k] = ret;
	}
}

/* undo what the key operations did, before counting keys */
void keys_reset(void)
{
	int k;

	while (st.nkeys) {
		keyctl_unlink(st.keys[0].serial, st.keys[0].ring ? st.subring : st.session);
		drop_key(0);
	}
	if (st.subring)
		keyctl_unlink(st.subring, st.session);
	st.subring = 0;
	for (k = 0; k < NKEYS; k++)
		if (st.secondary_has[k]) {
			keyctl_unlink(st.secondary_serial[k], st.secondary_ring);
			st.secondary_has[k] = false;
		}
	/* an unsealed .bpf can be emptied again; a sealed one keeps its keys */
	if (!st.bpf_sealed && st.bpf_nkeys && !keyctl_clear(KEY_SPEC_BPF_KEYRING)) {
		memset(st.bpf_has, 0, sizeof(st.bpf_has));
		st.bpf_nkeys = 0;
	}
}

/* ---- setup ---- */

static void system_rings(void)
{
	char line[512], type[32], desc[256];
	FILE *f = fopen("/proc/keys", "r");
	u32 serial;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%x %*s %*s %*s %*s %*s %*s %31s %255[^:]", &serial, type, desc) != 3 ||
		    strcmp(type, "keyring"))
			continue;
		if (!strcmp(desc, ".builtin_trusted_keys"))
			st.builtin_ring = serial;
		else if (!strcmp(desc, ".secondary_trusted_keys"))
			st.secondary_ring = serial;
		else if (!strcmp(desc, ".blacklist"))
			st.blacklist_ring = serial;
		else if (!strcmp(desc, ".bpf"))
			st.bpf_ring = serial;
	}
	fclose(f);
}

/* the user keyrings exist from now on: keyring_id -4 and -5 find them */
void keys_early(void)
{
	keyctl_get_keyring_ID(KEY_SPEC_USER_KEYRING, 1);
	keyctl_get_keyring_ID(KEY_SPEC_USER_SESSION_KEYRING, 1);
}

void keys_setup(void)
{
	char c = 'N';
	const u8 *der;
	int fd = open("/sys/module/bpf/parameters/keyring_unsealed", O_RDONLY), len;

	if (fd >= 0) {
		if (read(fd, &c, 1) != 1)
			c = 'N';
		close(fd);
	}
	st.keyring_unsealed = c == 'Y';
	st.session = keyctl_get_keyring_ID(KEY_SPEC_SESSION_KEYRING, 0);
	system_rings();
	st.bpf_nkeys = bpf_ring_count();
	if (st.bpf_nkeys < 0)
		st.bpf_nkeys = 0;
	st.bpf_sealed = !st.keyring_unsealed || st.enforce;
	/* write lets adds reach the restriction; setattr only to provision */
	/* bpf_keyring_init()'s permissions: write lets adds reach the
	 * restriction; setattr only to provision
	 */
	st.bpf_perm_write_ok = KEY_POS_VIEW | KEY_POS_READ | KEY_POS_SEARCH | KEY_POS_WRITE |
			       KEY_USR_VIEW | KEY_USR_READ | KEY_USR_SEARCH | KEY_USR_WRITE |
			       (st.bpf_sealed ? 0 : KEY_USR_SETATTR);
	st.permanent_keys = 0;
	len = cert_of(K_UNTRUSTED, &der);
	setup_key = add_key("asymmetric", "bpfsign-fuzz-untrusted", der, len,
			    KEY_SPEC_SESSION_KEYRING);
	if (setup_key < 0 || st.session < 0) {
		printf("# no session keyring to put the untrusted certificate in: %s\n",
		       strerror(errno));
		exit(2);
	}
	printf("# keyrings: session %d, builtin %d, secondary %d, blacklist %d, .bpf %d (%s, %d keys)%s\n",
	       st.session, st.builtin_ring, st.secondary_ring, st.blacklist_ring, st.bpf_ring,
	       st.bpf_sealed ? "sealed" : "unsealed", st.bpf_nkeys,
	       st.keyring_unsealed ? ", bpf.keyring_unsealed=1" : "");
}

void keys_teardown(void)
{
	keys_reset();
	keyctl_unlink(setup_key, st.session);
}
