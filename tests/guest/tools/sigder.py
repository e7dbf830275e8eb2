# SPDX-License-Identifier: GPL-2.0
"""
The DER both halves of the differential test write (sigcerts.py builds
messages from TLVs, sigvariants.py mutates parsed ones): lengths, TLVs,
object identifiers and the OIDs the kernel's PKCS#7 and X.509 parsers
look up, in one place.
"""

# dotted OIDs by the names the two modules use
OID = {
    "sha256": "2.16.840.1.101.3.4.2.1", "sha384": "2.16.840.1.101.3.4.2.2",
    "sha512": "2.16.840.1.101.3.4.2.3", "sha224": "2.16.840.1.101.3.4.2.4",
    "sha1": "1.3.14.3.2.26", "sha3-256": "2.16.840.1.101.3.4.2.8",
    "sm3": "1.2.156.10197.1.401", "unknown": "1.2.3.4.5",
    "rsa": "1.2.840.113549.1.1.1", "sha1rsa": "1.2.840.113549.1.1.5",
    "sha256rsa": "1.2.840.113549.1.1.11", "sha384rsa": "1.2.840.113549.1.1.12",
    "rsapss": "1.2.840.113549.1.1.10", "mgf1": "1.2.840.113549.1.1.8",
    "ecdsa256": "1.2.840.10045.4.3.2",
    "data": "1.2.840.113549.1.7.1", "signed": "1.2.840.113549.1.7.2",
    "enveloped": "1.2.840.113549.1.7.3", "indirect": "1.3.6.1.4.1.311.2.1.4",
    "contentType": "1.2.840.113549.1.9.3", "messageDigest": "1.2.840.113549.1.9.4",
    "signingTime": "1.2.840.113549.1.9.5", "smimecap": "1.2.840.113549.1.9.15",
    "opus": "1.3.6.1.4.1.311.2.1.12",
    "cn": "2.5.4.3", "o": "2.5.4.10",
    "skid": "2.5.29.14", "ku": "2.5.29.15", "bc": "2.5.29.19", "akid": "2.5.29.35",
}


def dlen(n):
    """a DER length: short form below 0x80, else the fewest bytes"""
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def tlv(tag, body):
    return bytes([tag]) + dlen(len(body)) + body


def oid_body(dotted):
    """the content octets of an OBJECT IDENTIFIER, minimal base-128 arcs"""
    arcs = [int(a) for a in dotted.split(".")]
    out = bytearray([arcs[0] * 40 + arcs[1]])
    for a in arcs[2:]:
        enc = [a & 0x7f]
        a >>= 7
        while a:
            enc.append(0x80 | (a & 0x7f))
            a >>= 7
        out += bytes(reversed(enc))
    return bytes(out)


def read_tlv(b, i=0):
    """(tag, header length, content start, end) of the TLV at b[i]"""
    tag, n = b[i], b[i + 1]
    j = i + 2
    if n & 0x80:
        k = n & 0x7f
        n = int.from_bytes(b[j:j + k], "big")
        j += k
    return tag, j - i, j, j + n
