// SPDX-License-Identifier: GPL-2.0
/*
 * The header format, line by line; other lines are C and are skipped:
 *   / * @bpfsign format 1 * /             or 2 (lskel.h: enum lskel_format)
 *   / * @bpfsign name NAME * /
 *   / * @bpfsign keyring-id N * /
 *   / * @bpfsign begin REGION LEN * /     REGION: insns data excl_hash signature
 *   <TAB>"\xHH...\xHH"                     1 to 16 bytes a line
 *   / * @bpfsign end REGION * /
 * Each marker exactly once, blocks not nested, LEN the number of bytes.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpftool_skel.h"
#include "err.h"
#include "hex.h"
#include "lskel.h"

#define MARK "/* @bpfsign "
#define MARK_END " */"
#define HEX_PER_LINE 16

struct parser {
	const char *path;
	const char *text;
	size_t len;
	size_t pos;		/* start of the current line */
	size_t lineno;
	struct lskel *h;
	int cur;		/* region of the open block, or -1 */
	size_t want;		/* bytes the open block declared */
	bool seen_format, seen_name, seen_keyring;
};

static int bad(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bad(struct parser *p, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return kit_err(-ENOEXEC, "%s:%zu: not a gen-loader header: %s", p->path, p->lineno, msg);
}

/* A decimal number that is all of s[0..n): 0 on success. */
static int parse_num(const char *s, size_t n, bool neg_ok, long long max, long long *out)
{
	long long v = 0;
	bool neg = false;
	size_t i = 0;

	if (n && s[0] == '-' && neg_ok) {
		neg = true;
		i = 1;
	}
	if (i == n || n - i > 10)
		return -1;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	if (v > max)
		return -1;
	*out = neg ? -v : v;
	return 0;
}

static int region_of(const char *s, size_t n)
{
	int i;

	for (i = 0; i < NR_REGIONS; i++)
		if (strlen(lskel_region_names[i]) == n &&
		    !memcmp(s, lskel_region_names[i], n))
			return i;
	return -1;
}

/* Is word (of n bytes) followed by a space at s[0..len)?  Advances s. */
static bool take_word(const char **s, size_t *len, const char *word)
{
	size_t n = strlen(word);

	if (*len < n + 1 || memcmp(*s, word, n) || (*s)[n] != ' ')
		return false;
	*s += n + 1;
	*len -= n + 1;
	return true;
}

/* The marker line s[0..len), the "/ * @bpfsign " and " * /" stripped. */
static int parse_marker(struct parser *p, const char *s, size_t len)
{
	struct lskel *h = p->h;
	const char *sp;
	long long v;
	int r;

	if (take_word(&s, &len, "format")) {
		if (p->seen_format)
			return bad(p, "a second format marker");
		if (parse_num(s, len, false, INT_MAX, &v) ||
		    (v != LSKEL_FORMAT_TRAILER && v != LSKEL_FORMAT_NO_TRAILER))
			return bad(p, "format '%.*s': only formats 1 and 2 are known", (int)len, s);
		p->seen_format = true;
		h->format = (int)v;
		return 0;
	}
	if (!p->seen_format)
		return bad(p, "a marker before the format marker");
	if (take_word(&s, &len, "name")) {
		if (p->seen_name)
			return bad(p, "a second name marker");
		if (!len || len >= sizeof(h->name))
			return bad(p, "name of %zu characters", len);
		for (size_t i = 0; i < len; i++)
			if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
			      (s[i] >= 'A' && s[i] <= 'Z') || (i && s[i] >= '0' && s[i] <= '9')))
				return bad(p, "name is not a C identifier");
		memcpy(h->name, s, len);
		h->name[len] = '\0';
		p->seen_name = true;
		return 0;
	}
	if (take_word(&s, &len, "keyring-id")) {
		if (p->seen_keyring)
			return bad(p, "a second keyring-id marker");
		if (parse_num(s, len, true, INT_MAX, &v))
			return bad(p, "keyring-id '%.*s' is not a 32-bit number", (int)len, s);
		h->keyring_id = (int)v;
		p->seen_keyring = true;
		return 0;
	}
	if (take_word(&s, &len, "begin")) {
		sp = memchr(s, ' ', len);
		if (!sp)
			return bad(p, "begin marker without a length");
		r = region_of(s, (size_t)(sp - s));
		if (r < 0)
			return bad(p, "unknown region '%.*s'", (int)(sp - s), s);
		if (p->cur >= 0)
			return bad(p, "region %s begins inside region %s",
				   lskel_region_names[r], lskel_region_names[p->cur]);
		if (h->r[r].end)
			return bad(p, "a second %s region", lskel_region_names[r]);
		len -= (size_t)(sp - s) + 1;
		s = sp + 1;
		if (parse_num(s, len, false, LSKEL_MAX_REGION, &v))
			return bad(p, "region %s: length '%.*s' is not a number up to %u",
				   lskel_region_names[r], (int)len, s, LSKEL_MAX_REGION);
		p->cur = r;
		p->want = (size_t)v;
		h->r[r].begin = p->pos;
		h->r[r].len = 0;
		h->r[r].buf = malloc(p->want ? p->want : 1);
		if (!h->r[r].buf)
			return kit_err(-ENOMEM, "%s: %s", p->path, strerror(ENOMEM));
		return 0;
	}
	return bad(p, "unknown marker '%.*s'", (int)len, s);
}

