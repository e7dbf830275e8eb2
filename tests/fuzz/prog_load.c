// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_PROG_LOAD of the templates, signed and not: valid signatures over
 * insns || metadata in fd_array order, mutated signatures and payloads,
 * wrong keys and keyrings, fd_array contents and counts that are not what
 * was signed.  predict_load() follows bpf_check()'s order; the invariants
 * of a successful load are checked on their own (check_loaded()), whatever
 * the prediction said.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <openssl/evp.h>

#include "fuzz.h"
#include "ops.h"

#define FDA_MAX 160		/* fd_array buffer: count mutations read beyond */
#define SIG_MAX_SIZE 8192	/* KMALLOC_MAX_CACHE_SIZE */
#define SIGNED_MAX (16u << 20)

struct load {
	int t;
	struct bpf_insn insns[MAX_INSNS];
	int cnt;
	int raw_fd;
	u32 prog_type, prog_flags;
	int fds[FDA_MAX];
	u32 fd_cnt;
	bool fd_null;
	/* the signature */
	bool has_sig;		/* attr.signature != 0 */
	bool sig_bad_ptr;	/* a pointer the kernel cannot read */
	u8 sigbuf[16384];
	u32 sig_size;
	int key;
	bool attrs;
	bool sig_intact;	/* sigbuf is key's signature of payload, unchanged */
	u32 flips[3], nflips;	/* bytes a bit flip changed */
	const u8 *orig_sig;	/* the signature before the mutation */
	u32 orig_len;
	u8 *payload;		/* what was signed */
	size_t payload_len;
	s32 keyring;
	int log;		/* 0: 64 KiB level 1, 1: none, 2: 16 bytes */
	/* an attribute that would rewrite or annotate a signed program */
	enum { X_NONE, X_CORE, X_FUNC, X_LINE, X_BTF, X_RND_HI32, X_NR } extra;
	char what[320];		/* the mutations, for the description */
};

static const char *const extra_names[X_NR] = {
	"", "core_relos", "func_info", "line_info", "prog_btf_fd", "BPF_F_TEST_RND_HI32",
};

static u8 tiny_log[16];

static const char *kind_str(enum verdict_class vc)
{
	return vc == VC_TRUSTED ? "trusted" : vc == VC_USER ? "caller keyring" : "unsigned";
}

/* insns || value(fd_array[0]) || ... of the maps the load lists, as the
 * model has them; NULL if an entry is not a map we know
 */
static u8 *actual_payload(const struct load *l, size_t *len)
{
	size_t n = l->cnt * sizeof(struct bpf_insn);
	u8 *p;
	u32 i;

	for (i = 0; i < l->fd_cnt; i++) {
		struct mobj *o = pool_mobj_of_fd(l->fds[i]);

		if (!o || !o->known || o->max_entries != 1 || o->type != BPF_MAP_TYPE_ARRAY)
			return NULL;
		n += o->value_size;
		if (n > SIGNED_MAX + 4096)
			return NULL;
	}
	p = malloc(n);
	memcpy(p, l->insns, l->cnt * sizeof(struct bpf_insn));
	*len = l->cnt * sizeof(struct bpf_insn);
	for (i = 0; i < l->fd_cnt; i++) {
		struct mobj *o = pool_mobj_of_fd(l->fds[i]);

		memcpy(p + *len, model_single_value(o), o->value_size);
		*len += o->value_size;
	}
	return p;
}

static bool payload_blacklisted(const u8 *p, size_t len)
{
	u8 h[32];

	if (len != st.blacklisted_len)
		return false;
	EVP_Digest(p, len, h, NULL, EVP_sha256(), NULL);
	return !memcmp(h, st.blacklisted_hash, 32);
}

static void print_hex(const char *what, const u8 *p, size_t len)
{
	size_t i;

	for (i = 0; i < len && i < 4096; i++) {
		if (!(i % 32))
			printf("%s# %s %04zx:", i ? "\n" : "", what, i);
		printf(" %02x", p[i]);
	}
	printf("\n");
}

/* one DER header at *p: its length in *hdr, the content's in the return */
static long der_len(const u8 *sig, u32 len, u32 p, u32 *hdr)
{
	u32 n, i;
	long v = 0;

	if (p + 2 > len)
		return -1;
	if (sig[p + 1] < 0x80) {
		*hdr = 2;
		return sig[p + 1];
	}
	n = sig[p + 1] & 0x7f;
	if (n > 3 || p + 2 + n > len)
		return -1;
	for (i = 0; i < n; i++)
		v = v << 8 | sig[p + 2 + i];
	*hdr = 2 + n;
	return v;
}

/*
 * Did the bit flips stay out of the SignerInfo's sid, algorithms, signed
 * attributes and signature value?  The rest of the CMS structure (tags,
 * versions, SignedData.digestAlgorithms, the content type) is covered by no
 * signature, and the kernel's PKCS#7 parser is more lenient there than
 * OpenSSL's: a load after such a flip is the same signature of the same
 * bytes, not a forgery.  Unparsable: false, the flips count.
 */
/* step into (enter) or over the DER element at *p, which must have tag */
static bool der_step(const u8 *s, u32 len, u32 *p, u8 tag, bool enter)
{
	u32 hdr;
	long n = der_len(s, len, *p, &hdr);

	if (n < 0 || s[*p] != tag)
		return false;
	*p += hdr + (enter ? 0 : n);
	return true;
}

