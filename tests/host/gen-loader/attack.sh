#!/bin/sh
# A hostile review of issue 36 part 1 (gen-loader verify: "verified" only
# when every byte is signed or re-emitted from signed bytes).  Each t_attack_*
# builds a header from a fresh real one, runs gen-loader verify, and compiles
# it into tests/host/bpftool/harness.c (its bpf() calls and system() are
# printed, never made) to show what it would do.  The tests assert the
# secure behaviour: while a hole is open its test is "not ok" and says what
# the header does.  Not run by make test (run-tests.sh runs run.sh only).
#
# Usage: tests/host/gen-loader/attack.sh [NAME-FILTER]
set -u

top=$(cd "$(dirname "$0")/../../.." && pwd)
build=${BPFSIGN_BUILD:-$top/build}
keys=$top/keys-example
gl=$top/gen-loader/gen-loader
bpfsign=$top/signer/bpfsign
vmlinux=$build/kbuild/vmlinux
obj=$build/guest-obj/skel_counter.bpf.o
harness=$top/tests/host/bpftool/harness.c
craft=$top/tests/host/gen-loader/attack_signed_c.py

. "$top/tests/host/lib.sh"
host_test_init gen-loader-attack "$@"

# gen OUT [ARGS...]: skeleton "sc" signed with the RSA test key
gen() {
	local out=$1
	shift
	"$gl" "$obj" -o "$out" --name sc --key "$keys/signing.key" --cert "$keys/signing.crt" \
		--btf "$vmlinux" "$@" || { echo "gen-loader $* failed"; return 1; }
}

# does H: H compiled into the harness; what sc__open_and_load() does, in H.out
does() {
	cp "$harness" harness.c &&
	gcc -w -O2 -D_GNU_SOURCE -DHEADER="\"$1\"" -I. -I"$build/linux/tools/lib" \
		-I"$build/linux/tools/include/uapi" harness.c -o "$1.bin" 2> cc.err ||
		{ echo "$1 does not compile:"; head -n 5 cc.err; return 1; }
	"./$1.bin" > "$1.out" || { echo "$1: the harness failed"; return 1; }
}

t_build() {
	make -s -C "$top/gen-loader" >/dev/null || { echo "make -C gen-loader failed"; return 1; }
	[ -f "$obj" ] && [ -f "$vmlinux" ] || { echo "no $obj or $vmlinux"; return 1; }
}

# Several headers: the exit status is the first non-verified header's, so an
# arrays-verified (8) header named first hides a modified one (3), a
# malformed one (4) and an unreadable one (1).  Whoever accepts 8 (the man
# page: "Not an error") for a --no-trailer or bpftool header accepts the
# modified header too.
t_attack_batch_exit_hides_modified() {
	local f
	gen nt.h --no-trailer && gen f1.h || return 1
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
		# run_verify(): a refusal must not be reported as arrays-verified
		[ "$rc" = "$alone" ] ||
			{ echo "verify nt.h $f: exit $rc (8: arrays-verified), $f alone exits $alone"; return 1; }
	done
}

# Split signing: the C of a default header rides in the metadata the signer
# signs.  Whoever prepares the payload (gen-loader --payload-out, handed to a
# signing service) puts any C there; the loader never reads it, so the
# kernel loads the signed BPF, and gen-loader verify re-emits the C "from
# signed bytes": verified, exit 0, while sc__open() runs system("id").
t_attack_signed_c_split_signing() {
	gen f1.h || return 1
	python3 "$craft" payload f1.h p.bin &&
	"$bpfsign" sign --key "$keys/signing.key" --cert "$keys/signing.crt" --out p.p7s p.bin &&
	python3 "$craft" header f1.h p.p7s evil.h || { echo "crafting evil.h failed"; return 1; }
	does evil.h || return 1
	grep -q '^system("id")$' evil.h.out &&
	grep -q '^load: [0-9]* insns, signature [1-9][0-9]* bytes, keyring 0$' evil.h.out ||
		{ echo "evil.h does not run system() and the signed load:"; cat evil.h.out; return 1; }
	run "$gl" verify --json --cert "$keys/signing.crt" --object "$obj" --btf "$vmlinux" evil.h
	# check_object(): the C is not what gen-loader writes for the object (holds)
	expect_rc 3 "evil.h --object" || return 1
	run "$gl" verify --json --cert "$keys/signing.crt" evil.h
	[ "$rc" != 0 ] || { echo "evil.h (runs system(\"id\") in sc__open()): verify exits 0, verdict $(json out verdict), checked: $(json out checked)"; return 1; }
}

