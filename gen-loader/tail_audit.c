// SPDX-License-Identifier: GPL-2.0
/*
 * The unsigned C after the arrays of a format 2 header, checked for the
 * structure gen-loader writes (tail_audit.h says what, and what not).  The
 * C is split into tokens first (comments skipped, literals whole), then
 * each rule looks at a token, its neighbours, or its line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "loader.h"
#include "skel.h"
#include "tail_audit.h"

enum tok_kind { T_IDENT, T_NUM, T_LIT, T_PUNCT };

struct tok {
	int kind;
	const char *s;
	size_t n;
	size_t line;		/* of c, from 1 */
};

/* Functions the C may call besides NAME__*: skel_internal.h's, and libc's two. */
static const char *const calls[] = {
	"if", "return", "sizeof", "__typeof__", "_Static_assert", "__attribute__",
	"sysconf", "mprotect", "bpf_load_and_run",
	"skel_alloc", "skel_free", "skel_prep_map_data", "skel_finalize_map_data",
	"skel_free_map_data", "skel_closenz", "skel_raw_tracepoint_open", "skel_link_create",
};

/* Preprocessor lines after the arrays (the asserts' C++ spelling). */
static const char *const directives[] = {
	"#ifdef __cplusplus",
	"#define _Static_assert static_assert",
	"#undef _Static_assert",
	"#endif",
};

struct audit {
	const char *c;
	size_t len;
	const char *name;
	size_t data_sz;
	size_t first_line;
	char *reason;
	size_t reason_sz;
	size_t *line;
	struct tok *t;
	size_t nr, cap;
	size_t *starts;		/* starts[i]: offset of line i + 1 */
	size_t nr_lines;
	char lines[NR_SKEL_LINES][SKEL_LINE_MAX];	/* skel_line()s of NAME */
	char guard_end[NAME_MAX_LEN + 32];	/* "#endif / * __NAME_LSKEL_H__ * /" */
};

