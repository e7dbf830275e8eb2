#!/bin/sh
# Install what the kit needs from Debian's archive, and nothing when all is
# there.  Idempotent: `make deps` twice prints nothing the second time.
set -eu

pkgs="linux-source-6.12 build-essential bc bison flex libssl-dev libelf-dev
zlib1g-dev libzstd-dev libcap-dev libkeyutils-dev pahole clang-22 llvm-22 lld-22
qemu-system-x86 busybox-static cpio keyutils openssl ccache zstd xz-utils
python3 rsync git gawk softhsm2 libengine-pkcs11-openssl opensc gnutls-bin
valgrind strace clang-14 libclang-rt-14-dev man-db
debhelper lintian fakeroot dpkg-dev pkgconf sparse"

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "deps: installing$missing"
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
