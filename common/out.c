// SPDX-License-Identifier: GPL-2.0
/* Reports: one code path prints "key: value" lines or one JSON object. */
#include <stdlib.h>
#include <string.h>

#include "hex.h"
#include "out.h"

void out_begin(struct out *o, FILE *f, enum out_fmt fmt)
{
	o->f = f;
	o->json = fmt != OUT_PLAIN;
	o->pretty = fmt == OUT_PRETTY;
	o->compact = false;
	o->n = 0;
	if (o->json)
		fputc('{', f);
}

enum out_fmt out_fmt(const char *json, const char *pretty)
{
	return pretty ? OUT_PRETTY : json ? OUT_JSON : OUT_PLAIN;
}

void out_begin_record(struct out *o, FILE *f)
{
	out_begin(o, f, OUT_JSON);
	o->compact = true;
}

/* The length of the well-formed UTF-8 sequence at s (RFC 3629: no
 * overlong forms, no surrogates, nothing past U+10FFFF), or 0. */
static int utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	int n, i;

	if (*s >= 0xc2 && *s <= 0xdf)
		n = 2;
	else if (*s >= 0xe0 && *s <= 0xef)
		n = 3;
	else if (*s >= 0xf0 && *s <= 0xf4)
		n = 4;
	else
		return 0;
	if (*s == 0xe0)
		lo = 0xa0;
	else if (*s == 0xed)
		hi = 0x9f;
	else if (*s == 0xf0)
		lo = 0x90;
	else if (*s == 0xf4)
		hi = 0x8f;
	for (i = 1; i < n; i++, lo = 0x80, hi = 0xbf)
		if (s[i] < lo || s[i] > hi)
			return 0;
	return n;
}

/*
 * Only what JSON forbids raw, and DEL, is escaped: UTF-8 (issuer names,
 * paths) passes through as it is rather than being split into one bogus
 * \u00XX code point per byte.  A byte that is not part of well-formed
 * UTF-8 (a junk file quoted in a reason) would make the whole object
 * invalid JSON: it is written \u00XX, its value.
 */
static void json_str(FILE *f, const char *s)
{
	int n;

	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			fprintf(f, "\\%c", c);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
		} else if (c < 0x80) {
			fputc(c, f);
		} else if ((n = utf8_len((const unsigned char *)s))) {
			fwrite(s, 1, (size_t)n, f);
			s += n - 1;
		} else {
			fprintf(f, "\\u%04x", c);
		}
	}
	fputc('"', f);
}

static void key(struct out *o, const char *k)
{
	if (o->json && o->pretty) {
		fputs(o->n++ ? ",\n    " : "\n    ", o->f);
		json_str(o->f, k);
		fputs(": ", o->f);
	} else if (o->json) {
		if (o->n++)
			fputs(o->compact ? "," : ", ", o->f);
		json_str(o->f, k);
		fputs(o->compact ? ":" : ": ", o->f);
	} else {
		fprintf(o->f, "%s: ", k);
	}
}

/* A plain report goes to a terminal: control characters as \xHH there too. */
static void plain_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('\n', f);
}

void out_str(struct out *o, const char *k, const char *val)
{
	key(o, k);
	if (o->json)
		json_str(o->f, val);
	else
		plain_str(o->f, val);
}

void out_int(struct out *o, const char *k, long long val)
{
	key(o, k);
	fprintf(o->f, o->json ? "%lld" : "%lld\n", val);
}

void out_bool(struct out *o, const char *k, bool val)
{
	key(o, k);
	if (o->json)
		fputs(val ? "true" : "false", o->f);
	else
		fputs(val ? "yes\n" : "no\n", o->f);
}

void out_null(struct out *o, const char *k)
{
	key(o, k);
	fputs(o->json ? "null" : "-\n", o->f);
}

void out_str_or_null(struct out *o, const char *k, const char *val)
{
	if (val && *val)
		out_str(o, k, val);
	else
		out_null(o, k);
}

void out_int_or_null(struct out *o, const char *k, bool known, long long val)
{
	if (known)
		out_int(o, k, val);
	else
		out_null(o, k);
}

void out_bool_or_null(struct out *o, const char *k, bool known, bool val)
{
	if (known)
		out_bool(o, k, val);
	else
		out_null(o, k);
}

void out_hex(struct out *o, const char *k, const void *p, size_t n)
{
	char *s = malloc(2 * n + 1);

	if (!s) {
		out_null(o, k);
		return;
	}
	out_str(o, k, hex_str(s, 2 * n + 1, p, n));
	free(s);
}

void out_error(struct out *o, const char *name, int err, const char *reason)
{
	out_str(o, "error", name);
	out_int(o, "errno", -err);
	out_str(o, "reason", reason);
}

const char *out_errno_name(int err)
{
	const char *name;

	if (!err)
		return "OK";
	name = err < 0 ? strerrorname_np(-err) : NULL;
	return name ? name : "EOTHER";
}

void out_failure(struct out *o, enum out_fmt fmt, const char *file, int err,
		 const char *reason)
{
	out_begin(o, stdout, fmt);
	out_str(o, "file", file);
	out_error(o, out_errno_name(err), err, reason);
	out_end(o);
}

void out_end(struct out *o)
{
	if (o->json)
		fputs(o->pretty ? "\n}\n" : "}\n", o->f);
	/* the report is out before main() prints the failure on stderr */
	fflush(o->f);
}
