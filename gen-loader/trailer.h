/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The C of a header after its arrays (the struct, NAME__open(), __load(),
 * __attach(), ...) depends on the BPF object, not only on the arrays.  So
 * that a header can be re-emitted byte for byte from what it carries, and
 * so that this C is signed with the loader, it travels at the end of the
 * metadata, after libbpf's blob, which the loader never reads:
 *
 *   data = blob || tail || le32 len(tail) || "BPFSTAIL"
 *
 * The map value the kernel hashes is all of it.
 */
#ifndef GEN_LOADER_TRAILER_H
#define GEN_LOADER_TRAILER_H

#include <stddef.h>

#define TRAILER_MAGIC	"BPFSTAIL"
#define TRAILER_SZ	(4 + sizeof(TRAILER_MAGIC) - 1)

/* blob || tail || trailer, malloc()ed. */
int trailer_append(const void *blob, size_t blob_sz, const char *tail, size_t tail_len,
		   unsigned char **data, size_t *data_sz);
/*
 * The tail that data carries (pointing into data), and the size of the blob
 * before it.  -ENOEXEC with the reason when data has no well-formed trailer.
 * A pure function of its input.
 */
int trailer_find(const void *data, size_t data_sz, const char **tail, size_t *tail_len,
		 size_t *blob_sz);

#endif /* GEN_LOADER_TRAILER_H */
