#!/bin/sh
# Host tests of the patched tree's bpftool signing (kernel-patches/0043):
# upstream's `gen skeleton -L -S -k KEY -i CERT` against gen-loader (its
# default header and its --no-trailer one, byte-identical payload and
# signature) and bpfsign on the same objects and key, gen-loader verify's
# audit of both generators' headers, and keys in a SoftHSM2 token through
# pkcs11: URIs.
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

# gl_sign OBJ NAME [ARGS...]: gen-loader's signed header NAME.gl.h
gl_sign() {
	local o=$1 name=$2
	shift 2
	"$gl" "$obj/$o.bpf.o" -o "$name.gl.h" --name "$name" --btf "$vmlinux" \
		--key "$keys/signing.key" --cert "$keys/signing.crt" "$@" ||
		{ echo "gen-loader $* $o.bpf.o failed"; return 1; }
}

# gl_get HEADER REGION OUT: the bytes of a @bpfsign region of a gen-loader header
gl_get() {
	python3 - "$@" <<-'EOF'
	import re, sys
	text = open(sys.argv[1]).read()
	m = re.search(r"/\* @bpfsign begin %s \d+ \*/\n(.*?)/\* @bpfsign end %s \*/"
	              % (sys.argv[2], sys.argv[2]), text, re.S)
	if not m:
	    sys.exit("gl_get: no region %s in %s" % (sys.argv[2], sys.argv[1]))
	open(sys.argv[3], "wb").write(bytes.fromhex(re.sub(r'[\t"\n]|\\x', "", m.group(1))))
	EOF
}

# arrays_verified HEADER GENERATOR FORMAT: gen-loader verify's verdict, and who
# wrote it: the signed arrays verify, the C is not signed (never "verified")
arrays_verified() {
	run "$gl" verify --json --cert "$keys/signing.crt" "$1"
	expect_rc 8 "$1: gen-loader verify" || return 1
	expect_eq "$(json out generator)/$(json out format)/$(json out verdict)" "$2/$3/arrays-verified" \
		"$1: generator/format/verdict"
}

unsigned_bpftool="bpftool's C around the arrays (NAME__open(), __load() with its opts, __attach() ...) and the keyring id"

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

# gen-loader --no-trailer: bpftool's payload and signature, byte for byte.
t_no_trailer_identical() {
	local o r
	for o in $objects; do
		bt_sign "$o" "$o" || return 1
		gl_sign "$o" "$o" --no-trailer || return 1
		for r in opts_insn:insns opts_data:data opts_excl_hash:excl_hash opts_sig:signature; do
			python3 "$skel" get "$o.h" "${r%:*}" bt.bin && gl_get "$o.gl.h" "${r#*:}" gl.bin ||
				return 1
			cmp -s bt.bin gl.bin ||
				{ echo "$o: bpftool's ${r%:*} is not gen-loader --no-trailer's ${r#*:}"; return 1; }
		done
		arrays_verified "$o.h" bpftool None && arrays_verified "$o.gl.h" gen-loader 2 || return 1
		# the same payload signed elsewhere and attached: the same header
		"$gl" "$obj/$o.bpf.o" -o u.h --payload-out u.bin --no-trailer --name "$o" \
			--btf "$vmlinux" || return 1
		python3 "$skel" get "$o.h" opts_insn i.bin && python3 "$skel" get "$o.h" opts_data d.bin &&
		python3 "$skel" get "$o.h" opts_sig sig.bin || return 1
		cat i.bin d.bin | cmp -s - u.bin ||
			{ echo "$o: --payload-out --no-trailer is not bpftool's insns || data"; return 1; }
		run "$gl" attach --signature sig.bin --cert "$keys/signing.crt" -o a.h u.h
		expect_rc 0 "$o: attach bpftool's signature to the --no-trailer header" || return 1
		cmp -s a.h "$o.gl.h" || { echo "$o: attached header differs from the signed one"; return 1; }
	done
}

