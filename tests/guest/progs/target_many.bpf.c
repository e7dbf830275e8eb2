// SPDX-License-Identifier: GPL-2.0
/*
 * More programs than a loader had room for (32, subprograms included, on
 * its 512-byte stack): 73 programs and the subprogram they share, as
 * large objects of real tools have.  Each counts its own runs.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define NR_PROGS 73

__u64 hits[NR_PROGS];

static __attribute__((noinline)) int bump(int i)
{
	if (i >= 0 && i < NR_PROGS)
		hits[i]++;
	return 0;
}

#define PROG(n) SEC("syscall") int p##n(void *ctx) { return bump(n); }

PROG(0) PROG(1) PROG(2) PROG(3) PROG(4) PROG(5) PROG(6) PROG(7)
PROG(8) PROG(9) PROG(10) PROG(11) PROG(12) PROG(13) PROG(14) PROG(15)
PROG(16) PROG(17) PROG(18) PROG(19) PROG(20) PROG(21) PROG(22) PROG(23)
PROG(24) PROG(25) PROG(26) PROG(27) PROG(28) PROG(29) PROG(30) PROG(31)
PROG(32) PROG(33) PROG(34) PROG(35) PROG(36) PROG(37) PROG(38) PROG(39)
PROG(40) PROG(41) PROG(42) PROG(43) PROG(44) PROG(45) PROG(46) PROG(47)
PROG(48) PROG(49) PROG(50) PROG(51) PROG(52) PROG(53) PROG(54) PROG(55)
PROG(56) PROG(57) PROG(58) PROG(59) PROG(60) PROG(61) PROG(62) PROG(63)
PROG(64) PROG(65) PROG(66) PROG(67) PROG(68) PROG(69) PROG(70) PROG(71)
PROG(72)

char LICENSE[] SEC("license") = "GPL";
