#!/usr/bin/env python3
# A hostile payload for tests/host/gen-loader/run.sh (t_split_signing_signed_c):
# the C of a default format header is "signed" only in that it rides in the
# metadata the signer signs.  Whoever prepares the payload for a signer (gen-loader
# --payload-out, then bpfsign sign elsewhere) can put any C there: the BPF
# the kernel loads is unchanged (the loader never reads the trailer), and
# gen-loader verify re-emits the hostile C "from signed bytes" (the
# structure check of that C then refuses the call of system()).
#
# Usage: signed_c.py payload HEADER PAYLOAD_OUT [cr]
#        signed_c.py header HEADER SIG.p7s OUT.h [cr]
#   HEADER: a real default-format header of skeleton "sc".
import re
import struct
import sys

MAGIC = b'BPFSTAIL'
# what the signed C does besides the signed load, in sc__open()
OLD = '\tskel->keyring_id = sc__DEFAULT_KEYRING_ID;\n'
NEW = OLD + '\tsystem("id");\n'
# "cr" as the last argument: the call hidden from a C lexer behind a //
# comment that a lone CR ends for gcc and clang
if sys.argv[-1] == 'cr':
    sys.argv.pop()
    NEW = OLD + '\t// note\r\tsystem("id");\n'


def region(text, name):
    m = re.search(r'/\* @bpfsign begin %s (\d+) \*/\n(.*?)/\* @bpfsign end %s \*/\n'
                  % (name, name), text, re.S)
    hexes = re.findall(r'\\x([0-9a-f]{2})', m.group(2))
    return m, bytes(int(h, 16) for h in hexes)


def block(name, data):
    out = '/* @bpfsign begin %s %d */\n' % (name, len(data))
    for i in range(0, len(data), 16):
        out += '\t"' + ''.join('\\x%02x' % b for b in data[i:i + 16]) + '"\n'
    return out + '/* @bpfsign end %s */\n' % name


def hostile(text):
    _, insns = region(text, 'insns')
    _, data = region(text, 'data')
    assert data.endswith(MAGIC)
    n = struct.unpack('<I', data[-12:-8])[0]
    blob, tail = data[:-12 - n], data[-12 - n:-12].decode()
    assert tail.count(OLD) == 1
    tail = tail.replace(OLD, NEW)
    t = tail.encode()
    return insns, blob + t + struct.pack('<I', len(t)) + MAGIC, tail


def main():
    text = open(sys.argv[2], newline='').read()
    insns, data, tail = hostile(text)
    if sys.argv[1] == 'payload':
        open(sys.argv[3], 'wb').write(insns + data)
        return
    sig = open(sys.argv[3], 'rb').read()
    m, _ = region(text, 'data')
    text = text[:m.start()] + block('data', data) + text[m.end():]
    m, _ = region(text, 'signature')
    text = text[:m.start()] + block('signature', sig) + text[m.end():]
    # the C after the arrays is the trailer's, as emit_header() writes it
    i = text.index('/* @bpfsign end signature */\n\t"";\n\n') + len('/* @bpfsign end signature */\n\t"";\n\n')
    open(sys.argv[4], 'w', newline='').write(text[:i] + tail)


main()