static bool flips_outside_signer(const struct load *l)
{
	const u8 *s = l->orig_sig;
	u32 len = l->orig_len, p = 0, hdr, i, start, end;
	long n;

	if (!l->nflips || !s ||
	    !der_step(s, len, &p, 0x30, true) ||	/* ContentInfo */
	    !der_step(s, len, &p, 0x06, false) ||	/* contentType */
	    !der_step(s, len, &p, 0xa0, true) ||	/* [0] EXPLICIT */
	    !der_step(s, len, &p, 0x30, true) ||	/* SignedData */
	    !der_step(s, len, &p, 0x02, false) ||	/* version */
	    !der_step(s, len, &p, 0x31, false) ||	/* digestAlgorithms */
	    !der_step(s, len, &p, 0x30, false))		/* encapContentInfo */
		return false;
	while (p < len && (s[p] == 0xa0 || s[p] == 0xa1))	/* certificates, crls */
		if (!der_step(s, len, &p, s[p], false))
			return false;
	if (!der_step(s, len, &p, 0x31, true))		/* signerInfos */
		return false;
	n = der_len(s, len, p, &hdr);
	if (n < 0 || s[p] != 0x30)
		return false;
	end = p + hdr + n;				/* the first SignerInfo */
	p += hdr;
	if (!der_step(s, len, &p, 0x02, false))		/* its version */
		return false;
	start = p;					/* sid ... signature */
	for (i = 0; i < l->nflips; i++)
		if (l->flips[i] >= start && l->flips[i] < end)
			return false;
	return true;
}

/* the map a reference of the template reads at load time */
static struct mobj *ref_obj(const struct load *l, int j, int *fd)
{
	int idx = tmpl_ref_idx(l->t, j);

	*fd = idx < 0 ? l->raw_fd : l->fd_null ? -1 : l->fds[idx];
	if (idx >= 0 && l->fd_null)
		return NULL;
	return pool_mobj_of_fd(*fd);
}

struct prediction {
	struct expect e;
	bool reached;		/* the kernel copied, hashed and verified the payload */
	enum verdict_class vc;
};

