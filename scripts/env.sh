# Shared paths and tool settings, sourced by the build and test scripts.
# shellcheck shell=sh
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BPFSIGN_BUILD:-$top/build}
src=$build/linux
# Two guest kernels from one tree: the debug one (qemu/debug.config on top
# of qemu/guest.config: KASAN, kmemleak, lockdep, UBSAN), which every test
# runs on, and the release one (qemu/guest.config), which make bench times.
flavour=${BPFSIGN_KERNEL:-debug}
case $flavour in
debug)	kout=$build/kbuild; kimage=$build/bzImage ;;
release) kout=$build/kbuild-release; kimage=$build/bzImage-release ;;
*)	echo "BPFSIGN_KERNEL=$flavour: expected debug or release" >&2; exit 2 ;;
esac
tout=$build/tools
# Keep ccache outside the repo and independent of where the repo is cloned.
export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/bpfsign-ccache}
export CCACHE_BASEDIR=$top
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-6G}
# Reproducible builds, and ccache hits on init/version.c.
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=bpfsign KBUILD_BUILD_HOST=bpfsign
export SOURCE_DATE_EPOCH=1767225600
# ccache when there is one: make test installs it, a package build
# (debian/rules) does not assume it.
kcc=gcc
! command -v ccache > /dev/null || kcc="ccache gcc"
jobs=$(nproc)
# the BPF clang: CLANG as the top-level Makefile exports it, else the one
# default, common/clang.mk's
clang=${CLANG:-$(sed -n 's/^BPF_CLANG[[:space:]]*?=[[:space:]]*//p' "$top/common/clang.mk")}
kmake() {
	# An empty LOCALVERSION keeps setlocalversion from appending "+" for the
	# git tree: the release is exactly 6.12.N-bpfsign.
	make -s -C "$src" O="$kout" CC="$kcc" HOSTCC="$kcc" \
		LOCALVERSION= -j"$jobs" "$@"
}
