/* SPDX-License-Identifier: GPL-2.0 */
/* Reports: one code path prints "key: value" lines or a JSON object. */
#ifndef BPFSIGN_OUT_H
#define BPFSIGN_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "libbpfsign.h"

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

/* The fields of a parsed signature, shared by inspect and verify. */
void out_info(struct out *o, const struct bpfsign_info *info);

#endif /* BPFSIGN_OUT_H */
