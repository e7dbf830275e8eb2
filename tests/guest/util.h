/* SPDX-License-Identifier: GPL-2.0 */
/* Raw-instruction helpers for tests that build programs by hand. */
#ifndef BPFSIGN_UTIL_H
#define BPFSIGN_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })
#define MOV64_IMM(d, i)		INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define EXIT_INSN()		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* ld_imm64 of a map, by fd or by fd_array index (BPF_PSEUDO_MAP_IDX) */
#define LD_MAP(d, src, v)	INSN(BPF_LD | BPF_DW | BPF_IMM, d, src, 0, v), INSN(0, 0, 0, 0, 0)
#define ARRAY_LEN(a)		(sizeof(a) / sizeof((a)[0]))
#define offsetofend(T, m)	(offsetof(T, m) + sizeof(((T *)0)->m))

/* The verifier log of the last load_prog(), for asserting its lines. */
extern char vlog[65536];

/* BPF_PROG_TYPE_SOCKET_FILTER load with the verifier log into vlog. */
int load_prog(const struct bpf_insn *insns, size_t cnt, struct bpf_prog_load_opts *opts);
/* The same for another program type. */
int load_prog_type(enum bpf_prog_type type, const struct bpf_insn *insns, size_t cnt,
		   struct bpf_prog_load_opts *opts);
int array_map(__u32 value_size, __u32 max_entries, struct bpf_map_create_opts *opts);
/* Number of maps bound to prog_fd, their ids into ids[] (up to max). */
int prog_map_ids(int prog_fd, __u32 *ids, __u32 max);
__u32 map_id(int map_fd);
/* The id of the program at prog_fd, or 0 */
__u32 prog_id(int prog_fd);

/* the kernel's internal "operation not supported", as bpf() returns it */
#define ENOTSUPP 524

/* Write val to the sysctl at path, its previous value into old if given: 0 or -errno. */
int sysctl_write(const char *path, const char *val, char *old, size_t old_sz);
/* net.core.bpf_jit_enable: 0 sends new programs to the interpreter. */
int set_bpf_jit(int on);
/* SHA-256 of insns with map-fd immediates zeroed, as the kernel digests them. */
void prog_digest(const struct bpf_insn *insns, size_t cnt, unsigned char out[32]);
/* Readable but not writable memory (a skeleton's map image): read() into p fails. */
bool is_read_only(const void *p);

/* Run argv[0] with argv, its stdout and stderr into out (NUL-terminated,
 * at most size - 1 bytes): its exit code, or -1.
 */
int run_capture(const char *const argv[], char *out, size_t size);

/* The value of "KEY:\t..." in /proc/self/fdinfo/FD into val (at most len
 * bytes), or "" when the line is absent: the kit's kernel shows a
 * program's signature verdict and signer there (sig_key, sig_key_sha256,
 * kernel_load, loader_*).  Returns val.
 */
const char *prog_fdinfo(int fd, const char *key, char *val, size_t len);
/* The same as a number, or -1 when absent. */
long prog_fdinfo_num(int fd, const char *key);

#endif
