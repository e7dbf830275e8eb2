/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loaders in the guest: running a loader that loads one child through
 * bpf_sys_bpf() (progs/loader_args.h), and the signed light skeleton
 * skel_counter loaded, attached and counting.
 */
#ifndef BPFSIGN_LOADER_H
#define BPFSIGN_LOADER_H

#include <stdbool.h>
#include <stddef.h>

struct mini_loader;

/*
 * Run the loader prog_fd (BPF_PROG_TEST_RUN) with struct loader_args
 * asking for a two-instruction socket filter: the child's fd, or -errno of
 * the run or of the child's load (as bpf_sys_bpf() returned it).  errno is
 * set as well, so that -EPERM, which is -1, reads the same under either
 * convention of ASSERT_ERR().
 */
int loader_run(int prog_fd);
/* The same for the unsigned mini loader (progs/mini_loader.bpf.c). */
int mini_loader_run(struct mini_loader *ml);
/*
 * A hand-written loader that loads what loader_run() asks for, signed by
 * key NAME (/tests/keys) and verified against keyring_id: its fd, or
 * -errno with the verifier log in vlog.
 */
int load_signed_loader(const char *name, int keyring_id);
/* The same, its CMS with signed attributes when signed_attrs */
int load_signed_loader_form(const char *name, int keyring_id, bool signed_attrs);
/* The bytes that loader signs (its instructions), and its load with sig */
const void *loader_payload(size_t *len);
int load_loader_sig(const unsigned char *sig, int len, int keyring_id);
/*
 * skel_counter (signed by signing.key) loads, attaches and its child program
 * counts three getppid() calls of this process; what names the load.
 */
void skel_counter_counts(const char *what);

#endif
