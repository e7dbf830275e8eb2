/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reports: one code path prints "key: value" lines or one JSON object, so
 * the two forms of a report always carry the same keys in the same order.
 *
 *   plain   key: value          booleans yes/no, strings as they are
 *   JSON    {"key": value, ...}  booleans true/false, keys and strings escaped
 *   pretty  the same JSON, one key a line, indented by 4 (bpftool's -p)
 *   record  {"key":value,...}    JSON without spaces: one record of a JSON
 *                                lines stream (bpfsign-policy log)
 */
#ifndef KIT_OUT_H
#define KIT_OUT_H

#include <stdbool.h>
#include <stdio.h>

/* The form of a report: -j/--json and -p/--pretty (which implies -j), as bpftool's. */
enum out_fmt { OUT_PLAIN, OUT_JSON, OUT_PRETTY };

struct out {
	FILE *f;
	bool json;
	bool pretty;
	bool compact;	/* record: no spaces */
	int n;		/* fields printed so far: the JSON separator */
};

void out_begin(struct out *o, FILE *f, enum out_fmt fmt);
/* The form the options -j/--json (json) and -p/--pretty (pretty) ask for:
 * each the option's parsed value, NULL when not given. */
enum out_fmt out_fmt(const char *json, const char *pretty);
/* One JSON object without spaces, for a stream of JSON lines. */
void out_begin_record(struct out *o, FILE *f);
void out_str(struct out *o, const char *key, const char *val);
void out_int(struct out *o, const char *key, long long val);
void out_bool(struct out *o, const char *key, bool val);
/* JSON null; "-" in a plain report. */
void out_null(struct out *o, const char *key);
/* val, or null when val is NULL or "": a value never computed, or a field
 * the input does not have, is null, never "" or 0 (vocab.h). */
void out_str_or_null(struct out *o, const char *key, const char *val);
/* val when known, else null: the same rule for a number or a boolean
 * whose input was never parsed (a count of a CMS OpenSSL could not read). */
void out_int_or_null(struct out *o, const char *key, bool known, long long val);
void out_bool_or_null(struct out *o, const char *key, bool known, bool val);
/* The n bytes at p as lowercase hex, no separator ("" for none). */
void out_hex(struct out *o, const char *key, const void *p, size_t n);
/* A failure as fields: "error" (the errno's name), "errno" (-err), "reason". */
void out_error(struct out *o, const char *name, int err, const char *reason);
/* The whole report of a failure before any verdict (an unreadable file, a
 * bad certificate): {"file", "error", "errno", "reason"}, the same four keys
 * from every command of every tool. */
void out_failure(struct out *o, enum out_fmt fmt, const char *file, int err,
		 const char *reason);
/* The errno's name, "OK" for 0 (bpfsign_errno_name()'s spelling). */
const char *out_errno_name(int err);
void out_end(struct out *o);

#endif /* KIT_OUT_H */
