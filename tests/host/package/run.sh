#!/bin/sh
# Host tests of what the kit ships (issue 18): `make install` into a
# DESTDIR, the library's exported symbols, a program built from pkg-config
# alone, make conventions (V=1, -MMD, CC=clang), the initramfs-tools hook,
# and the Debian package: built with dpkg-buildpackage, checked by lintian,
# installed, run and removed with dpkg.  The package holds user-space tools
# only: installing it loads nothing into this machine's kernel.
#
# Everything is built in a copy of the tree under $tmp (the working tree's
# objects are left alone), against the kit's build tree (build/tools,
# build/kbuild/vmlinux: `make tools`).  TAP, one line per test, and as the
# last line "N passed, N failed".
#
# Usage: tests/host/package/run.sh [NAME-FILTER]
set -u

top=$(cd "$(dirname "$0")/../../.." && pwd)
build=${BPFSIGN_BUILD:-$top/build}
keys=$top/keys-example
here=$top/tests/host/package

. "$top/tests/host/lib.sh"
host_test_init package "$@"

version=$(sed -n 's/^#define BPFSIGN_VERSION "\(.*\)"/\1/p' "$top/signer/libbpfsign.h")
src=$tmp/src/bpfsign-$version	# the copy dpkg-buildpackage builds
root=$tmp/root			# make install DESTDIR=$root PREFIX=/usr
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
deb=$tmp/src/bpfsign_${version}_$arch.deb
debs="$deb $tmp/src/libbpfsign1_${version}_$arch.deb $tmp/src/libbpfsign-dev_${version}_$arch.deb"
pkgs="bpfsign libbpfsign-dev libbpfsign1"	# removal order

# --- helpers ----------------------------------------------------------------

copy_tree() {	# DIR: the tracked and new files of the working tree, no build/
	mkdir -p "$1" &&
	(cd "$top" && git ls-files -co --exclude-standard -z | grep -zv '^build/' |
		xargs -0 tar cf - --no-recursion) | tar xf - -C "$1"
}

dpkg_() {	# ARGS: dpkg, waiting up to a minute for another dpkg or apt to finish
	local i=0
	while :; do
		dpkg "$@" > dpkg.out 2> dpkg.err && return 0
		grep -qi 'lock' dpkg.err && [ $i -lt 30 ] || { cat dpkg.out dpkg.err; return 1; }
		i=$((i + 1))
		sleep 2
	done
}

only_bpfsign() {	# FILE WHAT: nm lines of FILE's defined globals, bpfsign_* only
	local bad
	bad=$(grep -v ' bpfsign_[a-z_]*$' "$1")
	[ -z "$bad" ] && [ -s "$1" ] && return 0
	echo "$2: exports more than bpfsign_* (or nothing):"
	printf '%s\n' "$bad" | head -n 10
	return 1
}

# --- the build: a copy of the tree, packaged --------------------------------

# A throwaway key, as a distribution's own would be given to the build.
throwaway_key() {
	openssl req -new -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=throwaway distro key" \
		-addext subjectKeyIdentifier=hash -keyout "$tmp/distro.key" -out "$tmp/distro.crt" \
		> /dev/null 2>&1
}

t_build() {
	[ -f "$build/tools/lib/libbpf.a" ] && [ -f "$build/kbuild/vmlinux" ] ||
		{ echo "no $build/tools or kbuild/vmlinux: make tools first"; return 1; }
	copy_tree "$src" || { echo "cannot copy the tree"; return 1; }
	throwaway_key || { echo "openssl cannot make a throwaway key"; return 1; }
	(cd "$src" && BPFSIGN_BUILD=$build POLICY_KEY=$tmp/distro.key POLICY_CERT=$tmp/distro.crt \
		dpkg-buildpackage -us -uc -b) > build.log 2>&1 ||
		{ echo "dpkg-buildpackage failed:"; tail -n 30 build.log; return 1; }
	for d in $debs; do
		[ -f "$d" ] || { echo "no $d after dpkg-buildpackage"; ls "$tmp/src"; return 1; }
	done
	# and the same build installed by hand: the tree the tests below read
	make -C "$src" install DESTDIR="$root" PREFIX=/usr BUILD="$build" \
		O="$src/debian/policies-obj" > install.log 2>&1 ||
		{ echo "make install DESTDIR PREFIX=/usr failed:"; tail -n 20 install.log; return 1; }
}

