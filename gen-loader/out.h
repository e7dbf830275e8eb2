/* SPDX-License-Identifier: GPL-2.0 */
/* Reports: one code path prints "key: value" lines or one JSON object. */
#ifndef GEN_LOADER_OUT_H
#define GEN_LOADER_OUT_H

#include <stdbool.h>
#include <stdio.h>

struct out {
	FILE *f;
	bool json;
	int n;
};

void out_begin(struct out *o, FILE *f, bool json);
void out_str(struct out *o, const char *key, const char *val);
void out_int(struct out *o, const char *key, long long val);
void out_bool(struct out *o, const char *key, bool val);
void out_end(struct out *o);

#endif /* GEN_LOADER_OUT_H */
