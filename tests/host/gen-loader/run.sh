#!/bin/sh
# Host tests of gen-loader/: BPF object -> signed light skeleton, and the
# offline audit of such headers.  Nothing is loaded into this machine's
# kernel: one test checks with strace that gen-loader makes no bpf() call,
# and the generated headers are compiled, never run.  TAP, one line per
# test, and as the last line "N passed, N failed".  Runs from any directory.
#
# Usage: tests/host/gen-loader/run.sh [NAME-FILTER]
set -u

top=$(cd "$(dirname "$0")/../../.." && pwd)
build=${BPFSIGN_BUILD:-$top/build}
keys=$top/keys-example
gl=$top/gen-loader/gen-loader
bpfsign=$top/signer/bpfsign
tamper=$top/tests/host/gen-loader/tamper.sh
harness=$top/tests/host/bpftool/harness.c
signed_c=$top/tests/host/gen-loader/signed_c.py
vmlinux=$build/kbuild/vmlinux
prog=$top/tests/guest/progs/skel_counter.bpf.c

. "$top/tests/host/lib.sh"
# the C programs the tests compile (c/NAME), copied into the test's directory
csrc=$top/tests/host/gen-loader/c
host_test_init gen-loader "$@"

# --- helpers: each failure message says what broke --------------------------

sha() {
	sha256sum "$1" | cut -d' ' -f1
}

# gen OBJ OUT [ARGS...]: a header signed with the RSA test key
gen() {
	local obj=$1 out=$2
	shift 2
	"$gl" "$obj" -o "$out" --key "$keys/signing.key" --cert "$keys/signing.crt" \
		--btf "$vmlinux" "$@"
}

# does H: H (skeleton "sc") compiled into tests/host/bpftool/harness.c, whose
# bpf() calls and system() are printed, never made: what sc__open_and_load()
# does, in H.out.  EXTRA... are more compiler options.
does() {
	local h=$1
	shift
	cp "$harness" harness.c &&
	gcc -w -O2 -D_GNU_SOURCE -DHEADER="\"$h\"" "$@" -I. -I"$build/linux/tools/lib" \
		-I"$build/linux/tools/include/uapi" harness.c -o "$h.bin" 2> cc.err ||
		{ echo "$h does not compile:"; head -n 5 cc.err; return 1; }
	"./$h.bin" > "$h.out" || { echo "$h: the harness failed"; return 1; }
}

# --- build ------------------------------------------------------------------

obj=$tmp/skel_counter.bpf.o
good=$tmp/skel_counter.lskel.h

t_build() {
	make -s -C "$top/gen-loader" >/dev/null || { echo "make -C gen-loader failed"; return 1; }
	[ -x "$gl" ] || { echo "no gen-loader/gen-loader after make"; return 1; }
	[ -x "$bpfsign" ] || { echo "no signer/bpfsign (make -C signer)"; return 1; }
	[ -f "$vmlinux" ] || { echo "no $vmlinux (make kernel)"; return 1; }
	"$CLANG" -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
		-I"$build/guest-obj" -I"$build/tools/include" -c "$prog" -o "$obj" ||
		{ echo "$CLANG cannot build $prog"; return 1; }
	gen "$obj" "$good" || { echo "gen-loader failed on $obj"; return 1; }
}

# --- generation -------------------------------------------------------------

# The loader is generated, not loaded: no bpf() syscall at all, not even the
# BPF_TOKEN_CREATE or feature probes libbpf makes when it loads for real.
t_no_bpf_syscall() {
	command -v strace >/dev/null || { echo "strace is not installed"; return 1; }
	strace -f -e trace=bpf -o trace "$gl" "$obj" -o s.h --key "$keys/signing.key" \
		--cert "$keys/signing.crt" --btf "$vmlinux" > out 2> err ||
		{ echo "gen-loader failed under strace"; cat err; return 1; }
	grep -q 'exited with 0' trace || { echo "strace did not trace the run:"; cat trace; return 1; }
	if grep -q 'bpf(' trace; then
		echo "gen-loader made bpf() syscalls:"
		grep 'bpf(' trace | head
		return 1
	fi
}

t_deterministic() {
	gen "$obj" a.h && gen "$obj" b.h || { echo "gen-loader failed"; return 1; }
	expect_eq "$(sha a.h)" "$(sha b.h)" "two runs" || return 1
	expect_eq "$(sha a.h)" "$(sha "$good")" "run in another directory" || return 1
	# a copy of the object and of the keys elsewhere, relative paths
	mkdir -p copy/keys && cp "$obj" copy/ && cp "$keys"/signing.* copy/keys/ &&
	(cd copy && "$gl" skel_counter.bpf.o -o c.h --key keys/signing.key \
		--cert keys/signing.crt --btf "$vmlinux") ||
		{ echo "gen-loader failed on the copy"; return 1; }
	expect_eq "$(sha copy/c.h)" "$(sha a.h)" "copy of the object and keys" || return 1
	# the object rebuilt from source in another directory
	mkdir rebuilt && (cd rebuilt && "$CLANG" -g -O2 -target bpf -D__TARGET_ARCH_x86 \
		-I"$build/guest-obj" -I"$build/tools/include" -c "$prog" -o skel_counter.bpf.o &&
		gen skel_counter.bpf.o r.h) || { echo "rebuild failed"; return 1; }
	expect_eq "$(sha rebuilt/r.h)" "$(sha a.h)" "object rebuilt elsewhere" || return 1
	if grep -qF -e "$tmp" -e "$top" a.h; then
		echo "the header names a path of this machine:"
		grep -nF -e "$tmp" -e "$top" a.h | head -3
		return 1
	fi
}

# The header compiles (C and C++) against the patched skel_internal.h.
t_header_compiles() {
	cp "$csrc/use.c" use.c
	cp "$good" skel_counter.lskel.h
	# -Wno-unused-parameter: skel_internal.h itself has unused parameters
	gcc -O2 -Wall -Wextra -Wno-unused-parameter -Werror -D_GNU_SOURCE -I. -I"$build/linux/tools/lib" \
		-I"$build/linux/tools/include/uapi" -c use.c -o use.o ||
		{ echo "gcc cannot compile a program including the header"; return 1; }
	g++ -x c++ -fsyntax-only -I. -I"$build/linux/tools/lib" \
		-I"$build/linux/tools/include/uapi" use.c ||
		{ echo "g++ cannot compile the header"; return 1; }
	# .rodata is the signed value: writing it is a compile-time error, in
	# C and C++, not a fault at run time
	sed 's|(void)s->rodata->count_calls;|s->rodata->count_calls = 0;|' use.c > write.c
	for lang in c c++; do
		gcc -x $lang -fsyntax-only -I. -I"$build/linux/tools/lib" \
			-I"$build/linux/tools/include/uapi" write.c 2> write.err &&
			{ echo "$lang: a write to skel->rodata compiles"; return 1; }
		grep -q 'read-only' write.err ||
			{ echo "$lang: not refused as read-only:"; cat write.err; return 1; }
	done
	return 0
}

# The signed loader takes nothing from the caller's ctx but where to put the
# verifier log and which programs to leave out (a prog_fd compared with
# BPF_SKEL_PROG_SKIP, nothing else): no max_entries or initial_value read,
# no bpf_copy_from_user(), and bpf_probe_read_kernel() only with a NULL
# source (bzero of its stack).
t_loader_reads_no_input() {
	cp "$csrc/scan.c" scan.c
	cp "$good" skel_counter.lskel.h
	gcc -O2 -Wall -Werror -D_GNU_SOURCE -I. -I"$build/linux/tools/lib" \
		-I"$build/linux/tools/include/uapi" scan.c -o scan ||
		{ echo "gcc cannot compile the loader scan"; return 1; }
	./scan
}

t_keyring_id() {
	gen "$obj" k.h --keyring-id -3 || return 1
	grep -qx '#define skel_counter__DEFAULT_KEYRING_ID (-3)' k.h ||
		{ echo "no default keyring -3 in the header"; return 1; }
	run "$gl" verify --json --cert "$keys/signing.crt" k.h
	expect_rc 0 "verify" || return 1
	expect_eq "$(json out keyring_id)" "-3" "keyring_id in the report" || return 1
	expect_eq "$(json out unsigned)" None "nothing unsigned" || return 1
	# the #define is in the signed C after the arrays, not in the prologue
	expect_eq "$(grep -n '__DEFAULT_KEYRING_ID (' k.h | cut -d: -f1)" \
		"$(($(grep -n '^/\* @bpfsign end signature \*/$' k.h | cut -d: -f1) + 3))" \
		"the line of the #define" || return 1
	sed 's|^/\* @bpfsign keyring-id -3 \*/$|/* @bpfsign keyring-id 0 */|; s|^#define skel_counter__DEFAULT_KEYRING_ID (-3)$|#define skel_counter__DEFAULT_KEYRING_ID (0)|' \
		k.h > k0.h
	run "$gl" verify --cert "$keys/signing.crt" k0.h
	# check_reemit(): the keyring edited consistently, marker and #define, is
	# re-emitted from the signed bytes: modified
	expect_rc 3 "the keyring edited consistently" &&
		expect_err "the header has '/* @bpfsign keyring-id 0 */', gen-loader writes '/* @bpfsign keyring-id -3 */'" ||
		return 1
	run "$gl" "$obj" -o bad.h --key "$keys/signing.key" --cert "$keys/signing.crt" \
		--keyring-id 4294967296
	expect_rc 1 "--keyring-id out of range" && expect_err "not a 32-bit number"
}

