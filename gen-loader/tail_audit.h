/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The audit of the C after the arrays of a format 2 header (gen-loader
 * --no-trailer), which is not signed and cannot be re-derived from the
 * payload; and of the signed C of a format 1 header, which whoever made
 * the payload a signer signed wrote (split signing), and which cannot be
 * re-derived from the payload either.  What it checks is what decides how the compiled header uses the
 * signed arrays and what else it can do in the caller's process:
 *   - no control byte but newline and tab anywhere, comments included;
 *   - the preprocessor: only the lines gen-loader writes there (no #define
 *     can swap an array, no #if hide one), no trigraph, digraph, line
 *     continuation, backslash or non-ASCII byte outside literals and
 *     comments, and the guard's #endif last (not cut off, not appended to);
 *   - the arrays, the opts of the load, the keyring: each name used only in
 *     the lines gen-loader writes for it, and the lines that hand the arrays
 *     to bpf_load_and_run() each exactly once; an initial-value image inside
 *     the signed data;
 *   - the calls: only to the skeleton's own functions (NAME__*), to
 *     skel_internal.h's helpers, sysconf() and mprotect(); no call through
 *     a pointer.
 * It does not check the rest byte for byte: the order of statements, the
 * struct layout, the program names in attach, the mmap sizes.  It is a C
 * lexer, which lags the compiler (raw strings, aliases): it only ever
 * refuses, and a header it passes is "arrays-verified", never "verified"
 * (check.h), but format 1's signed C, which it passes, is the signer's.
 * A pure function of its input (fuzzed).
 */
#ifndef GEN_LOADER_TAIL_AUDIT_H
#define GEN_LOADER_TAIL_AUDIT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * True when c[0..len), the C after the arrays of the header of skeleton
 * name with data_sz bytes of data, is not structured as gen-loader writes
 * it: why in reason ("line N: ..."), N in *line.  first_line is the
 * header's line number of c's first line.  Out of memory is a finding too.
 */
bool tail_audit(const char *c, size_t len, const char *name, size_t data_sz,
		size_t first_line, char *reason, size_t reason_sz, size_t *line);

/* What tail_audit() checks, for the report's "checked". */
#define TAIL_AUDIT_CHECKED \
	"structure of the unsigned C after the arrays (no control byte but newline and tab, " \
	"gen-loader's preprocessor lines only, " \
	"the arrays, opts and keyring used only as gen-loader writes them, calls only to the " \
	"skeleton's functions, skel_internal.h, sysconf and mprotect, the guard's #endif last)"

/* The same, of the C of any format, in a few words. */
#define TAIL_AUDIT_CHECKED_SHORT \
	"structure check of that C (preprocessor lines, the arrays, opts and keyring, calls)"

#endif /* GEN_LOADER_TAIL_AUDIT_H */