static int parse_end(struct parser *p, const char *s, size_t len, size_t next)
{
	struct lskel_block *b;
	int r = region_of(s, len);

	if (r < 0)
		return bad(p, "end of unknown region '%.*s'", (int)len, s);
	if (p->cur != r)
		return bad(p, "end of region %s, which is not open", lskel_region_names[r]);
	b = &p->h->r[r];
	if (b->len != p->want)
		return bad(p, "region %s holds %zu bytes, its begin marker says %zu",
			   lskel_region_names[r], b->len, p->want);
	b->end = next;
	p->cur = -1;
	return 0;
}

/* <TAB>"\xHH...": appended to the open block. */
static int parse_hex(struct parser *p, const char *s, size_t len)
{
	struct lskel_block *b = &p->h->r[p->cur];
	size_t i, n;
	int hi, lo;

	if (len < 3 || s[0] != '\t' || s[1] != '"' || s[len - 1] != '"')
		return bad(p, "region %s: not a line of hex bytes", lskel_region_names[p->cur]);
	s += 2;
	len -= 3;
	if (len == 0 || len % 4)
		return bad(p, "region %s: not a line of \\xHH bytes", lskel_region_names[p->cur]);
	n = len / 4;
	if (n > HEX_PER_LINE)
		return bad(p, "region %s: more than %d bytes on a line",
			   lskel_region_names[p->cur], HEX_PER_LINE);
	if (n > p->want - b->len)
		return bad(p, "region %s: more bytes than its begin marker says (%zu)",
			   lskel_region_names[p->cur], p->want);
	for (i = 0; i < n; i++, s += 4) {
		hi = hex_digit(s[2]);
		lo = hex_digit(s[3]);
		if (s[0] != '\\' || s[1] != 'x' || hi < 0 || lo < 0)
			return bad(p, "region %s: '%.4s' is not a \\xHH byte",
				   lskel_region_names[p->cur], s);
		b->buf[b->len++] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

static int parse_line(struct parser *p, const char *s, size_t len, size_t next)
{
	const size_t ml = strlen(MARK), el = strlen(MARK_END);
	bool marker = len >= ml + el && !memcmp(s, MARK, ml) &&
		      !memcmp(s + len - el, MARK_END, el);

	if (marker) {
		s += ml;
		len -= ml + el;
		if (len > 4 && !memcmp(s, "end ", 4))
			return parse_end(p, s + 4, len - 4, next);
		return parse_marker(p, s, len);
	}
	if (p->cur >= 0)
		return parse_hex(p, s, len);
	if (len >= ml && !memcmp(s, MARK, ml))
		return bad(p, "malformed marker line");
	return 0;
}

int lskel_parse(const char *path, const char *text, size_t len, struct lskel *h)
{
	struct parser p = { .path = path, .text = text, .len = len, .h = h, .cur = -1 };
	const char *nl;
	size_t n, next;
	int err, i;

	memset(h, 0, sizeof(*h));
	if (len > LSKEL_MAX_SIZE)
		return kit_err(-ENOEXEC, "%s: not a gen-loader header: larger than %u bytes",
			       path, LSKEL_MAX_SIZE);
	/* upstream's generator: the same payload, in other arrays */
	if (!memmem(text, len, MARK "format ", strlen(MARK "format ")) &&
	    bpftool_skel_is(text, len))
		return bpftool_skel_parse(path, text, len, h);
	while (p.pos < len) {
		p.lineno++;
		nl = memchr(text + p.pos, '\n', len - p.pos);
		n = nl ? (size_t)(nl - (text + p.pos)) : len - p.pos;
		next = nl ? p.pos + n + 1 : len;
		if (memchr(text + p.pos, '\0', n)) {
			err = bad(&p, "a NUL byte");
			goto fail;
		}
		if (!nl && p.cur >= 0) {
			err = bad(&p, "truncated: region %s ends mid-line",
				  lskel_region_names[p.cur]);
			goto fail;
		}
		err = parse_line(&p, text + p.pos, n, next);
		if (err)
			goto fail;
		p.pos = next;
	}
	p.lineno++;
	if (p.cur >= 0) {
		err = bad(&p, "truncated: region %s does not end", lskel_region_names[p.cur]);
		goto fail;
	}
	if (!p.seen_format || !p.seen_name || !p.seen_keyring) {
		err = kit_err(-ENOEXEC, "%s: not a gen-loader header: no %s marker", path,
			      !p.seen_format ? "format" : !p.seen_name ? "name" : "keyring-id");
		goto fail;
	}
	for (i = 0; i < NR_REGIONS; i++) {
		if (!h->r[i].end) {
			err = kit_err(-ENOEXEC, "%s: not a gen-loader header: no %s region",
				      path, lskel_region_names[i]);
			goto fail;
		}
	}
	if (!h->r[R_INSNS].len || h->r[R_INSNS].len % 8) {
		err = kit_err(-ENOEXEC, "%s: not a gen-loader header: insns of %zu bytes is not a whole number of instructions",
			      path, h->r[R_INSNS].len);
		goto fail;
	}
	if (!h->r[R_DATA].len) {
		err = kit_err(-ENOEXEC, "%s: not a gen-loader header: empty data region", path);
		goto fail;
	}
	if (h->r[R_EXCL_HASH].len != 32) {
		err = kit_err(-ENOEXEC, "%s: not a gen-loader header: excl_hash of %zu bytes, not 32",
			      path, h->r[R_EXCL_HASH].len);
		goto fail;
	}
	return 0;
fail:
	lskel_free(h);
	return err;
}