static struct prediction predict_load(const struct load *l)
{
	const struct tmpl *t = &tmpls[l->t];
	struct prediction p = { EXPECT_OK("a valid load"), false, VC_UNSIGNED };
	struct mobj *ents[FDA_MAX] = {};
	struct ring_model rm;
	bool verified = false, mismatch, blacklisted;
	u8 *actual;
	size_t alen, len;
	u32 i, j;

#define FAIL(err_, why_) do { p.e = EXPECT_FAIL(err_, why_); return p; } while (0)
	/* bpf_prog_load() refuses unknown flags before bpf_check() */
	if (l->prog_flags != t->prog_flags) {
		p.e = EXPECT_ESCAPE("prog_flags other than the template's");
		return p;
	}
	/* process_fd_array() */
	if (l->fd_cnt) {
		if (l->fd_null)
			FAIL(EINVAL, "fd_array_cnt without fd_array");
		if (l->fd_cnt > 128)
			FAIL(EINVAL, "fd_array_cnt above 128");
		for (i = 0; i < l->fd_cnt; i++) {
			struct pmap *m;
			enum fd_kind k = fd_classify(l->fds[i], &m);

			if (k == FD_MAP) {
				ents[i] = m->o;
				if (m->o->excl && memcmp(m->o->excl_hash, t->digest, 32))
					FAIL(EACCES, "fd_array map exclusive to another program");
			} else if (k != FD_BTF) {
				FAIL(fd_map_err(k), "fd_array entry is neither map nor BTF");
			}
		}
	}
	/* check_signed_load_attrs(): before the signature is looked at */
	if ((l->has_sig || l->sig_bad_ptr) && l->extra)
		FAIL(EACCES, "an unsigned rewrite or annotation of a signed program");
	if (l->has_sig) {
		if (!l->sig_size || l->sig_size > SIG_MAX_SIZE)
			FAIL(EINVAL, "signature_size");
		/* signed_fd_array_len() */
		len = l->cnt * sizeof(struct bpf_insn);
		for (i = 0; i < l->fd_cnt; i++) {
			struct mobj *o = ents[i];

			if (!o)
				FAIL(EACCES, "BTF in a signed fd_array");
			for (j = 0; j < i; j++)
				if (ents[j] == o)
					FAIL(EINVAL, "a map listed twice in a signed fd_array");
			if (o->type != BPF_MAP_TYPE_ARRAY || o->max_entries != 1)
				FAIL(EINVAL, "metadata map not a single-element array");
			if (!o->frozen)
				FAIL(EPERM, "metadata map not frozen");
			if (!o->excl)
				FAIL(EPERM, "metadata map not exclusive");
			len += o->value_size;
			if (len > SIGNED_MAX)
				FAIL(E2BIG, "signed length above 16 MiB");
		}
		rm = ring_model(l->keyring);
		if (rm.lookup_err)
			FAIL(rm.lookup_err, "keyring_id refused before verification");
		if (l->sig_bad_ptr)
			FAIL(EFAULT, "signature pointer");
		p.reached = true;
		actual = actual_payload(l, &alen);
		if (!actual) {
			p.e = EXPECT_ESCAPE("a metadata map the model lost track of");
			return p;
		}
		mismatch = alen != l->payload_len || memcmp(actual, l->payload, alen);
		/* the blacklist is consulted once the signature parses */
		blacklisted = payload_blacklisted(actual, alen);
		/* a mutation OpenSSL still accepts (trailing bytes after the DER, a
		 * field outside the signed attributes): the kernel may accept it too,
		 * as a signature of the bytes it loads, or be stricter
		 */
		if (!l->sig_intact && l->sig_size &&
		    sig_valid_offline(l->key, actual, alen, l->sigbuf, l->sig_size)) {
			free(actual);
			stat_note("mutated signatures OpenSSL still accepts");
			p.e = EXPECT_ESCAPE("a mutated signature OpenSSL accepts");
			p.vc = ring_model(l->keyring).system ? VC_TRUSTED : VC_USER;
			return p;
		}
		free(actual);
		if (!l->sig_intact && flips_outside_signer(l)) {
			/* the kernel's parser may take it: check_loaded() checks what it took */
			p.e = EXPECT_ESCAPE("a flip outside the SignerInfo");
			return p;
		}
		if (!l->sig_intact)
			FAIL(0, "mutated signature");
		if (blacklisted)
			FAIL(EKEYREJECTED, "blacklisted payload hash");
		/* pkcs7_verify(VERIFYING_BPF_SIGNATURE): before the revocation
		 * list and the keyring, however good the signature
		 */
		if (l->attrs)
			FAIL(EKEYREJECTED, "signed attributes");
		/* is_key_on_revocation_list(): the signature verifies with a key of
		 * .blacklist (only then; a signature of other bytes goes on)
		 */
		if (l->key == K_REVOKED && !mismatch)
			FAIL(EKEYREJECTED, "certificate on the revocation list");
		if (!(rm.present & 1u << l->key)) {
			if (rm.revoked_only & 1u << l->key)
				FAIL(EKEYREVOKED, "the signer's key is revoked");
			FAIL(ENOKEY, "the keyring has no such key");
		}
		if (mismatch)
			FAIL(EKEYREJECTED, "signature of other bytes");
		verified = true;
		p.vc = rm.system ? VC_TRUSTED : VC_USER;
		if (st.enforce && !rm.system)
			FAIL(EPERM, "bpf_sig_enforce: caller keyring");
	} else {
		if (l->sig_size || l->keyring)
			FAIL(EINVAL, "signature_size or keyring_id without signature");
		if (st.enforce)
			FAIL(EPERM, "bpf_sig_enforce: unsigned");
	}
	/* the LSM hook (policy mode), after the signature and bpf_sig_enforce */
	if (policy_denies(verified ? p.vc : VC_UNSIGNED))
		FAIL(EPERM, verified ? "keyring-allowlist: a caller keyring" : "deny-unsigned");
	/* resolve_pseudo_ldimm64(), then the accesses */
	for (j = 0; j < (u32)t->nref; j++) {
		int idx = tmpl_ref_idx(l->t, j);
		struct pmap *m = NULL;
		struct mobj *o;
		enum fd_kind k;

		if (idx < 0) {
			if (verified)
				FAIL(EACCES, "raw map fd in a signed program");
			k = fd_classify(l->raw_fd, &m);
			if (k != FD_MAP)
				FAIL(fd_map_err(k), "raw map fd");
			o = m->o;
		} else if (verified && (u32)idx >= l->fd_cnt) {
			FAIL(EACCES, "signed program reads beyond fd_array_cnt");
		} else if ((u32)idx < l->fd_cnt) {
			o = ents[idx];
			if (!o)
				FAIL(EINVAL, "fd_array entry is a BTF, not a map");
		} else {
			if (l->fd_null)
				FAIL(EPROTO, "fd_idx without fd_array");
			k = fd_classify(l->fds[idx], &m);
			if (k != FD_MAP)
				FAIL(fd_map_err(k), "sparse fd_array entry");
			o = m->o;
		}
		if (o->excl && memcmp(o->excl_hash, t->digest, 32))
			FAIL(EACCES, "map exclusive to another program");
		if (o->type == BPF_MAP_TYPE_PERCPU_ARRAY) {
			p.e = EXPECT_ESCAPE("per-CPU direct values: the JIT's to take");
			return p;
		}
		if (o->type != BPF_MAP_TYPE_ARRAY)
			FAIL(EINVAL, "no direct value access");
		if (o->max_entries != 1)
			FAIL(ENOTSUPP, "direct value of a multi-element array");
		if (t->off[j] >= o->value_size)
			FAIL(EINVAL, "direct value offset beyond the value");
	}
	for (j = 0; j < (u32)t->nref; j++) {
		int fd;
		struct mobj *o = ref_obj(l, j, &fd);

		if (o->flags & BPF_F_WRONLY_PROG)
			FAIL(EACCES, "read of a BPF_F_WRONLY_PROG map");
		if (t->off[j] + t->width > o->value_size)
			FAIL(EACCES, "read beyond the value");
	}
	return p;
#undef FAIL
}

/*
 * What a successful load must satisfy, independent of the prediction: the
 * brief's invariants, each with its own message.
 */
/*
 * The invariant of a verified load: what the program runs is its signed
 * instructions as the target kernel translates them.  The templates give the
 * kernel nothing to rewrite but ld_imm64 (map references) and helper calls,
 * so every other translated instruction equals its signed one, and there
 * are as many.
 */