# legacy IN OUT PAYLOAD: IN as gen-loader 1.0 wrote it, unsigned (the default
# keyring's #define in the prologue, not in the C the metadata carries), and
# its payload
legacy() {
	python3 - "$@" <<-'EOF'
	import re, struct, sys
	text = open(sys.argv[1]).read()
	def block(region):
	    m = re.search(r"/\* @bpfsign begin %s \d+ \*/\n(.*?)/\* @bpfsign end %s \*/\n"
	                  % (region, region), text, re.S)
	    return m, bytes.fromhex(re.sub(r'[\t"\n]|\\x', "", m.group(1)))
	def emit(region, b):
	    lines = ''.join('\t"%s"\n' % ''.join('\\x%02x' % c for c in b[i:i + 16])
	                    for i in range(0, len(b), 16))
	    return "/* @bpfsign begin %s %d */\n%s/* @bpfsign end %s */\n" % (region, len(b), lines, region)
	name = re.search(r"/\* @bpfsign name (\w+) \*/", text).group(1)
	kr = re.search(r"\n(#define %s__DEFAULT_KEYRING_ID \(-?\d+\)\n\n)" % name, text).group(1)
	_, insns = block("insns")
	m, data = block("data")
	n = struct.unpack("<I", data[-12:-8])[0]
	blob, tail = data[:-12 - n], data[-12 - n:-12]
	assert tail.startswith(kr.encode())
	tail = tail[len(kr):]
	data = blob + tail + struct.pack("<I", len(tail)) + b"BPFSTAIL"
	text = text.replace(m.group(0), emit("data", data))
	ms, _ = block("signature")
	text = text.replace(ms.group(0), emit("signature", b""))
	text = text.replace(kr, "", 1)
	text = re.sub(r"(/\* @bpfsign keyring-id -?\d+ \*/\n)\n", lambda m: m.group(1) + kr, text, 1)
	open(sys.argv[2], "w").write(text)
	open(sys.argv[3], "wb").write(insns + data)
	EOF
}

# A header of gen-loader 1.0 signs the C after its arrays but not the
# default keyring's #define in its prologue: arrays-verified, exit 8, the
# keyring named as unsigned, even with the keyring edited consistently.
t_keyring_legacy() {
	gen "$obj" k.h --keyring-id -3 && legacy k.h u.h u.bin || return 1
	"$bpfsign" sign --key "$keys/signing.key" --cert "$keys/signing.crt" --out u.p7s u.bin &&
		"$gl" attach --signature u.p7s --cert "$keys/signing.crt" -o old.h u.h ||
		{ echo "cannot sign the gen-loader 1.0 header"; return 1; }
	grep -q '^#define skel_counter__DEFAULT_KEYRING_ID (-3)$' old.h ||
		{ echo "no #define in the prologue"; return 1; }
	sed 's|^/\* @bpfsign keyring-id -3 \*/$|/* @bpfsign keyring-id 0 */|; s|^#define skel_counter__DEFAULT_KEYRING_ID (-3)$|#define skel_counter__DEFAULT_KEYRING_ID (0)|' \
		old.h > old0.h
	for h in old.h old0.h; do
		run "$gl" verify --json --cert "$keys/signing.crt" "$h"
		# check_reemit(): the #define is not in the signed C: never "verified"
		expect_rc 8 "$h: a header of gen-loader 1.0" || return 1
		expect_eq "$(json out verdict)/$(json out errno)" arrays-verified/0 "$h: verdict" || return 1
		case $(json out unsigned) in
		"the default keyring id: its #define is in the prologue"*) ;;
		*) echo "$h: unsigned is '$(json out unsigned)'"; return 1 ;;
		esac
	done
	run "$gl" verify --cert "$keys/signing.crt" "$good" old.h
	# run_verify(): the worst header not verified gives the exit code, named on stderr
	expect_rc 8 "a verified and an arrays-verified header" &&
		expect_err "1 of 2 headers not verified; the worst: old.h: arrays-verified, not verified: not signed: the default keyring id"
}

# --- audit ------------------------------------------------------------------

t_verify_good() {
	local want
	run "$gl" verify --cert "$keys/signing.crt" "$good"
	expect_rc 0 "verify" || return 1
	grep -qx 'verdict: verified' out || { echo "no 'verdict: verified'"; cat out; return 1; }
	grep -qx 'excl_hash_matches: yes' out ||
		{ echo "no 'excl_hash_matches: yes'"; cat out; return 1; }
	run "$gl" verify --json --cert "$keys/signing.crt" "$good"
	expect_rc 0 "verify --json" || return 1
	expect_eq "$(json out verdict)" verified "verdict" || return 1
	expect_eq "$(json out name)" skel_counter "name" || return 1
	expect_eq "$(json out excl_hash)" "$(json out insns_digest)" "excl_hash" || return 1
	expect_eq "$(json out excl_hash_matches)" True "excl_hash_matches" || return 1
	expect_eq "$(json out key_id)" \
		"$(openssl x509 -in "$keys/signing.crt" -noout -ext subjectKeyIdentifier |
		   sed -n 2p | tr -d ' :' | tr 'A-F' 'a-f')" "key_id" || return 1
	# the key's identity, as the kernel records it: SHA-256 of the RSAPublicKey
	want=$(openssl x509 -in "$keys/signing.crt" -noout -pubkey |
		openssl rsa -pubin -RSAPublicKey_out -outform DER 2>/dev/null | sha256sum | cut -c1-64)
	expect_eq "$(json out key_sha256)" "$want" "key_sha256" || return 1
	# the same verdict and key through the CA bundle form
	run "$gl" verify --json --ca "$keys/kernel-trusted.pem" "$good"
	expect_rc 0 "verify --ca" && expect_eq "$(json out key_sha256)" "$want" "key_sha256 (--ca)"
}

# The payload re-derived from the header is the one the kernel hashes:
# insns || data, and excl_hash is SHA-256 of insns.
t_payload_matches() {
	run "$gl" "$obj" -o u.h --payload-out p.bin --btf "$vmlinux"
	expect_rc 0 "--payload-out" || return 1
	run "$gl" verify --json --cert "$keys/signing.crt" "$good"
	expect_eq "$(sha p.bin)" "$(json out payload_sha256)" "payload sha256" || return 1
	expect_eq "$(stat -c %s p.bin)" "$(json out payload_size)" "payload size" || return 1
	head -c "$(json out insns_size)" p.bin > insns.bin
	expect_eq "$(sha insns.bin)" "$(json out excl_hash)" "excl_hash = SHA-256(insns)"
}

# tampered REGION first|last EXIT TEXT
tampered() {
	"$tamper" "$1" "$2" "$good" t.h || return 1
	cmp -s t.h "$good" && { echo "tamper.sh changed nothing"; return 1; }
	run "$gl" verify --cert "$keys/signing.crt" t.h
	expect_rc "$3" "verify of a header with $1 altered" || return 1
	expect_err "$4" || return 1
	cp err "msg.$1"
}

t_tampered_regions() {
	tampered insns last 3 "insns: the loader instructions were altered" &&
	tampered data last 3 "the metadata or the signature was altered" &&
	tampered excl_hash last 3 "excl_hash: not SHA-256 of the signed loader instructions" &&
	# a malformed signature: EBADMSG (4), as bpfsign verify says of it
	tampered signature first 4 "signature: malformed PKCS#7" || return 1
	# one message each: which region was altered is in the message
	for a in insns data excl_hash signature; do
		for b in insns data excl_hash signature; do
			[ "$a" = "$b" ] && continue
			cmp -s "msg.$a" "msg.$b" && { echo "$a and $b give the same message"; return 1; }
		done
	done
	# the signature value itself (its last byte) is signed data gone wrong
	tampered signature last 3 "does not verify over insns || data"
}

t_tampered_json() {
	"$tamper" data last "$good" t.h
	run "$gl" verify --json --cert "$keys/signing.crt" t.h
	expect_rc 3 "verify --json" || return 1
	expect_eq "$(json out verdict)" rejected "verdict" || return 1
	expect_eq "$(json out signature_check)" EKEYREJECTED "signature_check" || return 1
	expect_eq "$(wc -l < err)" 1 "one error line on stderr"
}

t_wrong_cert() {
	run "$gl" verify --cert "$keys/untrusted.crt" "$good"
	# ENOKEY (5), the code bpfsign verify gives for the same signature
	expect_rc 5 "verify with another certificate" || return 1
	expect_err "made by another key"
}

