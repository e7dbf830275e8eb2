#!/bin/sh
# make tools: static libbpf and bpftool from the *patched* tree's tools/, so
# that all user space shares the UAPI headers of the kernel under test.
set -eu
. "$(dirname "$0")/env.sh"

[ -d "$src/tools/lib/bpf" ] || { echo "build-tools: run make kernel first" >&2; exit 1; }
mkdir -p "$tout/libbpf" "$tout/bpftool"

echo "  BUILD   libbpf"
make -s -C "$src/tools/lib/bpf" OUTPUT="$tout/libbpf/" CC="$kcc" \
	BUILD_STATIC_ONLY=1 DESTDIR="$tout" prefix= -j"$jobs" \
	install_headers "$tout/libbpf/libbpf.a" >/dev/null
mkdir -p "$tout/lib"
# only when it changed: a fresh copy would relink every guest binary
cmp -s "$tout/libbpf/libbpf.a" "$tout/lib/libbpf.a" || cp "$tout/libbpf/libbpf.a" "$tout/lib/"

# bpftool OUT ARGS...: bpftool into $tout/OUT.  Its objects' .d files name
# the headers its libbpf copies install with relative paths that no rule
# makes: rebuilt in the same parallel make (a patched tree), a header being
# reinstalled is missing when make looks at an object ("No rule to make
# target .../libbpf_internal.h").  So both libbpfs and their headers first.
bpftool() {
	o=$tout/$1/
	shift
	set -- -s -C "$src/tools/bpf/bpftool" OUTPUT="$o" CC="$kcc" \
		CLANG="$clang" LLVM_STRIP=llvm-strip-22 -j"$jobs" "$@"
	make "$@" "${o}libbpf/libbpf.a" "${o}bootstrap/libbpf/libbpf.a" $(for h in hashmap nlattr relo_core libbpf_internal; do
			echo "${o}libbpf/include/bpf/$h.h"; done) \
		$(for h in hashmap relo_core libbpf_internal; do
			echo "${o}bootstrap/libbpf/include/bpf/$h.h"; done) >/dev/null
	make "$@" >/dev/null
}

echo "  BUILD   bpftool"
# Static, so the same binary runs on the host and in the busybox guest.
bpftool bpftool EXTRA_LDFLAGS=-static
ln -sf "$tout/bpftool/bpftool" "$tout/bpftool-bin"

# Dynamic, for the host: OpenSSL's pkcs11 engine (bpftool -S -k pkcs11:...)
# is loaded with dlopen(), which a static binary cannot do.
echo "  BUILD   bpftool (host, dynamic)"
mkdir -p "$tout/bpftool-host"
bpftool bpftool-host
