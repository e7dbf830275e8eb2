/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFSIGN_TOKEN_H
#define BPFSIGN_TOKEN_H

/*
 * Run fn(token_fd, arg) in a child that is root of a fresh user namespace
 * and holds a BPF token delegating every command, map, program and attach
 * type. Returns fn's exit status, or -1 if the token could not be made.
 */
/* In fn: the delegated bpffs, for libbpf's bpf_token_path ("/proc/self/fd/N") */
extern int token_bpffs_fd;
/* NULL (default): the namespace maps its root to uid 0 only.  Else the
 * uid_map and gid_map the parent writes for it ("0 100000 65536": a
 * subuid range, as newuidmap writes it).
 */
extern const char *token_idmap;

int run_with_token(int (*fn)(int token_fd, void *arg), void *arg);

#endif