# Truncated at many points, then garbage: exit 4 (malformed) with a message,
# never a crash (a signal would be exit > 128).
t_truncated() {
	local size cut end marker='/* @bpfsign end signature */'
	size=$(stat -c %s "$good")
	# the arrays are complete after the last marker line and its newline
	end=$(grep -bxF -m1 "$marker" "$good" | cut -d: -f1)
	end=$((end + ${#marker} + 1))
	for cut in 0 1 100 1000 2000 5000 10000 20000 $((end - 1)) $end $((size - 40)) \
		   $((size - 1)); do
		head -c "$cut" "$good" > tr.h
		run "$gl" verify --cert "$keys/signing.crt" tr.h
		if [ "$cut" -lt "$end" ]; then
			expect_rc 4 "truncated at $cut" || return 1
			[ -s err ] || { echo "truncated at $cut: no message"; return 1; }
		else
			# cut in the C after the arrays: not what gen-loader writes
			expect_rc 3 "truncated after the arrays ($cut)" || return 1
			expect_err "modified: line" || return 1
		fi
	done
	head -c 20000 "$good" > tr.h
	run "$gl" verify --cert "$keys/signing.crt" tr.h
	expect_err "truncated" || return 1
	head -c 100000 /dev/urandom > junk.h
	run "$gl" verify --cert "$keys/signing.crt" junk.h
	expect_rc 4 "random bytes" || return 1
	run "$gl" verify --json --cert "$keys/signing.crt" junk.h
	# a failure before any verdict: the four keys of every tool's failure
	expect_eq "$(json out error)" EBADMSG "--json error of random bytes" &&
	expect_eq "$(python3 -c 'import json,sys; print(sorted(json.load(open(sys.argv[1]))))' out)" \
		"['errno', 'error', 'file', 'reason']" "--json keys of random bytes"
}

# modified NAME LINE: verify of m.h (a trick made by the caller) says
# "modified" and names LINE as the first line that differs, in both forms.
modified() {
	run "$gl" verify --cert "$keys/signing.crt" m.h
	expect_rc 3 "verify of a header with $1" || return 1
	expect_err "modified: line $2:" || return 1
	run "$gl" verify --json --cert "$keys/signing.crt" m.h
	expect_rc 3 "verify --json of a header with $1" || return 1
	expect_eq "$(json out verdict)" modified "verdict of a header with $1" || return 1
	case $(json out reason) in
	"line $2:"*) ;;
	*) echo "$1: reason does not name line $2: $(json out reason)"; return 1 ;;
	esac
}

# line_of TEXT: the number of the first line of the good header that is TEXT
line_of() {
	grep -nxF -m1 -- "$1" "$good" | cut -d: -f1
}

# The tricks of issue 15: the arrays and the signature are intact, so only
# the comparison with what gen-loader writes for them can refuse each.
t_modified_tricks() {
	local n
	# the signature array redefined to an empty one before the loader code
	n=$(grep -n -m1 '__mmap_sz(size_t value_sz)' "$good" | cut -d: -f1)
	awk -v n="$n" 'NR == n { print "static const char skel_counter__nosig[] = \"\";"; print "#define skel_counter__lskel_signature skel_counter__nosig" } { print }' \
		"$good" > m.h
	modified "a #define of the signature array" "$n" || return 1
	# bytes appended to insns after its end marker, inside the C string
	n=$(line_of '/* @bpfsign end insns */')
	awk -v n="$n" '{ print } NR == n { print "\t\"\\x95\\x00\\x00\\x00\\x00\\x00\\x00\\x00\"" }' \
		"$good" > m.h
	modified "bytes after the insns end marker" $((n + 1)) || return 1
	# the data block wrapped in #if 0 ... #else other data #endif
	n=$(grep -n -m1 '^static const char skel_counter__lskel_data\[\]' "$good" | cut -d: -f1)
	awk -v n="$n" 'NR == n { print "#if 0" } { print } /@bpfsign end data/ { e = 1; next }
		e == 1 { print "#else"; print "static const char skel_counter__lskel_data[] = \"x\";"; print "#endif"; e = 2 }' \
		"$good" > m.h
	modified "#if 0 around the data block" "$n" || return 1
	# DEFAULT_KEYRING_ID redefined after its marker
	n=$(grep -n -m1 '^#define skel_counter__DEFAULT_KEYRING_ID' "$good" | cut -d: -f1)
	awk -v n="$n" '{ print } NR == n { print "#undef skel_counter__DEFAULT_KEYRING_ID"; print "#define skel_counter__DEFAULT_KEYRING_ID (-3)" }' \
		"$good" > m.h
	modified "DEFAULT_KEYRING_ID redefined" $((n + 1)) || return 1
	# cut right after the signature block: no loader functions at all
	n=$(line_of '/* @bpfsign end signature */')
	head -n "$n" "$good" > m.h
	modified "the header cut after the signature block" $((n + 1)) || return 1
	# one character of the C after the arrays: the C is signed in data
	n=$(grep -n -m1 'skel_raw_tracepoint_open' "$good" | cut -d: -f1)
	sed "${n}s/skel_raw_tracepoint_open/skel_raw_tracepoint_opem/" "$good" > m.h
	modified "a changed call in the loader functions" "$n"
}

# The C after the arrays is carried in the signed payload (trailer.h): the
# payload ends with that C, its length and BPFSTAIL, so it is signed.
t_modified_tail_in_data() {
	run "$gl" "$obj" -o u.h --payload-out p.bin --btf "$vmlinux"
	expect_rc 0 "--payload-out" || return 1
	python3 - "$good" p.bin <<-'EOF' || return 1
	import struct, sys
	text = open(sys.argv[1], "rb").read()
	pay = open(sys.argv[2], "rb").read()
	end = text.index(b"/* @bpfsign end signature */\n")
	tail = text[text.index(b"\n\n", end) + 2:]
	if pay[-8:] != b"BPFSTAIL":
	    sys.exit("the payload does not end with BPFSTAIL")
	n = struct.unpack("<I", pay[-12:-8])[0]
	if pay[-12 - n:-12] != tail:
	    sys.exit("the C after the arrays (%d bytes) is not the payload's tail (%d)" % (len(tail), n))
	EOF
	run "$gl" verify --json --cert "$keys/signing.crt" "$good"
	expect_eq "$(json out payload_sha256)" "$(sha p.bin)" "payload of the signed header"
}

# Batch mode: many headers in one process, one JSON line each.
t_verify_batch() {
	"$tamper" data last "$good" t.h || return 1
	head -c 1000 /dev/urandom > junk.h
	run "$gl" verify --json --cert "$keys/signing.crt" "$good" t.h junk.h missing.h "$good"
	expect_rc 3 "batch: the exit code of the worst failure (rejected)" || return 1
	expect_eq "$(wc -l < out)" 5 "one JSON line per header" || return 1
	python3 - out <<-'EOF' || return 1
	import json, sys
	rows = [json.loads(l) for l in open(sys.argv[1])]
	got = [(r.get("verdict"), r["error"], r["errno"]) for r in rows]
	want = [("verified", "OK", 0), ("rejected", "EKEYREJECTED", 129),
	        (None, "EBADMSG", 74), (None, "ENOENT", 2), ("verified", "OK", 0)]
	if got != want:
	    sys.exit("batch verdicts: %s, expected %s" % (got, want))
	EOF
	expect_err "3 of 5 headers not verified; the worst: "
}

# Several headers: a refusal always wins over arrays-verified (8), which a
# script may accept for a --no-trailer or bpftool header; a header named
# after an arrays-verified one is still reported with its own refusal.
t_verify_batch_worst() {
	local f alone
	gen "$obj" nt.h --name sc --no-trailer && gen "$obj" f1.h --name sc || return 1
	# the keyring edited in the C of a signed default header
	sed 's/^\tskel->keyring_id = sc__DEFAULT_KEYRING_ID;$/\tskel->keyring_id = -3;/' f1.h > mod.h
	does mod.h || return 1
	grep -q 'keyring -3$' mod.h.out || { echo "mod.h does not load with keyring -3:"; cat mod.h.out; return 1; }
	head -c 3000 f1.h > cut.h
	for f in mod.h cut.h missing.h; do
		run "$gl" verify --cert "$keys/signing.crt" "$f"
		[ "$rc" != 0 ] && [ "$rc" != 8 ] || { echo "$f alone: exit $rc"; return 1; }
		alone=$rc
		run "$gl" verify --cert "$keys/signing.crt" nt.h "$f"
		# run_verify(), severity(): a refusal is not reported as arrays-verified
		[ "$rc" = "$alone" ] ||
			{ echo "verify nt.h $f: exit $rc (8: arrays-verified), $f alone exits $alone"; return 1; }
	done
	run "$gl" verify --cert "$keys/signing.crt" missing.h cut.h nt.h mod.h
	# severity(): 3 (modified) over 4 (malformed) over 1 (unreadable) over 8
	expect_rc 3 "missing, cut, arrays-verified, modified" || return 1
	expect_err "4 of 4 headers not verified; the worst: mod.h" || return 1
	run "$gl" verify --cert "$keys/signing.crt" nt.h missing.h cut.h
	expect_rc 4 "arrays-verified, missing, cut"
}

# Split signing: the C of a default header rides in the metadata the signer
# signs, so whoever prepares the payload (--payload-out, handed to a signing
# service) writes it; the kernel loads the signed BPF and sc__open() would
# run system("id").  --object re-emits the C from the object; without it
# the structure check of unsigned C runs on the signed C too, and the
# report says the C is the signer's.
t_split_signing_signed_c() {
	gen "$obj" f1.h --name sc || return 1
	python3 "$signed_c" payload f1.h p.bin &&
	"$bpfsign" sign --key "$keys/signing.key" --cert "$keys/signing.crt" --out p.p7s p.bin &&
	python3 "$signed_c" header f1.h p.p7s evil.h || { echo "crafting evil.h failed"; return 1; }
	does evil.h || return 1
	grep -q '^system("id")$' evil.h.out &&
	grep -q '^load: [0-9]* insns, signature [1-9][0-9]* bytes, keyring 0$' evil.h.out ||
		{ echo "evil.h does not run system() and the signed load:"; cat evil.h.out; return 1; }
	run "$gl" verify --json --cert "$keys/signing.crt" --object "$obj" --btf "$vmlinux" evil.h
	# check_object(): the C is not what gen-loader writes for the object
	expect_rc 3 "evil.h --object" || return 1
	run "$gl" verify --json --cert "$keys/signing.crt" evil.h
	# check_signed_tail(): the signed C of format 1 passes the structure check
	expect_rc 3 "evil.h (runs system(\"id\") in sc__open())" || return 1
	expect_eq "$(json out verdict)" modified "evil.h: verdict" || return 1
	case $(json out reason) in
	"line "*": a call of 'system', not a function of the skeleton") ;;
	*) echo "evil.h: reason '$(json out reason)'"; return 1 ;;
	esac
	# the same call behind a // comment that a lone CR ends for the compiler
	python3 "$signed_c" payload f1.h pcr.bin cr &&
	"$bpfsign" sign --key "$keys/signing.key" --cert "$keys/signing.crt" --out pcr.p7s pcr.bin &&
	python3 "$signed_c" header f1.h pcr.p7s cr.h cr || { echo "crafting cr.h failed"; return 1; }
	does cr.h || return 1
	grep -q '^system("id")$' cr.h.out || { echo "cr.h does not run system():"; cat cr.h.out; return 1; }
	run "$gl" verify --json --cert "$keys/signing.crt" cr.h
	# control_byte(): no control byte but newline and tab, comments included
	expect_rc 3 "cr.h (system(\"id\") after a lone CR)" || return 1
	case $(json out reason) in
	"line "*": a control byte 0x0d"*) ;;
	*) echo "cr.h: reason '$(json out reason)'"; return 1 ;;
	esac
	run "$gl" verify --json --cert "$keys/signing.crt" f1.h
	expect_rc 0 "the good header" || return 1
	case $(json out checked) in
	*"its C is the C the signer signed, as whoever made the payload wrote it"*) ;;
	*) echo "checked does not say the C is the signer's: '$(json out checked)'"; return 1 ;;
	esac
}