# refused HEADER CODE TEXT WHAT: verify exits CODE and says TEXT
refused() {
	run "$gl" verify --cert "$keys/signing.crt" "$1"
	expect_rc "$2" "$4" && expect_err "$3"
}

# gen-loader verify of --no-trailer headers: tampered arrays, edited C.
t_no_trailer_tampered() {
	local n=skel_counter tamper=$top/tests/host/gen-loader/tamper.sh
	gl_sign skel_counter "$n" --no-trailer && mv "$n.gl.h" g.h || return 1
	sh "$tamper" data last g.h t1.h || return 1
	# the signature covers the metadata: one byte of it flipped
	refused t1.h 3 "the metadata or the signature was altered" "a flipped metadata byte" || return 1
	sh "$tamper" insns first g.h t2.h || return 1
	# the insns are signed and hashed: excl_hash and the signature both fail
	refused t2.h 3 "insns: the loader instructions were altered" "a flipped insn byte" || return 1
	sh "$tamper" signature last g.h t3.h || return 1
	# the signature value itself: it no longer verifies over the same payload
	refused t3.h 3 "the metadata or the signature was altered" "a flipped signature byte" || return 1
	run "$gl" verify --cert "$keys/untrusted.crt" g.h
	# the signer: another key's certificate
	# ENOKEY (5), as bpfsign verify says of the signature and certificate
	expect_rc 5 "another certificate" && expect_err "another key" || return 1
	sed "s/^#define ${n}__DEFAULT_KEYRING_ID (0)\$/#define ${n}__DEFAULT_KEYRING_ID (-3)/" g.h > c1.h
	# the part before the C is re-emitted byte for byte: the prologue edited
	refused c1.h 3 "gen-loader writes '#define ${n}__DEFAULT_KEYRING_ID (0)'" "an edited prologue" ||
		return 1
	sed "0,/opts.ctx = /s//#define ${n}__lskel_signature ${n}__lskel_data\n\topts.ctx = /" g.h > c2.h
	# tail_audit(): a #define that swaps an array
	refused c2.h 3 "a preprocessor line gen-loader does not write" "a #define in the C" || return 1
	sed 's/opts.keyring_id = skel->keyring_id;/opts.keyring_id = -3;/' g.h > c3.h
	# tail_audit(): the opts of the load assigned where gen-loader does not
	refused c3.h 3 "'opts' where gen-loader does not write it" "a fixed keyring" || return 1
	sed "/opts.signature = (void \\*)${n}__lskel_signature;/d" g.h > c4.h
	# tail_audit(): the wiring of the signature, each line exactly once
	refused c4.h 3 "__lskel_signature;' missing" "the signature not passed to the load" || return 1
	sed '0,/skel->keyring_id = /s//system("id");\n\tskel->keyring_id = /' g.h > c5.h
	# tail_audit(): a call outside the skeleton's functions, the attacker's payoff
	refused c5.h 3 "a call of 'system'" "an injected call" || return 1
	sed '0,/skel->keyring_id = /s//((__typeof__(\&sysconf))skel->errstr)(0);\n\tskel->keyring_id = /' \
		g.h > c6.h
	# tail_audit(): a call through a pointer names no function to check
	refused c6.h 3 "a call through a pointer" "a call through a pointer" || return 1
	sed '0,/^static inline int$/s//__attribute__((constructor)) static inline int/' g.h > c7.h
	# tail_audit(): an attribute that runs code before main()
	refused c7.h 3 "an attribute other than __attribute__((unused))" "a constructor" || return 1
	sed '0,/^static inline int$/s//%:define x\nstatic inline int/' g.h > c8.h
	# tail_audit(): the digraph of '#' is a preprocessor line too
	refused c8.h 3 "the digraph of '#'" "a digraph directive" || return 1
	head -n "$(($(wc -l < g.h) - 3))" g.h > c9.h
	# tail_audit(): cut off before the guard's #endif
	refused c9.h 3 "cut off or appended to" "a cut-off header" || return 1
	{ cat g.h; echo 'int x;'; } > c10.h
	# tail_audit(): C after the guard's #endif
	refused c10.h 3 "cut off or appended to" "an appended line" || return 1
	sed 's/^\/\* @bpfsign format 2 \*\/$/\/* @bpfsign format 1 *\//' g.h > c11.h
	# check_header(): format 1 of a payload that carries no C (no BPFSTAIL)
	refused c11.h 3 "BPFSTAIL" "format 2 relabelled 1" || return 1
	gl_sign skel_counter f1 || return 1
	sed 's/^\/\* @bpfsign format 1 \*\/$/\/* @bpfsign format 2 *\//' f1.gl.h > c12.h
	# check_header(): format 2 whose signed data ends with the trailer (a format 1 payload)
	refused c12.h 3 "ends with gen-loader's BPFSTAIL trailer" "format 1 relabelled 2"
}