# What held: byte-level edits of a default header (encodings, splices,
# directives, bytes after the last one checked), each compiled and audited:
# none is verified.
t_attack_held_bytes() {
	local n
	gen f1.h && gen nt.h --no-trailer || return 1
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
	# --object: options the auditor did not give are not taken from the header
	sed 's|/\* @bpfsign keyring-id 0 \*/|/* @bpfsign keyring-id -3 */|; s|^#define sc__DEFAULT_KEYRING_ID (0)$|#define sc__DEFAULT_KEYRING_ID (-3)|' nt.h > k.h
	run "$gl" verify --cert "$keys/signing.crt" --object "$obj" --btf "$vmlinux" k.h
	expect_rc 3 "format 2 keyring -3, --object without --keyring-id" || return 1
	# re-emission is deterministic: twice the same verdict on the good one
	run "$gl" verify --cert "$keys/signing.crt" --object "$obj" --btf "$vmlinux" nt.h
	expect_rc 0 "nt.h --object"
}

# What "verified" does not cover: the load is made by bpf_load_and_run() of
# <bpf/skel_internal.h>, which the header includes and no one audits, in a
# translation unit whose earlier headers may define macros.  A verified
# header, byte for byte the signed one, compiles into a load with another
# keyring (or an unsigned one, or a command) when skel_internal.h is edited
# in transit or a header included before it wraps bpf_load_and_run().
t_attack_context_not_audited() {
	local si=$build/linux/tools/lib/bpf/skel_internal.h
	gen f1.h || return 1
	run "$gl" verify --cert "$keys/signing.crt" f1.h
	expect_rc 0 "the good header" || return 1
	mkdir -p ovr/bpf
	sed "s/attr.keyring_id = opts->keyring_id;/attr.keyring_id = -3; system(\"id\");/" "$si" > ovr/bpf/skel_internal.h
	cmp -s "$si" ovr/bpf/skel_internal.h && { echo "skel_internal.h: no keyring line to edit"; return 1; }
	cp "$harness" harness.c
	gcc -w -O2 -D_GNU_SOURCE -DHEADER='"f1.h"' -Iovr -I. -I"$build/linux/tools/lib" \
		-I"$build/linux/tools/lib/bpf" -I"$build/linux/tools/include/uapi" harness.c -o si.bin 2> cc.err &&
	./si.bin > si.out || { echo "the harness with an edited skel_internal.h failed:"; head -n 5 cc.err; return 1; }
	cat > pre.h <<-'H'
	#include <errno.h>
	#include <bpf/skel_internal.h>
	#define bpf_load_and_run(o) ((o)->keyring_id = -3, bpf_load_and_run(o))
	H
	gcc -w -O2 -D_GNU_SOURCE -DHEADER='"f1.h"' -include ./pre.h -I. -I"$build/linux/tools/lib" \
		-I"$build/linux/tools/include/uapi" harness.c -o pre.bin 2> cc.err &&
	./pre.bin > pre.out || { echo "the harness with pre.h failed:"; head -n 5 cc.err; return 1; }
	does f1.h || return 1
	grep -q 'keyring 0$' f1.h.out || { echo "the good header:"; cat f1.h.out; return 1; }
	if grep -q 'keyring -3$' si.out || grep -q 'keyring -3$' pre.out; then
		echo "f1.h is verified (exit 0), and compiles into:"
		sed 's/^/  edited skel_internal.h: /' si.out
		sed 's/^/  a header before it:     /' pre.out
		return 1
	fi
}

