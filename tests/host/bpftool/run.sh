#!/bin/sh
# Host tests of the patched tree's bpftool signing (kernel-patches/0041):
# upstream's `gen skeleton -L -S -k KEY -i CERT` against gen-loader and
# bpfsign on the same objects and key, gen-loader verify's audit of
# bpftool's headers, and keys in a SoftHSM2 token through pkcs11: URIs.
# bpftool gen only opens the object (strace shows no bpf() call); the
# headers are loaded in the guest (tests/guest/test_bpftool_sign.c).  TAP,
# one line per test, and as the last line "N passed, N failed".  Needs
# `make -C tests/guest` first (the objects, the tools).
#
# Usage: tests/host/bpftool/run.sh [NAME-FILTER]
set -u

top=$(cd "$(dirname "$0")/../../.." && pwd)
build=${BPFSIGN_BUILD:-$top/build}
bpftool=$build/tools/bpftool/bpftool
# dynamically linked: OpenSSL's pkcs11 engine is loaded with dlopen()
bpftool_dyn=$build/tools/bpftool-host/bpftool
obj=$build/guest-obj
keys=$top/keys-example
gl=$top/gen-loader/gen-loader
bpfsign=$top/signer/bpfsign
skel=$top/tests/host/bpftool/skel.py
vmlinux=$build/kbuild/vmlinux
# the objects the guest suite builds, each loadable by both generators
objects="skel_counter percpu_data signed_inputs"

. "$top/tests/host/lib.sh"
host_test_init bpftool "$@"

# bt_sign OBJ NAME [BPFTOOL]: the signed light skeleton NAME.h, upstream's way
bt_sign() {
	LIBBPF_BPF_TOKEN_PATH= "${3:-$bpftool}" gen skeleton -L -S -k "$keys/signing.key" \
		-i "$keys/signing.crt" "$obj/$1.bpf.o" name "$2" > "$2.h" ||
		{ echo "bpftool gen skeleton -L -S $1.bpf.o failed"; return 1; }
}

# --- the tests --------------------------------------------------------------

t_built() {
	# a missing build is a failure, never a skip
	[ -x "$bpftool" ] || { echo "no $bpftool (make tools)"; return 1; }
	[ -x "$bpftool_dyn" ] || { echo "no $bpftool_dyn (make tools)"; return 1; }
	for o in $objects; do
		[ -f "$obj/$o.bpf.o" ] || { echo "no $obj/$o.bpf.o (make -C tests/guest)"; return 1; }
	done
}

# The same loader instructions, metadata and signature from both generators.
t_same_as_gen_loader() {
	local o gl_len bt_len
	for o in $objects; do
		bt_sign "$o" "$o" || return 1
		"$gl" "$obj/$o.bpf.o" -o gl.h --payload-out gl.bin --name "$o" --btf "$vmlinux" ||
			return 1
		python3 "$skel" get "$o.h" opts_insn insn.bin &&
		python3 "$skel" get "$o.h" opts_data data.bin &&
		python3 "$skel" get "$o.h" opts_sig sig.bin &&
		python3 "$skel" get "$o.h" opts_excl_hash hash.bin || return 1
		cat insn.bin data.bin > bt.bin
		bt_len=$(stat -c %s bt.bin)
		gl_len=$(stat -c %s gl.bin)
		# insns and metadata byte for byte; gen-loader's metadata goes on
		# with the header's C (its trailer), which bpftool does not sign
		cmp -s -n "$bt_len" bt.bin gl.bin ||
			{ echo "$o: bpftool's insns || data is not gen-loader's"; return 1; }
		[ "$gl_len" -gt "$bt_len" ] || { echo "$o: gen-loader has no trailer"; return 1; }
		expect_eq "$(sha256sum < insn.bin | cut -c1-64)" "$(od -An -tx1 hash.bin | tr -d ' \n')" \
			"$o: opts_excl_hash, SHA-256 of opts_insn" || return 1
		"$bpfsign" sign --key "$keys/signing.key" --cert "$keys/signing.crt" \
			--out bs.p7s bt.bin || return 1
		cmp -s bs.p7s sig.bin ||
			{ echo "$o: bpfsign's signature over the same bytes is not bpftool's"; return 1; }
		"$bpfsign" verify --cert "$keys/signing.crt" --payload bt.bin sig.bin > /dev/null ||
			{ echo "$o: bpftool's signature does not verify offline"; return 1; }
	done
}

