# SPDX-License-Identifier: GPL-2.0
"""
The certificate, key and ECDSA-encoding classes of the differential test
(sigvariants.py): SignedData messages built here byte by byte around
certificates with the odd properties the kernel's X.509 parser and
public_key_verify_signature() decide on (times, algorithms, curves, RSA
sizes, SKID/keyUsage/basicConstraints/AKID encodings, self-signatures,
AKID chains, non-DER ECDSA values, counts of certificates and SignerInfos,
the 16 MiB signed-bytes bound).  OpenSSL (the openssl command) makes the
keys and every signature: the certificates are issued by keys-example's
test CA, which the test kernel builds in, so each message reaches the
kernel's X.509 and trust rules with keyring 0.

Each class yields (der, what, payload_zeros): payload_zeros is None for the
fixture's payload, else N for insns || N zero bytes (one metadata map of N
bytes in the guest).
"""
import hashlib
import os
import subprocess

from sigder import OID, dlen, oid_body, read_tlv, tlv


# --- DER ------------------------------------------------------------------

def seq(*items):
    return tlv(0x30, b"".join(items))


def oid(dotted):
    return tlv(0x06, oid_body(dotted))


def integer(n):
    b = n.to_bytes(max(1, (n.bit_length() + 8) // 8), "big")
    return tlv(0x02, b)


def children(b):
    """the TLVs inside a constructed TLV's content b"""
    out, i = [], 0
    while i < len(b):
        _, _, s, e = read_tlv(b, i)
        out.append(b[i:e])
        i = e
    return out


def content(t):
    _, _, s, e = read_tlv(t)
    return t[s:e]


SHA256RSA = seq(oid(OID["sha256rsa"]), tlv(0x05, b""))
SHA384RSA = seq(oid(OID["sha384rsa"]), tlv(0x05, b""))
SHA1RSA = seq(oid(OID["sha1rsa"]), tlv(0x05, b""))
ECDSA256 = seq(oid(OID["ecdsa256"]))
PSS = seq(oid(OID["rsapss"]), seq(
    tlv(0xa0, seq(oid(OID["sha256"]), tlv(0x05, b""))),
    tlv(0xa1, seq(oid(OID["mgf1"]), seq(oid(OID["sha256"]), tlv(0x05, b"")))),
    tlv(0xa2, integer(32))))


def name(cn):
    return seq(tlv(0x31, seq(oid(OID["o"]), tlv(0x0c, b"bpfsign TEST ONLY"))),
               tlv(0x31, seq(oid(OID["cn"]), tlv(0x0c, cn.encode()))))


def ext(which, value, critical=False):
    return seq(oid(OID[which]), *([tlv(0x01, b"\xff")] if critical else []), tlv(0x04, value))


def utc(s):
    return tlv(0x17, s.encode())


def gen(s):
    return tlv(0x18, s.encode())


# --- OpenSSL --------------------------------------------------------------

class Ossl:
    def __init__(self, keys, tmp):
        self.keys = keys
        self.tmp = tmp
        self.made = {}

    def run(self, args, data=None):
        r = subprocess.run(["openssl"] + args, input=data, capture_output=True)
        if r.returncode:
            raise SystemExit("sigcerts: openssl %s: %s" % (" ".join(args), r.stderr.decode()))
        return r.stdout

    def key(self, kind):
        """a key file: keys-example's, tools/sigdiff-keys', or made here"""
        for d in (self.keys, os.path.join(os.path.dirname(__file__), "sigdiff-keys")):
            p = os.path.join(d, kind + ".key")
            if os.path.exists(p):
                return p
        p = os.path.join(self.tmp, kind + ".key")
        if kind not in self.made:
            opts = {
                "p192": ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-192"],
                "p224": ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-224"],
                "p256": ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"],
                "p384": ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"],
                "p521": ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-521"],
                "k256": ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:secp256k1"],
                "ed25519": ["-algorithm", "ED25519"],
                "rsapss": ["-algorithm", "RSA-PSS", "-pkeyopt", "rsa_keygen_bits:2048"],
                "rsa1024": ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024"],
                "rsa2560": ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2560"],
                "rsa3072": ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:3072"],
            }
            if kind == "dsa":
                params = os.path.join(self.tmp, "dsa.params")
                self.run(["genpkey", "-genparam", "-algorithm", "DSA", "-pkeyopt",
                          "dsa_paramgen_bits:1024", "-out", params])
                self.run(["genpkey", "-paramfile", params, "-out", p])
            else:
                self.run(["genpkey"] + opts[kind] + ["-out", p])
            self.made[kind] = p
        return p

    def spki(self, kind):
        return self.run(["pkey", "-in", self.key(kind), "-pubout", "-outform", "DER"])

    def sign(self, kind, data, md="sha256", pss=False):
        args = ["dgst", "-" + md, "-sign", self.key(kind)]
        if pss:
            args += ["-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:32"]
        return self.run(args, data)

    def cert_der(self, name_):
        return self.run(["x509", "-in", os.path.join(self.keys, name_ + ".crt"),
                         "-outform", "DER"])


# --- certificates ---------------------------------------------------------

class Certs:
    def __init__(self, o):
        self.o = o
        ca = o.cert_der("ca")
        tbs = children(content(ca))[0]
        f = children(content(tbs))
        self.ca_serial = f[1]                   # the INTEGER TLV
        self.ca_name = f[5]                     # its subject
        self.ca_skid = None
        for e in children(content(children(content(f[7]))[0])):
            c = children(content(e))
            if content(c[0]) == content(oid(OID["skid"])):
                self.ca_skid = content(content(c[-1]))
        self.serial = 0x4242

    def akid_keyid(self, keyid=None):
        return ext("akid", seq(tlv(0x80, keyid if keyid is not None else self.ca_skid)))

    def akid_issuer_serial(self, keyid=None, serial=None, issuer=None):
        gn = tlv(0xa1, tlv(0xa4, issuer or self.ca_name))
        items = [tlv(0x80, keyid)] if keyid is not None else []
        items += [gn, tlv(0x82, content(serial or self.ca_serial))]
        return ext("akid", seq(*items))

    def make(self, key="signing", cn="bpfsign odd certificate", issuer=None, subject=None,
             not_before=None, not_after=None, exts=None, tbs_alg=SHA256RSA, outer_alg=None,
             signer="ca", md="sha256", pss=False, spki=None, corrupt=False):
        """a certificate of key's public key, issued and signed by signer
        (the CA by default), with the given oddities"""
        self.serial += 1
        subj = subject or name(cn)
        if exts is None:
            skid = hashlib.sha1((cn + str(self.serial)).encode()).digest()
            exts = [ext("bc", b"\x30\x00", True),
                    ext("ku", b"\x03\x02\x07\x80", True),
                    ext("skid", tlv(0x04, skid)), self.akid_keyid()]
        tbs = seq(tlv(0xa0, integer(2)), integer(self.serial), tbs_alg,
                  issuer or self.ca_name,
                  seq(not_before or utc("250101000000Z"), not_after or utc("450101000000Z")),
                  subj, spki or self.o.spki(key),
                  *([tlv(0xa3, seq(*exts))] if exts else []))
        sig = self.o.sign(signer, tbs, md, pss)
        if corrupt:
            sig = sig[:-1] + bytes([sig[-1] ^ 1])
        return seq(tbs, outer_alg or tbs_alg, tlv(0x03, b"\x00" + sig))


# --- SignedData -----------------------------------------------------------

def issuer_serial(cert):
    f = children(content(children(content(cert))[0]))
    return seq(f[3], f[1])


def signer_info(o, cert, key, payload, sigalg=None, md="sha256", value=None):
    """a version 1 SignerInfo (issuer and serial of cert) without signed
    attributes, its value key's signature of payload"""
    if value is None:
        value = o.sign(key, payload, md)
    return seq(integer(1), issuer_serial(cert), seq(oid(OID[md]), tlv(0x05, b"")),
               sigalg or seq(oid(OID["rsa"]), tlv(0x05, b"")), tlv(0x04, value))


def signer_info_skid(o, skid, key, payload, sigalg=None, md="sha256"):
    """a version 3 SignerInfo naming its signer by subjectKeyIdentifier"""
    return seq(integer(3), tlv(0x80, skid), seq(oid(OID[md]), tlv(0x05, b"")),
               sigalg or seq(oid(OID["rsa"]), tlv(0x05, b"")),
               tlv(0x04, o.sign(key, payload, md)))


def signed_data(certs, sinfos, md="sha256", version=1):
    body = [integer(version), tlv(0x31, seq(oid(OID[md]), tlv(0x05, b""))), seq(oid(OID["data"]))]
    if certs:
        body.append(tlv(0xa0, b"".join(certs)))
    body.append(tlv(0x31, b"".join(sinfos)))
    return seq(oid(OID["signed"]), tlv(0xa0, seq(*body)))


# --- ECDSA re-encodings ---------------------------------------------------

def ecdsa_rs(sig):
    r, s = children(content(sig))
    return content(r), content(s)


def ecdsa_variants(o, payload):
    """(value, what) pairs: one signature of payload by signing-ec (P-256)
    in the encodings the kernel's decoder reads and some it refuses"""
    # a signature whose r and s both have the top bit set (33-byte DER
    # INTEGERs), and one whose r is below 2^255 (no leading zero)
    hi = lo = None
    for _ in range(64):
        r, s = ecdsa_rs(o.sign("signing-ec", payload))
        if hi is None and len(r) == 33 and len(s) == 33:
            hi = (r, s)
        if lo is None and len(r) == 32 and r[0] >= 0x10 and len(s) in (32, 33):
            lo = (r, s)
        if hi and lo:
            break
    if not (hi and lo):
        raise SystemExit("sigcerts: no ECDSA signature with the shapes needed")
    n = bytes.fromhex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")

    def enc(r, s, rh=None, sh=None, seqhdr=None, tail=b""):
        ri = (rh or (b"\x02" + dlen(len(r)))) + r
        si = (sh or (b"\x02" + dlen(len(s)))) + s
        body = ri + si
        if seqhdr == "indef":
            return b"\x30\x80" + body + b"\x00\x00" + tail
        return (seqhdr or (b"\x30" + dlen(len(body)))) + body + tail

    r, s = hi
    yield enc(r, s), "DER (r and s with a leading zero)"
    yield enc(r[1:], s[1:]), "r and s without their leading zero (\"negative\" INTEGERs)"
    yield enc(r, s, seqhdr=b"\x30\x81" + bytes([4 + len(r) + len(s)])), "a long-form SEQUENCE length"
    yield enc(r, s, rh=b"\x02\x81" + bytes([len(r)])), "a long-form INTEGER length"
    yield enc(r, s, seqhdr="indef"), "an indefinite-length SEQUENCE"
    yield enc(r, s, tail=b"\x00\x00"), "two bytes after the SEQUENCE"
    yield enc(b"\x00" + r, s), "r with two leading zeros (34 bytes)"
    r2, s2 = lo
    yield enc(b"\x00" + r2, s2), "r with a needless leading zero"
    yield enc(b"\x01" + r2, s2), "r of 33 bytes not led by zero"
    yield enc(b"\x00", s2), "r = 0"
    yield enc(b"\x00" + n, s2), "r = n"
    yield enc(r2, s2 + b"\x00"), "s with a byte appended (another value)"


# --- the classes ----------------------------------------------------------

def variants(keys, tmp, payload_file):
    o = Ossl(keys, tmp)
    c = Certs(o)
    with open(payload_file, "rb") as f:
        pay = f.read()
    signing = o.cert_der("signing")
    signing_ec = o.cert_der("signing-ec")
    rsa_si = signer_info(o, signing, "signing", pay)
    ec_alg = seq(oid(OID["ecdsa256"]))

    def msg(certs, sinfos=None):
        return signed_data(certs, sinfos or [rsa_si])

    def as_signer(cert, key="signing", sigalg=None):
        """cert embedded as the signer of the payload (with key), chained to
        the built-in CA"""
        return signed_data([cert], [signer_info(o, cert, key, pay, sigalg)])

    # extra certificates next to a good signer
    yield msg([signing, c.make(issuer=name("bpfsign odd self"), cn="bpfsign odd self",
                               signer="signing", corrupt=True, exts=[])]), \
        "x509: an extra self-signed certificate with a bad signature", None
    yield msg([signing, c.make(issuer=name("bpfsign odd self"), cn="bpfsign odd self",
                               signer="signing", exts=[])]), \
        "x509: an extra self-signed certificate, good signature", None
    yield msg([signing, c.make(issuer=name("bpfsign odd self"), cn="bpfsign odd self",
                               signer="ca", exts=[])]), \
        "x509: an extra certificate with subject == issuer not signed by itself", None

    # validity times of the signer's certificate
    for nb, na, what in (
            (utc("691231235959Z"), None, "notBefore in 1969 (UTCTime 69)"),
            (gen("19690101000000Z"), None, "notBefore GeneralizedTime 1969"),
            (gen("20250101000000Z"), None, "notBefore GeneralizedTime before 2050"),
            (tlv(0x17, b"2501010000Z"), None, "notBefore UTCTime without seconds"),
            (None, gen("20500101000000Z"), "notAfter GeneralizedTime 2050 (RFC 5280)"),
            (utc("250101240000Z"), None, "notBefore at hour 24 (ISO 8601)"),
            (utc("250230000000Z"), None, "notBefore 30 February"),
            (tlv(0x17, b"250101000000+0100"), None, "notBefore with an offset")):
        yield as_signer(c.make(not_before=nb, not_after=na)), "x509: signer cert " + what, None

    # key algorithms and curves (extra certificates: parse or not)
    for kind, what in (("ed25519", "Ed25519"), ("k256", "secp256k1"), ("dsa", "DSA"),
                       ("p224", "P-224"), ("rsapss", "an RSA-PSS")):
        yield msg([signing, c.make(key=kind, cn="bpfsign odd " + kind)]), \
            "x509: an extra certificate with %s key" % what, None
    # signers on each curve and RSA size: who holds which key
    for kind, what in (("p192", "P-192"), ("p384", "P-384"), ("p521", "P-521"),
                       ("rsa1024", "RSA-1024"), ("rsa2560", "RSA-2560"),
                       ("rsa3072", "RSA-3072"), ("rsa8192", "RSA-8192")):
        alg = ec_alg if kind.startswith("p") else None
        yield as_signer(c.make(key=kind, cn="bpfsign odd " + kind), kind, alg), \
            "x509: a %s signer certificate" % what, None

    # the kit's signer id (SKID, -keyid) with a key the kernel cannot hold
    big_skid = b"\x66" * 20
    big = c.make(key="rsa2560", cn="bpfsign odd rsa2560 skid", exts=[
        ext("skid", tlv(0x04, big_skid)), c.akid_keyid()])
    yield signed_data([big], [signer_info_skid(o, big_skid, "rsa2560", pay)], version=3), \
        "x509: a RSA-2560 signer certificate, SignerInfo by SKID", None

    # the realistic way there: openssl cms -sign -certfile with such a certificate
    for kind, tbs_alg, pss in (("ed25519", SHA256RSA, False), ("p224", SHA256RSA, False),
                               ("signing", PSS, True)):
        pem = os.path.join(o.tmp, "extra.pem")
        out = os.path.join(o.tmp, "cms.p7s")
        o.run(["x509", "-inform", "DER", "-out", pem],
              c.make(key=kind, cn="bpfsign odd certfile", tbs_alg=tbs_alg, pss=pss))
        o.run(["cms", "-sign", "-binary", "-noattr", "-outform", "DER", "-md", "sha256",
               "-signer", os.path.join(keys, "signing.crt"),
               "-inkey", os.path.join(keys, "signing.key"), "-certfile", pem,
               "-in", payload_file, "-out", out])
        with open(out, "rb") as f:
            yield f.read(), "x509: openssl cms -sign -certfile a certificate with %s" % (
                "an RSA-PSS signature" if pss else "a %s key" % kind), None

    # a hash the test kernel lacks (SHA-1): no digest, the signature is
    # checked by no self-signature check, and fails against an issuer
    sha1 = c.make(tbs_alg=SHA1RSA, md="sha1")
    yield as_signer(sha1), "x509: signer cert signed with SHA-1 by the built-in CA", None
    yield signed_data([sha1, o.cert_der("ca")], [signer_info(o, sha1, "signing", pay)]), \
        "x509: signer cert signed with SHA-1 by the CA, the CA embedded", None
    yield msg([signing, c.make(issuer=name("bpfsign odd sha1"), cn="bpfsign odd sha1",
                               signer="signing", tbs_alg=SHA1RSA, md="sha1", corrupt=True,
                               exts=[])]), \
        "x509: an extra self-signed SHA-1 certificate with a bad signature", None

    # signature algorithms
    yield msg([signing, c.make(tbs_alg=PSS, pss=True)]), \
        "x509: an extra certificate signed with RSA-PSS", None
    yield as_signer(c.make(tbs_alg=SHA256RSA, outer_alg=SHA384RSA)), \
        "x509: signer cert, outer algorithm != TBS algorithm", None

    # extensions: SKID, keyUsage, basicConstraints
    skid = tlv(0x04, b"\x11" * 20)
    good = [ext("ku", b"\x03\x02\x07\x80", True), c.akid_keyid()]
    for exts, what in (
            ([ext("skid", tlv(0x04, b""))] + good, "an empty SKID"),
            ([ext("skid", skid), ext("skid", skid)] + good, "two SKIDs"),
            ([ext("skid", b"\x04\x81\x14" + b"\x11" * 20)] + good, "a SKID with a long-form length"),
            ([ext("skid", b"\x03\x15\x00" + b"\x11" * 20)] + good, "a SKID that is a BIT STRING"),
            ([ext("skid", skid), ext("ku", b"\x03\x01\x00"), c.akid_keyid()], "an empty keyUsage"),
            ([ext("skid", skid), ext("ku", b"\x04\x02\x07\x80"), c.akid_keyid()],
             "a keyUsage that is not a BIT STRING"),
            ([ext("skid", skid), ext("ku", b"\x03\x02\x07\x00"), c.akid_keyid()],
             "a keyUsage without digitalSignature"),
            ([ext("skid", skid), ext("bc", b"\x30\x03\x01\x01\x00")] + good, "an explicit CA:FALSE"),
            ([ext("skid", skid), ext("bc", b"\x30\x03\x02\x01\x00")] + good,
             "a basicConstraints with only a pathlen"),
            ([ext("skid", skid), ext("bc", b"\x30\x03\x01\x01\xff")] + good, "CA:TRUE"),
            ([ext("skid", skid), ext("bc", b"\x30\x00")] + good, "an empty basicConstraints"),
            ([ext("skid", skid), ext("ku", b"\x03\x02\x07\x80")], "no AKID")):
        yield as_signer(c.make(exts=exts)), "x509: signer cert with " + what, None

    # AKID: how the chain reaches the built-in CA
    for akid, what in (
            (c.akid_issuer_serial(), "issuer+serial only"),
            (c.akid_issuer_serial(keyid=c.ca_skid), "keyid and issuer+serial"),
            (c.akid_issuer_serial(keyid=b"\x22" * 20), "issuer+serial and another keyid"),
            (c.akid_issuer_serial(serial=integer(7)), "issuer and another serial"),
            (c.akid_keyid(b"\x22" * 20), "another keyid"),
            (c.akid_keyid(b""), "an empty keyid")):
        yield as_signer(c.make(exts=[ext("skid", skid), ext("ku", b"\x03\x02\x07\x80"), akid])), \
            "x509: signer cert AKID " + what, None
    # a self-signed certificate whose AKID names itself by one id and not the other
    own = tlv(0x04, b"\x33" * 20)
    sname = name("bpfsign odd akid self")
    yield msg([signing, c.make(issuer=sname, subject=sname, signer="signing",
                               exts=[ext("skid", own), c.akid_issuer_serial(
                                   keyid=b"\x33" * 20, issuer=sname, serial=integer(1))])]), \
        "x509: an extra self-signed certificate with an inconsistent AKID", None
    # an intermediate in the message: leaf -> intermediate (issuer+serial) -> CA
    inter_skid = b"\x44" * 20
    inter = c.make(key="team", cn="bpfsign odd intermediate", exts=[
        ext("bc", b"\x30\x03\x01\x01\xff", True), ext("ku", b"\x03\x02\x01\x06", True),
        ext("skid", tlv(0x04, inter_skid)), c.akid_keyid()])
    inter_serial = children(content(children(content(inter))[0]))[1]
    # the AKID names the issuer's certificate: its issuer (the CA) and serial
    leaf = c.make(issuer=name("bpfsign odd intermediate"), signer="team",
                  exts=[ext("skid", skid), c.akid_issuer_serial(serial=inter_serial)])
    yield signed_data([leaf, inter], [signer_info(o, leaf, "signing", pay)]), \
        "x509: a chain linked by AKID issuer+serial only", None
    leaf = c.make(issuer=name("bpfsign odd intermediate"), signer="team",
                  exts=[ext("skid", skid), c.akid_issuer_serial(
                      keyid=b"\x55" * 20, serial=inter_serial)])
    yield signed_data([leaf, inter], [signer_info(o, leaf, "signing", pay)]), \
        "x509: a chain whose AKID issuer+serial matches and keyid does not", None

    # counts
    tiny = c.make(key="p256", cn="t", issuer=name("t"), subject=name("t"), signer="p256",
                  tbs_alg=ECDSA256, exts=[])
    for n in (16, 17, 20):
        yield msg([signing] + [tiny] * n), "count: %d more certificates" % n, None
    ec_si = signer_info(o, signing_ec, "signing-ec", pay, ec_alg)
    for n in (16, 17, 30):
        yield msg([], [ec_si] * n), "count: %d SignerInfos" % n, None

    # ECDSA values as the kernel's ecdsa.c decodes them, with the signer's
    # certificate embedded (the raw errno) and without (the keyring's key)
    for value, what in ecdsa_variants(o, pay):
        si = signer_info(o, signing_ec, "signing-ec", pay, ec_alg, value=value)
        yield signed_data([signing_ec], [si]), "ecdsa: embedded signer, " + what, None
        yield signed_data([], [si]), "ecdsa: keyring signer, " + what, None

    # the signed-bytes bound: insns || metadata of 16 MiB and one byte more
    insns = pay[:len(pay) - 64]
    for extra in (0, 1):
        n = (16 << 20) - len(insns) + extra
        big = insns + bytes(n)
        yield signed_data([], [signer_info(o, signing, "signing", big)]), \
            "bound: insns || %d zero bytes (16 MiB%s)" % (n, " + 1" if extra else ""), n
