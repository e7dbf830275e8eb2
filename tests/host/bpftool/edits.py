#!/usr/bin/env python3
# The edits of issue 36 part 1, made on real headers of skeleton "sc":
# each compiles into a load other than the signed one (or runs a command),
# and none may be "verified" by gen-loader verify.
#
# Usage: edits.py F1.h NT.h BT.h OUTDIR
#   F1.h  gen-loader's default header (format 1, signed C)
#   NT.h  gen-loader --no-trailer (format 2)
#   BT.h  bpftool gen skeleton -L -S
# Writes OUTDIR/NAME.h for each edit and prints "NAME<TAB>WHAT-IT-DOES", the
# line the compiled header prints (tests/host/bpftool/harness.c) that the
# unedited header does not.
import os
import sys

SYS = 'system("id")'
UNSIGNED = 'signature 0 bytes'
KEYRING = 'keyring -3'

# (header, name, [(old, new), ...], what the edited header does)
EDITS = [
    # format 2: the signature wiring commented out: the loader loads unsigned
    ('nt', 'nt_wiring_in_comment',
     [('\tif (sizeof(sc__lskel_signature) > 1) {\n', '\t/*\n\tif (sizeof(sc__lskel_signature) > 1) {\n'),
      ('\t}\n\n\terr = bpf_load_and_run(&opts);', '\t}\n\t*/\n\n\terr = bpf_load_and_run(&opts);')],
     UNSIGNED),
    # format 2: the wiring inside the allowed #ifdef __cplusplus
    ('nt', 'nt_wiring_in_cplusplus',
     [('\tif (sizeof(sc__lskel_signature) > 1) {\n', '#ifdef __cplusplus\n\tif (sizeof(sc__lskel_signature) > 1) {\n'),
      ('\t}\n\n\terr = bpf_load_and_run(&opts);', '\t}\n#endif\n\n\terr = bpf_load_and_run(&opts);')],
     UNSIGNED),
    # format 2: gcc ends a // comment at a lone CR
    ('nt', 'nt_cr_comment_keyring',
     [('\n\terr = bpf_load_and_run(&opts);', '\n\t// note\r\topts.keyring_id = -3;\n\terr = bpf_load_and_run(&opts);')],
     KEYRING),
    # format 2: a #define hidden after a lone CR
    ('nt', 'nt_cr_comment_define',
     [('\n\terr = bpf_load_and_run(&opts);',
       '\n\t// note\r#define bpf_load_and_run(o) ((o)->keyring_id = -3, bpf_load_and_run(o))\n\terr = bpf_load_and_run(&opts);')],
     KEYRING),
    # format 2: a raw string (gnu modes) hides a quote from a C lexer
    ('nt', 'nt_raw_string',
     [('\n\terr = bpf_load_and_run(&opts);', '\n\t(void)R"x(")x"; system("id"); //"\n\terr = bpf_load_and_run(&opts);')],
     SYS),
    # format 2: NAME__preload() runs bpf_load_and_run() with its own opts: an unsigned loader
    ('nt', 'nt_preload',
     [('static inline int\nsc__load(struct sc *skel)\n',
       'static inline int\nsc__preload(struct sc *skel)\n{\n'
       '\tstatic const char i[] = "\\x95\\0\\0\\0\\0\\0\\0\\0";\n'
       '\tstruct bpf_load_and_run_opts o = {};\n\n'
       '\to.ctx = (struct bpf_loader_ctx *)skel;\n'
       '\to.data_sz = sizeof(i) - 1;\n'
       '\to.data = (void *)i;\n'
       '\to.insns_sz = sizeof(i) - 1;\n'
       '\to.insns = (void *)i;\n'
       '\treturn bpf_load_and_run(&o);\n}\n\n'
       'static inline int\nsc__load(struct sc *skel)\n'),
      ('\tif (sc__load(skel)) {', '\tif (sc__preload(skel) || sc__load(skel)) {')],
     'load: 1 insns, signature 0 bytes'),
    # format 2: system() through __typeof__
    ('nt', 'nt_typeof_system',
     [('\n\terr = bpf_load_and_run(&opts);',
       '\n\t{ __typeof__(system) *mprotect = system; mprotect("id"); }\n\terr = bpf_load_and_run(&opts);')],
     SYS),
    # format 2: a local named sysconf
    ('nt', 'nt_local_sysconf',
     [('\n\terr = bpf_load_and_run(&opts);',
       '\n\t{ __typeof__(&system) sysconf = &system; sysconf("id"); }\n\terr = bpf_load_and_run(&opts);')],
     SYS),
    # format 2: a local function pointer named bpf_load_and_run
    ('nt', 'nt_local_bpf_load_and_run',
     [('\n\terr = bpf_load_and_run(&opts);',
       '\n\t{ __typeof__(system) *bpf_load_and_run = system; bpf_load_and_run("id"); }\n\terr = bpf_load_and_run(&opts);')],
     SYS),
    # format 2: a union that aliases keyring_id without naming it
    ('nt', 'nt_union_keyring',
     [('\tskel->keyring_id = sc__DEFAULT_KEYRING_ID;\n',
       '\tskel->keyring_id = sc__DEFAULT_KEYRING_ID;\n'
       '\t((union { struct sc *s; __s32 *k; }){ skel }).k[sizeof(*skel) / 4 - 4] = -3;\n')],
     KEYRING),
    # format 2: a C23 attribute that runs code before main()
    ('nt', 'nt_gnu_constructor',
     [('static inline int\nsc__load(struct sc *skel)\n',
       '[[gnu::constructor]] static void sc__init(void)\n{\n\t__typeof__(system) *sysconf = system;\n\n\tsysconf("id");\n}\n\n'
       'static inline int\nsc__load(struct sc *skel)\n')],
     SYS),
    # format 2: the new user's edit
    ('nt', 'nt_system',
     [('\n\terr = bpf_load_and_run(&opts);', '\n\tsystem("id");\n\terr = bpf_load_and_run(&opts);')],
     SYS),
    # format 2: the keyring edited consistently in the prologue (not signed)
    ('nt', 'nt_keyring_prologue',
     [('/* @bpfsign keyring-id 0 */\n#define sc__DEFAULT_KEYRING_ID (0)\n',
       '/* @bpfsign keyring-id -3 */\n#define sc__DEFAULT_KEYRING_ID (-3)\n')],
     KEYRING),
    # format 1: the keyring edited consistently, marker and #define (the #define is signed)
    ('f1', 'f1_keyring_consistent',
     [('/* @bpfsign keyring-id 0 */\n', '/* @bpfsign keyring-id -3 */\n'),
      ('#define sc__DEFAULT_KEYRING_ID (0)\n', '#define sc__DEFAULT_KEYRING_ID (-3)\n')],
     KEYRING),
    # format 1: the keyring of the prologue's marker and a #define before the signed one's
    ('f1', 'f1_keyring_prologue',
     [('/* @bpfsign keyring-id 0 */\n', '/* @bpfsign keyring-id -3 */\n#undef sc__DEFAULT_KEYRING_ID\n'),
      ('#define sc__DEFAULT_KEYRING_ID (0)\n',
       '#define sc__DEFAULT_KEYRING_ID (0)\n#undef sc__DEFAULT_KEYRING_ID\n#define sc__DEFAULT_KEYRING_ID (-3)\n')],
     KEYRING),
    # bpftool: an empty comment before a #define
    ('bt', 'bt_comment_define',
     [('\n\topts.signature = (void *)opts_sig;', '\n/**/ #define opts_sig 0\n\topts.signature = (void *)opts_sig;')],
     UNSIGNED),
    # bpftool: the digraph of #
    ('bt', 'bt_digraph_define',
     [('\n\topts.signature = (void *)opts_sig;', '\n%:define opts_sig 0\n\topts.signature = (void *)opts_sig;')],
     UNSIGNED),
    # bpftool: a #define after a lone CR
    ('bt', 'bt_cr_define',
     [('\n\topts.signature = (void *)opts_sig;', '\n\t// note\r#define opts_sig 0\n\topts.signature = (void *)opts_sig;')],
     UNSIGNED),
    # bpftool: the signature lines inside #ifdef __KERNEL__
    ('bt', 'bt_sig_in_kernel_ifdef',
     [('\n\topts.signature = (void *)opts_sig;\n\topts.signature_sz = sizeof(opts_sig) - 1;\n',
       '\n#ifdef __KERNEL__\n\topts.signature = (void *)opts_sig;\n\topts.signature_sz = sizeof(opts_sig) - 1;\n#endif\n')],
     UNSIGNED),
    # bpftool: the signature lines inside a comment
    ('bt', 'bt_sig_in_comment',
     [('\n\topts.signature = (void *)opts_sig;\n\topts.signature_sz = sizeof(opts_sig) - 1;\n',
       '\n\t/*\n\topts.signature = (void *)opts_sig;\n\topts.signature_sz = sizeof(opts_sig) - 1;\n\t*/\n')],
     UNSIGNED),
    # bpftool: a second assignment of the keyring after a statement
    ('bt', 'bt_keyring_after_statement',
     [('\topts.keyring_id = skel->keyring_id;\n', '\topts.keyring_id = skel->keyring_id;\n\t(void)0; opts.keyring_id = -3;\n')],
     KEYRING),
    # bpftool: two spaces before a continuation line of opts_data: two more bytes in the map
    ('bt', 'bt_data_continuation_spaces',
     [('static const char opts_data[] __attribute__((__aligned__(8))) = "\\\n',
       'static const char opts_data[] __attribute__((__aligned__(8))) = "\\\n  ')],
     'data +2 bytes'),
    # bpftool: a second opts_insn[] in an inner block, around bpftool's assignments
    ('bt', 'bt_inner_opts_insn',
     [('\topts.insns_sz = sizeof(opts_insn) - 1;\n\topts.insns = (void *)opts_insn;\n',
       '\t{\n\t\tstatic const char opts_insn[] = "\\x95\\0\\0\\0\\0\\0\\0\\0";\n\n'
       '\topts.insns_sz = sizeof(opts_insn) - 1;\n\topts.insns = (void *)opts_insn;\n\t}\n')],
     'load: 1 insns'),
    # bpftool: the new user's edit
    ('bt', 'bt_system',
     [('\n\terr = bpf_load_and_run(&opts);', '\n\tsystem("id");\n\terr = bpf_load_and_run(&opts);')],
     SYS),
]


def main():
    if len(sys.argv) != 5:
        sys.exit('usage: edits.py F1.h NT.h BT.h OUTDIR')
    src = {k: open(p, newline='').read() for k, p in zip(('f1', 'nt', 'bt'), sys.argv[1:4])}
    out = sys.argv[4]
    for hdr, name, subs, does in EDITS:
        text = src[hdr]
        for old, new in subs:
            if text.count(old) < 1:
                sys.exit('edits.py: %s: %r is not in the %s header' % (name, old, hdr))
            text = text.replace(old, new, 1)
        with open(os.path.join(out, name + '.h'), 'w', newline='') as f:
            f.write(text)
        print('%s\t%s' % (name, does))


main()