# gen-loader verify: bpftool's headers signed, unsigned, edited, tampered.
t_verify_bpftool_headers() {
	bt_sign skel_counter sc || return 1
	run "$gl" verify --json --cert "$keys/signing.crt" sc.h
	expect_rc 0 "a bpftool-signed header" || return 1
	expect_eq "$(json out generator)/$(json out verdict)" "bpftool/verified" "verdict" ||
		return 1
	LIBBPF_BPF_TOKEN_PATH= "$bpftool" gen skeleton -L "$obj/skel_counter.bpf.o" > u.h || return 1
	run "$gl" verify --json --cert "$keys/signing.crt" u.h
	# check_header(): bpftool -L without -S is unsigned
	expect_rc 3 "an unsigned bpftool header" || return 1
	expect_eq "$(json out verdict)" unsigned "unsigned verdict" || return 1
	sed '0,/opts.ctx = /s//#define opts_sig opts_data\n\topts.ctx = /' sc.h > e1.h
	run "$gl" verify --json --cert "$keys/signing.crt" e1.h
	# bpftool_skel_modified(): a #define that swaps an array
	expect_rc 3 "a #define before the loader" || return 1
	expect_eq "$(json out verdict)" modified "#define verdict" || return 1
	sed 's/opts.keyring_id = skel->keyring_id;/opts.keyring_id = -3;/' sc.h > e2.h
	run "$gl" verify --cert "$keys/signing.crt" e2.h
	# bpftool_skel_modified(): another keyring than the caller's
	expect_rc 3 "a fixed keyring" && expect_err "an assignment to the loader's opts" || return 1
	head -n "$(($(wc -l < sc.h) - 3))" sc.h > e3.h
	run "$gl" verify --cert "$keys/signing.crt" e3.h
	# bpftool_skel_modified(): cut off before the guard's #endif
	expect_rc 3 "a cut-off header" && expect_err "cut off" || return 1
	python3 "$skel" flip sc.h opts_data e4.h || return 1
	run "$gl" verify --cert "$keys/signing.crt" e4.h
	# the signature: one metadata byte flipped
	expect_rc 3 "a flipped metadata byte" && expect_err "the metadata or the signature was altered" ||
		return 1
	run "$gl" verify --cert "$keys/untrusted.crt" sc.h
	# the signature: another key's certificate
	expect_rc 3 "another certificate" || return 1
	run "$gl" attach --signature sig --cert "$keys/signing.crt" sc.h
	# attach writes gen-loader headers only
	expect_rc 4 "attach to a bpftool header" && expect_err "attach writes gen-loader headers"
}

# Upstream's option rules and messages, and no bpf() while generating.
t_options() {
	run "$bpftool" gen skeleton -L -S "$obj/skel_counter.bpf.o"
	# main(): -S needs both -k and -i
	[ "$rc" != 0 ] && expect_err "-i <identity_x509_cert> and -k <private_key> must be supplied with -S" ||
		{ echo "-S without -k/-i: rc $rc"; return 1; }
	run "$bpftool" -k "$keys/signing.key" gen skeleton -L "$obj/skel_counter.bpf.o"
	# main(): -k without -S
	[ "$rc" != 0 ] && expect_err "--sign (or -S) must be explicitly passed" ||
		{ echo "-k without -S: rc $rc"; return 1; }
	run "$bpftool" gen skeleton -L -S -k "$keys/untrusted.key" -i "$keys/signing.crt" \
		"$obj/skel_counter.bpf.o"
	# bpftool_prog_sign(): a key that is not the certificate's
	[ "$rc" != 0 ] && expect_err "failed to sign" || { echo "key/cert mismatch: rc $rc"; return 1; }
	command -v strace > /dev/null || { echo "no strace (make deps)"; return 1; }
	LIBBPF_BPF_TOKEN_PATH= strace -f -qq -e trace=bpf -o trace "$bpftool" gen skeleton -L -S \
		-k "$keys/signing.key" -i "$keys/signing.crt" "$obj/skel_counter.bpf.o" > /dev/null ||
		{ echo "bpftool gen -S failed under strace"; return 1; }
	[ ! -s trace ] || { echo "bpftool gen -S called bpf():"; head -n 3 trace; return 1; }
	run "$bpftool" gen help
	grep -q -- "-S|--sign" err || { echo "gen help lacks -S"; return 1; }
	run "$bpftool" prog help
	grep -q -- "-S|--sign" err || { echo "prog help lacks -S"; return 1; }
}

