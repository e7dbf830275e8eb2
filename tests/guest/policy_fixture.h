/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest tests of policies/ share: the CLI of the guest
 * (/tests/bpfsign-policy) run and its output captured, the policies'
 * pins, policy files, the counters `status` prints, the maps and links a
 * policy pinned, and the hand-built writers the guard tests load.  Used
 * by test_policies.c, test_policy_keys.c and the test_attack_*policy* /
 * test_attack_round2_* files; no global state but the last output.
 */
#ifndef BPFSIGN_POLICY_FIXTURE_H
#define BPFSIGN_POLICY_FIXTURE_H

#include <stdbool.h>
#include <linux/types.h>

#include "util.h"
#include "../../policies/policy.h"

#define POLICY_CLI	"/tests/bpfsign-policy"
#define POLICY_PIN_DIR	"/sys/fs/bpf/bpfsign"

/* raw instructions of the guard tests' writers, beside util.h's */
#define ST_MEM(sz, d, o, i)	INSN(BPF_ST | BPF_MEM | (sz), d, 0, o, i)
#define MOV64_REG(d, s)		INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define ADD64_IMM(d, i)		INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define CALL(f)			INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define JEQ_IMM(d, i, o)	INSN(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, i)

/* every policy the CLI loads, in its order */
extern const char *const policy_names[3];

/* the output of the last policy_run()/policy_cli(), stdout and stderr: a
 * flooded ring buffer prints some 550 records of about 560 bytes
 */
extern char policy_out[1 << 20];

/* Run argv[0]; its exit code, or -1.  The output goes to policy_out. */
int policy_run(const char *const argv[]);
/* Run the CLI with the NULL-terminated arguments; its exit code, or -1. */
int policy_cli(const char *arg, ...);

/* The CLI must exit 0; else its output is shown. */
#define POLICY_CLI_OK(what, ...) ({						\
	int ___rc = policy_cli(__VA_ARGS__, NULL);				\
	if (___rc != 0)								\
		FAIL("%s: bpfsign-policy exit %d: %s", what, ___rc, policy_out);\
	___rc == 0;								\
})

/* policy_out, each line as a TAP comment (QUIET shows "#" lines only) */
void policy_dump_out(void);
/* Occurrences of needle in haystack */
long policy_count(const char *haystack, const char *needle);

/* POLICY_PIN_DIR/name exists */
bool policy_pinned(const char *name);
/* Unload name if it is pinned; the CLI must succeed and remove its pins. */
void policy_unload(const char *name);
/* Leave the kernel as the test found it: no policy attached. */
void policy_unload_all(void);

/* Write text to path: 0, or -1. */
int policy_write_file(const char *path, const char *text);
/* Write text to path and load keyring-allowlist with it: false (and a
 * failed assertion with the CLI's output) if either fails.
 */
bool policy_load_allowlist(const char *path, const char *text);

/* An unsigned syscall program (sleepable, as libbpf loads SEC("syscall")):
 * 0, or -errno.
 */
int policy_try_unsigned_syscall(void);

/* The counters `status` (already run: policy_out) prints for policy name:
 * false if not found.  tallied is the last: a policy without it shows 0.
 */
bool policy_parse_counts(const char *name, __u64 n[BPFSIGN_STAT_MAX]);
/* Run status and parse name's counters; its exit code into *rc. */
bool policy_status_counts(const char *name, __u64 n[BPFSIGN_STAT_MAX], int *rc);

/* BPF_MAP_GET_FD_BY_ID of the map pinned as POLICY_PIN_DIR/policy/pin, or -1 */
int policy_map_fd_by_id(const char *policy, const char *pin);
/* The program id of the link pinned as policy/link, or 0 */
__u32 policy_link_prog_id(const char *policy, const char *link);

/* An unsigned cgroup_skb program that zeroes u64 element idx of the map at
 * fd (inner: of the map in slot 0 of the map-in-map at fd): its fd, or
 * -errno.
 */
int policy_load_zeroer(int fd, bool inner, __u32 idx);

#endif