static void check_xlated(const struct load *l, int fd)
{
	struct bpf_insn xl[MAX_INSNS + 8];
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int i;

	info.xlated_prog_len = sizeof(xl);
	info.xlated_prog_insns = (uintptr_t)xl;
	if (bpf_prog_get_info_by_fd(fd, &info, &len)) {
		violation("BPF_OBJ_GET_INFO_BY_FD of a verified program: %s", strerror(errno));
		return;
	}
	if (info.xlated_prog_len != l->cnt * sizeof(struct bpf_insn)) {
		violation("a verified program runs %u translated instructions, %d signed",
			  info.xlated_prog_len / 8, l->cnt);
		return;
	}
	for (i = 0; i < l->cnt; i++) {
		const struct bpf_insn *a = &l->insns[i], *b = &xl[i];

		if (a->code != b->code || a->dst_reg != b->dst_reg || a->off != b->off)
			goto differ;
		if (a->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			i++;	/* the map's address, or id in the dump */
			continue;
		}
		if (a->code == (BPF_JMP | BPF_CALL) && a->src_reg == 0)
			continue;	/* the helper's address */
		if (a->src_reg != b->src_reg || a->imm != b->imm)
			goto differ;
	}
	stat_note("verified loads whose translation matches the signed bytes");
	return;
differ:
	violation("a verified program's instruction %d is %02x %x/%x %d %d, signed %02x %x/%x %d %d",
		  i, xl[i].code, xl[i].dst_reg, xl[i].src_reg, xl[i].off, xl[i].imm,
		  l->insns[i].code, l->insns[i].dst_reg, l->insns[i].src_reg, l->insns[i].off,
		  l->insns[i].imm);
}

static void check_loaded(const struct load *l, struct ring_model *rm, int prog_fd)
{
	const struct tmpl *t = &tmpls[l->t];
	u32 i;
	int j, fd;

	for (i = 0; i < l->fd_cnt; i++) {
		struct mobj *o = pool_mobj_of_fd(l->fds[i]);

		if (o && o->excl && memcmp(o->excl_hash, t->digest, 32))
			violation("loaded with fd_array[%u] exclusive to another digest", i);
	}
	for (j = 0; j < t->nref; j++) {
		struct mobj *o = ref_obj(l, j, &fd);

		if (o && o->excl && memcmp(o->excl_hash, t->digest, 32))
			violation("loaded reading a map exclusive to another digest");
	}
	if (!l->has_sig) {
		if (st.enforce)
			violation("an unsigned program loaded under bpf_sig_enforce");
		if (policy_denies_unsigned())
			violation("an unsigned program loaded under deny-unsigned");
		return;
	}
	{
		size_t alen;
		u8 *actual = actual_payload(l, &alen);

		if (!actual) {
			stat_note("signed loads not checkable (metadata model lost)");
			return;
		}
		if (!l->sig_intact) {
			/* the kernel's verdict must equal the offline one */
			if (!sig_valid_offline(l->key, actual, alen, l->sigbuf, l->sig_size) &&
			    flips_outside_signer(l)) {
				/*
				 * The kernel's parser, as upstream's, ignores more than
				 * OpenSSL outside the SignerInfo (the certificates,
				 * digestAlgorithms).  What it may not do is take other
				 * signed bytes: the SignerInfo, untouched, must be a
				 * valid signature by this key of exactly what loaded.
				 */
				if (l->sig_size != l->orig_len ||
				    !sig_valid_offline(l->key, actual, alen, l->orig_sig, l->orig_len)) {
					print_hex("signature", l->sigbuf, l->sig_size);
					print_hex("payload", actual, alen);
					violation("loaded after a flip outside the SignerInfo, but the "
						  "unflipped signature does not sign what loaded");
				}
				stat_note("loaded after a flip outside the SignerInfo (OpenSSL refuses; "
					  "its SignerInfo signs what loaded)");
			} else if (!sig_valid_offline(l->key, actual, alen, l->sigbuf, l->sig_size)) {
				print_hex("signature", l->sigbuf, l->sig_size);
				print_hex("payload", actual, alen);
				violation("a mutated signature that OpenSSL refuses loaded");
			}
			stat_note("mutated signatures still valid offline (loaded)");
		} else if (alen != l->payload_len || memcmp(actual, l->payload, alen)) {
			violation("loaded although the signature covers other bytes than "
				  "insns || fd_array metadata (%zu signed, %zu loaded)",
				  l->payload_len, alen);
		}
		if (payload_blacklisted(actual, alen))
			violation("a blacklisted payload loaded");
		check_xlated(l, prog_fd);
		free(actual);
	}
	if (l->key == K_REVOKED)
		violation("a signature of the revoked certificate loaded");
	if (!(rm->present & 1u << l->key))
		violation("loaded with a key the keyring does not hold (%s, keyring %d)",
			  key_names[l->key], l->keyring);
	if (st.enforce && !rm->system)
		violation("a caller-keyring signature loaded under bpf_sig_enforce");
	if (policy_mode() && !rm->system)
		violation("a caller-keyring signature loaded under keyring-allowlist");
	if (st.bpf_sealed && st.bpf_nkeys && !rm->system)
		violation("a caller keyring counted while .bpf is active");
}

/* run a filter: its return value must be what the model says it read */
static bool is_socket_filter(int fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	return !bpf_prog_get_info_by_fd(fd, &info, &len) &&
	       info.type == BPF_PROG_TYPE_SOCKET_FILTER;
}