# --- make install / uninstall ------------------------------------------------

expected_files() {
	printf '%s\n' usr/bin/bpfsign usr/bin/gen-loader usr/sbin/bpfsign-policy \
		usr/share/man/man1/bpfsign.1 usr/share/man/man1/gen-loader.1 \
		usr/share/man/man8/bpfsign-policy.8 \
		usr/sbin/bpfsign-bpftool usr/share/man/man8/bpfsign-bpftool.8 \
		usr/include/bpfsign/bpf/skel_internal.h usr/include/bpfsign/bpf/bpf.h \
		usr/include/bpfsign/bpf/libbpf_common.h usr/include/bpfsign/bpf/libbpf_legacy.h \
		usr/include/bpfsign/bpf/libbpf_version.h usr/include/bpfsign/linux/bpf.h \
		usr/include/bpfsign/linux/bpf_common.h \
		usr/lib/libbpfsign.a "usr/lib/libbpfsign.so.$version" \
		"usr/lib/libbpfsign.so.${version%%.*}" usr/lib/libbpfsign.so \
		usr/include/libbpfsign.h usr/lib/pkgconfig/bpfsign.pc \
		usr/share/initramfs-tools/hooks/bpfsign usr/share/bpfsign/initramfs/bpf-keyring \
		usr/share/bash-completion/completions/bpfsign \
		usr/share/bash-completion/completions/gen-loader \
		usr/share/bash-completion/completions/bpfsign-policy
	for p in deny_unsigned keyring_allowlist audit_log; do
		echo "usr/lib/bpfsign/policies/$p.bpf.o"
		echo "usr/lib/bpfsign/policies/$p.lskel.h"
	done
	for e in "$top"/policies/examples/*.policy; do
		echo "usr/share/doc/bpfsign/examples/${e##*/}"
	done
}

t_install() {
	expected_files | sort > want
	(cd "$root" && find . ! -type d | sed 's|^\./||' | sort) > got
	diff -u want got > d || { echo "installed tree differs (- expected, + installed):"; cat d; return 1; }
	[ -L "$root/usr/lib/libbpfsign.so" ] && [ -x "$root/usr/bin/bpfsign" ] &&
	[ -x "$root/usr/share/initramfs-tools/hooks/bpfsign" ] ||
		{ echo "symlink or modes wrong"; ls -l "$root/usr/lib" "$root/usr/bin"; return 1; }
	"$root/usr/bin/bpfsign" --help > /dev/null &&
	"$root/usr/bin/gen-loader" --help > /dev/null &&
	"$root/usr/sbin/bpfsign-policy" --help > /dev/null ||
		{ echo "an installed tool does not run --help"; return 1; }
	# the hook knows where the boot script was installed
	grep -q '^boot_script=/usr/share/bpfsign/initramfs/bpf-keyring$' \
		"$root/usr/share/initramfs-tools/hooks/bpfsign" ||
		{ echo "the hook does not name the installed boot script"; return 1; }
}

t_nm() {
	local lib=$root/usr/lib
	nm -g --defined-only "$lib/libbpfsign.a" | grep ' [A-Za-z] ' > a.syms
	only_bpfsign a.syms "libbpfsign.a" || return 1
	# the shared library: its symbols, and the dynamic ones less the
	# version nodes of libbpfsign.map (absolute, as libbpf.so's LIBBPF_*)
	nm -g --defined-only "$lib/libbpfsign.so.$version" | grep -v ' A LIBBPFSIGN_[0-9.]*$' > so.syms
	only_bpfsign so.syms "libbpfsign.so (symtab)" || return 1
	nm -D --defined-only "$lib/libbpfsign.so.$version" | grep -v ' A LIBBPFSIGN_[0-9.]*$' |
		sed 's/@.*//' > dyn.syms
	only_bpfsign dyn.syms "libbpfsign.so (dynamic)" || return 1
	for f in bpfsign_sign bpfsign_verify bpfsign_verifier_load bpfsign_verifier_verify; do
		grep -q " $f\$" a.syms && grep -q " $f\$" dyn.syms ||
			{ echo "$f is not exported"; return 1; }
	done
	# the helpers are in it, local: hidden, not missing
	nm "$lib/libbpfsign.a" | grep -q ' t read_file$' ||
		{ echo "read_file is not a local symbol of libbpfsign.a"; return 1; }
	readelf -d "$lib/libbpfsign.so.$version" | grep -q "SONAME.*libbpfsign.so.${version%%.*}" ||
		{ echo "no SONAME libbpfsign.so.${version%%.*}"; return 1; }
}

