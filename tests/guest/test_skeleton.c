// SPDX-License-Identifier: GPL-2.0
/*
 * Signed light skeletons made by gen-loader (skeleton.mk): the header of a
 * real program loads signed, attaches and counts; a header signed by a key
 * the keyring does not hold, or with one byte flipped, is refused by the
 * kernel with the errno of the check that caught it, and leaves nothing.
 */
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <keyutils.h>
#include <bpf/bpf.h>

#include "runner.h"
#include "sign.h"
#include "skel_verdict.skel.h"
#include "skel_counter.lskel.h"
#include "skel_counter_untrusted.lskel.h"
#include "skel_counter_bad_insns.lskel.h"
#include "skel_counter_bad_data.lskel.h"
#include "skel_counter_bad_excl_hash.lskel.h"
#include "skel_counter_bad_signature.lskel.h"

/* step's initial value in progs/skel_counter.bpf.c */
#define STEP 3

/* enum bpf_sig_verdict and enum bpf_sig_keyring (include/linux/bpf.h) */
enum { SIG_VERIFIED = 1, KEYRING_BUILTIN = 1, KEYRING_USER = 4 };

/* An LSM program that records the verdicts of this process's loads. */
static struct skel_verdict *watch_loads(void)
{
	struct skel_verdict *v = skel_verdict__open_and_load();

	if (!ASSERT_TRUE(v, "skel_verdict LSM skeleton"))
		return NULL;
	v->bss->target_tgid = getpid();
	if (!ASSERT_OK(skel_verdict__attach(v), "attach lsm/bpf_prog_load")) {
		skel_verdict__destroy(v);
		return NULL;
	}
	return v;
}

static void getppid_n(int n)
{
	while (n--)
		syscall(SYS_getppid);	/* not glibc's getppid(): no caching */
}

/* The highest prog or map id: ids are allocated cyclically, so an object
 * created later has a higher one (objects of earlier tests may still be
 * freed asynchronously, so counting would not do).
 */
static __u32 max_id(int (*next)(__u32, __u32 *))
{
	__u32 id = 0, max = 0;

	while (!next(id, &id))
		max = id;
	return max;
}

static __u64 calls_of(int map_fd, __u32 tgid)
{
	__u64 n = 0;

	if (bpf_map_lookup_elem(map_fd, &tgid, &n))
		return (__u64)-1;
	return n;
}

/* The signed header loads with the builtin keyring (its default), the
 * loader fills the maps from the signed metadata, and the program counts.
 */
TEST(skeleton_signed_load_attach)
{
	__u32 tgid = getpid();
	struct skel_counter *skel;
	struct skel_verdict *v;
	int err;

	v = watch_loads();
	if (!v)
		return;
	skel = skel_counter__open();
	if (!ASSERT_TRUE(skel, "skel_counter__open"))
		goto out_v;
	ASSERT_EQ(skel->keyring_id, 0, "default keyring id of the header (builtin)");
	ASSERT_EQ(skel->data->step, STEP, ".data initial value, from the signed metadata");
	ASSERT_EQ(skel->bss->hits, 0, ".bss initial value");
	ASSERT_EQ(skel->rodata->count_calls, 1, ".rodata initial value");

	err = skel_counter__load(skel);
	if (err) {
		FAIL("skel_counter__load: %d (%s), %s", err, strerrorname_np(-err),
		     skel->errstr ? skel->errstr : "");
		goto out;
	}
	ASSERT_EQ(v->bss->loaders, 1, "one loader program loaded");
	ASSERT_EQ(v->bss->loader_verdict, SIG_VERIFIED, "loader verdict at bpf_prog_load");
	ASSERT_EQ(v->bss->loader_keyring, KEYRING_BUILTIN, "loader verified by the builtin keyring");
	ASSERT_EQ(v->bss->progs, 1, "the loader loaded the object's one program");
	ASSERT_EQ(skel->rodata->count_calls, 1, ".rodata after load: the frozen map's signed value");
	/* .bss is the map's memory now: the program sees what is set here */
	skel->bss->target_tgid = tgid;
	if (!ASSERT_OK(skel_counter__attach(skel), "skel_counter__attach"))
		goto out;

	getppid_n(5);
	ASSERT_EQ(skel->bss->hits, 5 * STEP, "hits in the mmaped .bss after 5 getppid()");
	ASSERT_EQ(calls_of(skel->maps.calls.map_fd, tgid), 5, "calls[tgid] in the hash map");

	/* .data is mapped read-write: the program sees the new step */
	skel->data->step = 10;
	getppid_n(1);
	ASSERT_EQ(skel->bss->hits, 5 * STEP + 10, "hits after step = 10");

	skel_counter__detach(skel);
	skel->links.count_getppid_fd = 0;
	getppid_n(3);
	ASSERT_EQ(skel->bss->hits, 5 * STEP + 10, "no hits after detach");
out:
	skel_counter__destroy(skel);
out_v:
	skel_verdict__destroy(v);
}