void check_run(struct pprog *p, u32 size, const char *op)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	u8 pkt[1600] = {};
	u32 reads[3] = {};
	struct expect e;
	bool known = p->tmpl >= 0 && p->kind == PK_FILTER;
	int j, ret;

	opts.data_in = pkt;
	opts.data_size_in = size;
	opts.repeat = rnd_chance(1, 4) ? 1 + rnd_below(3) : 0;
	for (j = 0; known && j < p->nref; j++) {
		struct mobj *o = p->ref[j];
		const u8 *v;
		u32 off = tmpls[p->tmpl].off[j];

		if (!o || !o->known || o->type != BPF_MAP_TYPE_ARRAY) {
			known = false;
			break;
		}
		v = model_single_value(o);
		if (tmpls[p->tmpl].width == 4)
			memcpy(&reads[j], v + off, 4);
		else
			reads[j] = v[off];
	}
	/* bpf_prog_test_run_skb(): ETH_HLEN at least, a page less the skb's room at most */
	e = p->kind != PK_FILTER && !(p->kind == PK_CHILD && is_socket_filter(p->fd)) ?
	    EXPECT_ESCAPE("a test run of a child of another program type") :
	    size < 14 ? EXPECT_FAIL(EINVAL, "packet shorter than ETH_HLEN") :
	    size <= 1500 ? EXPECT_OK("a filter run") :
	    size >= 4096 ? EXPECT_FAIL(EINVAL, "a packet of a page: no room for the skb's head") :
	    EXPECT_ESCAPE("a packet above 1500 bytes: the skb's room decides");
	op_desc("BPF_PROG_TEST_RUN template %d fd %d, %u bytes, repeat %u", p->tmpl, p->fd, size,
		opts.repeat);
	ret = bpf_prog_test_run_opts(p->fd, &opts);
	expect_check(op, e, ret);
	if (!ret && known) {
		u32 want = tmpl_retval(p->tmpl, reads);

		if (opts.retval != want)
			violation("template %d returned %#x, its maps hold %#x", p->tmpl,
				  opts.retval, want);
		stat_note("program runs checked against the model");
	}
}

/* The attacker's addition to a signed load (l->extra): records that point
 * at instruction 0 and a BTF of the pool, never read once refused
 */
static void set_extra(const struct load *l, union bpf_attr *attr)
{
	static struct bpf_core_relo relo = { .kind = BPF_CORE_FIELD_BYTE_OFFSET };
	static struct bpf_func_info func;
	static struct bpf_line_info line;

	switch (l->extra) {
	case X_CORE:
		attr->core_relos = (uintptr_t)&relo;
		attr->core_relo_cnt = 1;
		attr->core_relo_rec_size = sizeof(relo);
		break;
	case X_FUNC:
		attr->func_info = (uintptr_t)&func;
		attr->func_info_cnt = 1;
		attr->func_info_rec_size = sizeof(func);
		break;
	case X_LINE:
		attr->line_info = (uintptr_t)&line;
		attr->line_info_cnt = 1;
		attr->line_info_rec_size = sizeof(line);
		break;
	case X_BTF:
		attr->prog_btf_fd = pool.nbtfs ? pool.btfs[0] : random_fd();
		if (!attr->prog_btf_fd)
			attr->prog_btf_fd = 1;
		break;
	case X_RND_HI32:
		attr->prog_flags |= BPF_F_TEST_RND_HI32;
		break;
	default:
		break;
	}
}

