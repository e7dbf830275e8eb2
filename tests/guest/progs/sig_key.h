/* SPDX-License-Identifier: GPL-2.0 */
/* What progs/sig_key.bpf.c records of each load, for test_sig_key.c. */
#ifndef BPFSIGN_SIG_KEY_H
#define BPFSIGN_SIG_KEY_H

#define SIG_KEY_MAX_LOADS 8

struct seen_key {
	int verdict;
	int keyring;
	int serial;
	int id_len;
	unsigned char id[64];
	int loader_id;
	int loader_serial;
	int loader_id_len;
	unsigned char loader_key[64];
	unsigned char sha256[32];		/* aux->sig_key.sha256 */
	unsigned char loader_sha256[32];	/* aux->loader_key.sha256 */
	int builtin;				/* aux->sig_key.builtin */
};

#endif
