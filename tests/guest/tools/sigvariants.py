#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
The signature variants of the differential test (test_sigdiff.c): for the
fixture's payload (tools/mkpayload.c), signatures made with openssl cms
options, structural ASN.1 mutations of real signatures, wrong keys and
truncations, each with the verdict `bpfsign verify --ca kernel-trusted.pem`
gives offline.  The guest loads each one with the same payload and the
builtin keyring and compares the kernel's errno.

Deterministic verdicts: a fixed seed chooses every mutation, and the
mutations are of RSA signatures only (RSA PKCS#1 v1.5 is reproducible;
ECDSA variants come from openssl options, whose verdicts do not depend on
the random bytes).  sigcerts.py makes some keys afresh and re-encodes fresh
ECDSA values, chosen by shape, so their bytes differ from build to build
and their verdicts do not.

The classes of sigcerts.py add messages built around odd certificates,
keys, ECDSA encodings and counts, and two over a 16 MiB payload: those are
named vNNN.zN.p7s, their payload insns || N zero bytes (the guest loads
them with one metadata map of N bytes).

Usage: sigvariants.py --payload FILE --keys DIR --bpfsign BIN --out DIR
                      [--seed N] [--count N]
Writes DIR/vNNN.p7s and DIR/manifest: "vNNN.p7s ERRNO ERRNAME what" lines.
"""
import argparse
import errno
import json
import os
import random
import subprocess
import sys

import sigcerts
from sigder import OID, oid_body

ERRNOS = {"OK": 0}
for _n in ("EKEYREJECTED", "EBADMSG", "ENOKEY", "ENOPKG", "EINVAL", "EMSGSIZE", "E2BIG"):
    ERRNOS[_n] = getattr(errno, _n)


# --- a small DER/BER tree: parse, mutate, serialize ------------------------

class Node:
    def __init__(self, tag, content=None, children=None):
        self.tag = tag
        self.content = content      # bytes, for a primitive
        self.children = children    # list, for a constructed
        self.lenform = "min"        # min | long1 | long2 | indef

    def copy(self):
        n = Node(self.tag, self.content,
                 [c.copy() for c in self.children] if self.children is not None else None)
        n.lenform = self.lenform
        return n


def parse(b, i=0, end=None):
    end = len(b) if end is None else end
    nodes = []
    while i < end:
        tag = b[i]
        n = b[i + 1]
        i += 2
        if n & 0x80:
            k = n & 0x7f
            n = int.from_bytes(b[i:i + k], "big")
            i += k
        body = b[i:i + n]
        if tag & 0x20:
            nodes.append(Node(tag, children=parse(b, i, i + n)))
        else:
            nodes.append(Node(tag, content=bytes(body)))
        i += n
    return nodes


def ser(node):
    if node.children is not None:
        body = b"".join(ser(c) for c in node.children)
    else:
        body = node.content
    n = len(body)
    if node.lenform == "indef" and node.children is not None:
        return bytes([node.tag, 0x80]) + body + b"\0\0"
    if node.lenform == "long2" or n > 255:
        return bytes([node.tag, 0x82]) + n.to_bytes(2, "big") + body
    if node.lenform == "long1" or n > 127:
        return bytes([node.tag, 0x81, n]) + body
    return bytes([node.tag, n]) + body


def walk(node, path=()):
    yield path, node
    for i, c in enumerate(node.children or []):
        yield from walk(c, path + (i,))


def at(root, path):
    for i in path:
        root = root.children[i]
    return root


# paths into a SignedData: ContentInfo / [0] / SignedData / ...
SD = (1, 0)


def sd(root):
    return at(root, SD)


def signer_info(root):
    return sd(root).children[-1].children[0]


OIDS = {k: oid_body(v) for k, v in OID.items()}


def prim(tag, content):
    return Node(tag, content=content)


def cons(tag, *children):
    return Node(tag, children=list(children))


def attribute(name, value):
    return cons(0x30, prim(0x06, OIDS[name]), cons(0x31, value))


# --- the mutations: each returns new DER, or None when it does not apply ----

def m_version(root, rng, which, value):
    r = root.copy()
    node = sd(r).children[0] if which == "sd" else signer_info(r).children[0]
    node.content = bytes([value]) if value >= 0 else b"\x01\x03"
    return ser(r)


def m_alg(root, rng, where, name):
    r = root.copy()
    si = signer_info(r)
    if where == "outer":
        node = sd(r).children[1].children[0]
    elif where == "digest":
        node = si.children[2]
    else:   # the signature algorithm: after the signed attributes, if any
        node = next(c for c in si.children[3:] if c.tag == 0x30)
    node.children[0] = prim(0x06, OIDS[name])
    return ser(r)


def m_content_type(root, rng, where, name):
    r = root.copy()
    if where == "outer":
        r.children[0] = prim(0x06, OIDS[name])
    else:
        sd(r).children[2].children[0] = prim(0x06, OIDS[name])
    return ser(r)


def m_embed(root, rng):
    r = root.copy()
    eci = sd(r).children[2]
    eci.children.append(cons(0xa0, prim(0x04, b"embedded payload")))
    return ser(r)


def m_lenform(root, rng, form):
    r = root.copy()
    nodes = [n for _, n in walk(r) if form != "indef" or n.children is not None]
    rng.choice(nodes).lenform = form
    return ser(r)


def m_all_lenforms(root, rng, form):
    r = root.copy()
    for _, n in walk(r):
        if form != "indef" or n.children is not None:
            n.lenform = form
    return ser(r)


def m_set_seq(root, rng, which):
    r = root.copy()
    s = sd(r)
    node = s.children[1] if which == "digests" else s.children[-1]
    node.tag = 0x30 if node.tag == 0x31 else 0x31
    return ser(r)


def m_two_signers(root, rng, second):
    r = root.copy()
    sis = sd(r).children[-1]
    sis.children.append(second.copy())
    return ser(r)


def m_no_signers(root, rng):
    r = root.copy()
    sd(r).children[-1].children = []
    return ser(r)


def m_unsigned_attr(root, rng):
    r = root.copy()
    si = signer_info(r)
    si.children.append(cons(0xa1, attribute("signingTime", prim(0x17, b"250101000000Z"))))
    return ser(r)


def m_signed_attr(root, rng, kind):
    """Edit the signed attributes of a -nosmimecap signature (the signature
    over them no longer verifies, which is itself a kernel check)."""
    r = root.copy()
    si = signer_info(r)
    aa = si.children[3]
    if aa.tag != 0xa0:
        return None
    if kind == "repeat":
        aa.children.append(aa.children[0].copy())
    elif kind == "smimecap":
        aa.children.append(attribute("smimecap", cons(0x30)))
    elif kind == "opus":
        aa.children.append(attribute("opus", cons(0x30)))
    elif kind == "no-digest":
        aa.children = [a for a in aa.children if a.children[0].content != OIDS["messageDigest"]]
    elif kind == "no-type":
        aa.children = [a for a in aa.children if a.children[0].content != OIDS["contentType"]]
    elif kind == "bad-time":
        for a in aa.children:
            if a.children[0].content == OIDS["signingTime"]:
                a.children[1].children[0] = prim(0x17, b"991399999999Z")
    elif kind == "short-digest":
        for a in aa.children:
            if a.children[0].content == OIDS["messageDigest"]:
                a.children[1].children[0] = prim(0x04, b"\x00" * 20)
    elif kind == "type-mismatch":
        for a in aa.children:
            if a.children[0].content == OIDS["contentType"]:
                a.children[1].children[0] = prim(0x06, OIDS["enveloped"])
    return ser(r)


def m_sid(root, rng, kind):
    r = root.copy()
    si = signer_info(r)
    sid = si.children[1]
    if kind == "skid-flip" and sid.tag == 0x80:
        c = bytearray(sid.content)
        c[rng.randrange(len(c))] ^= 1 << rng.randrange(8)
        sid.content = bytes(c)
    elif kind == "skid-tail" and sid.tag == 0x80:
        sid.content = sid.content[-rng.randrange(4, len(sid.content)):]
    elif kind == "skid-empty" and sid.tag == 0x80:
        sid.content = b""
    elif kind == "serial" and sid.tag == 0x30:
        serial = sid.children[1]
        serial.content = bytes([serial.content[0] ^ 1]) + serial.content[1:]
    else:
        return None
    return ser(r)


def m_sigvalue(root, rng, kind):
    r = root.copy()
    si = signer_info(r)
    v = next(c for c in si.children if c.tag == 0x04)
    c = bytearray(v.content)
    if kind == "flip":
        c[rng.randrange(len(c))] ^= 1 << rng.randrange(8)
    elif kind == "short":
        c = c[:-1]
    elif kind == "long":
        c += b"\0"
    elif kind == "zero":
        c = bytearray(len(c))
    v.content = bytes(c)
    return ser(r)


def m_flip(der, rng):
    b = bytearray(der)
    b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
    return bytes(b)


# --- the variants ---------------------------------------------------------

class Gen:
    def __init__(self, a):
        self.a = a
        self.n = 0
        self.lines = []
        self.rng = random.Random(a.seed)
        self.tmp = os.path.join(a.out, "tmp")
        os.makedirs(self.tmp, exist_ok=True)

    def openssl(self, signer, md, attrs, certs, keyid, payload=None):
        out = os.path.join(self.tmp, "o.p7s")
        cmd = ["openssl", "cms", "-sign", "-binary", "-outform", "DER", "-md", md,
               "-signer", os.path.join(self.a.keys, signer + ".crt"),
               "-inkey", os.path.join(self.a.keys, signer + ".key"),
               "-in", payload or self.a.payload, "-out", out]
        cmd += {"none": ["-noattr"], "nocap": ["-nosmimecap"], "default": []}[attrs]
        cmd += [] if certs else ["-nocerts"]
        cmd += ["-keyid"] if keyid else []
        r = subprocess.run(cmd, capture_output=True)
        if r.returncode:
            return None
        return open(out, "rb").read()

    def add(self, der, what, zeros=None):
        if der is None:
            return
        name = "v%03d.p7s" % self.n if zeros is None else "v%03d.z%d.p7s" % (self.n, zeros)
        self.n += 1
        with open(os.path.join(self.a.out, name), "wb") as f:
            f.write(der)
        self.lines.append([name, what, zeros])

    def run(self):
        a, rng = self.a, self.rng
        other = os.path.join(self.tmp, "other.bin")
        with open(a.payload, "rb") as f:
            pay = f.read()
        with open(other, "wb") as f:
            f.write(pay[:-1] + bytes([pay[-1] ^ 1]))

        # 1. openssl cms options: digest x attributes x certs x signer id x key
        for signer in ("signing", "signing-ec", "team", "untrusted", "ca"):
            for md in ("sha256", "sha384", "sha512", "sha224", "sha1", "sha3-256"):
                for attrs in ("none", "nocap", "default"):
                    for certs in (False, True):
                        for keyid in (True, False):
                            # every combination of the kit's key, a sample of the others
                            if signer != "signing" and rng.random() < 0.6:
                                continue
                            self.add(self.openssl(signer, md, attrs, certs, keyid),
                                     "openssl %s -md %s attrs=%s certs=%d keyid=%d" %
                                     (signer, md, attrs, certs, keyid))
        # the right key over other bytes: a tampered payload
        for attrs in ("none", "nocap"):
            for keyid in (True, False):
                self.add(self.openssl("signing", "sha256", attrs, False, keyid, other),
                         "openssl signing over other bytes attrs=%s keyid=%d" % (attrs, keyid))

        # real signatures to mutate (RSA: reproducible)
        bases = {
            "noattr-keyid": self.openssl("signing", "sha256", "none", False, True),
            "noattr-serial": self.openssl("signing", "sha256", "none", False, False),
            "attrs-keyid": self.openssl("signing", "sha256", "nocap", False, True),
            "attrs-certs": self.openssl("signing", "sha256", "nocap", True, False),
            "team-chain": self.openssl("team", "sha256", "none", True, False),
        }
        roots = {k: parse(v)[0] for k, v in bases.items()}
        second = signer_info(parse(self.openssl("signing-ec", "sha256", "none", False, True))[0])
        second_bad = signer_info(parse(self.openssl("untrusted", "sha256", "none", False, True))[0])
        second_attrs = signer_info(roots["attrs-keyid"])

        # 2. structural mutations
        for bname, root in roots.items():
            for which in ("sd", "si"):
                for v in (0, 1, 2, 3, 4, 5, 255, -1):
                    self.add(m_version(root, rng, which, v), "%s %s version %d" % (bname, which, v))
            for where in ("outer", "digest"):
                for name in ("sha256", "sha384", "sha1", "sm3", "sha3-256", "unknown", "rsa"):
                    self.add(m_alg(root, rng, where, name), "%s %s alg %s" % (bname, where, name))
            for name in ("rsa", "sha256rsa", "rsapss", "ecdsa256", "unknown", "sha256"):
                self.add(m_alg(root, rng, "sig", name), "%s sig alg %s" % (bname, name))
            for where in ("outer", "inner"):
                for name in ("data", "signed", "enveloped", "indirect", "unknown"):
                    self.add(m_content_type(root, rng, where, name),
                             "%s %s content type %s" % (bname, where, name))
            self.add(m_embed(root, rng), "%s content embedded" % bname)
            # embedded certificates are parsed by the kernel's X.509 parser,
            # which the offline rules do not model beyond OpenSSL's: their
            # bytes are not mutated (truncations stop the decoder before them)
            certs = bname in ("attrs-certs", "team-chain")
            for form in () if certs else ("long1", "long2", "indef"):
                for i in range(3):
                    self.add(m_lenform(root, rng, form), "%s one length %s #%d" % (bname, form, i))
                self.add(m_all_lenforms(root, rng, form), "%s every length %s" % (bname, form))
            for which in ("digests", "signers"):
                self.add(m_set_seq(root, rng, which), "%s %s SET<->SEQUENCE" % (bname, which))
            self.add(m_two_signers(root, rng, second), "%s + an ECDSA SignerInfo" % bname)
            self.add(m_two_signers(root, rng, second_bad), "%s + an untrusted SignerInfo" % bname)
            self.add(m_two_signers(root, rng, second_attrs), "%s + a SignerInfo with attributes" % bname)
            self.add(m_no_signers(root, rng), "%s no SignerInfo" % bname)
            self.add(m_unsigned_attr(root, rng), "%s + an unsigned attribute" % bname)
            for kind in ("repeat", "smimecap", "opus", "no-digest", "no-type", "bad-time",
                         "short-digest", "type-mismatch"):
                self.add(m_signed_attr(root, rng, kind), "%s signed attrs %s" % (bname, kind))
            for kind in ("skid-flip", "skid-tail", "skid-empty", "serial"):
                self.add(m_sid(root, rng, kind), "%s signer id %s" % (bname, kind))
            for kind in ("flip", "flip", "short", "long", "zero"):
                self.add(m_sigvalue(root, rng, kind), "%s signature value %s" % (bname, kind))
            # 3. truncations, trailing bytes, random bit flips
            der = bases[bname]
            for cut in sorted(rng.sample(range(1, len(der)), 12)):
                self.add(der[:cut], "%s truncated to %d" % (bname, cut))
            self.add(der + b"\0\0", "%s + 2 zero bytes" % bname)
            self.add(der + bytes(rng.randrange(256) for _ in range(40)), "%s + 40 random bytes" % bname)
            self.add(der + bytes(8193 - len(der)), "%s padded to 8193 bytes" % bname)
            for i in range(0 if certs else a.flips):
                self.add(m_flip(der, rng), "%s random bit flip #%d" % (bname, i))
        self.add(b"\x30\x00", "an empty SEQUENCE")
        self.add(bytes(rng.randrange(256) for _ in range(300)), "300 random bytes")

        # 4. certificates, keys, ECDSA encodings, counts, the size bound
        for der, what, zeros in sigcerts.variants(a.keys, self.tmp, a.payload):
            self.add(der, what, zeros)

    def verdicts(self):
        ca = os.path.join(self.a.keys, "kernel-trusted.pem")
        with open(self.a.payload, "rb") as f:
            insns = f.read()[:-64]      # tools/mkpayload: insns || META_SZ bytes
        for n, what, zeros in self.lines:
            payload = self.a.payload
            if zeros is not None:
                payload = os.path.join(self.tmp, "big.bin")
                with open(payload, "wb") as f:
                    f.write(insns + bytes(zeros))
            r = subprocess.run([self.a.bpfsign, "verify", "--json", "--ca", ca,
                                "--payload", payload, os.path.join(self.a.out, n)],
                               capture_output=True, text=True)
            try:
                err = json.loads(r.stdout)["error"]
            except (ValueError, KeyError):
                sys.exit("sigvariants: no verdict for %s (%s): %s" % (n, what, r.stderr))
            if err not in ERRNOS:
                sys.exit("sigvariants: %s (%s): offline errno %s is not one the kernel gives"
                         % (n, what, err))
            yield n, ERRNOS[err], err, what


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--payload", required=True)
    p.add_argument("--keys", required=True)
    p.add_argument("--bpfsign", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=15)
    p.add_argument("--flips", type=int, default=40)
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for f in os.listdir(a.out):
        if f.endswith(".p7s"):
            os.remove(os.path.join(a.out, f))
    g = Gen(a)
    g.run()
    with open(os.path.join(a.out, "manifest.tmp"), "w") as f:
        for n, e, name, what in g.verdicts():
            f.write("%s %d %s %s\n" % (n, e, name, what))
    for t in os.listdir(g.tmp):
        os.remove(os.path.join(g.tmp, t))
    os.rmdir(g.tmp)
    os.rename(os.path.join(a.out, "manifest.tmp"), os.path.join(a.out, "manifest"))
    print("sigvariants: %d variants in %s" % (g.n, a.out))


if __name__ == "__main__":
    main()