static long do_load(struct load *l, const char *op)
{
	const u32 sz = offsetofend(union bpf_attr, keyring_id);
	double tp = now();
	struct prediction pr = predict_load(l);
	struct ring_model rm = ring_model(l->keyring);
	u32 progs_before = 0, progs_after = 0, id = 0;
	union bpf_attr attr;
	struct pprog *p;
	double t0;
	long fd;
	int j, rfd;

	stat_time("predict_load", now() - tp);
	memset(&attr, 0, sz);
	attr.prog_type = l->prog_type;
	attr.insns = (uintptr_t)l->insns;
	attr.insn_cnt = l->cnt;
	attr.license = (uintptr_t)"GPL";
	attr.prog_flags = l->prog_flags;
	attr.fd_array = l->fd_null ? 0 : (uintptr_t)l->fds;
	attr.fd_array_cnt = l->fd_cnt;
	attr.signature = l->sig_bad_ptr ? 0x10 : l->has_sig ? (uintptr_t)l->sigbuf : 0;
	attr.signature_size = l->sig_size;
	attr.keyring_id = l->keyring;
	set_extra(l, &attr);
	if (l->log == 0) {
		attr.log_buf = (uintptr_t)vlog;
		attr.log_size = sizeof(vlog);
		attr.log_level = 1;
	} else if (l->log == 2) {
		attr.log_buf = (uintptr_t)tiny_log;
		attr.log_size = sizeof(tiny_log);
		attr.log_level = 1;
	}
	vlog[0] = 0;
	snprintf(attr.prog_name, sizeof(attr.prog_name), "fz_t%d", l->t);
	op_desc("BPF_PROG_LOAD template %d, %s, key %s%s, keyring %d, fd_array_cnt %u%s, log %d%s",
		l->t, l->has_sig ? "signed" : "unsigned", key_names[l->key],
		l->attrs ? " (attrs)" : "", l->keyring, l->fd_cnt, l->fd_null ? " (NULL)" : "",
		l->log, l->what);
	/* a rejected load must leave no program behind */
	while (!bpf_prog_get_next_id(id, &id))
		progs_before++;
	t0 = now();
	fd = sys_bpf(BPF_PROG_LOAD, &attr, sz);
	stat_time(l->has_sig ? (l->key == K_SIGNING_EC ? "BPF_PROG_LOAD signed (ECDSA)" :
				"BPF_PROG_LOAD signed (RSA)") : "BPF_PROG_LOAD unsigned", now() - t0);
	if (fd >= 0)
		check_loaded(l, &rm, fd);
	if (pr.reached) {
		stat_note("signed loads that reached signature verification");
		if (fd >= 0)
			stat_note("signed loads verified");
		else if (fd == -EKEYREJECTED || fd == -ENOKEY || fd == -EBADMSG ||
			 fd == -EKEYREVOKED)
			stat_note(fd == -EKEYREJECTED ? "verification: EKEYREJECTED" :
				  fd == -ENOKEY ? "verification: ENOKEY" :
				  fd == -EBADMSG ? "verification: EBADMSG" : "verification: EKEYREVOKED");
		else if (fd == -EPERM)
			stat_note("verified, refused by bpf_sig_enforce (caller keyring)");
		else
			stat_note("verification: other errno");
	}
	if (vlog[0] && strstr(vlog, "signature verification failed"))
		stat_note("log lines: signature verification failed");
	if (vlog[0] && strstr(vlog, "bpf_sig_enforce:"))
		stat_note("log lines: bpf_sig_enforce refusals");
	/*
	 * bpf_vlog_finalize(): a log that did not fit turns whatever
	 * bpf_check() decided into ENOSPC, and log_true_size says whether it
	 * did (0 for a refusal before bpf_check() logs)
	 */
	if (l->log == 2 && attr.log_true_size > sizeof(tiny_log))
		pr.e = EXPECT_FAIL(ENOSPC, "a truncated verifier log");
	expect_check(op, pr.e, fd);
	if (fd < 0) {
		id = 0;
		while (!bpf_prog_get_next_id(id, &id))
			progs_after++;
		if (progs_after != progs_before)
			violation("a rejected load changed the number of programs (%u -> %u)",
				  progs_before, progs_after);
		return fd;
	}
	p = pool_add_prog(fd, l->t, tmpl_is_loader(l->t) ? PK_LOADER : PK_FILTER,
			  l->has_sig ? pr.vc : VC_UNSIGNED);
	if (l->has_sig && p->vc == VC_UNSIGNED)
		p->vc = rm.system ? VC_TRUSTED : VC_USER;
	p->nref = tmpls[l->t].nref;
	for (j = 0; j < p->nref; j++) {
		p->ref[j] = ref_obj(l, j, &rfd);
		if (p->ref[j])
			mobj_get(p->ref[j]);
	}
	vlog_line("loaded fd %ld, %s", fd, kind_str(p->vc));
	if (p->kind == PK_FILTER)
		check_run(p, 64, "prog_run_after_load");
	return fd;
}

/* ---- building a load ---- */

static bool meta_for(const struct pmap *m, int t)
{
	const struct mobj *o = m->o;

	return o->type == BPF_MAP_TYPE_ARRAY && o->max_entries == 1 && o->excl &&
	       o->frozen && o->known && !memcmp(o->excl_hash, tmpls[t].digest, 32);
}

static int cur_t;
static bool meta_cur(const struct pmap *m)
{
	return meta_for(m, cur_t);
}

/* a frozen exclusive metadata map of template t, from the pool or new */
static int get_meta(int t, const int *have, int nhave)
{
	struct pmap *m;
	int tries, i;

	cur_t = t;
	for (tries = 0; tries < 3 && rnd_chance(4, 5); tries++) {
		m = pick_map(meta_cur);
		if (!m)
			break;
		for (i = 0; i < nhave && have[i] != m->fd; i++)
			;
		if (i == nhave)
			return m->fd;
	}
	if (t == T_FIXTURE)
		return meta_map_for(t, 64, rnd_chance(1, 3) ? 0xf1ull << 56 | 2 : 0xf1ull << 56);
	{
		u32 vs;
		u64 pat;

		pick_meta(&vs, &pat);
		return meta_map_for(t, vs, pat);
	}
}

static void mutate_sig(struct load *l, u32 orig)
{
	u32 i, n;

	l->sig_size = orig;
	switch (rnd_below(20)) {
	case 0: case 1: case 2:
		n = 1 + rnd_below(3);
		strcat(l->what, ", bit flips at");
		for (i = 0; i < n; i++) {
			u32 bit = rnd_below(8), at = rnd_below(orig);

			l->sigbuf[at] ^= 1 << bit;
			l->flips[l->nflips++] = at;
			snprintf(l->what + strlen(l->what), sizeof(l->what) - strlen(l->what),
				 " %u.%u/%u", at, bit, orig);
		}
		break;
	case 3:
		l->sig_size = rnd_below(orig);
		strcat(l->what, ", truncated");
		break;
	case 4:
		l->sig_size = 1 + rnd_below(700);
		rnd_bytes(l->sigbuf, l->sig_size);
		strcat(l->what, ", garbage");
		break;
	case 5:
		l->sig_size = 0;
		strcat(l->what, ", signature_size 0");
		break;
	case 6:
		l->sig_size = SIG_MAX_SIZE + 1 + rnd_below(4000);
		rnd_bytes(l->sigbuf + orig, l->sig_size - orig);
		strcat(l->what, ", signature_size > 8192");
		break;
	case 7:
		l->sig_size = SIG_MAX_SIZE;
		memset(l->sigbuf + orig, 0, SIG_MAX_SIZE - orig);
		strcat(l->what, ", padded to 8192");
		break;
	case 8:
		l->sig_size = orig + 1 + rnd_below(16);
		rnd_bytes(l->sigbuf + orig, l->sig_size - orig);
		strcat(l->what, ", trailing bytes");
		break;
	case 9:
		l->has_sig = false;
		strcat(l->what, ", NULL signature with a size");
		return;
	case 10:
		l->sig_bad_ptr = true;
		strcat(l->what, ", unreadable signature pointer");
		return;
	case 11:
		/* the last byte: inside the signature value */
		l->sigbuf[orig - 1] ^= 1 << rnd_below(8);
		strcat(l->what, ", last byte flipped");
		break;
	default:
		return;
	}
	l->sig_intact = false;
}