t_pkg_config() {
	local pc cflags libs
	export PKG_CONFIG_PATH=$root/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root
	pc="pkg-config"
	cflags=$($pc --cflags bpfsign) && libs=$($pc --libs bpfsign) ||
		{ echo "pkg-config does not know bpfsign"; return 1; }
	# the sysroot's include directory, and the library of the sysroot
	expect_eq "$(echo $cflags)" "-I$root/usr/include -I$root/usr/include/bpfsign" \
		"pkg-config --cflags" || return 1
	expect_eq "$(echo $libs)" "-L$root/usr/lib -lbpfsign" "pkg-config --libs" || return 1
	expect_eq "$($pc --modversion bpfsign)" "$version" "pkg-config --modversion" || return 1
	# shared: the program's own read_file()/kit_err() beside the library's
	cc -Wall -Wextra -Werror -o use "$here/use_bpfsign.c" $($pc --cflags --libs bpfsign) ||
		{ echo "cannot build against pkg-config --cflags --libs bpfsign"; return 1; }
	# static: the archive first, its helpers must not collide with ours
	cc -Wall -Wextra -Werror $cflags -o use-static "$here/use_bpfsign.c" \
		"$root/usr/lib/libbpfsign.a" $($pc --static --libs-only-l bpfsign | sed 's/-lbpfsign//') ||
		{ echo "cannot link libbpfsign.a with a read_file() of the program's own"; return 1; }
	head -c 999 /dev/urandom > p
	"$root/usr/bin/bpfsign" sign --key "$keys/signing.key" --cert "$keys/signing.crt" \
		--out good.p7s p || { echo "installed bpfsign cannot sign"; return 1; }
	"$root/usr/bin/bpfsign" sign --key "$keys/untrusted.key" --cert "$keys/untrusted.crt" \
		--out other.p7s p || return 1
	for prog in ./use ./use-static; do
		LD_LIBRARY_PATH=$root/usr/lib run $prog "$keys/signing.crt" p good.p7s good.p7s
		expect_rc 0 "$prog: two signatures against one certificate" || return 1
		expect_eq "$(cat out)" "OK 0
OK 0" "$prog output" || return 1
		# another key's signature: ENOKEY, as the kernel's keyring lookup
		LD_LIBRARY_PATH=$root/usr/lib run $prog "$keys/signing.crt" p good.p7s other.p7s
		expect_rc 1 "$prog: a signature by another key" || return 1
		expect_eq "$(sed -n 2p out)" "ENOKEY $(python3 -c 'import errno; print(errno.ENOKEY)')" \
			"$prog verdict of another key" || return 1
	done
	# the shared one resolves libbpfsign.so.1 from the DESTDIR tree
	LD_LIBRARY_PATH=$root/usr/lib ldd ./use | grep -q "$root/usr/lib/libbpfsign.so.${version%%.*}" ||
		{ echo "./use is not linked to the installed libbpfsign.so"; ldd ./use; return 1; }
}

t_uninstall() {
	cp -a "$root" r2 || return 1
	run make -C "$src" uninstall DESTDIR="$PWD/r2" PREFIX=/usr BUILD="$build" \
		O="$src/debian/policies-obj"
	expect_rc 0 "make uninstall" || return 1
	left=$(find r2 ! -type d)
	[ -z "$left" ] || { echo "make uninstall left:"; echo "$left"; return 1; }
}

# --- the verifier: certificates read once ------------------------------------

opens_of() {	# FILE STRACE-LOG: how many times FILE was opened
	grep -c "openat(.*\"$1\"" "$2"
}

