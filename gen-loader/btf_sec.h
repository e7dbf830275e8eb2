/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The variables of an object's section by its DATASEC (".kconfig", ".maps",
 * ".ksyms"): libbpf's lookup by name and kind, one place for the walks of
 * loader.c and target.c.
 */
#ifndef GEN_LOADER_BTF_SEC_H
#define GEN_LOADER_BTF_SEC_H

#include <errno.h>
#include <bpf/btf.h>

/* The DATASEC of section sec in btf (NULL: an object without BTF), or NULL. */
static inline const struct btf_type *btf_sec(const struct btf *btf, const char *sec)
{
	int id = btf ? btf__find_by_name_kind(btf, sec, BTF_KIND_DATASEC) : -ENOENT;

	return id < 0 ? NULL : btf__type_by_id(btf, id);
}

/* The VAR of variable i of DATASEC sec (i < btf_vlen(sec)). */
static inline const struct btf_type *btf_sec_var(const struct btf *btf,
						 const struct btf_type *sec, int i)
{
	return btf__type_by_id(btf, btf_var_secinfos(sec)[i].type);
}

#endif /* GEN_LOADER_BTF_SEC_H */