static void mutate_fds(struct load *l, int nmeta)
{
	u32 i = nmeta ? rnd_below(nmeta) : 0, j;
	int tmp;

	switch (rnd_below(12)) {
	case 0:
		if (nmeta >= 2) {
			j = (i + 1) % nmeta;
			tmp = l->fds[i], l->fds[i] = l->fds[j], l->fds[j] = tmp;
			strcat(l->what, ", fd_array swapped");
		}
		break;
	case 1:
		if (nmeta) {
			l->fds[i] = random_fd();
			strcat(l->what, ", fd_array entry replaced");
		}
		break;
	case 2:
		if (nmeta) {
			l->fds[i] = get_meta(l->t, l->fds, nmeta);
			strcat(l->what, ", another metadata map");
		}
		break;
	case 3:
		if (nmeta >= 2) {
			l->fds[i] = l->fds[(i + 1) % nmeta];
			strcat(l->what, ", fd_array duplicate");
		}
		break;
	case 4:
		if (l->fd_cnt) {
			l->fd_cnt--;
			strcat(l->what, ", fd_array_cnt - 1");
		}
		break;
	case 5:
		l->fd_cnt++;
		strcat(l->what, ", fd_array_cnt + 1");
		break;
	case 6:
		l->fd_cnt = 129 + rnd_below(FDA_MAX - 129);
		strcat(l->what, ", fd_array_cnt > 128");
		break;
	case 7:
		l->fd_null = true;
		strcat(l->what, ", fd_array NULL");
		break;
	case 8:
		l->fd_cnt = 0;
		strcat(l->what, ", fd_array_cnt 0");
		break;
	case 9:
		if (nmeta && pool.nmaps) {
			l->fds[i] = pool.maps[rnd_below(pool.nmaps)].fd;
			strcat(l->what, ", a random pool map");
		}
		break;
	case 10:
		if (pool.nbtfs) {
			l->fds[nmeta ? i : 0] = pool.btfs[rnd_below(pool.nbtfs)];
			if (!nmeta)
				l->fd_cnt = 1;
			strcat(l->what, ", a BTF fd");
		}
		break;
	default:
		if (nmeta) {
			l->fds[i] = closed_fd();
			strcat(l->what, ", a closed fd");
		}
	}
}

static void mutate_payload(struct load *l, int nmeta)
{
	size_t ilen = l->cnt * sizeof(struct bpf_insn);

	switch (rnd_below(5)) {
	case 0: {
		u32 bit = rnd_below(8);

		l->payload[rnd_below(l->payload_len)] ^= 1 << bit;
		strcat(l->what, ", signed a flipped byte");
		break;
	}
	case 1:
		l->payload_len--;
		strcat(l->what, ", signed one byte less");
		break;
	case 2:
		l->payload = realloc(l->payload, l->payload_len + 1);
		l->payload[l->payload_len++] = rnd();
		strcat(l->what, ", signed one byte more");
		break;
	case 3:
		/* the metadata without the instructions */
		memmove(l->payload, l->payload + ilen, l->payload_len - ilen);
		l->payload_len -= ilen;
		strcat(l->what, ", signed the metadata only");
		break;
	default:
		/* the instructions only */
		l->payload_len = ilen;
		strcat(l->what, ", signed the instructions only");
	}
}

static int pick_key(void)
{
	static const u32 w[NKEYS] = { [K_SIGNING] = 34, [K_SIGNING_EC] = 14, [K_TEAM] = 14,
				      [K_UNTRUSTED] = 24, [K_REVOKED] = 8, [K_CA] = 6 };

	return rnd_weighted(w, NKEYS);
}

static void fill_extra(struct load *l, int from)
{
	int i;

	for (i = from; i < FDA_MAX; i++)
		l->fds[i] = rnd_chance(1, 2) && pool.nmaps ? pool.maps[rnd_below(pool.nmaps)].fd :
			    rnd_chance(1, 2) ? closed_fd() : -1;
}

static void build_common(struct load *l, int t)
{
	memset(l, 0, sizeof(*l));
	l->t = t;
	l->prog_type = tmpls[t].prog_type;
	l->prog_flags = tmpls[t].prog_flags;
	if (rnd_chance(1, 40))
		l->prog_flags ^= 1u << rnd_below(8);
	l->raw_fd = -1;
	if (tmpls[t].raw0)
		l->raw_fd = rnd_chance(7, 8) && pool.nmaps ? pool.maps[rnd_below(pool.nmaps)].fd :
			    random_fd();
	l->cnt = tmpl_insns(t, l->raw_fd, l->insns);
	l->log = rnd_chance(17, 20) ? 0 : rnd_chance(2, 3) ? 1 : 2;
	l->what[0] = 0;
}