t_cert_once() {
	local gl=$src/gen-loader/gen-loader obj=$src/debian/policies-obj h
	h=$obj/deny_unsigned.lskel.h
	# the package build signed the policies with the throwaway key
	cp "$tmp/distro.crt" c.crt
	# three headers, one reading of the certificate (before: one per header)
	strace -f -e trace=openat -o v.trace "$gl" verify --cert c.crt "$h" "$h" "$h" > /dev/null ||
		{ echo "gen-loader verify of the policy header failed"; return 1; }
	expect_eq "$(opens_of c.crt v.trace)" 1 "openings of the certificate by verify of 3 headers" ||
		return 1
	# gen signs and checks its signature with the signer's certificate:
	# one reading (before: bpfsign_signer_load() and bpfsign_verify())
	strace -f -e trace=openat -o g.trace "$gl" "$obj/deny_unsigned.bpf.o" -o g.h \
		--key "$tmp/distro.key" --cert c.crt --btf "$build/kbuild/vmlinux" > /dev/null ||
		{ echo "gen-loader gen failed"; return 1; }
	expect_eq "$(opens_of c.crt g.trace)" 1 "openings of the certificate by gen" || return 1
	# attach: the certificate once for its two checks
	"$gl" "$obj/deny_unsigned.bpf.o" -o u.h --payload-out p.bin --btf "$build/kbuild/vmlinux" &&
	"$src/signer/bpfsign" sign --key "$tmp/distro.key" --cert c.crt --out p.p7s p.bin ||
		{ echo "cannot make an unsigned header and its signature"; return 1; }
	strace -f -e trace=openat -o a.trace "$gl" attach --signature p.p7s --cert c.crt u.h ||
		{ echo "gen-loader attach failed"; return 1; }
	expect_eq "$(opens_of c.crt a.trace)" 1 "openings of the certificate by attach"
}

# --- make conventions --------------------------------------------------------

t_make_v1() {
	copy_tree c || return 1
	run make -C c/signer V=1 err.o
	expect_rc 0 "make V=1 err.o" || return 1
	grep -q -- '-c -o err.o err.c' out ||
		{ echo "V=1 does not show the compiler command:"; cat out; return 1; }
	rm c/signer/err.o
	run make -C c/signer err.o
	grep -q '  CC *err.o' out && ! grep -q -- '-c -o err.o' out ||
		{ echo "without V=1: expected one short line per object:"; cat out; return 1; }
	# -MMD: a header the object includes makes it out of date
	[ -f c/signer/err.d ] || { echo "no err.d: no -MMD"; return 1; }
	# a second past err.o: the file-time clock ticks coarsely, and a header
	# touched in err.o's own tick is not newer
	touch -r c/signer/err.o -d '+1 second' c/common/err.h
	make -q -C c/signer err.o
	expect_eq $? 1 "make -q err.o after touching common/err.h (1: out of date)"
}

t_cc_clang() {
	local clang
	clang=$(command -v clang || command -v "$CLANG") || { echo "no clang"; return 1; }
	copy_tree c || return 1
	run make -C c/signer CC="$clang"
	expect_rc 0 "signer with CC=$clang" || return 1
	run make -C c/gen-loader CC="$clang" BUILD="$build"
	expect_rc 0 "gen-loader with CC=$clang" || return 1
	run make -C c/policies CC="$clang" BUILD="$build" O="$PWD/obj"
	expect_rc 0 "policies with CC=$clang" || return 1
	strings c/signer/main.o | grep -q 'clang version' ||
		{ echo "signer/main.o was not compiled by $clang"; return 1; }
	c/signer/bpfsign --version | grep -q "^bpfsign $version" &&
	c/gen-loader/gen-loader --version > /dev/null && obj/bpfsign-policy --version > /dev/null ||
		{ echo "the clang-built tools do not run"; return 1; }
	# and the clang-built gen-loader's headers verify
	run c/gen-loader/gen-loader verify --cert "$keys/signing.crt" obj/deny_unsigned.lskel.h
	expect_rc 0 "gen-loader verify of the clang build's policy header"
}

# --- the initramfs-tools hook ------------------------------------------------