# gen-loader verify: bpftool's headers signed, unsigned, edited, tampered.
t_verify_bpftool_headers() {
	bt_sign skel_counter sc || return 1
	run "$gl" verify --json --cert "$keys/signing.crt" sc.h
	# check_header(): no byte of bpftool's C is signed: never "verified"
	expect_rc 8 "a bpftool-signed header" || return 1
	expect_eq "$(json out generator)/$(json out verdict)/$(json out errno)" \
		"bpftool/arrays-verified/0" "verdict" || return 1
	expect_eq "$(json out unsigned)" "$unsigned_bpftool" "what is not signed" || return 1
	LIBBPF_BPF_TOKEN_PATH= "$bpftool" gen skeleton -L "$obj/skel_counter.bpf.o" > u.h || return 1
	run "$gl" verify --json --cert "$keys/signing.crt" u.h
	# check_header(): bpftool -L without -S is unsigned (9), not tampered (3)
	expect_rc 9 "an unsigned bpftool header" || return 1
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
	sed '0,/\\x\([0-9]\)a/s//\\x\1A/' sc.h > e5.h
	cmp -s sc.h e5.h && { echo "no \\xNa escape to spell in upper case"; return 1; }
	run "$gl" verify --cert "$keys/signing.crt" e5.h
	# printed_as_bpftool(): the same bytes, but not as bpftool prints them
	expect_rc 3 "an upper-case escape" && expect_err "is not what bpftool prints" || return 1
	python3 "$skel" flip sc.h opts_data e4.h || return 1
	run "$gl" verify --cert "$keys/signing.crt" e4.h
	# the signature: one metadata byte flipped
	expect_rc 3 "a flipped metadata byte" && expect_err "the metadata or the signature was altered" ||
		return 1
	run "$gl" verify --cert "$keys/untrusted.crt" sc.h
	# the signature: another key's certificate: ENOKEY (5), as bpfsign verify
	expect_rc 5 "another certificate" || return 1
	run "$gl" attach --signature sig --cert "$keys/signing.crt" sc.h
	# attach writes gen-loader headers only
	expect_rc 4 "attach to a bpftool header" && expect_err "attach writes gen-loader headers"
}