# Byte-level edits of a default header (encodings, splices, directives,
# bytes after the last one checked), each audited with and without
# --object: none is verified.
t_verify_byte_edits() {
	local n
	gen "$obj" f1.h --name sc && gen "$obj" nt.h --name sc --no-trailer || return 1
	python3 - f1.h <<-'PY' || return 1
	import sys
	t = open(sys.argv[1], newline='').read()
	K = '\tskel->keyring_id = sc__DEFAULT_KEYRING_ID;\n'
	E = {
	 'crlf': t.replace('\n', '\r\n'),
	 'bom': '\ufeff' + t,
	 'nl_after': t + '\n',
	 'pragma_after': t + '#pragma GCC poison system\n',
	 'define_after': t + '#define sc__open_and_load() (system("id"), (struct sc *)0)\n',
	 'line_after': t + '#line 1 "x"\n',
	 'lone_cr': t.replace(K, '\t// x\r' + K[1:-1] + ' system("id");\n'),
	 'splice': t.replace(K, '\t// x \\\n' + K),
	 'trigraph': t.replace(K, K + '\t??=define X\n'),
	 'digraph': t.replace(K, K + '%:define X\n'),
	 'pragma_op': t.replace(K, K + '\t_Pragma("GCC poison x")\n'),
	 'nul_after': t + '\0',
	 'latin1': t.replace('THIS FILE', 'TH\xc9S FILE'),
	 'keyring_both': t.replace('/* @bpfsign keyring-id 0 */', '/* @bpfsign keyring-id -3 */')
	                  .replace('#define sc__DEFAULT_KEYRING_ID (0)', '#define sc__DEFAULT_KEYRING_ID (-3)'),
	 'name': t.replace('/* @bpfsign name sc */', '/* @bpfsign name sd */'),
	}
	for k, v in E.items():
	    open('e_%s.h' % k, 'w', newline='', encoding='latin-1' if k == 'latin1' else 'utf-8').write(v)
	PY
	head -c "$(($(wc -c < f1.h) - 200))" f1.h > e_cut.h
	cat f1.h f1.h > e_twice.h
	ln -s f1.h e_link.h
	for n in e_*.h; do
		run "$gl" verify --cert "$keys/signing.crt" "$n"
		# check_reemit(): every byte re-emitted from signed bytes (a symlink is the file)
		case $n in
		e_link.h) [ "$rc" = 0 ] || { echo "$n: a symlink to the good header: exit $rc"; return 1; } ;;
		*) [ "$rc" != 0 ] || { echo "$n: verified, exit 0"; return 1; } ;;
		esac
		run "$gl" verify --cert "$keys/signing.crt" --object "$obj" --btf "$vmlinux" "$n"
		case $n in
		e_link.h) ;;
		*) [ "$rc" != 0 ] || { echo "$n --object: verified, exit 0"; return 1; } ;;
		esac
	done
	# verify_object(): options the auditor did not give are not taken from the header
	sed 's|/\* @bpfsign keyring-id 0 \*/|/* @bpfsign keyring-id -3 */|; s|^#define sc__DEFAULT_KEYRING_ID (0)$|#define sc__DEFAULT_KEYRING_ID (-3)|' nt.h > k.h
	run "$gl" verify --cert "$keys/signing.crt" --object "$obj" --btf "$vmlinux" k.h
	expect_rc 3 "format 2 keyring -3, --object without --keyring-id" || return 1
	# re-emission is deterministic: twice the same verdict on the good one
	run "$gl" verify --cert "$keys/signing.crt" --object "$obj" --btf "$vmlinux" nt.h
	expect_rc 0 "nt.h --object"
}

# What "verified" does not cover: the load is made by bpf_load_and_run() of
# <bpf/skel_internal.h>, in a translation unit whose earlier headers may
# define macros.  A verified header compiles into a load with keyring -3
# and a call of system() with an edited skel_internal.h first on the
# include path; --skel-internal refuses that file, and gen-loader.1 says
# the translation unit must be trusted.
t_verify_skel_internal() {
	local si=$build/tools/include/bpf/skel_internal.h
	gen "$obj" f1.h --name sc || return 1
	mkdir -p ovr/bpf
	sed 's/attr.keyring_id = opts->keyring_id;/attr.keyring_id = -3; system("id");/' "$si" > ovr/bpf/skel_internal.h
	cmp -s "$si" ovr/bpf/skel_internal.h && { echo "skel_internal.h: no keyring line to edit"; return 1; }
	does f1.h -Iovr -I"$build/linux/tools/lib/bpf" || return 1
	grep -q 'keyring -3$' f1.h.out && grep -q '^system("id")$' f1.h.out ||
		{ echo "f1.h with the edited skel_internal.h:"; cat f1.h.out; return 1; }
	run "$gl" verify --json --cert "$keys/signing.crt" --skel-internal ovr/bpf/skel_internal.h f1.h
	# check_skel_internal(): the skel_internal.h is the kit's, byte for byte
	expect_rc 3 "--skel-internal of an edited copy" || return 1
	expect_err "ovr/bpf/skel_internal.h: modified: not the skel_internal.h this kit ships" || return 1
	expect_eq "$(json out error)" EKEYREJECTED "its JSON" || return 1
	run "$gl" verify --json --cert "$keys/signing.crt" --skel-internal "$si" f1.h
	expect_rc 0 "--skel-internal of the kit's" || return 1
	expect_eq "$(json out skel_internal)" "$si" "the report names it" || return 1
	run "$gl" verify --cert "$keys/signing.crt" --skel-internal missing.h f1.h
	expect_rc 1 "--skel-internal of a missing file" || return 1
	# the documented limit: an earlier header's macro changes the load, unseen
	printf '#include <errno.h>\n#include <bpf/skel_internal.h>\n#define bpf_load_and_run(o) ((o)->keyring_id = -3, bpf_load_and_run(o))\n' > pre.h
	does f1.h -include ./pre.h || return 1
	grep -q 'keyring -3$' f1.h.out || { echo "f1.h after pre.h:"; cat f1.h.out; return 1; }
	tr -s ' \n' '  ' < "$top/gen-loader/gen-loader.1" | grep -q 'must be trusted as the compiler is' ||
		{ echo "gen-loader.1 does not say the translation unit must be trusted"; return 1; }
}

# Downgrade: the signed payload of a default header (its metadata carries
# the signed C) relabelled format 2, with gen-loader's --no-trailer prologue
# and C of the editor's that loads with keyring -3 (a lone CR ends a //
# comment).  The signature verifies; the auditor holds the signed C.
t_verify_format_downgrade() {
	gen "$obj" f1.h --name sc && gen "$obj" nt.h --name sc --no-trailer || return 1
	python3 - f1.h nt.h down.h <<-'PY' || return 1
	import re, sys
	g = open(sys.argv[1], newline='').read()
	n = open(sys.argv[2], newline='').read()
	for r in ('data', 'signature'):
	    pat = r'/\* @bpfsign begin %s \d+ \*/\n.*?/\* @bpfsign end %s \*/\n' % (r, r)
	    m, mg = re.search(pat, n, re.S), re.search(pat, g, re.S)
	    n = n[:m.start()] + mg.group(0) + n[m.end():]
	old = '\n\terr = bpf_load_and_run(&opts);'
	assert n.count(old) == 1
	n = n.replace(old, '\n\t// note\r\topts.keyring_id = -3;' + old)
	open(sys.argv[3], 'w', newline='').write(n)
	PY
	does down.h || return 1
	grep -q 'signature [1-9][0-9]* bytes, keyring -3$' down.h.out ||
		{ echo "down.h does not load signed with keyring -3:"; cat down.h.out; return 1; }
	run "$gl" verify --json --cert "$keys/signing.crt" down.h
	# check_header(): format 2 whose signed data ends with the BPFSTAIL trailer
	expect_rc 3 "down.h (format 1's payload as format 2, keyring -3)" || return 1
	case $(json out reason) in
	"format 2, but its signed data ends with gen-loader's BPFSTAIL trailer"*) ;;
	*) echo "down.h: reason '$(json out reason)'"; return 1 ;;
	esac
}

# Malformed markers: each one refused with its own message.
t_malformed_markers() {
	sed 's/^\/\* @bpfsign begin data \([0-9]*\) \*\/$/\/* @bpfsign begin data 9 *\//' "$good" > m1.h
	run "$gl" verify --cert "$keys/signing.crt" m1.h
	expect_rc 4 "wrong length" && expect_err "more bytes than its begin marker" || return 1
	sed '/^\/\* @bpfsign end excl_hash \*\/$/d' "$good" > m2.h
	run "$gl" verify --cert "$keys/signing.crt" m2.h
	expect_rc 4 "no end marker" && expect_err "region excl_hash: not a line of hex bytes" || return 1
	awk '{ print } /@bpfsign end insns/ { print "/* @bpfsign begin insns 0 */"; print "/* @bpfsign end insns */" }' \
		"$good" > m3.h
	run "$gl" verify --cert "$keys/signing.crt" m3.h
	expect_rc 4 "a second insns region" && expect_err "a second insns region" || return 1
	sed 's/^\/\* @bpfsign format 1 \*\/$/\/* @bpfsign format 3 *\//' "$good" > m4.h
	run "$gl" verify --cert "$keys/signing.crt" m4.h
	expect_rc 4 "format 3" && expect_err "only formats 1 and 2" || return 1
	sed 's/\\x\([0-9a-f]\)[0-9a-f]"$/\\x\1g"/' "$good" > m5.h
	run "$gl" verify --cert "$keys/signing.crt" m5.h
	expect_rc 4 "bad hex digit" && expect_err "is not a \\xHH byte"
}

# --- split signing ----------------------------------------------------------

t_split_signing() {
	run "$gl" "$obj" -o u.h --payload-out p.bin --btf "$vmlinux"
	expect_rc 0 "--payload-out" || return 1
	run "$gl" verify --cert "$keys/signing.crt" u.h
	# unsigned (9, ENODATA), not tampered (3)
	expect_rc 9 "verify of the unsigned header" && expect_err "unsigned" || return 1
	run "$bpfsign" sign --key "$keys/signing.key" --cert "$keys/signing.crt" --out p.p7s p.bin
	expect_rc 0 "bpfsign sign" || return 1
	cp u.h s.h
	run "$gl" attach --signature p.p7s --cert "$keys/signing.crt" s.h
	expect_rc 0 "attach" || return 1
	run "$gl" verify --cert "$keys/signing.crt" s.h
	expect_rc 0 "verify after attach" || return 1
	# RSA is reproducible: the same bytes as signing in one step
	expect_eq "$(sha s.h)" "$(sha "$good")" "attached vs directly signed header"
}