t_initramfs_hook() {
	local hook=$root/usr/share/initramfs-tools/hooks/bpfsign
	# copy_exec as initramfs-tools' hook-functions, recording what it copies
	printf 'copy_exec() { echo "copy_exec $*" >> %s/copied; }\n' "$PWD" > hook-functions
	mkdir -p certs d1 d2
	run env BPFSIGN_HOOK_FUNCTIONS=$PWD/hook-functions BPFSIGN_CERT_DIR=$PWD/certs \
		DESTDIR=$PWD/d1 "$hook"
	expect_rc 0 "hook without certificates" || return 1
	[ -z "$(find d1 -mindepth 1)" ] && [ ! -f copied ] ||
		{ echo "the hook added something without certificates"; find d1; return 1; }
	openssl x509 -in "$keys/signing.crt" -outform DER -out certs/signing.der || return 1
	# the boot script is the installed one
	sed -i "s|^boot_script=.*|boot_script=$root/usr/share/bpfsign/initramfs/bpf-keyring|" "$hook"
	run env BPFSIGN_HOOK_FUNCTIONS=$PWD/hook-functions BPFSIGN_CERT_DIR=$PWD/certs \
		DESTDIR=$PWD/d2 "$hook"
	expect_rc 0 "hook with a certificate" || return 1
	cmp -s d2/etc/bpfsign/certs/signing.der certs/signing.der &&
	cmp -s d2/scripts/init-top/bpf-keyring "$top/policies/initramfs/bpf-keyring-hook" &&
	[ -x d2/scripts/init-top/bpf-keyring ] && grep -q "keyctl /bin" copied ||
		{ echo "the image lacks the certificate, the boot script or keyctl"; find d2; return 1; }
	# PEM, whatever its name, becomes DER; DER named .crt is taken as it is
	rm -rf certs d3 && mkdir -p certs d3
	cp "$keys/signing.crt" certs/pem-as.der
	openssl x509 -in "$keys/team.crt" -outform DER -out certs/team.crt || return 1
	cp "$keys/untrusted.crt" certs/untrusted.pem
	run env BPFSIGN_HOOK_FUNCTIONS=$PWD/hook-functions BPFSIGN_CERT_DIR=$PWD/certs \
		DESTDIR=$PWD/d3 "$hook"
	expect_rc 0 "hook with PEM and DER under any name" || return 1
	for n in pem-as team untrusted; do
		openssl x509 -inform DER -in "d3/etc/bpfsign/certs/$n.der" -noout 2> /dev/null ||
			{ echo "the image's $n.der is no DER certificate"; return 1; }
	done
	# neither: refused, naming the file
	rm -rf d4 && mkdir -p d4
	echo "not a certificate" > certs/junk.pem
	run env BPFSIGN_HOOK_FUNCTIONS=$PWD/hook-functions BPFSIGN_CERT_DIR=$PWD/certs \
		DESTDIR=$PWD/d4 "$hook"
	expect_rc 1 "hook with a file that is no certificate" || return 1
	expect_err "junk.pem: neither a DER nor a PEM X.509 certificate" || return 1
	run "$hook" prereqs
	expect_rc 0 "hook prereqs" && expect_eq "$(cat out)" "" "prereqs"
}

# --- the Debian package ------------------------------------------------------

# The key check comes first in the build: nothing is built or signed.
t_deb_no_key() {
	(cd "$src" && env -u POLICY_KEY -u POLICY_CERT DEB_BUILD_OPTIONS= \
		make -f debian/rules override_dh_auto_build) > out 2> err
	rc=$?
	expect_rc 2 "a package build without POLICY_KEY" || return 1
	expect_err "POLICY_KEY" || return 1
	expect_err "DEB_BUILD_OPTIONS=bpfsign-test-key" || return 1
	# a key without its certificate is refused too
	(cd "$src" && env -u POLICY_CERT POLICY_KEY=$tmp/distro.key \
		make -f debian/rules override_dh_auto_build) > out 2> err
	rc=$?
	expect_rc 2 "POLICY_KEY without POLICY_CERT" && expect_err "POLICY_CERT"
}

# The policies the package ships are signed with the key the build was
# given, not the kit's test key.
t_deb_signed_by() {
	dpkg-deb -x "$deb" sb || return 1
	"$root/usr/bin/gen-loader" verify --cert "$tmp/distro.crt" \
		sb/usr/lib/bpfsign/policies/deny_unsigned.lskel.h > out 2> err ||
		{ echo "the shipped policy does not verify with the build's key:"; cat out err; return 1; }
	"$root/usr/bin/gen-loader" verify --cert "$keys/signing.crt" \
		sb/usr/lib/bpfsign/policies/deny_unsigned.lskel.h > out 2> err &&
		{ echo "the shipped policy verifies with the kit's TEST-ONLY key"; return 1; }
	return 0
}

