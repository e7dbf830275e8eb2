#!/bin/sh
# Host tests of the patched tree's bpftool and libbpf (build/tools): the
# skeletons they generate for global percpu data (.percpu sections), seed
# 005's codegen, compiled here.  bpftool gen only opens the object: strace
# shows no bpf() call, nothing reaches this machine's kernel; the generated
# code runs in the QEMU guest (tests/guest/test_percpu_data.c).  TAP, one
# line per test, and as the last line "N passed, N failed".  Needs
# `make -C tests/guest` first (vmlinux.h, the tools).
#
# Usage: tests/host/tools/run.sh [NAME-FILTER]
set -u

top=$(cd "$(dirname "$0")/../../.." && pwd)
build=${BPFSIGN_BUILD:-$top/build}
bpftool=$build/tools/bpftool/bpftool
inc=$build/tools/include
obj=$build/guest-obj
prog=$top/tests/guest/progs/percpu_data.bpf.c

. "$top/tests/host/lib.sh"
host_test_init tools "$@"

# percpu_data.bpf.o, as tests/guest/Makefile builds it
bpf_obj() {
	"$CLANG" -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror -I"$obj" -I"$inc" \
		-c "$prog" -o p.bpf.o || { echo "$CLANG failed on $prog"; return 1; }
}

# a C file that includes HEADER must build against the patched libbpf headers
compiles() {	# HEADER
	printf '#include <errno.h>\n#include <bpf/libbpf.h>\n#include "%s"\n%s\n' "$1" \
		'int main(void) { return 0; }' > use.c
	gcc -Wall -Werror -I. -I"$inc" -I"$build/linux/tools/include/uapi" -c use.c -o use.o ||
		{ echo "$1 does not compile"; return 1; }
}

has() {		# FILE TEXT
	grep -qF -- "$2" "$1" && return 0
	echo "$1: no '$2'"
	return 1
}

lacks() {	# FILE TEXT
	grep -qF -- "$2" "$1" || return 0
	echo "$1: unexpected '$2':"
	grep -nF -- "$2" "$1" | head -n 3
	return 1
}

# --- the tests --------------------------------------------------------------

t_built() {
	# a missing build is a failure, never a skip
	[ -x "$bpftool" ] || { echo "no $bpftool (make tools)"; return 1; }
	[ -f "$obj/vmlinux.h" ] || { echo "no $obj/vmlinux.h (make -C tests/guest)"; return 1; }
	command -v "$CLANG" > /dev/null || { echo "no $CLANG (make deps)"; return 1; }
}

t_skeleton() {
	bpf_obj || return 1
	run "$bpftool" gen skeleton p.bpf.o name pd
	expect_rc 0 "gen skeleton" || return 1
	mv out pd.skel.h
	# one struct per .percpu section, exposed as the map's image
	has pd.skel.h 'struct pd__percpu {' && has pd.skel.h '} *percpu;' &&
		has pd.skel.h '} *percpu_data;' && has pd.skel.h '} *percpu_looooooooong;' &&
		has pd.skel.h 'map->mmaped = (void **)&obj->percpu;' &&
		has pd.skel.h 'struct_data;' || return 1
	# .data.percpu is ordinary data: mmaped array, its own struct
	has pd.skel.h '} *data_percpu;' || return 1
	# the real (long) name is what libbpf and the skeleton use
	has pd.skel.h 'map->name = ".percpu.looooooooong";' || return 1
	compiles pd.skel.h
}

t_light_skeleton() {
	bpf_obj || return 1
	run "$bpftool" gen skeleton -L p.bpf.o name pd_lskel
	expect_rc 0 "gen skeleton -L" || return 1
	mv out pd.lskel.h
	# the image becomes read-only after load, never skel_finalize_map_data()
	has pd.lskel.h 'err = skel_protect_map_data(skel->percpu, &skel->maps.percpu.initial_value' &&
		lacks pd.lskel.h 'skel_finalize_map_data(&skel->maps.percpu.initial_value' &&
		has pd.lskel.h 'skel->data_percpu = skel_finalize_map_data(' || return 1
	compiles pd.lskel.h
}

t_subskeleton() {
	bpf_obj || return 1
	run "$bpftool" gen subskeleton p.bpf.o name pd
	expect_rc 0 "gen subskeleton" || return 1
	mv out pd.subskel.h
	# percpu variables have no single address a subskeleton could point to
	lacks pd.subskel.h 'cpu_id' && lacks pd.subskel.h '"struct_data"' &&
		has pd.subskel.h 'struct pd__data_percpu {' || return 1
	compiles pd.subskel.h
}

t_no_bpf_syscall() {
	command -v strace > /dev/null || { echo "no strace (make deps)"; return 1; }
	bpf_obj || return 1
	# -L loads the object into a loader generator: no BPF token (as
	# tests/guest/skeleton.mk runs it), else libbpf tries BPF_TOKEN_CREATE
	strace -f -qq -e trace=bpf -o trace "$bpftool" gen skeleton p.bpf.o name pd > /dev/null &&
		LIBBPF_BPF_TOKEN_PATH= strace -f -qq -e trace=bpf -o trace2 \
			"$bpftool" gen skeleton -L p.bpf.o > /dev/null ||
		{ echo "bpftool gen failed under strace"; return 1; }
	cat trace trace2 > all
	[ ! -s all ] || { echo "bpf() calls:"; head -n 5 all; return 1; }
}

t "built: bpftool, vmlinux.h, the BPF clang" t_built
t "gen skeleton: NAME__percpu structs, images, real map names" t_skeleton
t "gen skeleton -L: percpu image protected, not finalized" t_light_skeleton
t "gen subskeleton: percpu variables skipped" t_subskeleton
t "no bpf() syscall for bpftool gen (strace)" t_no_bpf_syscall

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
