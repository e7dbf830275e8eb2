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

GEN_LOADER	:= $(TOP)/gen-loader/gen-loader
GL_TAMPER	:= $(TOP)/tests/host/gen-loader/tamper.sh
GL_FLAGS	:= --btf $(BUILD)/kbuild/vmlinux
GL_SIGNING	:= --key $(KEYS)/signing.key --cert $(KEYS)/signing.crt
GL_UNTRUSTED	:= --key $(KEYS)/untrusted.key --cert $(KEYS)/untrusted.crt
GL_REGIONS	:= insns data excl_hash signature

SKEL_HEADERS	:= $(OBJ)/skel_counter.lskel.h $(OBJ)/skel_counter_untrusted.lskel.h \
		   $(patsubst %,$(OBJ)/skel_counter_bad_%.lskel.h,$(GL_REGIONS)) \
		   $(OBJ)/percpu_data_signed.lskel.h $(OBJ)/percpu_data.lskel.h \
		   $(OBJ)/signed_inputs.lskel.h

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

$(OBJ)/percpu_data_signed.lskel.h: $(OBJ)/percpu_data.bpf.o $(GEN_LOADER)
	$(GEN_LOADER) $< -o $@ --name percpu_data_signed $(GL_SIGNING) $(GL_FLAGS)

$(OBJ)/signed_inputs.lskel.h: $(OBJ)/signed_inputs.bpf.o $(GEN_LOADER)
	$(GEN_LOADER) $< -o $@ --name signed_inputs $(GL_SIGNING) $(GL_FLAGS)

# An empty token path: libbpf would otherwise try BPF_TOKEN_CREATE, a bpf()
# syscall on the build host, while generating the loader.
$(OBJ)/percpu_data.lskel.h: $(OBJ)/percpu_data.bpf.o
	LIBBPF_BPF_TOKEN_PATH= $(BPFTOOL) gen skeleton -L $< name percpu_data_lskel > $@.tmp && \
		mv $@.tmp $@