# Downgrade: the signed payload of a default header (its metadata carries
# the signed C) relabelled as format 2, with gen-loader's --no-trailer
# prologue and unsigned C of its own.  The signature still verifies (same
# insns || data), the C is whatever the editor wrote, and the verdict is
# arrays-verified (exit 8) rather than modified, though the auditor holds
# the signed C the header should have.
t_attack_format_downgrade() {
	gen f1.h && gen nt.h --no-trailer || return 1
	python3 - f1.h nt.h down.h <<-'PY' || return 1
	import re, sys
	g = open(sys.argv[1], newline='').read()
	n = open(sys.argv[2], newline='').read()
	for r in ('data', 'signature'):
	    pat = r'/\* @bpfsign begin %s \d+ \*/\n.*?/\* @bpfsign end %s \*/\n' % (r, r)
	    m, mg = re.search(pat, n, re.S), re.search(pat, g, re.S)
	    n = n[:m.start()] + mg.group(0) + n[m.end():]
	# the issue's lone CR: gcc ends the // comment there
	old = '\n\terr = bpf_load_and_run(&opts);'
	assert n.count(old) == 1
	n = n.replace(old, '\n\t// note\r\topts.keyring_id = -3;' + old)
	open(sys.argv[3], 'w', newline='').write(n)
	PY
	does down.h || return 1
	grep -q 'signature [1-9][0-9]* bytes, keyring -3$' down.h.out ||
		{ echo "down.h does not load signed with keyring -3:"; cat down.h.out; return 1; }
	run "$gl" verify --json --cert "$keys/signing.crt" down.h
	# check_header(): a format 2 header whose signed data ends with the trailer
	[ "$rc" = 3 ] || { echo "down.h (format 1's signed payload as format 2, keyring -3): exit $rc, verdict $(json out verdict)"; return 1; }
}

# A hostile object: a BTF struct member name (not a type name, which
# check_names() checks) reaches the signed C through btf_dump's inline
# declaration of an anonymous struct in .bss.  The header is signed,
# verified with and without --object, and NAME__open() runs system("id").
t_attack_hostile_member_name() {
	local mem=$top/tests/host/gen-loader/attack_member.py
	python3 "$mem" src mem.c &&
	clang-22 -g -O2 -target bpf -D__TARGET_ARCH_x86 -I"$build/guest-obj" \
		-I"$build/tools/include" -c mem.c -o mem.bpf.o &&
	python3 "$mem" edit mem.bpf.o || { echo "cannot build the hostile object"; return 1; }
	run "$gl" mem.bpf.o -o mem.h --name sc --key "$keys/signing.key" \
		--cert "$keys/signing.crt" --btf "$vmlinux"
	# check_names(): every BTF name btf_dump writes, members too, is an identifier
	[ "$rc" != 0 ] && return 0
	does mem.h || return 1
	run "$gl" verify --cert "$keys/signing.crt" mem.h
	v1=$rc
	run "$gl" verify --cert "$keys/signing.crt" --object mem.bpf.o --btf "$vmlinux" mem.h
	echo "gen-loader wrote a signed header from the hostile object: verify exits $v1, --object exits $rc;"
	echo "its C has: $(grep -n '^#define skel_alloc' mem.h)"
	sed 's/^/  compiled: /' mem.h.out
	return 1
}

t build t_build
t "attack: several headers, an arrays-verified one hides a modified one" t_attack_batch_exit_hides_modified
t "attack: split signing, hostile C in the payload is verified" t_attack_signed_c_split_signing
t "attack: verified, and skel_internal.h or an earlier header changes the load" t_attack_context_not_audited
t "attack: a default header relabelled format 2 with its own C" t_attack_format_downgrade
t "attack: a hostile object, a BTF member name as C" t_attack_hostile_member_name
t "attack: byte-level edits of a default header (held)" t_attack_held_bytes

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