t_attach_refuses() {
	"$gl" "$obj" -o u.h --payload-out p.bin --btf "$vmlinux" || return 1
	"$bpfsign" sign --key "$keys/untrusted.key" --cert "$keys/untrusted.crt" \
		--out bad.p7s p.bin || return 1
	cp u.h before.h
	run "$gl" attach --signature bad.p7s --cert "$keys/signing.crt" u.h
	# ENOKEY (5), as bpfsign verify says of that signature and certificate
	expect_rc 5 "attach of another key's signature" && expect_err "another key" || return 1
	cmp -s u.h before.h || { echo "attach changed the header though it refused"; return 1; }
	head -c 100 p.bin > other.bin
	"$bpfsign" sign --key "$keys/signing.key" --cert "$keys/signing.crt" \
		--out other.p7s other.bin || return 1
	run "$gl" attach --signature other.p7s --cert "$keys/signing.crt" -o o.h u.h
	expect_rc 3 "attach of a signature over other bytes" || return 1
	[ ! -e o.h ] || { echo "attach wrote -o though it refused"; return 1; }
	ls u.h.?????? o.h.?????? 2>/dev/null && { echo "temporary file left"; return 1; }
	: > empty.p7s
	# the kernel's rules, as bpfsign verify: S/MIME capabilities are refused
	openssl cms -sign -binary -md sha256 -outform DER -signer "$keys/signing.crt" \
		-inkey "$keys/signing.key" -in p.bin -out caps.p7s || return 1
	run "$gl" attach --signature caps.p7s --cert "$keys/signing.crt" -o c.h u.h
	expect_rc 3 "attach of a signature with S/MIME capabilities" &&
	expect_err "S/MIME capabilities" || return 1
	[ ! -e c.h ] || { echo "attach wrote a header the kernel would refuse"; return 1; }
	# pins VERIFYING_BPF_SIGNATURE's refusal of signed attributes (a good signature)
	openssl cms -sign -binary -nosmimecap -md sha256 -outform DER -signer "$keys/signing.crt" \
		-inkey "$keys/signing.key" -in p.bin -out sa.p7s || return 1
	run "$gl" attach --signature sa.p7s --cert "$keys/signing.crt" -o s.h u.h
	expect_rc 3 "attach of a signature with signed attributes" &&
	expect_err "has signed attributes" && expect_err "sign with -noattr" || return 1
	[ ! -e s.h ] || { echo "attach wrote a header the kernel would refuse"; return 1; }
	# an embedded certificate the kernel's X.509 parser refuses (an Ed25519
	# key and signature): the kernel would refuse the load (ENOPKG), so attach
	# refuses it
	openssl genpkey -algorithm ED25519 -out ed.key 2>/dev/null &&
	openssl req -new -x509 -key ed.key -subj "/CN=junk" -days 30 -out ed.crt 2>/dev/null ||
		return 1
	openssl cms -sign -binary -noattr -md sha256 -outform DER -signer "$keys/signing.crt" \
		-inkey "$keys/signing.key" -certfile ed.crt -in p.bin -out junk.p7s || return 1
	run "$gl" attach --signature junk.p7s --cert "$keys/signing.crt" -o j.h u.h
	# ENOPKG (6): an algorithm the kernel does not have, as bpfsign verify says
	expect_rc 6 "attach of a signature embedding an Ed25519 certificate" &&
	expect_err "is not one the kernel has" && expect_err "ENOPKG" || return 1
	[ ! -e j.h ] || { echo "attach wrote a header the kernel would refuse"; return 1; }
	run "$gl" attach --signature empty.p7s --cert "$keys/signing.crt" u.h
	# EINVAL (7): BPF_PROG_LOAD refuses signature_size 0, as bpfsign verify says
	expect_rc 7 "empty signature" && expect_err "empty signature"
}

# --- errors -----------------------------------------------------------------

t_err_missing_key() {
	run "$gl" "$obj" -o x.h --key nosuch.key --cert "$keys/signing.crt" --btf "$vmlinux"
	expect_rc 1 "missing key" && expect_err "nosuch.key" || return 1
	[ ! -e x.h ] || { echo "a header was written"; return 1; }
	expect_eq "$(wc -l < err)" 1 "one error line"
}

t_err_key_cert_mismatch() {
	run "$gl" "$obj" -o x.h --key "$keys/untrusted.key" --cert "$keys/signing.crt" --btf "$vmlinux"
	expect_rc 1 "key of another certificate" || return 1
	[ ! -e x.h ] || { echo "a header was written"; return 1; }
}

t_err_not_bpf() {
	echo "not an object" > notes.txt
	run "$gl" notes.txt -o x.h --key "$keys/signing.key" --cert "$keys/signing.crt"
	expect_rc 1 "a text file" && expect_err "notes.txt: not an ELF file" || return 1
	run "$gl" nosuch.bpf.o -o x.h --key "$keys/signing.key" --cert "$keys/signing.crt"
	expect_rc 1 "a missing file" && expect_err "nosuch.bpf.o: No such file" || return 1
	[ ! -e x.h ] || { echo "a header was written"; return 1; }
}

# ELF, but not something libbpf can open: a host object file.
t_err_libbpf_cannot_open() {
	echo 'int f(void) { return 1; }' > host.c
	cc -c host.c -o host.o || return 1
	run "$gl" host.o -o x.h --key "$keys/signing.key" --cert "$keys/signing.crt"
	expect_rc 1 "a host object" && expect_err "host.o: libbpf cannot open the object" || return 1
	[ ! -e x.h ] || { echo "a header was written"; return 1; }
}

# Values libbpf would read from this machine cannot be signed for another.
t_err_host_dependent() {
	cp "$csrc/kcfg.bpf.c" kcfg.bpf.c
	"$CLANG" -g -O2 -target bpf -I"$build/guest-obj" -I"$build/tools/include" \
		-c kcfg.bpf.c -o kcfg.bpf.o || return 1
	run gen kcfg.bpf.o x.h
	expect_rc 1 "a __kconfig extern" && expect_err "extern 'CONFIG_HZ'"
}

# --- the target, never this machine (issue 17) --------------------------------

# bpf_src FILE NPROGS NMAPS: NPROGS syscall programs, each calling one shared
# subprogram (libbpf counts it as a program too), and NMAPS array maps
bpf_src() {
	python3 - "$@" <<-'EOF'
	import sys
	path, n, maps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
	src = ['#include "vmlinux.h"', '#include <bpf/bpf_helpers.h>', 'int hits[%d];' % max(n, 1)]
	for m in range(maps):
	    src.append('struct { __uint(type, BPF_MAP_TYPE_ARRAY); __uint(max_entries, 1);'
	               ' __type(key, int); __type(value, long); } m%d SEC(".maps");' % m)
	src.append('static __attribute__((noinline)) int bump(int i) { hits[i]++; return 0; }')
	for i in range(n):
	    src.append('SEC("syscall") int p%04d(void *ctx) { return bump(%d); }' % (i, i))
	src.append('char LICENSE[] SEC("license") = "GPL";')
	open(path, 'w').write('\n'.join(src) + '\n')
	EOF
}

bpf_cc() {	# SRC OBJ
	"$CLANG" -g -O2 -target bpf -D__TARGET_ARCH_x86 -I"$build/guest-obj" \
		-I"$build/tools/include" -c "$1" -o "$2" || { echo "$CLANG cannot build $1"; return 1; }
}

# Strings of a hostile object never become C (issue 36): a raw_tp section
# name is a string literal with every other byte escaped, and program, map
# and BTF names that are not C identifiers are refused, naming them.
t_hostile_names() {
	"$top/tests/host/hostile/build.sh" . || { echo "cannot build the hostile objects"; return 1; }
	# the section name: escaped, and the header compiles into no call of system()
	gen sec.bpf.o sec.lskel.h --name sec || { echo "gen-loader refused a quote in a section name"; return 1; }
	grep -q 'skel_raw_tracepoint_open("sys_enter\\042\\054\\040prog_fd' sec.lskel.h ||
		{ echo "the section name is not an escaped string literal"; return 1; }
	printf '#include "sec.lskel.h"\nint main(void) { struct sec *s = sec__open(); return s ? sec__attach(s) : 1; }\n' > use_sec.c
	gcc -O2 -D_GNU_SOURCE -I. -I"$build/linux/tools/lib" -I"$build/linux/tools/include/uapi" \
		-c use_sec.c -o use_sec.o || { echo "the escaped header does not compile"; return 1; }
	nm use_sec.o | grep -q ' U system$' && { echo "the header calls system()"; return 1; }
	run "$gl" verify --cert "$keys/signing.crt" sec.lskel.h
	expect_rc 0 "verify of the escaped header" || return 1
	# a program name that is not an identifier
	run "$gl" prog.bpf.o -o prog.lskel.h --key "$keys/signing.key" --cert "$keys/signing.crt" \
		--btf "$vmlinux"
	expect_rc 1 "a hostile program name" || return 1
	expect_err "program 'tp_x); system(\"id\"); int y(void': its name is not a C identifier" || return 1
	[ ! -e prog.lskel.h ] || { echo "a header was written for a hostile program name"; return 1; }
	# a map name (the skeleton's struct member and a @target comment)
	run "$gl" map.bpf.o -o map.lskel.h --key "$keys/signing.key" --cert "$keys/signing.crt" \
		--btf "$vmlinux"
	expect_rc 1 "a hostile map name" || return 1
	expect_err "map 'm */ int evil; /*': its name is not a C identifier" || return 1
	# a BTF type name, edited in the object (same length, string table)
	run "$gl" btf.bpf.o -o btf.lskel.h --key "$keys/signing.key" --cert "$keys/signing.crt" \
		--btf "$vmlinux"
	expect_rc 1 "a hostile BTF type name" || return 1
	expect_err "its name 'A{};int q;//' is not a C identifier" || return 1
	# declaration tags are no C: an object with __arg_ctx is accepted
	bpf_cc "$top/tests/guest/progs/iter_ext.bpf.c" argctx.bpf.o || return 1
	gen argctx.bpf.o argctx.lskel.h --name argctx ||
		{ echo "gen-loader refused an object with __arg_ctx"; return 1; }
}

