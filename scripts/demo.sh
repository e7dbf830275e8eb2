#!/bin/sh
# make demo: sign a BPF program into a light skeleton, audit it offline,
# tamper with a copy, then boot the patched kernel and load both.
set -eu
. "$(dirname "$0")/env.sh"

obj=$build/guest-obj
demo=$build/demo
keys=$top/keys-example
gl=$top/gen-loader/gen-loader
mkdir -p "$demo"

step() { printf '\n== %s\n' "$*"; }

step "1. sign: gen-loader turns skel_counter.bpf.o into a signed light skeleton"
"$gl" "$obj/skel_counter.bpf.o" -o "$demo/skel_counter.lskel.h" --name skel_counter \
	--key "$keys/signing.key" --cert "$keys/signing.crt" --btf "$kout/vmlinux"
echo "wrote $demo/skel_counter.lskel.h ($(wc -c < "$demo/skel_counter.lskel.h") bytes)"

step "2. audit offline: re-derive insns || metadata from the header and verify"
"$gl" verify --cert "$keys/signing.crt" --json "$demo/skel_counter.lskel.h"

step "3. tamper: flip the last byte of the signature, audit again"
"$top/tests/host/gen-loader/tamper.sh" signature last "$demo/skel_counter.lskel.h" \
	"$demo/skel_counter_bad_signature.lskel.h"
"$gl" verify --cert "$keys/signing.crt" "$demo/skel_counter_bad_signature.lskel.h" || true

step "4. boot the patched kernel in QEMU and load both (built by the same rules)"
BPFSIGN_QUIET=1 "$top/qemu/run-guest.sh" demo_signed demo_tampered

step "5. enforcement: boot with bpf_sig_enforce=1; unsigned and tampered refused, audited"
BPFSIGN_QUIET=1 BPFSIGN_CMDLINE=bpf_sig_enforce=1 "$top/qemu/run-guest.sh" demo_enforce