static void load_signed(int t, const char *op)
{
	static struct load l;
	int nidx = tmpls[t].nref - tmpls[t].raw0, nmeta, i;
	const u8 *sig;
	size_t off;
	int n;

	build_common(&l, t);
	nmeta = tmpl_is_loader(t) ? (int)rnd_below(3) : nidx + (rnd_chance(1, 3) ? 1 : 0);
	if (rnd_chance(1, 16))
		nmeta = rnd_below(6);
	for (i = 0; i < nmeta; i++) {
		l.fds[i] = get_meta(t, l.fds, i);
		if (l.fds[i] < 0)
			l.fds[i] = closed_fd();
	}
	fill_extra(&l, nmeta);
	l.fd_cnt = nmeta;
	/* payload = insns || metadata, as the model has it */
	l.payload_len = l.cnt * sizeof(struct bpf_insn);
	for (i = 0; i < nmeta; i++) {
		struct mobj *o = pool_mobj_of_fd(l.fds[i]);

		if (o)
			l.payload_len += o->value_size;
	}
	l.payload = malloc(l.payload_len + 1);
	memcpy(l.payload, l.insns, l.cnt * sizeof(struct bpf_insn));
	off = l.cnt * sizeof(struct bpf_insn);
	for (i = 0; i < nmeta; i++) {
		struct mobj *o = pool_mobj_of_fd(l.fds[i]);

		if (!o)
			continue;
		memcpy(l.payload + off, model_single_value(o), o->value_size);
		off += o->value_size;
	}
	if (rnd_chance(1, 10))
		mutate_payload(&l, nmeta);
	/* beyond the bound the kernel refuses before hashing: sign something small */
	if (l.payload_len > SIGNED_MAX) {
		l.payload_len = l.cnt * sizeof(struct bpf_insn);
		strcat(l.what, ", above 16 MiB (signed the instructions)");
	}
	l.key = pick_key();
	l.keyring = pick_keyring();
	/* half the time a key the keyring holds: loads that verify go further */
	if (rnd_chance(1, 2)) {
		u32 held = ring_model(l.keyring).present & ~(1u << K_REVOKED);

		if (held && !(held & 1u << l.key))
			while (!(held & 1u << (l.key = rnd_below(NKEYS))))
				;
	}
	l.attrs = rnd_chance(1, 5);
	if (rnd_chance(1, 10)) {
		l.extra = 1 + rnd_below(X_NR - 1);
		strcat(l.what, ", with ");
		strcat(l.what, extra_names[l.extra]);
		stat_note("signed loads with an unsigned rewrite or annotation");
	}
	n = sig_make(l.key, l.payload, l.payload_len, l.attrs, &sig);
	if (n < 1 || n > 4096)
		violation("cannot sign with %s", key_names[l.key]);
	memcpy(l.sigbuf, sig, n);
	l.orig_sig = sig;
	l.orig_len = n;
	l.has_sig = true;
	l.sig_intact = true;
	if (rnd_chance(7, 20))
		mutate_sig(&l, n);
	else
		l.sig_size = n;
	if (rnd_chance(1, 4))
		mutate_fds(&l, nmeta);
	do_load(&l, op);
	free(l.payload);
}

static void load_unsigned(int t, const char *op)
{
	static struct load l;
	int nidx = tmpls[t].nref - tmpls[t].raw0, i;

	build_common(&l, t);
	for (i = 0; i < nidx; i++)
		l.fds[i] = rnd_chance(1, 2) ? get_meta(t, l.fds, i) :
			   pool.nmaps ? pool.maps[rnd_below(pool.nmaps)].fd : closed_fd();
	fill_extra(&l, nidx);
	/* the old sparse fd_array, or every entry bound with fd_array_cnt */
	l.fd_cnt = rnd_chance(1, 2) ? 0 : nidx;
	if (rnd_chance(1, 6))
		mutate_fds(&l, nidx);
	if (rnd_chance(1, 16)) {
		l.sig_size = rnd_below(2) ? 100 : 0;
		l.keyring = rnd_chance(1, 2) ? pick_keyring() : 0;
		strcat(l.what, ", signature_size/keyring_id without signature");
	}
	l.key = K_SIGNING;
	do_load(&l, op);
}

void op_prog_load_signed(void)
{
	int t = rnd_chance(1, 16) ? T_FIXTURE : rnd_below(NT_FILTER);

	load_signed(t, "prog_load_signed");
}

void op_prog_load_unsigned(void)
{
	load_unsigned(rnd_chance(1, 16) ? T_FIXTURE : rnd_below(NT_FILTER), "prog_load_unsigned");
}

void op_loader_load(void)
{
	int t = rnd_chance(1, 2) ? T_LOADER0 : T_LOADER1;

	if (rnd_chance(3, 4))
		load_signed(t, "loader_load_signed");
	else
		load_unsigned(t, "loader_load_unsigned");
}

static bool is_filter(int i)
{
	return pool.progs[i].kind == PK_FILTER || pool.progs[i].kind == PK_CHILD;
}

void op_prog_run(void)
{
	static const u32 sizes[] = { 64, 64, 64, 14, 13, 0, 1500, 4096 };
	int cand[MAX_PROGS], n = 0, i;

	for (i = 0; i < pool.nprogs; i++)
		if (is_filter(i))
			cand[n++] = i;
	if (!n)
		return;
	i = rnd_below(ARRAY_SIZE(sizes));
	check_run(&pool.progs[cand[rnd_below(n)]], sizes[i], "prog_run");
}