# A hostile object's BTF struct member name (not a type name) reaches the
# C through btf_dump's inline declaration of an anonymous struct in .bss:
# here a #define of skel_alloc that makes sc__open() run system("id").
t_hostile_member_name() {
	"$top/tests/host/hostile/build.sh" . || { echo "cannot build the hostile objects"; return 1; }
	run "$gl" member.bpf.o -o member.lskel.h --name sc --key "$keys/signing.key" \
		--cert "$keys/signing.crt" --btf "$vmlinux"
	# check_names(): every BTF name btf_dump can print, members too, is an identifier
	expect_rc 1 "a hostile member name" || return 1
	expect_err "its member 'a[0];\x0a#define skel_alloc(sz)" || return 1
	[ ! -e member.lskel.h ] || { echo "a header was written for a hostile member name"; return 1; }
}

# A fuzz of hostile names (issue 36): random printable section names for a
# raw_tp program and random symbol names for it, and random BTF struct
# member and enum value names (edited in the object's string table, as no
# compiler writes them), from a fixed seed.  Each header either is refused,
# naming the name, or compiles into calls of no function but the ones an
# honest header calls.
t_hostile_names_fuzz() {
	python3 - <<-'EOF'
	import random
	rnd = random.Random(36)
	chars = [chr(c) for c in range(0x20, 0x7f)]
	def cstr(s):	# an unevaluated string literal takes only simple escapes
	    return s.replace('\\', '\\\\').replace('"', '\\"')
	for i in range(12):
	    sec = ''.join(rnd.choice(chars) for _ in range(rnd.randrange(1, 40)))
	    sym = ''.join(rnd.choice(chars) for _ in range(rnd.randrange(1, 24)))
	    if i % 3 == 0:
	        sym = 'tp'
	    src = ['#include "vmlinux.h"', '#include <bpf/bpf_helpers.h>', 'int hits;',
	           'int tp(void *ctx) __asm__("%s");' % cstr(sym),
	           'SEC("raw_tp/%s") int tp(void *ctx) { hits++; return 0; }' % cstr(sec),
	           'char LICENSE[] SEC("license") = "GPL";']
	    open('f%02d.c' % i, 'w').write('\n'.join(src) + '\n')
	    if i == 0:
	        src[3:5] = ['SEC("raw_tp/sys_enter") int tp(void *ctx) { hits++; return 0; }']
	        open('honest.c', 'w').write('\n'.join(src) + '\n')
	# btf_dump declares an anonymous struct or enum of .bss inline: its
	# member and value names are C in the skeleton's struct view
	for i in range(12):
	    name = ''.join(rnd.choice(chars) for _ in range(rnd.randrange(5, 40)))
	    ph = ('zqm%02d' % i + 'Q' * 40)[:len(name)]
	    if i % 2:
	        decl = 'struct { int %s; int y; } holder;' % ph
	        use = 'holder.y++;'
	    else:
	        decl = 'enum { %s = 1, OTHER%d = 2 } holder;' % (ph, i)
	        use = 'holder = OTHER%d;' % i
	    src = ['#include "vmlinux.h"', '#include <bpf/bpf_helpers.h>', decl,
	           'SEC("raw_tp/sys_enter") int tp(void *ctx) { %s return 0; }' % use,
	           'char LICENSE[] SEC("license") = "GPL";']
	    open('b%02d.c' % i, 'w').write('\n'.join(src) + '\n')
	    open('b%02d.name' % i, 'w').write(ph + '\n' + name)
	EOF
	bpf_cc honest.c honest.bpf.o || return 1
	gen honest.bpf.o f.lskel.h --name f || { echo "gen-loader refused an honest object"; return 1; }
	printf '#include "f.lskel.h"\nint main(void) { struct f *s = f__open(); return s ? f__attach(s) : 1; }\n' > use_f.c
	gcc -O2 -D_GNU_SOURCE -I. -I"$build/linux/tools/lib" -I"$build/linux/tools/include/uapi" \
		-c use_f.c -o use_f.o || { echo "an honest header does not compile"; return 1; }
	nm -u use_f.o | awk '{ print $2 }' | sort > honest.calls
	for c in f??.c b??.c; do
		n=${c%.c}
		bpf_cc "$c" "$n.bpf.o" || return 1
		if [ -f "$n.name" ]; then
			python3 - "$n.bpf.o" "$n.name" <<-'EOF' || { echo "$n: cannot edit the name"; return 1; }
			import sys
			d = open(sys.argv[1], 'rb').read()
			ph, name = open(sys.argv[2]).read().split('\n', 1)
			assert d.count(ph.encode()) >= 1
			open(sys.argv[1], 'wb').write(d.replace(ph.encode(), name.encode()))
			EOF
		fi
		rm -f f.lskel.h
		if ! gen "$n.bpf.o" f.lskel.h --name f 2> err; then
			grep -q "is not a C identifier" err ||
				{ echo "$n: refused without naming the name:"; cat err; return 1; }
			continue
		fi
		gcc -O2 -D_GNU_SOURCE -I. -I"$build/linux/tools/lib" -I"$build/linux/tools/include/uapi" \
			-c use_f.c -o use_f.o 2> err || { echo "$n: the header does not compile"; cat err; return 1; }
		nm -u use_f.o | awk '{ print $2 }' | sort > calls
		cmp -s calls honest.calls ||
			{ echo "$n: the header calls other functions than an honest one:"; diff honest.calls calls; return 1; }
	done
}

# A loader of more programs than libbpf's old stack of 32 program FDs: it
# keeps them in its metadata, so every stack access stays inside the 512
# bytes the verifier allows (it refused "invalid write to stack R10").
t_many_programs() {
	bpf_src many.c 73 0 && bpf_cc many.c many.bpf.o || return 1
	gen many.bpf.o many.lskel.h --name many || { echo "gen-loader refused 73 programs"; return 1; }
	run "$gl" verify --cert "$keys/signing.crt" many.lskel.h
	expect_rc 0 "verify of 73 programs" || return 1
	cp "$csrc/stack.c" stack.c
	gcc -O2 -Wall -Werror -D_GNU_SOURCE -I. -I"$build/linux/tools/lib" \
		-I"$build/linux/tools/include/uapi" stack.c -o stack || return 1
	./stack
}

# What the kernel or libbpf's generation cannot take is refused at
# generation, naming the limit, and nothing is written.
t_limits_refused() {
	bpf_src maps.c 1 64 && bpf_cc maps.c maps.bpf.o || return 1
	run gen maps.bpf.o x.h
	# check_limits(): 64 array maps and .bss, one more than MAX_USED_MAPS
	expect_rc 1 "65 maps" && expect_err "65 maps: a loader creates at most 64" || return 1
	[ ! -e x.h ] || { echo "a header was written for 65 maps"; return 1; }
	bpf_src huge.c 1000 0 && bpf_cc huge.c huge.bpf.o || return 1
	run gen huge.bpf.o x.h
	# gen_error(): libbpf's -ERANGE, a jump to the loader's cleanup beyond 16 bits
	expect_rc 1 "1000 programs" && expect_err "jumps reach at most 32767 instructions" ||
		return 1
	[ ! -e x.h ] || { echo "a header was written for 1000 programs"; return 1; }
}

# A perf event array without max_entries, a ring buffer whose size libbpf
# rounds by pages, kconfig externs and a map sized at run time.
target_obj() {
	cp "$csrc/target.bpf.c" target.bpf.c
	bpf_cc target.bpf.c target.bpf.o
}

# sysconf(_SC_PAGE_SIZE) answers $BPFSIGN_PAGE_SIZE: another page size
page_shim() {
	cp "$csrc/pagesz.c" pagesz.c
	cc -shared -fPIC -o pagesz.so pagesz.c -ldl || { echo "cannot build the page-size shim"; return 1; }
}

# The header is a function of the object and the options: this machine's CPU
# count (a mount namespace over /sys/devices/system/cpu/possible), kernel
# release (setarch --uname-2.6) and page size (a sysconf() shim) change
# nothing in it.
t_host_independent() {
	local kcfg="$build/kbuild/.config"
	target_obj && page_shim || return 1
	echo 0-63 > possible
	gen target.bpf.o a.h --target-config "$kcfg" --map-size per_cpu_sized=cpus ||
		{ echo "gen-loader refused the target object"; return 1; }
	unshare -m sh -c 'mount --bind possible /sys/devices/system/cpu/possible &&
		[ "$(cat /sys/devices/system/cpu/possible)" = 0-63 ] &&
		exec setarch x86_64 --uname-2.6 "$@"' sh \
		"$gl" target.bpf.o -o b.h --key "$keys/signing.key" --cert "$keys/signing.crt" \
		--btf "$vmlinux" --target-config "$kcfg" --map-size per_cpu_sized=cpus ||
		{ echo "gen-loader failed with 64 CPUs and release 2.6"; return 1; }
	cmp -s a.h b.h || { echo "64 CPUs and release 2.6 changed the header:"; diff a.h b.h | head; return 1; }
	LD_PRELOAD=$PWD/pagesz.so BPFSIGN_PAGE_SIZE=2048 "$gl" target.bpf.o -o c.h \
		--key "$keys/signing.key" --cert "$keys/signing.crt" --btf "$vmlinux" \
		--target-config "$kcfg" --map-size per_cpu_sized=cpus ||
		{ echo "gen-loader failed with pages of 2048 bytes"; return 1; }
	cmp -s a.h c.h || { echo "pages of 2048 bytes changed the header:"; diff a.h c.h | head; return 1; }
	# the perf event array is sized for the target, not for this machine
	grep -qF " * @target map events max_entries $(sed -n 's/^CONFIG_NR_CPUS=//p' "$kcfg") (perf event array: CONFIG_NR_CPUS of --target-config)" a.h ||
		{ echo "no target line for the perf event array:"; grep @target a.h; return 1; }
	gen target.bpf.o d.h --target-config "$kcfg" --map-size per_cpu_sized=cpus --max-cpus 4096 ||
		return 1
	grep -qF " * @target map events max_entries 4096 (perf event array: --max-cpus)" d.h ||
		{ echo "--max-cpus 4096 did not size the perf event array:"; grep @target d.h; return 1; }
	grep -qF " * @target map per_cpu_sized max_entries 4096 (--map-size cpus)" d.h ||
		{ echo "--map-size NAME=cpus is not --max-cpus:"; grep @target d.h; return 1; }
}

