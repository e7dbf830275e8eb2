/* SPDX-License-Identifier: GPL-2.0 */
/* Signed loads of the fixture (fixture.h), for the tests of signed loading. */
#ifndef BPFSIGN_SIGNED_H
#define BPFSIGN_SIGNED_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/bpf.h>

enum { BUILTIN = 0, SECONDARY = 1 };

struct load {
	struct bpf_insn insns[16];
	int cnt;
	int fds[4];		/* fd_array, all bound (fd_array_cnt) */
	int nfds;
	unsigned char *sig;
	int sig_len;
	int keyring_id;
};

/* BPF_PROG_LOAD of l with its signature, log into vlog */
int sys_prog_load(struct load *l);
/* The same, with more(attr, arg) setting further attributes before the call */
int sys_prog_load_with(struct load *l, void (*more)(union bpf_attr *attr, void *arg), void *arg);
/* metadata map m of a load, holding fixture_meta(m, ...) */
int meta_map(const struct bpf_insn *insns, int cnt, int m, bool excl, bool freeze);
/* A signed load of insns (the fixture when NULL) with nmeta metadata maps
 * exclusive to it, signed by key NAME over insns || metadata.
 */
bool make_load_insns(struct load *l, const struct bpf_insn *insns, int cnt,
		     int nmeta, const char *name, int keyring_id);
bool make_load(struct load *l, int nmeta, const char *name, int keyring_id);
/* (Re)sign l by key NAME over insns || the metadata of its l->nfds maps,
 * numbered from first (fixture_meta(first, ...), ...), with or without CMS
 * signed attributes.
 */
bool sign_load(struct load *l, const char *name, int first, bool signed_attrs);
/* The bytes a signature of l covers, insns || the metadata of its l->nfds
 * maps numbered from first, into payload: their length.
 */
#define LOAD_PAYLOAD_MAX	(sizeof(((struct load *)0)->insns) + \
				 sizeof(((struct load *)0)->fds) / sizeof(int) * META_SZ)
size_t load_payload(const struct load *l, int first, unsigned char *payload);
/* The same load unsigned: no signature pointer, size 0. */
void drop_signature(struct load *l);
void free_load(struct load *l);
__u32 last_id(int (*next)(__u32, __u32 *));
/* Load l expecting -err (0: success, and the program reads its metadata);
 * a rejected load must leave no program or map behind.
 */
void expect_load(struct load *l, int err, const char *log, const char *what);

/* The verifier log line of a signature refused for its signed attributes
 * (-EKEYREJECTED): BPF signatures, like module signatures, take none.
 */
#define SIGNED_ATTRS_LOG \
	"signature has signed attributes: BPF signatures sign the data directly (sign with -noattr)"

#endif
