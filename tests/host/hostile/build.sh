#!/bin/sh
# Objects a hostile producer hands the build, for both skeleton generators'
# host tests: sec.bpf.o, prog.bpf.o, map.bpf.o, btf.bpf.o (btf.c with its
# struct's BTF name edited in the string table) and member.bpf.o (member.c
# with a struct member's name edited into a #define of skel_alloc that
# calls system()) in OUTDIR.
#
# Usage: tests/host/hostile/build.sh OUTDIR
set -eu
top=$(cd "$(dirname "$0")/../../.." && pwd)
build=${BPFSIGN_BUILD:-$top/build}
src=$top/tests/host/hostile
out=$1
for n in sec prog map btf member; do
	"${CLANG:?the clang of BPF programs (tests/host/lib.sh exports it)}" -g -O2 -target bpf -D__TARGET_ARCH_x86 -I"$build/guest-obj" \
		-I"$build/tools/include" -c "$src/$n.c" -o "$out/$n.bpf.o"
done
python3 - "$out/btf.bpf.o" <<'PY'
import sys
p = sys.argv[1]
d = open(p, 'rb').read()
assert d.count(b'AAAAAAAAAAAA') >= 1
open(p, 'wb').write(d.replace(b'AAAAAAAAAAAA', b'A{};int q;//'))
PY
python3 - "$out/member.bpf.o" <<'PY'
import sys
p = sys.argv[1]
name = b'a[0];\n#define skel_alloc(sz) (system("id"), calloc(1, (sz)))\nint b'
d = open(p, 'rb').read()
assert d.count(b'Q' * len(name)) >= 1
open(p, 'wb').write(d.replace(b'Q' * len(name), name))
PY
