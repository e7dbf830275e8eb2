# Signed light skeletons of progs/skel_*.bpf.c, made by gen-loader; included
# by tests/guest/Makefile (which defines TOP, BUILD, OBJ and KEYS).
#
#   skel_counter.lskel.h              signed with keys-example/signing.key
#                                     (in the builtin keyring), default keyring 0
#   skel_counter_untrusted.lskel.h    signed with keys-example/untrusted.key,
#                                     default keyring: the session keyring (-3)
#   skel_counter_bad_REGION.lskel.h   signed with signing.key, then the last
#                                     byte of REGION flipped (tamper.sh)
#   percpu_data_signed.lskel.h        global percpu data, signed with signing.key
#   percpu_data.lskel.h               the same object through bpftool gen skeleton -L
#   signed_inputs.lskel.h             signed with signing.key: overrides it must ignore
#   skel_counter_bt.lskel.h           signed by bpftool gen skeleton -L -S, signing.key
#   skel_counter_bt_bad_data.lskel.h  the same, the last byte of opts_data flipped
#   skel_counter_bt_insns_only.lskel.h  the same, opts_sig over opts_insn only (the
#                                     form before load-time verification)
#   skel_counter_nt.lskel.h           gen-loader --no-trailer, signing.key: bpftool's
#                                     payload and signature, gen-loader's header
#   skel_counter_nt_bad_data.lskel.h  the same, the last byte of data flipped
#   target_perf.lskel.h               a perf event array without max_entries, signed
#                                     with no target description (issue 17)
#   target_kconfig.lskel.h            __kconfig externs of the guest's .config
#                                     (--target-config)
#   target_many.lskel.h               73 programs and a shared subprogram
#   target_alt.lskel.h                an fentry program whose target is missing and
#                                     a kprobe alternative

GEN_LOADER	:= $(TOP)/gen-loader/gen-loader
GL_TAMPER	:= $(TOP)/tests/host/gen-loader/tamper.sh
GL_FLAGS	:= --btf $(BUILD)/kbuild/vmlinux
GL_SIGNING	:= --key $(KEYS)/signing.key --cert $(KEYS)/signing.crt
GL_UNTRUSTED	:= --key $(KEYS)/untrusted.key --cert $(KEYS)/untrusted.crt
GL_REGIONS	:= insns data excl_hash signature

SKEL_HEADERS	:= $(OBJ)/skel_counter.lskel.h $(OBJ)/skel_counter_untrusted.lskel.h \
		   $(patsubst %,$(OBJ)/skel_counter_bad_%.lskel.h,$(GL_REGIONS)) \
		   $(OBJ)/percpu_data_signed.lskel.h $(OBJ)/percpu_data.lskel.h \
		   $(OBJ)/signed_inputs.lskel.h \
		   $(OBJ)/skel_counter_bt.lskel.h $(OBJ)/skel_counter_bt_bad_data.lskel.h \
		   $(OBJ)/skel_counter_bt_insns_only.lskel.h \
		   $(OBJ)/skel_counter_nt.lskel.h $(OBJ)/skel_counter_nt_bad_data.lskel.h \
		   $(OBJ)/target_perf.lskel.h $(OBJ)/target_kconfig.lskel.h \
		   $(OBJ)/target_many.lskel.h $(OBJ)/target_alt.lskel.h

