// SPDX-License-Identifier: GPL-2.0
/*
 * Keys and revocation: the .bpf keyring (KEY_SPEC_BPF_KEYRING), a revoked
 * certificate in .blacklist, and one signed payload blacklisted by hash
 * (keys-example/kernel-blacklist-hashes: the fixture with map 2's metadata).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include <keyutils.h>

#include "runner.h"
#include "util.h"
#include "sign.h"
#include "signed.h"

#ifndef KEY_SPEC_BPF_KEYRING
#define KEY_SPEC_BPF_KEYRING -9
#endif

/* The certificate a request-key upcall instantiates its key with */
#define UPCALL_DER "/tmp/request-key.der"

/*
 * As /sbin/request-key (a symlink to this binary; glibc passes argc and argv
 * to constructors): "request-key create KEY UID GID THREAD PROCESS SESSION"
 * instantiates KEY with UPCALL_DER, without naming a keyring, since the
 * kernel linked the key where the request said before the upcall
 */
__attribute__((constructor)) static void request_key_upcall(int argc, char **argv)
{
	unsigned char buf[8192];
	key_serial_t key;
	long r;
	int fd, n;

	if (argc < 3 || !strstr(argv[0], "request-key"))
		return;
	key = atoi(argv[2]);
	r = keyctl_assume_authority(key);
	fd = open(UPCALL_DER, O_RDONLY);
	n = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
	if (r >= 0 && n > 0)
		r = keyctl_instantiate(key, buf, n, 0);
	_exit(r ? 1 : 0);
}

/* A request_key() of an asymmetric key with the sealed .bpf as destination,
 * which an upcall of the caller's would instantiate with untrusted.crt
 */
