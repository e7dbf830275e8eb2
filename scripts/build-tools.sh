#!/bin/sh
# make tools: static libbpf and bpftool from the *patched* tree's tools/, so
# that all user space shares the UAPI headers of the kernel under test.
set -eu
. "$(dirname "$0")/env.sh"

[ -d "$src/tools/lib/bpf" ] || { echo "build-tools: run make kernel first" >&2; exit 1; }
mkdir -p "$tout/libbpf" "$tout/bpftool"

echo "  BUILD   libbpf"
make -s -C "$src/tools/lib/bpf" OUTPUT="$tout/libbpf/" CC="ccache gcc" \
	BUILD_STATIC_ONLY=1 DESTDIR="$tout" prefix= -j"$jobs" \
	install_headers "$tout/libbpf/libbpf.a" >/dev/null
mkdir -p "$tout/lib"
# only when it changed: a fresh copy would relink every guest binary
cmp -s "$tout/libbpf/libbpf.a" "$tout/lib/libbpf.a" || cp "$tout/libbpf/libbpf.a" "$tout/lib/"

echo "  BUILD   bpftool"
# Static, so the same binary runs on the host and in the busybox guest.
make -s -C "$src/tools/bpf/bpftool" OUTPUT="$tout/bpftool/" CC="ccache gcc" \
	CLANG="$clang" LLVM_STRIP=llvm-strip-22 EXTRA_LDFLAGS=-static \
	-j"$jobs" >/dev/null
ln -sf "$tout/bpftool/bpftool" "$tout/bpftool-bin"

# Dynamic, for the host: OpenSSL's pkcs11 engine (bpftool -S -k pkcs11:...)
# is loaded with dlopen(), which a static binary cannot do.
echo "  BUILD   bpftool (host, dynamic)"
mkdir -p "$tout/bpftool-host"
make -s -C "$src/tools/bpf/bpftool" OUTPUT="$tout/bpftool-host/" CC="ccache gcc" \
	CLANG="$clang" LLVM_STRIP=llvm-strip-22 -j"$jobs" >/dev/null