# A user of the packages only: the three debs unpacked into a scratch
# root; the installed gen-loader and bpfsign-bpftool make signed headers of
# an installed BPF object, and a loader compiles and links against the
# installed headers, never the build tree's or the host's libbpf ones.
t_deb_user_build() {
	local r=$PWD/sr h f
	for d in $debs; do dpkg-deb -x "$d" "$r" || return 1; done
	r_pc() { PKG_CONFIG_PATH=$r/usr/lib/$multiarch/pkgconfig \
		pkg-config --define-variable=prefix="$r/usr" "$@" bpfsign; }
	"$r/usr/bin/gen-loader" "$r/usr/lib/bpfsign/policies/deny_unsigned.bpf.o" -o gl.lskel.h \
		--name first --key "$tmp/distro.key" --cert "$tmp/distro.crt" \
		--btf "$build/kbuild/vmlinux" > out 2> err ||
		{ echo "the installed gen-loader cannot make a header:"; cat err; return 1; }
	"$r/usr/sbin/bpfsign-bpftool" gen skeleton -L -S -k "$tmp/distro.key" -i "$tmp/distro.crt" \
		"$r/usr/lib/bpfsign/policies/deny_unsigned.bpf.o" name first > bt.lskel.h 2> err ||
		{ echo "the installed bpfsign-bpftool cannot make a header:"; cat err; return 1; }
	for h in gl bt; do
		cc -Wall -Werror -H $(r_pc --cflags) -DLSKEL_H="\"$h.lskel.h\"" -I. \
			-o "$h" "$top/tests/host/package/first.c" $(r_pc --libs) \
			> "$h.cc" 2>&1 || { echo "$h.lskel.h does not build:"; cat "$h.cc"; return 1; }
		# every bpf/ and linux/bpf*.h header is the installed one
		f=$(grep -E '^\.+ .*(/bpf/|/linux/bpf)' "$h.cc" | grep -v " $r/usr/include/bpfsign/")
		[ -z "$f" ] || { echo "first.c with $h.lskel.h used headers from outside the packages:"; echo "$f"; return 1; }
		grep -q " $r/usr/include/bpfsign/bpf/skel_internal.h" "$h.cc" ||
			{ echo "first.c with $h.lskel.h did not include the packaged skel_internal.h"; return 1; }
	done
}

deb_has() {	# DEB FILE...: the package holds each FILE
	local d=$1
	shift
	dpkg-deb -c "$d" | awk '{ print $6 }' | sed 's|^\./||' > contents
	for f in "$@"; do
		grep -qx "$f" contents || { echo "${d##*/} lacks $f"; return 1; }
	done
}