static void request_key_into_sealed_bpf(void)
{
	unsigned char *der;
	struct load l;
	int len, fd;
	bool ok;

	len = cert_der("untrusted", &der);
	if (!ASSERT_GE(len, 1, "untrusted.crt"))
		return;
	fd = open(UPCALL_DER, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ok = fd >= 0 && write(fd, der, len) == len;
	if (fd >= 0)
		close(fd);
	free(der);
	mkdir("/sbin", 0755);
	unlink("/sbin/request-key");
	ok = ok && !symlink("/tests/bpfsign-tests", "/sbin/request-key");
	if (!ASSERT_TRUE(ok, "the request-key upcall"))
		return;
	/* __key_link_begin(): construct_alloc_key() links without asking the
	 * restriction, and a sealed keyring takes no link
	 */
	ASSERT_ERR(request_key("asymmetric", "bpfsign-upcall", "callout", KEY_SPEC_BPF_KEYRING),
		   EPERM, "request_key() into the sealed .bpf keyring");
	if (make_load(&l, 1, "untrusted", KEY_SPEC_BPF_KEYRING))
		expect_load(&l, ENOKEY, NULL, "signed by the upcall's certificate, keyring .bpf");
	free_load(&l);
	unlink("/sbin/request-key");
}

TEST(bpf_keyring_sealed_by_default)
{
	unsigned char *der;
	struct load l;
	int len;

	if (!make_load(&l, 1, "signing", KEY_SPEC_BPF_KEYRING))
		return;
	/* a valid builtin signature: only the empty .bpf keyring refuses it */
	expect_load(&l, ENOKEY, "the .bpf keyring is empty or not sealed", "sealed .bpf");
	free_load(&l);

	len = cert_der("signing", &der);
	/* the reject-all restriction answers, as upstream's (EPERM) */
	ASSERT_ERR(add_key("asymmetric", "bpfsign", der, len, KEY_SPEC_BPF_KEYRING), EPERM,
		   "keyctl padd into the sealed .bpf keyring");
	free(der);
	/* __key_link_begin(): no keyring inside .bpf */
	ASSERT_ERR(keyctl_link(KEY_SPEC_SESSION_KEYRING, KEY_SPEC_BPF_KEYRING), EPERM,
		   "keyctl link @s into the sealed .bpf keyring");
	request_key_into_sealed_bpf();
}

TEST(revoked_certificate)
{
	struct load l;

	/* revoked.crt is in .builtin_trusted_keys and in .blacklist */
	if (make_load(&l, 1, "revoked", BUILTIN))
		expect_load(&l, EKEYREJECTED, "signature verification failed", "revoked certificate");
	free_load(&l);
}

TEST(blacklisted_signed_payload)
{
	struct load l;

	if (!make_load(&l, 1, "signing", BUILTIN))
		return;
	/* map 2's metadata: the payload whose hash is in .blacklist */
	close(l.fds[0]);
	l.fds[0] = meta_map(l.insns, l.cnt, 2, true, true);
	/* validly signed by a trusted key: only the hash entry refuses it */
	if (sign_load(&l, "signing", 2, false))
		expect_load(&l, EKEYREJECTED, "is blacklisted", "blacklisted payload hash");
	free_load(&l);
}

/* Boot with bpf.keyring_unsealed=1; the test provisions like an initramfs. */
TEST_EXPLICIT(bpf_keyring_provisioned)
{
	unsigned char *der;
	key_serial_t key, mine, linked;
	struct load l;
	int len, fd;

	fd = open("/sys/module/bpf/parameters/keyring_unsealed", O_RDONLY);
	if (ASSERT_OK(fd, "bpf.keyring_unsealed parameter")) {
		char c = 0;

		ASSERT_EQ(read(fd, &c, 1), 1, "read it");
		ASSERT_EQ(c, 'Y', "bpf.keyring_unsealed=1");
		close(fd);
	}
	/* not active before it is sealed: a caller keyring still verifies */
	len = cert_der("untrusted", &der);
	add_key("asymmetric", "bpfsign-untrusted", der, len, KEY_SPEC_SESSION_KEYRING);
	free(der);
	if (make_load(&l, 1, "untrusted", KEY_SPEC_SESSION_KEYRING))
		expect_load(&l, 0, NULL, "session keyring before .bpf is provisioned");
	free_load(&l);

	/* __key_link_begin(): a keyring linked into .bpf before the seal would
	 * stay writable after it, and its keys would count as .bpf's
	 */
	ASSERT_ERR(add_key("keyring", "nested", NULL, 0, KEY_SPEC_BPF_KEYRING), EPERM,
		   "keyctl newring nested -9");
	ASSERT_ERR(keyctl_link(KEY_SPEC_SESSION_KEYRING, KEY_SPEC_BPF_KEYRING), EPERM,
		   "keyctl link @s -9");

	if (!make_load(&l, 1, "team", KEY_SPEC_BPF_KEYRING))
		return;
	len = cert_der("team", &der);
	key = add_key("asymmetric", "bpfsign-team", der, len, KEY_SPEC_BPF_KEYRING);
	ASSERT_OK(key, "keyctl padd asymmetric '' -9");
	free(der);
	/* enrolled but not sealed: inert */
	expect_load(&l, ENOKEY, "the .bpf keyring is empty or not sealed", "unsealed .bpf");

	/* KEY_FLAG_SEAL_ON_RESTRICT: a restriction that admits keys signed by
	 * the builtin keyring would leave .bpf open, so it is no seal
	 */
	ASSERT_ERR(keyctl_restrict_keyring(KEY_SPEC_BPF_KEYRING, "asymmetric", "builtin_trusted"),
		   EPERM, "keyctl restrict_keyring -9 asymmetric builtin_trusted");
	expect_load(&l, ENOKEY, "the .bpf keyring is empty or not sealed", "refused seal");

	/* a key this session possesses, linked into .bpf before the seal */
	len = cert_der("signing-ec", &der);
	linked = add_key("asymmetric", "bpfsign-linked", der, len, KEY_SPEC_SESSION_KEYRING);
	free(der);
	ASSERT_OK(linked, "a possessed certificate");
	ASSERT_OK(keyctl_link(linked, KEY_SPEC_BPF_KEYRING), "keyctl link it -9");

	ASSERT_OK(keyctl_restrict_keyring(KEY_SPEC_BPF_KEYRING, NULL, NULL),
		  "keyctl restrict_keyring -9");
	expect_load(&l, 0, NULL, "signed by the enrolled key, keyring .bpf");
	/* keyring_seal(): the keys it holds are kept, so that emptying it cannot
	 * make .bpf inactive and let caller keyrings back in
	 */
	ASSERT_ERR(keyctl_invalidate(linked), EPERM, "keyctl invalidate of a sealed-in key");
	ASSERT_ERR(keyctl_revoke(linked), EPERM, "keyctl revoke of a sealed-in key");
	ASSERT_ERR(keyctl_set_timeout(linked, 1), EPERM, "keyctl timeout of a sealed-in key");

	len = cert_der("signing-ec", &der);
	/* the reject-all restriction: nothing more can be enrolled (EPERM, as
	 * upstream)
	 */
	ASSERT_ERR(add_key("asymmetric", "late", der, len, KEY_SPEC_BPF_KEYRING), EPERM,
		   "enrolment after the seal");
	free(der);
	/* nor removed: KEY_FLAG_KEEP refuses clear, __key_unlink_begin() unlink */
	ASSERT_ERR(keyctl_clear(KEY_SPEC_BPF_KEYRING), EPERM, "keyctl clear -9");
	ASSERT_ERR(keyctl_unlink(key, KEY_SPEC_BPF_KEYRING), EPERM, "keyctl unlink KEY -9");
	/* __key_unlink_begin(): nor moved out (a key this session possesses,
	 * so that its link permission is not what refuses)
	 */
	mine = add_key("user", "bpfsign-movable", "x", 1, KEY_SPEC_SESSION_KEYRING);
	if (ASSERT_OK(mine, "a possessed key"))
		ASSERT_ERR(keyctl_move(mine, KEY_SPEC_BPF_KEYRING, KEY_SPEC_SESSION_KEYRING, 0),
			   EPERM, "keyctl move KEY -9 @s");
	/* nor reopened: keyctl_setperm_key() only narrows a sealed keyring's
	 * permissions, keyctl_chown_key() keeps its owner
	 */
	ASSERT_ERR(keyctl_setperm(KEY_SPEC_BPF_KEYRING, KEY_POS_ALL | KEY_USR_ALL | KEY_OTH_ALL),
		   EACCES, "keyctl setperm -9 widening");
	ASSERT_ERR(keyctl_chown(KEY_SPEC_BPF_KEYRING, 1000, -1), EACCES, "keyctl chown -9");
	/* keyring_restrict(): the seal is there */
	ASSERT_ERR(keyctl_restrict_keyring(KEY_SPEC_BPF_KEYRING, NULL, NULL), EEXIST,
		   "restrict_keyring again");
	/* and the enrolled key still counts */
	expect_load(&l, 0, NULL, "sealed .bpf still verifies");
	free_load(&l);
	/* nor can an upcall enrol one */
	request_key_into_sealed_bpf();

	/* bpf_keyring_active(): sealed with keys, caller keyrings are refused */
	if (make_load(&l, 1, "untrusted", KEY_SPEC_SESSION_KEYRING))
		expect_load(&l, EPERM, "refused: the .bpf keyring is active",
			    "session keyring under an active .bpf");
	free_load(&l);

	/* the system keyrings stay selectable */
	if (make_load(&l, 1, "signing", BUILTIN))
		expect_load(&l, 0, NULL, "builtin keyring under .bpf");
	free_load(&l);
}

/*
 * Boot with bpf.keyring_unsealed=1: systemd-keyring-setup's provisioning of
 * .bpf, as it does it for .dm-verity and .fs-verity: add the certificates,
 * seal with KEYCTL_RESTRICT_KEYRING, then narrow the permissions to
 * possessor-search and user-view.  A distribution using systemd needs no
 * hook of the kit's.
 */
TEST_EXPLICIT(bpf_keyring_systemd_sequence)
{
	unsigned char *der;
	struct load l;
	int len, fd;

	len = cert_der("team", &der);
	ASSERT_OK(add_key("asymmetric", "", der, len, KEY_SPEC_BPF_KEYRING),
		  "add the certificate to -9");
	ASSERT_OK(keyctl_restrict_keyring(KEY_SPEC_BPF_KEYRING, NULL, NULL),
		  "KEYCTL_RESTRICT_KEYRING -9");
	/* keyctl_setperm_key(): narrowing a sealed keyring is allowed */
	ASSERT_OK(keyctl_setperm(KEY_SPEC_BPF_KEYRING, KEY_POS_SEARCH | KEY_USR_VIEW),
		  "KEYCTL_SETPERM -9 possessor-search, user-view");
	/* after it, nothing can be added (no write left, and the seal) */
	ASSERT_ERR(add_key("asymmetric", "late", der, len, KEY_SPEC_BPF_KEYRING), EACCES,
		   "an add after systemd's sequence");
	free(der);
	/* a program signed by the provisioned key loads under enforcement */
	fd = open("/proc/sys/kernel/bpf_sig_enforce", O_WRONLY);
	if (ASSERT_OK(fd, "kernel.bpf_sig_enforce")) {
		ASSERT_EQ(write(fd, "1", 1), 1, "raise bpf_sig_enforce");
		close(fd);
	}
	if (make_load(&l, 1, "team", KEY_SPEC_BPF_KEYRING))
		expect_load(&l, 0, NULL, "signed by the provisioned key, keyring .bpf, enforced");
	free_load(&l);
	if (make_load(&l, 1, "untrusted", BUILTIN))
		expect_load(&l, ENOKEY, NULL, "another key, builtin keyring");
	free_load(&l);
}