# Issue 36: the edits of headers whose C is not signed, each compiled into a
# program (harness.c: its bpf() calls are printed, never made) that loads
# something else or runs a command; none is "verified": re-emitted from
# signed bytes and refused (format 1), refused by a structure check, or
# arrays-verified (exit 8), never exit 0.
t_unsigned_c_edits() {
	local n does verdict
	gl_sign skel_counter sc && mv sc.gl.h f1.h &&
	gl_sign skel_counter sc --no-trailer && mv sc.gl.h nt.h && bt_sign skel_counter sc && mv sc.h bt.h ||
		return 1
	mkdir e && python3 "$top/tests/host/bpftool/edits.py" f1.h nt.h bt.h e > e/list || return 1
	cp "$top/tests/host/bpftool/harness.c" e/ || return 1
	# the unedited headers: the signed load, keyring 0, no command
	for n in f1 nt bt; do
		cp "$n.h" "e/$n.h"
		does_of "$n" || return 1
		grep -q '^load: [1-9][0-9]* insns, signature [1-9][0-9]* bytes, keyring 0$' "e/$n.out" &&
			! grep -q '^system' "e/$n.out" ||
			{ echo "the unedited $n header:"; cat "e/$n.out"; return 1; }
	done
	while IFS="$(printf '\t')" read -r n does; do
		does_of "$n" || return 1
		# "data +K bytes": K more than the unedited header's data
		case $does in "data +"*)
			k=${does#data +}; k=${k% bytes}
			does="data $(($(sed -n 's/^data \([0-9]*\) bytes.*/\1/p' "e/${n%%_*}.out") + k)) bytes"
		esac
		grep -qF "$does" "e/$n.out" && ! grep -qF "$does" "e/${n%%_*}.out" ||
			{ echo "$n: the edited header does not do '$does':"; cat "e/$n.out"; return 1; }
		run "$gl" verify --json --cert "$keys/signing.crt" "e/$n.h"
		# a failure before any verdict (lskel_parse()) has only error
		verdict=$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r.get("verdict") or r["error"])' out)
		case $rc/$verdict in
		3/modified|3/EKEYREJECTED|8/arrays-verified) ;;
		*) echo "$n (it does $does): gen-loader verify exits $rc, verdict '$verdict'"; return 1 ;;
		esac
	done < e/list
	[ "$(wc -l < e/list)" -ge 24 ] || { echo "only $(wc -l < e/list) edits"; return 1; }
	# --object: gen-loader's headers re-emitted whole from the object the
	# auditor holds: format 2 is then verified, and every edit modified
	for n in nt f1; do
		run "$gl" verify --json --cert "$keys/signing.crt" --object "$obj/skel_counter.bpf.o" \
			--btf "$vmlinux" "e/$n.h"
		expect_rc 0 "$n.h --object" || return 1
		expect_eq "$(json out verdict)/$(json out unsigned)" "verified/None" "$n.h --object" || return 1
	done
	while IFS="$(printf '\t')" read -r n does; do
		case $n in bt_*) continue ;; esac
		run "$gl" verify --json --cert "$keys/signing.crt" --object "$obj/skel_counter.bpf.o" \
			--btf "$vmlinux" "e/$n.h"
		# check_object(): not what gen-loader writes for the object
		expect_rc 3 "$n --object" && expect_eq "$(json out verdict)" modified "$n --object" ||
			return 1
	done < e/list
	run "$gl" verify --cert "$keys/signing.crt" --object "$obj/percpu_data.bpf.o" --btf "$vmlinux" e/nt.h
	# check_object(): the header of another object
	expect_rc 3 "another object" && expect_err "not the header gen-loader writes for" || return 1
	run "$gl" verify --cert "$keys/signing.crt" --object "$obj/skel_counter.bpf.o" --btf "$vmlinux" e/bt.h
	# verify_object(): bpftool's C is bpftool's to re-emit
	expect_rc 1 "a bpftool header --object" && expect_err "this one is bpftool's" || return 1
	run "$gl" verify --cert "$keys/signing.crt" --btf "$vmlinux" e/nt.h
	# run_verify(): the generation options go with --object
	expect_rc 2 "--btf without --object" && expect_err "--btf is an option of --object" || return 1
	run "$gl" verify --cert "$keys/signing.crt" --object "$obj/skel_counter.bpf.o" e/nt.h e/f1.h
	# run_verify(): one object, one header
	expect_rc 2 "--object, two headers" && expect_err "one HEADER"
}