t_deb_contents() {
	local dev=${debs##* } lib
	lib=${debs#* }
	lib=${lib%% *}
	deb_has "$deb" usr/bin/bpfsign usr/bin/gen-loader usr/sbin/bpfsign-policy \
		usr/sbin/bpfsign-bpftool usr/share/man/man8/bpfsign-bpftool.8.gz \
		usr/share/man/man1/bpfsign.1.gz usr/share/man/man1/gen-loader.1.gz \
		usr/share/man/man8/bpfsign-policy.8.gz usr/share/initramfs-tools/hooks/bpfsign \
		usr/share/bpfsign/initramfs/bpf-keyring usr/lib/bpfsign/policies/deny_unsigned.lskel.h \
		usr/lib/bpfsign/policies/audit_log.bpf.o usr/share/doc/bpfsign/copyright \
		usr/share/bash-completion/completions/bpfsign \
		usr/share/bash-completion/completions/gen-loader \
		usr/share/bash-completion/completions/bpfsign-policy || return 1
	deb_has "$lib" "usr/lib/$multiarch/libbpfsign.so.$version" \
		"usr/lib/$multiarch/libbpfsign.so.${version%%.*}" || return 1
	deb_has "$dev" "usr/lib/$multiarch/libbpfsign.a" "usr/lib/$multiarch/libbpfsign.so" \
		"usr/lib/$multiarch/pkgconfig/bpfsign.pc" usr/include/libbpfsign.h \
		usr/include/bpfsign/bpf/skel_internal.h usr/include/bpfsign/linux/bpf.h || return 1
	dpkg-deb --fsys-tarfile "$dev" | tar xOf - "./usr/lib/$multiarch/pkgconfig/bpfsign.pc" > pc
	grep -qx "libdir=\${prefix}/lib/$multiarch" pc && grep -qx 'prefix=/usr' pc ||
		{ echo "bpfsign.pc: libdir is not the multiarch one under \${prefix}:"; cat pc; return 1; }
	dpkg-deb -f "$deb" Built-Using | grep -q '^linux-6\.12 (= ' ||
		{ echo "no Built-Using: linux-6.12 for the embedded libbpf:" \
			"$(dpkg-deb -f "$deb" Built-Using)"; return 1; }
	dpkg-deb -f "$dev" Depends | grep -q "libbpfsign1 (= $version)" ||
		{ echo "libbpfsign-dev does not depend on its libbpfsign1"; return 1; }
	# the packaged (stripped) library exports bpfsign_* only, too
	for d in $debs; do dpkg-deb -x "$d" x || return 1; done
	nm -g --defined-only "x/usr/lib/$multiarch/libbpfsign.a" | grep ' [A-Za-z] ' > a.syms
	only_bpfsign a.syms "the packaged libbpfsign.a" || return 1
	nm -D --defined-only "x/usr/lib/$multiarch/libbpfsign.so.$version" |
		grep -v ' A LIBBPFSIGN_[0-9.]*$' | sed 's/@.*//' > dyn.syms
	only_bpfsign dyn.syms "the packaged libbpfsign.so" || return 1
	dpkg-deb -f "$lib" Depends | grep -q libssl3 ||
		{ echo "Depends lacks libssl3 (shlibs): $(dpkg-deb -f "$lib" Depends)"; return 1; }
}

# Every warning is fixed or overridden with its reason beside it.
t_lintian() {
	lintian --tag-display-limit 0 $debs > l.out 2>&1
	cat l.out
	grep -q '^[EW]: ' l.out && { echo "lintian reports errors or warnings"; return 1; }
	return 0
}

t_deb_install() {
	[ "$(id -u)" = 0 ] || { echo "dpkg -i needs root"; return 1; }
	dpkg -s bpfsign > /dev/null 2>&1 && { echo "a bpfsign package is installed already"; return 1; }
	dpkg_ -i $debs || { echo "dpkg -i failed"; dpkg_ -P $pkgs; return 1; }
	run bpfsign --help
	expect_rc 0 "bpfsign --help from the package" &&
	grep -q 'bpfsign sign' out && [ "$(command -v bpfsign)" = /usr/bin/bpfsign ] ||
		{ dpkg_ -P $pkgs; return 1; }
	run /usr/bin/gen-loader --version
	expect_rc 0 "gen-loader --version" || { dpkg_ -P $pkgs; return 1; }
	PKG_CONFIG_PATH= pkg-config --modversion bpfsign | grep -qx "$version" ||
		{ echo "pkg-config does not find the packaged bpfsign.pc"; dpkg_ -P $pkgs; return 1; }
	for p in $pkgs; do dpkg -L "$p"; done > files
	dpkg_ -r $pkgs || { echo "dpkg -r failed"; dpkg_ -P $pkgs; return 1; }
	left=$(while read -r f; do [ -f "$f" ] && echo "$f"; done < files)
	[ -z "$left" ] || { echo "dpkg -r left:"; echo "$left"; dpkg_ -P $pkgs; return 1; }
	dpkg_ -P $pkgs || { echo "dpkg -P failed"; return 1; }
	for p in $pkgs; do
		dpkg -s "$p" > /dev/null 2>&1 && { echo "$p still known to dpkg after purge"; return 1; }
	done
	return 0
}

t "build" t_build
t "make install DESTDIR PREFIX=/usr: the tree a package ships" t_install
t "nm -g --defined-only: bpfsign_* only (static, shared, dynamic)" t_nm
t "pkg-config --cflags --libs bpfsign: compiles, links, verifies" t_pkg_config
t "make uninstall removes every file" t_uninstall
t "gen-loader reads a certificate once (verify of 3 headers, gen, attach)" t_cert_once
t "V=1 shows commands, -MMD dependencies" t_make_v1
t "CC=clang builds the tools" t_cc_clang
t "initramfs-tools hook: nothing without certificates, all with" t_initramfs_hook
t "deb: a build given no key is refused, naming POLICY_KEY" t_deb_no_key
t "deb: contents of bpfsign, libbpfsign1, libbpfsign-dev; pkg-config, Built-Using, shlibs" t_deb_contents
t "deb: the shipped policies are signed by the build's key, not the test key" t_deb_signed_by
t "deb: a signed header of each generator builds against the packages alone" t_deb_user_build
t "deb: lintian reports no errors and no warnings" t_lintian
t "deb: dpkg -i, bpfsign --help, dpkg -r, dpkg -P" t_deb_install

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
