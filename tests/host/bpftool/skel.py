#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The arrays of a bpftool light skeleton (opts_insn, opts_data, opts_sig,
opts_excl_hash), read and rewritten the way bpftool's print_hex() writes
them, for tests that need the raw bytes or a header with one of them
changed.

  skel.py get HEADER ARRAY OUT        the bytes of ARRAY
  skel.py flip HEADER ARRAY OUT.h     the last byte of ARRAY, lowest bit flipped
  skel.py put HEADER ARRAY FILE OUT.h ARRAY replaced by the bytes of FILE
"""
import re
import sys

LIT = r'(static const char %s\[\][^=\n]*= "\\\n)(.*?)(";)'


def find(text, name):
    m = re.search(LIT % re.escape(name), text, re.S)
    if not m:
        sys.exit("skel.py: no array %s" % name)
    return m


def decode(body):
    s = body.replace("\\\n", "")
    toks = re.findall(r"\\x([0-9a-f]{2})|(\\0)", s)
    if re.sub(r"\\x[0-9a-f]{2}|\\0", "", s):
        sys.exit("skel.py: a literal that is not print_hex() bytes")
    return bytes(int(h, 16) if h else 0 for h, _ in toks)


def encode(data):
    """As bpftool's print_hex(): lines of at most 78 columns."""
    out, width = [], 0
    for b in data:
        tok = "\\0" if b == 0 else "\\x%02x" % b
        if width + len(tok) > 78:
            out.append("\\\n")
            width = 0
        out.append(tok)
        width += len(tok)
    return "".join(out)


def main():
    op, header, name = sys.argv[1:4]
    text = open(header).read()
    m = find(text, name)
    data = decode(m.group(2))
    if op == "get":
        open(sys.argv[4], "wb").write(data)
        return
    if op == "flip":
        data = data[:-1] + bytes([data[-1] ^ 1])
        out = sys.argv[4]
    elif op == "put":
        data = open(sys.argv[4], "rb").read()
        out = sys.argv[5]
    else:
        sys.exit(__doc__)
    text = text[:m.start(2)] + encode(data) + text[m.end(2):]
    open(out, "w").write(text)


if __name__ == "__main__":
    main()