static bool bad(struct audit *a, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool bad(struct audit *a, size_t line, const char *fmt, ...)
{
	va_list ap;
	int n;

	*a->line = line ? a->first_line + line - 1 : 0;
	n = line ? snprintf(a->reason, a->reason_sz, "line %zu: ", *a->line) : 0;
	if (n < 0 || (size_t)n >= a->reason_sz)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(a->reason + n, a->reason_sz - (size_t)n, fmt, ap);
	va_end(ap);
	return true;
}

/* Line i (from 1) without leading and trailing blanks. */
static void line_of(const struct audit *a, size_t i, const char **s, size_t *n)
{
	const char *b = a->c + a->starts[i - 1];
	const char *e = i < a->nr_lines ? a->c + a->starts[i] - 1 : a->c + a->len;

	while (b < e && (*b == ' ' || *b == '\t'))
		b++;
	while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
		e--;
	*s = b;
	*n = (size_t)(e - b);
}

static bool line_is(const struct audit *a, size_t i, const char *want)
{
	const char *s;
	size_t n;

	line_of(a, i, &s, &n);
	return n == strlen(want) && !memcmp(s, want, n);
}

static bool tok_is(const struct tok *t, const char *s)
{
	return t->n == strlen(s) && !memcmp(t->s, s, t->n);
}

static bool is_ident(char ch, bool first)
{
	return ch == '_' || ch == '$' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (!first && ch >= '0' && ch <= '9');
}

static bool push(struct audit *a, int kind, const char *s, size_t n, size_t line)
{
	struct tok *nt;

	if (a->nr == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 1024;
		nt = realloc(a->t, a->cap * sizeof(*a->t));
		if (!nt)
			return bad(a, 0, "out of memory");
		a->t = nt;
	}
	a->t[a->nr++] = (struct tok){ kind, s, n, line };
	return false;
}

/* Lines and tokens; true (with the reason) on what the rules refuse here. */
static bool tokenize(struct audit *a)
{
	const char *c = a->c, *e;
	size_t i = 0, line = 1, n;
	char q;

	for (i = 0, n = 1; i < a->len; i++)
		n += c[i] == '\n' && i + 1 < a->len;
	a->starts = malloc(n * sizeof(*a->starts));
	if (!a->starts)
		return bad(a, 0, "out of memory");
	a->starts[a->nr_lines++] = 0;
	for (i = 0; i < a->len; i++)
		if (c[i] == '\n' && i + 1 < a->len)
			a->starts[a->nr_lines++] = i + 1;
	/* trigraphs are replaced before anything else, in -std=c11 */
	if (memmem(c, a->len, "??", 2))
		return bad(a, 0, "'?\?', a trigraph in ISO C");
	for (i = 0; i < a->len;) {
		if (c[i] == '\n') {
			line++;
			i++;
		} else if (c[i] == ' ' || c[i] == '\t' || c[i] == '\r') {
			i++;
		} else if (c[i] == '\\') {
			return bad(a, line, "a backslash outside a literal (a line continuation, a \\u name)");
		} else if (c[i] == '/' && i + 1 < a->len && c[i + 1] == '/') {
			e = memchr(c + i, '\n', a->len - i);
			n = e ? (size_t)(e - (c + i)) : a->len - i;
			if (memchr(c + i, '\\', n))
				return bad(a, line, "a backslash in a // comment (it may continue it)");
			i += n;
		} else if (c[i] == '/' && i + 1 < a->len && c[i + 1] == '*') {
			e = memmem(c + i + 2, a->len - i - 2, "*/", 2);
			if (!e)
				return bad(a, line, "a comment that does not end");
			for (; c + i < e + 2; i++)
				line += c[i] == '\n';
		} else if (c[i] == '"' || c[i] == '\'') {
			q = c[i];
			for (n = i + 1; n < a->len && c[n] != q && c[n] != '\n'; n++)
				if (c[n] == '\\' && ++n < a->len && c[n] == '\n')
					break;
			if (n >= a->len || c[n] != q)
				return bad(a, line, "a literal that does not end on its line");
			if (push(a, T_LIT, c + i, n + 1 - i, line))
				return true;
			i = n + 1;
		} else if (is_ident(c[i], true)) {
			for (n = i + 1; n < a->len && is_ident(c[n], false); n++)
				;
			if (push(a, T_IDENT, c + i, n - i, line))
				return true;
			i = n;
		} else if (c[i] >= '0' && c[i] <= '9') {
			for (n = i + 1; n < a->len && (is_ident(c[n], false) || c[n] == '.'); n++)
				;
			if (push(a, T_NUM, c + i, n - i, line))
				return true;
			i = n;
		} else if ((unsigned char)c[i] < 0x20 || (unsigned char)c[i] >= 0x7f) {
			return bad(a, line, "byte 0x%02x outside a literal or comment",
				   (unsigned char)c[i]);
		} else if (c[i] == '%' && i + 1 < a->len && c[i + 1] == ':') {
			return bad(a, line, "'%%:' (the digraph of '#')");
		} else {
			n = c[i] == '-' && i + 1 < a->len && c[i + 1] == '>' ? 2 : 1;
			if (push(a, T_PUNCT, c + i, n, line))
				return true;
			i += n;
		}
	}
	return false;
}

/* "skel_prep_map_data(NAME__lskel_data + OFF, NAME__mmap_sz(N), N);", inside data */
static bool is_image_line(struct audit *a, size_t i)
{
	char pre[NAME_MAX_LEN + 48], want[2 * NAME_MAX_LEN + 96], got[sizeof(want)];
	unsigned long long off, vsz;
	const char *s;
	char *end;
	size_t n;

	line_of(a, i, &s, &n);
	snprintf(pre, sizeof(pre), "skel_prep_map_data(%s__lskel_data + ", a->name);
	if (n <= strlen(pre) || n >= sizeof(got) || memcmp(s, pre, strlen(pre)))
		return false;
	/* the numbers parsed from a terminated copy: c need not end with a NUL */
	memcpy(got, s, n);
	got[n] = '\0';
	off = strtoull(got + strlen(pre), &end, 10);
	if (*end != ',' || strlen(end) < 2 + strlen(a->name) + strlen("__mmap_sz("))
		return false;
	vsz = strtoull(end + 2 + strlen(a->name) + strlen("__mmap_sz("), NULL, 10);
	snprintf(want, sizeof(want), "%s%llu, %s__mmap_sz(%llu), %llu);", pre, off, a->name, vsz,
		 vsz);
	return !strcmp(got, want) && off <= a->data_sz && vsz <= a->data_sz - off;
}

/* May line i name this token? */
static bool allowed_line(struct audit *a, const struct tok *t, size_t i)
{
	static const int opts_lines[] = { SKEL_DATA_SZ, SKEL_DATA, SKEL_INSNS_SZ, SKEL_INSNS,
					  SKEL_EXCL, SKEL_EXCL_SZ, SKEL_SIG, SKEL_SIG_SZ,
					  SKEL_KEYRING, SKEL_OPTS_DECL, SKEL_OPTS_CTX,
					  SKEL_OPTS_RUN, SKEL_OPTS_ERRSTR, -1 };
	static const int kr_lines[] = { SKEL_KEYRING, SKEL_KR_FIELD, SKEL_KR_OPEN, SKEL_KR_FUNC,
					SKEL_KR_SET, -1 };
	static const int array_lines[] = { SKEL_DATA_SZ, SKEL_DATA, SKEL_INSNS_SZ, SKEL_INSNS,
					   SKEL_EXCL, SKEL_EXCL_SZ, SKEL_IF_SIG, SKEL_SIG,
					   SKEL_SIG_SZ, SKEL_KR_OPEN, -1 };
	const int *l;
	size_t k;

	if (tok_is(t, "opts"))
		l = opts_lines;
	else if (tok_is(t, "keyring_id"))
		l = kr_lines;
	else
		l = array_lines;
	for (k = 0; l[k] >= 0; k++)
		if (line_is(a, i, a->lines[l[k]]))
			return true;
	return l == array_lines && is_image_line(a, i);
}

/* Does the token name the arrays, the load's opts or the keyring? */
static bool sensitive(const struct audit *a, size_t k)
{
	const struct tok *t = &a->t[k];

	if (t->kind != T_IDENT)
		return false;
	if (memmem(t->s, t->n, "__lskel_", 8) || memmem(t->s, t->n, "DEFAULT_KEYRING_ID", 18) ||
	    tok_is(t, "keyring_id"))
		return true;
	/* the local of NAME__load(), not a member named opts */
	return tok_is(t, "opts") &&
	       !(k && (tok_is(&a->t[k - 1], ".") || tok_is(&a->t[k - 1], "->")));
}

static bool allowed_call(const struct audit *a, const struct tok *t)
{
	size_t i, nl = strlen(a->name);

	if (t->n > nl + 2 && !memcmp(t->s, a->name, nl) && !memcmp(t->s + nl, "__", 2))
		return true;
	for (i = 0; i < ARRAY_SIZE(calls); i++)
		if (tok_is(t, calls[i]))
			return true;
	return false;
}

static bool check_tokens(struct audit *a)
{
	const struct tok *t, *next;
	size_t k, i;

	for (k = 0; k < a->nr; k++) {
		t = &a->t[k];
		next = k + 1 < a->nr ? &a->t[k + 1] : NULL;
		if (tok_is(t, "#")) {
			for (i = 0; i < ARRAY_SIZE(directives); i++)
				if (line_is(a, t->line, directives[i]))
					break;
			if (i == ARRAY_SIZE(directives) && !line_is(a, t->line, a->guard_end))
				return bad(a, t->line, "a preprocessor line gen-loader does not write after the arrays");
		}
		if (sensitive(a, k) && !allowed_line(a, t, t->line))
			return bad(a, t->line, "'%.*s' where gen-loader does not write it",
				   (int)t->n, t->s);
		if (!next || !tok_is(next, "("))
			continue;
		if (t->kind == T_IDENT && !allowed_call(a, t))
			return bad(a, t->line, "a call of '%.*s', not a function of the skeleton",
				   (int)t->n, t->s);
		/* attributes: only (unused) */
		if (tok_is(t, "__attribute__") &&
		    (k + 5 >= a->nr || !tok_is(&a->t[k + 2], "(") || !tok_is(&a->t[k + 3], "unused") ||
		     !tok_is(&a->t[k + 4], ")") || !tok_is(&a->t[k + 5], ")")))
			return bad(a, t->line, "an attribute other than __attribute__((unused))");
		/* a call through a pointer; the one cast gen-loader writes, (__u64)(long) */
		if ((tok_is(t, ")") || tok_is(t, "]")) &&
		    !(k >= 2 && tok_is(t, ")") && tok_is(&a->t[k - 1], "__u64") &&
		      tok_is(&a->t[k - 2], "(") && k + 3 < a->nr && tok_is(&a->t[k + 2], "long") &&
		      tok_is(&a->t[k + 3], ")")))
			return bad(a, t->line, "a call through a pointer");
	}
	return false;
}

/* The wiring once each, #ifdef/#endif paired, the guard's #endif last. */
static bool check_lines(struct audit *a)
{
	int seen[NR_SKEL_WIRING] = { 0 }, depth = 0, w;
	size_t i, last = 0, ends = 0;
	const char *s;
	size_t n;

	for (i = 1; i <= a->nr_lines; i++) {
		line_of(a, i, &s, &n);
		if (n)
			last = i;
		for (w = 0; w < NR_SKEL_WIRING; w++)
			seen[w] += line_is(a, i, a->lines[w]);
		if (line_is(a, i, "#ifdef __cplusplus"))
			depth++;
		if (line_is(a, i, "#endif") && --depth < 0)
			return bad(a, i, "an #endif that closes the guard early");
		ends += line_is(a, i, a->guard_end);
	}
	for (w = 0; w < NR_SKEL_WIRING; w++)
		if (seen[w] != 1)
			return bad(a, 0, "'%s' %s", a->lines[w], seen[w] ? "more than once" : "missing");
	if (depth || ends != 1 || !last || !line_is(a, last, a->guard_end))
		return bad(a, 0, "the header does not end with the guard's '%s': cut off or appended to",
			   a->guard_end);
	return false;
}

/*
 * A control byte but newline and tab, anywhere, comments and literals
 * included: gen-loader writes none, and the compiler reads some as the
 * lexer does not (a lone CR ends a // comment for gcc and clang).
 */
static bool control_byte(struct audit *a)
{
	size_t i, line = 1;

	for (i = 0; i < a->len; i++) {
		unsigned char b = (unsigned char)a->c[i];

		line += b == '\n';
		if ((b < 0x20 && b != '\n' && b != '\t') || b == 0x7f)
			return bad(a, line, "a control byte 0x%02x (gen-loader writes none; a CR ends a // comment)",
				   b);
	}
	return false;
}

bool tail_audit(const char *c, size_t len, const char *name, size_t data_sz,
		size_t first_line, char *reason, size_t reason_sz, size_t *line)
{
	struct audit a = { .c = c, .len = len, .name = name, .data_sz = data_sz,
			   .first_line = first_line, .reason = reason, .reason_sz = reason_sz,
			   .line = line };
	char guard[NAME_MAX_LEN + 16];
	bool modified;
	int i;

	for (i = 0; i < NR_SKEL_LINES; i++)
		skel_line(i, name, NULL, a.lines[i], sizeof(a.lines[i]));
	skel_guard(name, guard, sizeof(guard));
	snprintf(a.guard_end, sizeof(a.guard_end), "#endif /* %s */", guard);
	modified = !len ? bad(&a, 0, "no C after the arrays") :
		   control_byte(&a) || tokenize(&a) || check_tokens(&a) || check_lines(&a);
	free(a.t);
	free(a.starts);
	return modified;
}