# does_of NAME: e/NAME.h compiled with harness.c, what it does in e/NAME.out
does_of() {
	gcc -w -O2 -D_GNU_SOURCE -DHEADER="\"$1.h\"" -Ie -I"$build/linux/tools/lib" \
		-I"$build/linux/tools/include/uapi" e/harness.c -o "e/$1" 2> e/err ||
		{ echo "$1: the edited header does not compile:"; head -n 5 e/err; return 1; }
	"./e/$1" > "e/$1.out" || { echo "$1: the harness failed"; return 1; }
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

# Strings of a hostile object never become C in bpftool's light skeleton
# either (issue 36): tests/host/hostile's objects.
t_hostile_names() {
	"$top/tests/host/hostile/build.sh" . || { echo "cannot build the hostile objects"; return 1; }
	LIBBPF_BPF_TOKEN_PATH= "$bpftool" gen skeleton -L -S -k "$keys/signing.key" \
		-i "$keys/signing.crt" sec.bpf.o name sec > sec.h 2> err ||
		{ echo "bpftool refused a quote in a section name:"; cat err; return 1; }
	grep -q 'skel_raw_tracepoint_open("sys_enter\\042\\054\\040prog_fd' sec.h ||
		{ echo "the section name is not an escaped string literal"; return 1; }
	printf '#include <errno.h>\n#include <stdlib.h>\n#include <string.h>\n#include "sec.h"\nint main(void) { struct sec *s = sec__open(); return s ? sec__attach(s) : 1; }\n' > use.c
	gcc -O2 -D_GNU_SOURCE -I. -I"$build/linux/tools/lib" -I"$build/linux/tools/include/uapi" \
		-c use.c -o use.o || { echo "the escaped header does not compile"; return 1; }
	nm use.o | grep -q ' U system$' && { echo "the header calls system()"; return 1; }
	for o in prog map btf member; do
		run env LIBBPF_BPF_TOKEN_PATH= "$bpftool" gen skeleton -L $o.bpf.o
		[ "$rc" != 0 ] || { echo "bpftool generated a skeleton of $o.bpf.o"; return 1; }
		[ ! -s out ] || { echo "bpftool wrote C for $o.bpf.o"; return 1; }
	done
	run env LIBBPF_BPF_TOKEN_PATH= "$bpftool" gen skeleton -L prog.bpf.o
	expect_err "program 'tp_x); system(\"id\"); int y(void': its name is not a C identifier" || return 1
	run env LIBBPF_BPF_TOKEN_PATH= "$bpftool" gen skeleton -L map.bpf.o
	expect_err "map 'm */ int evil; /*': its name is not a C identifier" || return 1
	run env LIBBPF_BPF_TOKEN_PATH= "$bpftool" gen skeleton -L btf.bpf.o
	expect_err "its name 'A{};int q;//' is not a C identifier" || return 1
	# a struct member's name is printed by btf_dump inline: checked too
	run env LIBBPF_BPF_TOKEN_PATH= "$bpftool" gen skeleton -L member.bpf.o
	expect_err "its member 'a[0];" || return 1
}

t "built: bpftool (static and dynamic) and the objects" t_built
t "gen skeleton -L -S: gen-loader's insns and metadata, bpfsign's signature" t_same_as_gen_loader
t "gen-loader --no-trailer: bpftool's payload and signature, byte for byte" t_no_trailer_identical
t "gen-loader verify: --no-trailer headers tampered, their C edited" t_no_trailer_tampered
t "gen-loader verify: bpftool headers signed, unsigned, edited, tampered" t_verify_bpftool_headers
t "gen-loader verify: edits of unsigned C compile into other loads, none verified; --object" t_unsigned_c_edits
t "options: upstream's rules, no bpf() while generating" t_options
t "SoftHSM2: -k pkcs11: signs as the key file does" t_softhsm
t "man pages and bash completion" t_docs
t "hostile object: names refused (members too), a section name escaped" t_hostile_names

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