# Pages larger than the target's would round a ring buffer: refused, named.
t_host_pages_refused() {
	target_obj && page_shim || return 1
	run env LD_PRELOAD="$PWD/pagesz.so" BPFSIGN_PAGE_SIZE=16384 "$gl" target.bpf.o -o x.h \
		--key "$keys/signing.key" --cert "$keys/signing.crt" --btf "$vmlinux" \
		--target-config "$build/kbuild/.config" --map-size per_cpu_sized=cpus
	# ringbuf_for_target(): 8192 bytes for 4 KiB pages, 16 KiB on this "machine"
	expect_rc 1 "pages of 16384 bytes" &&
	expect_err "map 'rb': 8192 bytes for the target's pages (4096" || return 1
	[ ! -e x.h ] || { echo "a header was written"; return 1; }
}

# __kconfig externs come from --target-config only, are signed in the
# header's C, and gen-loader verify shows them.
t_target_config() {
	local kcfg="$build/kbuild/.config" hz rel want
	target_obj || return 1
	run gen target.bpf.o x.h --map-size per_cpu_sized=cpus
	# apply_kconfig(): without a target description nothing can resolve them
	expect_rc 1 "kconfig externs without --target-config" &&
	expect_err "a __kconfig value of the target kernel: give its kconfig with --target-config" ||
		return 1
	hz=$(sed -n 's/^CONFIG_HZ=//p' "$kcfg")
	rel=$(sed -n 's/^# Linux\/[^ ]* \([0-9]*\)\.\([0-9]*\)\.\([0-9]*\).*/\1 \2 \3/p' "$kcfg")
	[ -n "$hz" ] && [ -n "$rel" ] || { echo "$kcfg has no CONFIG_HZ or release line"; return 1; }
	want=$(set -- $rel; echo $(($1 * 65536 + $2 * 256 + ($3 > 255 ? 255 : $3))))
	gen target.bpf.o t.h --target-config "$kcfg" --map-size per_cpu_sized=cpus || return 1
	run "$gl" verify --json --cert "$keys/signing.crt" t.h
	expect_rc 0 "verify of a header with a target" || return 1
	json out target > target.txt
	for line in "kconfig CONFIG_HZ=$hz" "kconfig LINUX_KERNEL_VERSION=$want" \
		"kconfig CONFIG_BPFSIGN_NOT_SET is not set"; do
		grep -qF "$line" target.txt || { echo "verify's target lacks '$line':"; cat target.txt; return 1; }
	done
	# another target's kconfig is another header, and signed as such
	sed "s/^CONFIG_HZ=.*/CONFIG_HZ=1000/" "$kcfg" > other.config
	gen target.bpf.o o.h --target-config other.config --map-size per_cpu_sized=cpus || return 1
	cmp -s t.h o.h && { echo "CONFIG_HZ=1000 made the same header"; return 1; }
	grep -qF " * @target kconfig CONFIG_HZ=1000" o.h || { echo "no CONFIG_HZ=1000 line"; return 1; }
	# a strong extern the target does not set: libbpf refuses, names it
	grep -v "^CONFIG_HZ=" "$kcfg" > nohz.config
	run gen target.bpf.o n.h --target-config nohz.config --map-size per_cpu_sized=cpus
	expect_rc 1 "CONFIG_HZ not set in the target" && expect_err "extern 'CONFIG_HZ' (strong): not resolved" ||
		return 1
	# LINUX_KERNEL_VERSION: a line of its own wins over the release line
	{ echo "LINUX_KERNEL_VERSION=396288"; cat "$kcfg"; } > ver.config
	gen target.bpf.o v.h --target-config ver.config --map-size per_cpu_sized=cpus || return 1
	grep -qF " * @target kconfig LINUX_KERNEL_VERSION=396288" v.h ||
		{ echo "the LINUX_KERNEL_VERSION= line was not used"; grep @target v.h; return 1; }
	sed 's|^CONFIG_HZ=.*|CONFIG_HZ="*/ int injected;"|' "$kcfg" > inject.config
	run gen target.bpf.o i.h --target-config inject.config --map-size per_cpu_sized=cpus
	# comment_safe(): a value cannot end the comment it is written in
	expect_rc 1 "a kconfig value with */" && expect_err "which the header's comment cannot carry" ||
		return 1
	grep -v "^# Linux/" "$kcfg" > norel.config
	run gen target.bpf.o r.h --target-config norel.config --map-size per_cpu_sized=cpus
	# apply_kconfig(): no version in the description, none taken from uname()
	expect_rc 1 "no release in the target config" && expect_err "has no kernel version" ||
		return 1
	run gen target.bpf.o m.h --target-config "$kcfg" --map-size nosuch=4
	# apply_map_size(): only the object's maps are sized
	expect_rc 1 "--map-size of a missing map" && expect_err "--map-size: no map 'nosuch'"
}

# Maps a tool sizes at run time get signed sizes with --map-size; without
# them the kernel would refuse the loader, so no header is written.
t_map_sizes() {
	cp "$csrc/stacks.bpf.c" stacks.bpf.c
	bpf_cc stacks.bpf.c stacks.bpf.o || return 1
	run gen stacks.bpf.o x.h
	# check_sized(): no max_entries, which BPF_MAP_CREATE refuses
	expect_rc 1 "a stack trace map without max_entries" &&
	expect_err "map 'stacks': no max_entries, which the kernel refuses: give the target's with --map-size stacks=N" ||
		return 1
	run gen stacks.bpf.o x.h --map-size stacks=1024
	# check_sized(): no value_size, which BPF_MAP_CREATE refuses too
	expect_rc 1 "a stack trace map without value_size" &&
	expect_err "--map-size stacks=N:VSIZE" || return 1
	[ ! -e x.h ] || { echo "a header was written"; return 1; }
	gen stacks.bpf.o s.h --map-size stacks=1024:1016 || return 1
	grep -qF " * @target map stacks max_entries 1024 value_size 1016 (--map-size)" s.h ||
		{ echo "no target line for --map-size:"; grep @target s.h; return 1; }
}

# The skeleton API is bpftool's light skeleton's: one caller compiles
# against both headers of the same object, and the struct layouts match.
t_api_parity_bpftool() {
	local bpftool=$build/tools/bpftool/bpftool h
	[ -x "$bpftool" ] || { echo "no $bpftool (make tools)"; return 1; }
	LIBBPF_BPF_TOKEN_PATH= "$bpftool" gen skeleton -L "$obj" name skel_counter > bt.h ||
		{ echo "bpftool gen skeleton -L failed"; return 1; }
	cp "$good" gl.h
	cp "$csrc/caller.c" caller.c
	for h in bt gl; do
		gcc -O2 -Wall -Wextra -Wno-unused-parameter -Werror -D_GNU_SOURCE \
			-DHDR="\"$h.h\"" -I. -I"$build/linux/tools/lib" \
			-I"$build/linux/tools/include/uapi" caller.c -o "caller-$h" ||
			{ echo "the caller does not compile against the $h header"; return 1; }
		"./caller-$h" > "layout-$h.txt" || return 1
	done
	diff layout-bt.txt layout-gl.txt ||
		{ echo "struct skel_counter: bpftool's layout (<) is not gen-loader's (>)"; return 1; }
}

t_usage() {
	run "$gl" --help
	expect_rc 0 "--help" || return 1
	for c in "" attach verify; do
		run "$gl" $c --help
		expect_rc 0 "$c --help" || return 1
		grep -q "^Usage: gen-loader" out || { echo "$c --help: no usage line"; return 1; }
	done
	run "$gl" "$obj" -o x.h
	expect_rc 2 "no key" && expect_err "--key and --cert are required" || return 1
	run "$gl" "$obj" -o x.h --payload-out p.bin --key "$keys/signing.key"
	expect_rc 2 "--payload-out with --key" || return 1
	run "$gl" verify "$good"
	expect_rc 2 "verify without --cert" || return 1
	run "$gl" "$obj" --bogus
	expect_rc 2 "unknown option" && expect_err "bad option"
}

# --- the tools' rough edges (issue 15) ----------------------------------------

# The subcommand is argv[1] only: "attach" alone or "attach verify" is attach.
t_edge_subcommand() {
	run "$gl" attach
	# the subcommand loop stops at its match (it read argv past the end)
	expect_rc 2 "attach without arguments" && expect_err "gen-loader attach:" || return 1
	run "$gl" attach verify --cert "$keys/signing.crt" "$good"
	# a second command name is an argument of the first, not a command
	expect_rc 2 "attach verify" && expect_err "gen-loader attach: --signature is required" ||
		return 1
	[ ! -s out ] || { echo "attach verify printed a report:"; cat out; return 1; }
}

