# The BPF LSM policies of policies/ as signed light skeletons (gen-loader,
# keys-example/signing.key, builtin keyring), and the static bpfsign-policy
# CLI that loads and pins them.  Included by tests/guest/Makefile after
# skeleton.mk (which defines GEN_LOADER, GL_SIGNING, GL_FLAGS).
#
#   $(OBJ)/policies/NAME.bpf.o     clang-22, policies/NAME.bpf.c
#   $(OBJ)/policies/NAME.lskel.h   gen-loader --name NAME
#   $(OUT)/bpfsign-policy          into the initramfs as /tests/bpfsign-policy
#   $(OUT)/bpf-keyring-hook        the shipped initramfs hook, run by the guest test
#   $(OUT)/bpf-certs/*.der         what the hook enrols (the kernel parses no PEM)

POLICY_DIR	:= $(TOP)/policies
POLICY_OBJ	:= $(OBJ)/policies
POLICY_NAMES	:= deny_unsigned keyring_allowlist audit_log
POLICY_HEADERS	:= $(patsubst %,$(POLICY_OBJ)/%.lskel.h,$(POLICY_NAMES))
# common/: the option tables, file and error helpers shared by the kit's CLIs
POLICY_SRCS	:= $(wildcard $(POLICY_DIR)/cli/*.c) $(wildcard $(TOP)/common/*.c)
POLICY_BINS	:= $(OUT)/bpfsign-policy $(OUT)/bpf-keyring-hook $(OUT)/bpf-certs/untrusted.der
POLICY_CFLAGS	:= -O2 -g -Wall -Wextra -Wno-unused-parameter -Werror -D_GNU_SOURCE \
		   -I$(POLICY_OBJ) -I$(POLICY_DIR) -I$(POLICY_DIR)/cli -I$(TOP)/common \
		   -I$(TOOLS)/include -I$(BUILD)/linux/tools/include/uapi

$(POLICY_OBJ):
	@mkdir -p $@

$(POLICY_OBJ)/%.bpf.o: $(POLICY_DIR)/%.bpf.c $(POLICY_DIR)/policy.h $(POLICY_DIR)/policy.bpf.h \
		$(OBJ)/vmlinux.h | $(POLICY_OBJ)
	$(CLANG) $(BPF_CFLAGS) -I$(POLICY_DIR) -c $< -o $@

$(POLICY_OBJ)/%.lskel.h: $(POLICY_OBJ)/%.bpf.o $(GEN_LOADER)
	$(GEN_LOADER) $< -o $@ --name $* $(GL_SIGNING) $(GL_FLAGS)

$(OUT)/bpfsign-policy: $(POLICY_SRCS) $(wildcard $(POLICY_DIR)/cli/*.h $(TOP)/common/*.h) $(POLICY_DIR)/policy.h \
		$(POLICY_HEADERS) $(TOOLS)/lib/libbpf.a | $(OUT)
	$(CC) $(POLICY_CFLAGS) -o $@ $(POLICY_SRCS) -static -L$(TOOLS)/lib -lbpf -lelf -lz -lzstd

$(OUT)/bpf-keyring-hook: $(POLICY_DIR)/initramfs/bpf-keyring-hook | $(OUT)
	cp $< $@

$(OUT)/bpf-certs/%.der: $(KEYS)/%.crt
	@mkdir -p $(dir $@)
	openssl x509 -in $< -outform DER -out $@

.PRECIOUS: $(POLICY_OBJ)/%.bpf.o