# The key in a SoftHSM2 token, through a pkcs11: URI: the same header.
t_softhsm() {
	local module=/usr/lib/softhsm/libsofthsm2.so uri
	[ -f "$module" ] || { echo "$module missing: install softhsm2"; return 1; }
	mkdir tokens
	printf 'directories.tokendir = %s/tokens\nobjectstore.backend = file\nlog.level = ERROR\n' \
		"$PWD" > softhsm2.conf
	export SOFTHSM2_CONF=$PWD/softhsm2.conf
	softhsm2-util --init-token --free --label bt --pin 123456 --so-pin 654321 > /dev/null &&
	openssl pkcs8 -topk8 -nocrypt -in "$keys/signing.key" -out k8.pem &&
	softhsm2-util --import k8.pem --token bt --label signer --id 42 --pin 123456 > /dev/null ||
		{ echo "cannot put the key into a token"; return 1; }
	rm -f k8.pem
	uri='pkcs11:token=bt;object=signer;type=private'
	bt_sign skel_counter file "$bpftool_dyn" || return 1
	LIBBPF_BPF_TOKEN_PATH= KBUILD_SIGN_PIN=123456 "$bpftool_dyn" gen skeleton -L -S -k "$uri" \
		-i "$keys/signing.crt" "$obj/skel_counter.bpf.o" name file > hsm.h ||
		{ echo "bpftool -k pkcs11: failed"; return 1; }
	cmp -s file.h hsm.h || { echo "the token's signature differs from the key file's"; return 1; }
	LIBBPF_BPF_TOKEN_PATH= KBUILD_SIGN_PIN=000000 "$bpftool_dyn" gen skeleton -L -S -k "$uri" \
		-i "$keys/signing.crt" "$obj/skel_counter.bpf.o" > bad.h 2> err
	# read_pkcs11_key(): a wrong PIN names the cause
	expect_err "no such private key in the token, or a wrong PIN"
}

# The man pages and bash completion cover the new options.
t_docs() {
	local d=$build/linux/tools/bpf/bpftool
	grep -q -- "-S, --sign" "$d/Documentation/bpftool-gen.rst" &&
	grep -q -- "-S, --sign" "$d/Documentation/bpftool-prog.rst" &&
	grep -q -- "pkcs11:" "$d/Documentation/bpftool-gen.rst" ||
		{ echo "bpftool-gen.rst/bpftool-prog.rst lack -S, -k, -i"; return 1; }
	grep -q -- "--sign -i -k" "$d/bash-completion/bpftool" ||
		{ echo "bash completion lacks --sign -i -k"; return 1; }
}

t "built: bpftool (static and dynamic) and the objects" t_built
t "gen skeleton -L -S: gen-loader's insns and metadata, bpfsign's signature" t_same_as_gen_loader
t "gen-loader verify: bpftool headers signed, unsigned, edited, tampered" t_verify_bpftool_headers
t "options: upstream's rules, no bpf() while generating" t_options
t "SoftHSM2: -k pkcs11: signs as the key file does" t_softhsm
t "man pages and bash completion" t_docs

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