# Outputs replace regular files only, never an input, and keep their mode.
t_edge_outputs() {
	local before
	mkfifo fifo || return 1
	run gen "$obj" fifo
	# write_temp(): a FIFO or device at the destination is not renamed over
	expect_rc 1 "-o FIFO" && expect_err "fifo: not a regular file" || return 1
	[ -p fifo ] || { echo "the FIFO was replaced"; return 1; }
	ls fifo.?????? 2>/dev/null && { echo "temporary file left"; return 1; }
	cp "$obj" o.bpf.o && before=$(sha o.bpf.o)
	run gen o.bpf.o o.bpf.o
	# check_outputs(): -o the object itself
	expect_rc 2 "-o OBJ" && expect_err "an output is the object itself" || return 1
	expect_eq "$(sha o.bpf.o)" "$before" "the object after -o OBJ" || return 1
	cp "$keys/signing.key" k.key && before=$(sha k.key)
	run "$gl" "$obj" -o k.key --key k.key --cert "$keys/signing.crt" --btf "$vmlinux"
	# check_outputs(): -o the key
	expect_rc 2 "-o KEY" && expect_err "an output is the --key input" || return 1
	expect_eq "$(sha k.key)" "$before" "the key after -o KEY" || return 1
	run "$gl" "$obj" -o same --payload-out same --btf "$vmlinux"
	# check_outputs(): the header and the payload in one file
	expect_rc 2 "-o X --payload-out X" && expect_err "the same file" || return 1
	[ ! -e same ] || { echo "-o X --payload-out X wrote X"; return 1; }
	: > m.h && chmod 600 m.h
	run gen "$obj" m.h
	expect_rc 0 "-o an existing 0600 file" || return 1
	expect_eq "$(stat -c %a m.h)" 600 "the mode of a replaced header" || return 1
	cp "$good" a.h && cp "$good" sig.bin
	run "$gl" attach --signature sig.bin --cert "$keys/signing.crt" -o sig.bin a.h
	# attach: -o the signature it reads
	expect_rc 2 "attach -o SIG" && expect_err "the output is an input" || return 1
	cmp -s sig.bin "$good" || { echo "attach -o SIG changed SIG"; return 1; }
}

# Two outputs: both are written or neither (the help says nothing is written).
t_edge_all_or_nothing() {
	run "$gl" "$obj" -o nodir/x.h --payload-out p.bin --btf "$vmlinux"
	# write_files(): the header fails after the payload was ready
	expect_rc 1 "-o in a missing directory" && expect_err "nodir/x.h" || return 1
	[ ! -e p.bin ] || { echo "the payload was left behind"; return 1; }
	ls p.bin.?????? 2>/dev/null && { echo "temporary file left"; return 1; }
	run "$gl" "$obj" -o x.h --payload-out p.bin --btf "$vmlinux"
	expect_rc 0 "both outputs" && [ -s x.h ] && [ -s p.bin ] ||
		{ echo "x.h and p.bin not both written"; return 1; }
}

# Option values as the user means them.
t_edge_option_values() {
	run gen "$obj" k.h --keyring-id 010
	# parse_keyring(): serials are decimal, 010 is ten, not octal 8
	expect_rc 0 "--keyring-id 010" || return 1
	grep -q "__DEFAULT_KEYRING_ID (10)" k.h ||
		{ echo "--keyring-id 010:"; grep DEFAULT_KEYRING_ID k.h; return 1; }
	run gen "$obj" k.h --keyring-id 0x10
	# parse_keyring(): hex is not a serial either
	expect_rc 1 "--keyring-id 0x10" && expect_err "not a 32-bit number" || return 1
	head -c 8192 /dev/urandom > garbage.btf
	run "$gl" "$obj" -o b.h --key "$keys/signing.key" --cert "$keys/signing.crt" \
		--btf garbage.btf
	# check_btf(): a --btf without BTF is refused, not ignored
	expect_rc 1 "--btf garbage" && expect_err "garbage.btf: --btf: no BTF in it" || return 1
	[ ! -e b.h ] || { echo "a header was written with a garbage --btf"; return 1; }
}

# Messages: libbpf's own codes by name, untrusted bytes escaped.
t_edge_messages() {
	local esc
	printf 'not an object' > x.o
	printf '\177ELF\002\001\001' | cat - x.o > elf.o
	run gen elf.o e.h
	# lb_strerror(): libbpf's LIBBPF_ERRNO__* codes are not strerror()'s
	expect_rc 1 "a truncated ELF" && expect_err "elf.o: libbpf cannot open the object" ||
		return 1
	! grep -q "Unknown error" err || { echo "a raw libbpf code:"; cat err; return 1; }
	esc=$(printf 'x\033]0;owned\007.h')
	printf 'garbage' > "$esc"
	run "$gl" verify --cert "$keys/signing.crt" "$esc"
	# kit_err(): the file name's escape sequence is printed as \xHH
	expect_rc 4 "a header named with an escape sequence" || return 1
	! grep -q "$(printf '\033')" err || { echo "ESC reached the terminal raw"; return 1; }
	expect_err 'x\x1b]0;owned\x07.h'
}

# One exit-code vocabulary and --help spelled -h too.
t_edge_help() {
	local c
	for c in "" attach verify; do
		run "$gl" $c -h
		expect_rc 0 "gen-loader $c -h" || return 1
		grep -q "^Usage: gen-loader" out || { echo "$c -h: no usage"; return 1; }
	done
}

# Every option of every --help is in the man page.
t_man_page() {
	local opt c
	sed 's/\\//g' "$top/gen-loader/gen-loader.1" > man.txt
	for c in "" attach verify; do
		"$gl" $c --help | grep -o -- '--[a-z][a-z-]*' | sort -u > opts.txt
		while read -r opt; do
			grep -qF -- "$opt" man.txt ||
				{ echo "gen-loader.1 does not document $c $opt"; return 1; }
		done < opts.txt
	done
}

t_install() {
	make -s -C "$top/gen-loader" install PREFIX=/usr DESTDIR="$PWD/root" >/dev/null ||
		{ echo "make install failed"; return 1; }
	[ -x root/usr/bin/gen-loader ] && [ -f root/usr/share/man/man1/gen-loader.1 ] ||
		{ echo "install did not put bin/gen-loader and man1/gen-loader.1"; return 1; }
}

# valgrind: generation, audit (good and rejected) and attach, no error or leak
t_valgrind() {
	local vg="valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99"
	command -v valgrind >/dev/null || { echo "valgrind is not installed"; return 1; }
	run $vg "$gl" "$obj" -o v.h --key "$keys/signing.key" --cert "$keys/signing.crt" \
		--btf "$vmlinux"
	expect_rc 0 "valgrind gen-loader" || return 1
	run $vg "$gl" verify --json --cert "$keys/signing.crt" v.h
	expect_rc 0 "valgrind verify" || return 1
	"$tamper" data last v.h t.h
	run $vg "$gl" verify --cert "$keys/signing.crt" t.h
	expect_rc 3 "valgrind verify of a tampered header" || return 1
	"$gl" "$obj" -o u.h --payload-out p.bin --btf "$vmlinux" &&
	"$bpfsign" sign --key "$keys/signing.key" --cert "$keys/signing.crt" --out p.p7s p.bin ||
		return 1
	run $vg "$gl" attach --signature p.p7s --cert "$keys/signing.crt" u.h
	expect_rc 0 "valgrind attach"
}

# A bounded libFuzzer run of the header parser, seeded with a real header.
t_fuzz() {
	make -s -C "$top/gen-loader" fuzz FUZZ_SECONDS=3 FUZZ_SEEDS="$good" > fuzz.log 2>&1 ||
		{ echo "the parser fuzzer failed:"; tail -n 30 fuzz.log; return 1; }
}

t build t_build
t "no bpf() syscall while generating (strace)" t_no_bpf_syscall
t "deterministic: runs, directories, copies, rebuilds" t_deterministic
t "the header compiles as C and C++; a write to its .rodata does not" t_header_compiles
t "the signed loader reads no ctx input but the log" t_loader_reads_no_input
t "--keyring-id is embedded, signed" t_keyring_id
t "a gen-loader 1.0 header: the keyring unsigned, arrays-verified" t_keyring_legacy
t "verify: a good header" t_verify_good
t "verify: payload and excl_hash re-derived" t_payload_matches
t "verify: each tampered region, its own message" t_tampered_regions
t "verify --json: a tampered header" t_tampered_json
t "verify: another certificate" t_wrong_cert
t "verify: truncated and random headers, no crash" t_truncated
t "verify: malformed markers" t_malformed_markers
t "verify: many headers, a refusal wins over arrays-verified" t_verify_batch_worst
t "verify: split signing, the signed C is the signer's and checked" t_split_signing_signed_c
t "verify: byte-level edits of a default header, with and without --object" t_verify_byte_edits
t "verify: --skel-internal; the translation unit is not audited" t_verify_skel_internal
t "verify: a default header's payload relabelled format 2" t_verify_format_downgrade
t "verify: many headers, one JSON line each" t_verify_batch
t "verify: the tricks of issue 15 are 'modified', naming the line" t_modified_tricks
t "verify: the header's C is carried in the signed payload" t_modified_tail_in_data
t "split signing: payload-out, bpfsign sign, attach" t_split_signing
t "attach refuses signatures that do not verify" t_attach_refuses
t "error: missing key" t_err_missing_key
t "error: key of another certificate" t_err_key_cert_mismatch
t "error: not a BPF object" t_err_not_bpf
t "error: an object libbpf cannot open" t_err_libbpf_cannot_open
t "error: host-dependent externs" t_err_host_dependent
t "more than 32 programs: stack accesses within 512 bytes" t_many_programs
t "hostile object: names refused, a section name escaped" t_hostile_names
t "hostile object: a BTF member name refused" t_hostile_member_name
t "hostile object: a fuzz of section, program, member and enum names" t_hostile_names_fuzz
t "limits refused at generation, named" t_limits_refused
t "host-independent: CPU count, release, page size" t_host_independent
t "host pages larger than the target's: refused" t_host_pages_refused
t "kconfig externs from --target-config, shown by verify" t_target_config
t "maps sized at run time: --map-size, refused without" t_map_sizes
t "API and struct layout of bpftool's light skeleton" t_api_parity_bpftool
t "usage and --help" t_usage
t "edges: the subcommand is argv[1] only" t_edge_subcommand
t "edges: outputs replace regular files, never an input, keep the mode" t_edge_outputs
t "edges: two outputs, both or neither" t_edge_all_or_nothing
t "edges: --keyring-id decimal, --btf checked" t_edge_option_values
t "edges: libbpf codes named, control characters escaped" t_edge_messages
t "edges: -h on every command" t_edge_help
t "man page documents every option" t_man_page
t "make install PREFIX DESTDIR" t_install
t "valgrind: gen, verify, attach" t_valgrind
t "fuzz: the header parser (10 s)" t_fuzz

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
