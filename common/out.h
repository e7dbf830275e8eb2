/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reports: one code path prints "key: value" lines or one JSON object, so
 * the two forms of a report always carry the same keys in the same order.
 *
 *   plain   key: value          booleans yes/no, strings as they are
 *   JSON    {"key": value, ...}  booleans true/false, keys and strings escaped
 *   record  {"key":value,...}    JSON without spaces: one record of a JSON
 *                                lines stream (bpfsign-policy log)
 */
#ifndef KIT_OUT_H
#define KIT_OUT_H

#include <stdbool.h>
#include <stdio.h>

struct out {
	FILE *f;
	bool json;
	bool compact;	/* record: no spaces */
	int n;		/* fields printed so far: the JSON separator */
};

void out_begin(struct out *o, FILE *f, bool json);
/* One JSON object without spaces, for a stream of JSON lines. */
void out_begin_record(struct out *o, FILE *f);
void out_str(struct out *o, const char *key, const char *val);
void out_int(struct out *o, const char *key, long long val);
void out_bool(struct out *o, const char *key, bool val);
/* JSON null; "-" in a plain report. */
void out_null(struct out *o, const char *key);
/* The n bytes at p as lowercase hex, no separator ("" for none). */
void out_hex(struct out *o, const char *key, const void *p, size_t n);
/* A failure as fields: "error" (the errno's name), "errno" (-err), "reason". */
void out_error(struct out *o, const char *name, int err, const char *reason);
void out_end(struct out *o);

#endif /* KIT_OUT_H */
