# The BPF LSM policies of policies/ as signed light skeletons (gen-loader,
# keys-example/signing.key, builtin keyring), and the static bpfsign-policy
# CLI that loads and pins them.  Included by tests/guest/Makefile after
# skeleton.mk (which defines GEN_LOADER, GL_SIGNING, GL_FLAGS).
#
#   $(OBJ)/policies/NAME.bpf.o     $(CLANG), policies/NAME.bpf.c  (policies/Makefile)
#   $(OBJ)/policies/NAME.lskel.h   gen-loader --name NAME         (policies/Makefile)
#   $(OUT)/bpfsign-policy          into the initramfs as /tests/bpfsign-policy
#   $(OUT)/bpf-keyring-hook        the shipped initramfs hook, run by the guest test
#   $(OUT)/bpf-certs/*.der         what the hook enrols (the kernel parses no PEM)

POLICY_DIR	:= $(TOP)/policies
POLICY_OBJ	:= $(OBJ)/policies
POLICY_NAMES	:= deny_unsigned keyring_allowlist audit_log
POLICY_HEADERS	:= $(patsubst %,$(POLICY_OBJ)/%.lskel.h,$(POLICY_NAMES))
POLICY_BINS	:= $(OUT)/bpfsign-policy $(OUT)/bpf-keyring-hook $(OUT)/bpf-certs/untrusted.der

# policies/Makefile builds them into $(POLICY_OBJ), with this build's
# vmlinux.h, gen-loader flags and clang, the test key, and a static CLI for
# the busybox guest.  One sub-make for all outputs (a grouped target).
POLICY_MAKE	= $(MAKE) --no-print-directory -C $(POLICY_DIR) O=$(POLICY_OBJ) BUILD=$(BUILD) \
		  VMLINUX_H=$(OBJ)/vmlinux.h BPF_CLANG=$(CLANG) CC="$(CC)" STATIC=1 \
		  GEN_LOADER=$(GEN_LOADER) GL_FLAGS="$(GL_FLAGS)" \
		  POLICY_KEY=$(KEYS)/signing.key POLICY_CERT=$(KEYS)/signing.crt

$(POLICY_HEADERS) $(POLICY_OBJ)/bpfsign-policy &: $(wildcard $(POLICY_DIR)/*.[ch] \
		$(POLICY_DIR)/cli/*.[ch] $(TOP)/common/*.[ch]) $(OBJ)/vmlinux.h $(GEN_LOADER) \
		$(TOOLS)/lib/libbpf.a
	+$(POLICY_MAKE) $(POLICY_HEADERS) $(POLICY_OBJ)/bpfsign-policy

$(OUT)/bpfsign-policy: $(POLICY_OBJ)/bpfsign-policy | $(OUT)
	cp $< $@

$(OUT)/bpf-keyring-hook: $(POLICY_DIR)/initramfs/bpf-keyring-hook | $(OUT)
	cp $< $@

$(OUT)/bpf-certs/%.der: $(KEYS)/%.crt
	@mkdir -p $(dir $@)
	openssl x509 -in $< -outform DER -out $@

