// SPDX-License-Identifier: GPL-2.0
/* The parts of a light skeleton that its writer and its readers share (skel.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "skel.h"

const char *const lskel_region_names[NR_REGIONS] = {
	[R_INSNS] = "insns",
	[R_DATA] = "data",
	[R_EXCL_HASH] = "excl_hash",
	[R_SIGNATURE] = "signature",
};

void lskel_free(struct lskel *h)
{
	int i;

	for (i = 0; i < NR_REGIONS; i++) {
		free(h->r[i].buf);
		h->r[i].buf = NULL;
	}
}

int lskel_payload(const struct lskel *h, unsigned char **buf, size_t *len)
{
	const struct lskel_block *in = &h->r[R_INSNS], *d = &h->r[R_DATA];

	*buf = malloc(in->len + d->len);
	if (!*buf)
		return kit_err(-ENOMEM, "payload: %s", strerror(ENOMEM));
	memcpy(*buf, in->buf, in->len);
	memcpy(*buf + in->len, d->buf, d->len);
	*len = in->len + d->len;
	return 0;
}

/* What fills a line's one %s: an array, the skeleton's name, or nothing */
enum { ARG_NONE = -1, ARG_NAME = -2 };

static const struct {
	const char *fmt;
	int arg;		/* enum lskel_region, or ARG_* */
} lines[NR_SKEL_LINES] = {
	[SKEL_DATA_SZ] = { "opts.data_sz = sizeof(%s) - 1;", R_DATA },
	[SKEL_DATA] = { "opts.data = (void *)%s;", R_DATA },
	[SKEL_INSNS_SZ] = { "opts.insns_sz = sizeof(%s) - 1;", R_INSNS },
	[SKEL_INSNS] = { "opts.insns = (void *)%s;", R_INSNS },
	[SKEL_EXCL] = { "opts.excl_prog_hash = (void *)%s;", R_EXCL_HASH },
	[SKEL_EXCL_SZ] = { "opts.excl_prog_hash_sz = sizeof(%s) - 1;", R_EXCL_HASH },
	[SKEL_IF_SIG] = { "if (sizeof(%s) > 1) {", R_SIGNATURE },
	[SKEL_SIG] = { "opts.signature = (void *)%s;", R_SIGNATURE },
	[SKEL_SIG_SZ] = { "opts.signature_sz = sizeof(%s) - 1;", R_SIGNATURE },
	[SKEL_KEYRING] = { "opts.keyring_id = skel->keyring_id;", ARG_NONE },
	[SKEL_OPTS_DECL] = { "struct bpf_load_and_run_opts opts = {};", ARG_NONE },
	[SKEL_OPTS_CTX] = { "opts.ctx = (struct bpf_loader_ctx *)skel;", ARG_NONE },
	[SKEL_OPTS_RUN] = { "err = bpf_load_and_run(&opts);", ARG_NONE },
	[SKEL_OPTS_ERRSTR] = { "skel->errstr = opts.errstr;", ARG_NONE },
	[SKEL_KR_FIELD] = { "__s32 keyring_id;\t/* NAME__load() passes it to BPF_PROG_LOAD */",
			    ARG_NONE },
	[SKEL_KR_OPEN] = { "skel->keyring_id = %s__DEFAULT_KEYRING_ID;", ARG_NAME },
	[SKEL_KR_FUNC] = { "%1$s__load_keyring(struct %1$s *skel, __s32 keyring_id)", ARG_NAME },
	[SKEL_KR_SET] = { "skel->keyring_id = keyring_id;", ARG_NONE },
};

const char *skel_line(enum skel_line l, const char *name, const char *const *arrays,
		      char *buf, size_t sz)
{
	char array[NAME_MAX_LEN + 32];
	const char *arg = "";
	int r = lines[l].arg;

	if (r == ARG_NAME) {
		arg = name;
	} else if (r >= 0 && arrays) {
		arg = arrays[r];
	} else if (r >= 0) {
		snprintf(array, sizeof(array), "%s__lskel_%s", name, lskel_region_names[r]);
		arg = array;
	}
	snprintf(buf, sz, lines[l].fmt, arg);
	return buf;
}

void skel_guard(const char *name, char *guard, size_t sz)
{
	char *p;

	snprintf(guard, sz, "__%s_LSKEL_H__", name);
	for (p = guard; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p -= 'a' - 'A';
}