/*
 * A header signed by keys-example/untrusted.key: the builtin keyring does
 * not hold its key (ENOKEY); after the certificate is added to the session
 * keyring, the header's default keyring (-3, the session keyring) loads it.
 */
TEST(skeleton_untrusted_key_session_keyring)
{
	__u32 tgid = getpid();
	struct skel_counter_untrusted *skel;
	struct skel_verdict *v = NULL;
	unsigned char *der = NULL;
	key_serial_t key;
	int err, len;

	skel = skel_counter_untrusted__open();
	if (!ASSERT_TRUE(skel, "skel_counter_untrusted__open"))
		return;
	ASSERT_EQ(skel->keyring_id, KEY_SPEC_SESSION_KEYRING,
		  "default keyring id of the header (--keyring-id -3)");
	/* no key in the builtin keyring names the signer: pkcs7 finds none */
	err = skel_counter_untrusted__load_keyring(skel, 0);
	ASSERT_ERR(err, ENOKEY, "untrusted key, builtin keyring");
	skel_counter_untrusted__destroy(skel);

	len = cert_der("untrusted", &der);
	if (!ASSERT_GE(len, 1, "DER of /tests/keys/untrusted.crt"))
		return;
	key = add_key("asymmetric", "gen-loader-untrusted", der, len, KEY_SPEC_SESSION_KEYRING);
	free(der);
	if (!ASSERT_OK(key, "add_key asymmetric into the session keyring"))
		return;

	v = watch_loads();
	skel = skel_counter_untrusted__open();
	if (!ASSERT_TRUE(skel, "skel_counter_untrusted__open"))
		goto out_key;
	err = skel_counter_untrusted__load(skel);
	if (err) {
		FAIL("skel_counter_untrusted__load (session keyring): %d (%s), %s", err,
		     strerrorname_np(-err), skel->errstr ? skel->errstr : "");
		goto out;
	}
	skel->bss->target_tgid = tgid;
	if (v) {
		ASSERT_EQ(v->bss->loader_verdict, SIG_VERIFIED, "loader verdict");
		ASSERT_EQ(v->bss->loader_keyring, KEYRING_USER, "loader verified by a user keyring");
		ASSERT_EQ(v->bss->loader_serial,
			  keyctl_get_keyring_ID(KEY_SPEC_SESSION_KEYRING, 0),
			  "the keyring is this session's");
	}
	if (!ASSERT_OK(skel_counter_untrusted__attach(skel), "attach"))
		goto out;
	getppid_n(2);
	ASSERT_EQ(skel->bss->hits, 2 * STEP, "hits after 2 getppid()");
out:
	skel_counter_untrusted__destroy(skel);
out_key:
	skel_verdict__destroy(v);
	ASSERT_OK(keyctl_revoke(key), "keyctl revoke");
	ASSERT_OK(keyctl_unlink(key, KEY_SPEC_SESSION_KEYRING), "keyctl unlink");
}

/* load() of a tampered header: the errno, and no program or map left. */
#define EXPECT_TAMPERED(name, err, what) do {					\
	__u32 ___prog = max_id(bpf_prog_get_next_id);				\
	__u32 ___map = max_id(bpf_map_get_next_id);				\
	struct name *___s = name##__open();					\
										\
	if (ASSERT_TRUE(___s, #name "__open")) {				\
		ASSERT_ERR(name##__load(___s), err, what);			\
		ASSERT_STREQ(___s->errstr, "failed to load loader prog",	\
			     what ": the step that failed");			\
		name##__destroy(___s);						\
	}									\
	ASSERT_TRUE(max_id(bpf_prog_get_next_id) <= ___prog, what ": no program left"); \
	ASSERT_TRUE(max_id(bpf_map_get_next_id) <= ___map, what ": no map left");	\
} while (0)

TEST(skeleton_tampered_insns)
{
	/* The metadata map is exclusive to the digest of the original insns:
	 * binding it to the altered loader fails before the signature check.
	 */
	EXPECT_TAMPERED(skel_counter_bad_insns, EACCES, "last byte of insns flipped");
}

TEST(skeleton_tampered_excl_hash)
{
	/* Signature and insns intact, but the map is made exclusive to another
	 * digest: the same exclusivity check as above.
	 */
	EXPECT_TAMPERED(skel_counter_bad_excl_hash, EACCES, "last byte of excl_hash flipped");
}

TEST(skeleton_tampered_metadata)
{
	/* Map frozen, exclusive, bound: only the signature over
	 * insns || value can fail.
	 */
	EXPECT_TAMPERED(skel_counter_bad_data, EKEYREJECTED, "last byte of data flipped");
}

TEST(skeleton_tampered_signature)
{
	/* The last byte is in the RSA signature value, the PKCS#7 still
	 * parses (else EBADMSG): the signature does not verify.
	 */
	EXPECT_TAMPERED(skel_counter_bad_signature, EKEYREJECTED,
			"last byte of the signature flipped");
}
