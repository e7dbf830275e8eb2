// SPDX-License-Identifier: GPL-2.0
/*
 * A program built only from what `make install` ships: libbpfsign.h and
 * `pkg-config --cflags --libs bpfsign`.  It defines read_file() and
 * kit_err(), names the library keeps to itself.  Usage:
 *   use_bpfsign CERT PAYLOAD SIG...: every SIG against CERT, read once;
 *   prints one "NAME errno" line per signature, exits 0 if all verify
 *   (3 if the verifier's bad arguments are not refused).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <libbpfsign.h>

/* the library's internal helpers of the same names must not collide */
int read_file(const char *path, unsigned char **buf, size_t *len);
int kit_err(int err);

int kit_err(int err)
{
	return err;
}

int read_file(const char *path, unsigned char **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return kit_err(-1);
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return kit_err(-1);
	}
	*buf = malloc(n ? n : 1);
	if (!*buf || fread(*buf, 1, n, f) != (size_t)n) {
		fclose(f);
		return kit_err(-1);
	}
	fclose(f);
	*len = n;
	return 0;
}

int main(int argc, char **argv)
{
	struct bpfsign_verifier *v;
	unsigned char *data, *sig;
	size_t len, sig_len;
	int i, err, failed = 0;

	if (argc < 4 || read_file(argv[2], &data, &len))
		return 2;
	/* exactly one of cert and ca_bundle: neither and both are -EINVAL */
	if (bpfsign_verifier_load(NULL, NULL, &v) != -EINVAL ||
	    bpfsign_verifier_load(argv[1], argv[1], &v) != -EINVAL ||
	    /* no verifier: -EINVAL, not a crash */
	    bpfsign_verifier_verify(NULL, data, len, data, len, NULL) != -EINVAL) {
		fprintf(stderr, "bad arguments not refused with EINVAL\n");
		return 3;
	}
	err = bpfsign_verifier_load(argv[1], NULL, &v);
	if (err) {
		fprintf(stderr, "%s\n", bpfsign_last_error());
		return 2;
	}
	for (i = 3; i < argc; i++) {
		if (read_file(argv[i], &sig, &sig_len))
			return 2;
		err = bpfsign_verifier_verify(v, data, len, sig, sig_len, NULL);
		printf("%s %d\n", bpfsign_errno_name(err), -err);
		failed += err != 0;
		free(sig);
	}
	bpfsign_verifier_free(v);
	free(data);
	return failed ? 1 : 0;
}
