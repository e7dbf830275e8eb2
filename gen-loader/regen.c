// SPDX-License-Identifier: GPL-2.0
/* The header of a BPF object, re-generated as gen-loader writes it. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "digest.h"
#include "emit.h"
#include "err.h"
#include "loader.h"
#include "lskel.h"
#include "regen.h"
#include "trailer.h"

int parse_keyring_id(const char *s, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || !*s || *end || v < INT_MIN || v > INT_MAX)
		return kit_err(-EINVAL, "--keyring-id '%s': not a 32-bit number", s);
	*out = (int)v;
	return 0;
}

int regen_header(const struct regen_opts *o, char **buf, size_t *len)
{
	struct skel_parts parts = {
		.format = o->format,
		.keyring_id = o->keyring_id,
		.sig = o->sig,
		.sig_sz = o->sig_sz,
	};
	bool no_trailer = o->format == LSKEL_FORMAT_NO_TRAILER;
	unsigned char *data = NULL;
	__u8 excl_hash[DIGEST_SIZE];
	size_t tail_len, data_sz;
	char *tail = NULL;
	struct target t;
	struct loader l;
	int err;

	err = target_init(&t, o->target_config, o->max_cpus, o->map_size);
	if (!err)
		err = loader_gen(o->obj, o->name, o->btf, &t, &l);
	if (err) {
		target_free(&t);
		return err;
	}
	err = prog_digest(l.insns, l.insns_sz, excl_hash);
	/* as gen-loader writes it: format 1 signs the C and the keyring */
	if (!err)
		err = emit_tail(&l, no_trailer ? NULL : &parts.keyring_id, &tail, &tail_len);
	if (!err && !no_trailer)
		err = trailer_append(l.data, l.data_sz, tail, tail_len, &data, &data_sz);
	if (!err) {
		parts.name = l.name;
		parts.insns = l.insns;
		parts.insns_sz = l.insns_sz;
		parts.data = no_trailer ? l.data : data;
		parts.data_sz = no_trailer ? l.data_sz : data_sz;
		parts.excl_hash = excl_hash;
		if (no_trailer) {
			parts.c = tail;
			parts.c_len = tail_len;
		}
		err = emit_header(&parts, buf, len);
	}
	if (err)
		kit_err(err, "%s: %s", o->obj, kit_last_error());
	free(data);
	free(tail);
	loader_free(&l);
	target_free(&t);
	return err;
}