$(GEN_LOADER): $(wildcard $(TOP)/gen-loader/*.[ch]) $(TOP)/signer/libbpfsign.h \
		$(BUILD)/tools/lib/libbpf.a
	$(MAKE) -C $(TOP)/gen-loader

$(OBJ)/skel_counter.lskel.h: $(OBJ)/skel_counter.bpf.o $(GEN_LOADER)
	$(GEN_LOADER) $< -o $@ --name skel_counter $(GL_SIGNING) $(GL_FLAGS)

$(OBJ)/skel_counter_untrusted.lskel.h: $(OBJ)/skel_counter.bpf.o $(GEN_LOADER)
	$(GEN_LOADER) $< -o $@ --name skel_counter_untrusted --keyring-id -3 \
		$(GL_UNTRUSTED) $(GL_FLAGS)

$(OBJ)/skel_counter_bad_%.lskel.h: $(OBJ)/skel_counter.bpf.o $(GEN_LOADER) $(GL_TAMPER)
	$(GEN_LOADER) $< -o $@.signed --name skel_counter_bad_$* $(GL_SIGNING) $(GL_FLAGS)
	$(GL_TAMPER) $* last $@.signed $@
	rm -f $@.signed

$(OBJ)/skel_counter_nt.lskel.h: $(OBJ)/skel_counter.bpf.o $(GEN_LOADER)
	$(GEN_LOADER) $< -o $@ --name skel_counter_nt --no-trailer $(GL_SIGNING) $(GL_FLAGS)

$(OBJ)/skel_counter_nt_bad_data.lskel.h: $(OBJ)/skel_counter.bpf.o $(GEN_LOADER) $(GL_TAMPER)
	$(GEN_LOADER) $< -o $@.signed --name skel_counter_nt_bad_data --no-trailer \
		$(GL_SIGNING) $(GL_FLAGS)
	$(GL_TAMPER) data last $@.signed $@
	rm -f $@.signed

$(OBJ)/percpu_data_signed.lskel.h: $(OBJ)/percpu_data.bpf.o $(GEN_LOADER)
	$(GEN_LOADER) $< -o $@ --name percpu_data_signed $(GL_SIGNING) $(GL_FLAGS)

$(OBJ)/signed_inputs.lskel.h: $(OBJ)/signed_inputs.bpf.o $(GEN_LOADER)
	$(GEN_LOADER) $< -o $@ --name signed_inputs $(GL_SIGNING) $(GL_FLAGS)

# Generated for the target, never for this machine (issue 17)
$(OBJ)/target_perf.lskel.h: $(OBJ)/target_perf.bpf.o $(GEN_LOADER)
	$(GEN_LOADER) $< -o $@ --name target_perf $(GL_SIGNING) $(GL_FLAGS)

$(OBJ)/target_kconfig.lskel.h: $(OBJ)/target_kconfig.bpf.o $(GEN_LOADER) $(BUILD)/kbuild/.config
	$(GEN_LOADER) $< -o $@ --name target_kconfig $(GL_SIGNING) $(GL_FLAGS) \
		--target-config $(BUILD)/kbuild/.config

$(OBJ)/target_many.lskel.h: $(OBJ)/target_many.bpf.o $(GEN_LOADER)
	$(GEN_LOADER) $< -o $@ --name target_many $(GL_SIGNING) $(GL_FLAGS)

$(OBJ)/target_alt.lskel.h: $(OBJ)/target_alt.bpf.o $(GEN_LOADER)
	$(GEN_LOADER) $< -o $@ --name target_alt $(GL_SIGNING) $(GL_FLAGS)

# An empty token path: libbpf would otherwise try BPF_TOKEN_CREATE, a bpf()
# syscall on the build host, while generating the loader.
$(OBJ)/percpu_data.lskel.h: $(OBJ)/percpu_data.bpf.o
	LIBBPF_BPF_TOKEN_PATH= $(BPFTOOL) gen skeleton -L $< name percpu_data_lskel > $@.tmp && \
		mv $@.tmp $@

# Upstream's signing command, in the patched tree's bpftool (0043).
BT_SKEL		:= $(TOP)/tests/host/bpftool/skel.py
BT_SIGNING	:= -S -k $(KEYS)/signing.key -i $(KEYS)/signing.crt

$(OBJ)/skel_counter_bt.lskel.h: $(OBJ)/skel_counter.bpf.o
	LIBBPF_BPF_TOKEN_PATH= $(BPFTOOL) gen skeleton -L $(BT_SIGNING) $< \
		name skel_counter_bt > $@.tmp && mv $@.tmp $@

$(OBJ)/skel_counter_bt_bad_data.lskel.h: $(OBJ)/skel_counter.bpf.o $(BT_SKEL)
	LIBBPF_BPF_TOKEN_PATH= $(BPFTOOL) gen skeleton -L $(BT_SIGNING) $< \
		name skel_counter_bt_bad_data > $@.signed
	python3 $(BT_SKEL) flip $@.signed opts_data $@
	rm -f $@.signed

$(OBJ)/skel_counter_bt_insns_only.lskel.h: $(OBJ)/skel_counter.bpf.o $(BT_SKEL) $(TOP)/signer/bpfsign
	LIBBPF_BPF_TOKEN_PATH= $(BPFTOOL) gen skeleton -L $(BT_SIGNING) $< \
		name skel_counter_bt_insns_only > $@.signed
	python3 $(BT_SKEL) get $@.signed opts_insn $@.insns
	$(TOP)/signer/bpfsign sign --key $(KEYS)/signing.key --cert $(KEYS)/signing.crt \
		--out $@.p7s $@.insns
	python3 $(BT_SKEL) put $@.signed opts_sig $@.p7s $@
	rm -f $@.signed $@.insns $@.p7s

# bpftool prog load -S signs this object in the guest
all: $(OUT)/skel_counter.bpf.o
$(OUT)/skel_counter.bpf.o: $(OBJ)/skel_counter.bpf.o | $(OUT)
	cp $< $@

# Which key signed a header, offline and online (test_sig_key.c): a second
# key of the builtin keyring, and what gen-loader verify --json says signed
# each header (key_id), as C strings the guest compares with the key
# the kernel records when the header loads.
GL_SIGNING_EC	:= --key $(KEYS)/signing-ec.key --cert $(KEYS)/signing-ec.crt
SKEL_HEADERS	+= $(OBJ)/skel_counter_ec.lskel.h $(OBJ)/sig_key_ids.h

$(OBJ)/skel_counter_ec.lskel.h: $(OBJ)/skel_counter.bpf.o $(GEN_LOADER)
	$(GEN_LOADER) $< -o $@ --name skel_counter_ec $(GL_SIGNING_EC) $(GL_FLAGS)

$(OBJ)/sig_key_ids.h: $(OBJ)/skel_counter.lskel.h $(OBJ)/skel_counter_ec.lskel.h $(GEN_LOADER)
	for h in skel_counter skel_counter_ec; do \
		$(GEN_LOADER) verify --json --ca $(KEYS)/kernel-trusted.pem $(OBJ)/$$h.lskel.h | \
		python3 -c 'import json, sys; r = json.load(sys.stdin); \
			assert r["verdict"] == "verified" and r["key_id"] and r["key_sha256"], r; \
			print("#define %s_KEY_ID \"%s\"" % (sys.argv[1], r["key_id"])); \
			print("#define %s_KEY_SHA256 \"%s\"" % (sys.argv[1], r["key_sha256"]))' $$h || \
		exit 1; \
	done > $@.tmp && mv $@.tmp $@
