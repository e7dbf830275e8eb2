/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reports: one code path prints "key: value" lines or one JSON object, so
 * the two forms of a report always carry the same keys in the same order.
 *
 *   plain   key: value          booleans yes/no, strings as they are
 *   JSON    {"key": value, ...}  booleans true/false, keys and strings escaped
 */
#ifndef KIT_OUT_H
#define KIT_OUT_H

#include <stdbool.h>
#include <stdio.h>

struct out {
	FILE *f;
	bool json;
	int n;		/* fields printed so far: the JSON separator */
};

void out_begin(struct out *o, FILE *f, bool json);
void out_str(struct out *o, const char *key, const char *val);
void out_int(struct out *o, const char *key, long long val);
void out_bool(struct out *o, const char *key, bool val);
/* A failure as fields: "error" (the errno's name), "errno" (-err), "reason". */
void out_error(struct out *o, const char *name, int err, const char *reason);
void out_end(struct out *o);

#endif /* KIT_OUT_H */
