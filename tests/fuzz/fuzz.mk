# The syscall fuzzer: /tests/bpfsign-fuzz in the guest.  Included by
# tests/guest/Makefile, which defines TOP, OBJ, OUT, CC, CFLAGS, LDLIBS and the
# BPF rules; the fuzzer links tests/guest's util.o (digests, sysctl) and
# audit.o (the audit daemon of policy mode), signs
# as its sign.c does, and uses its iter_write skeleton.

FUZZ		:= $(TOP)/tests/fuzz
FUZZ_OBJS	:= $(patsubst $(FUZZ)/%.c,$(OBJ)/fuzz/%.o,$(wildcard $(FUZZ)/*.c))
FUZZ_SKELS	:= $(OBJ)/iter_write.skel.h $(OBJ)/fuzz_arena.skel.h

$(OBJ)/fuzz:
	@mkdir -p $@

$(OBJ)/fuzz_%.bpf.o: $(FUZZ)/progs/fuzz_%.bpf.c $(OBJ)/vmlinux.h | $(OBJ)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OBJ)/fuzz/%.o: $(FUZZ)/%.c $(wildcard $(FUZZ)/*.h) $(FUZZ_SKELS) | $(OBJ)/fuzz
	$(CC) $(CFLAGS) -I$(FUZZ) -c $< -o $@

$(OUT)/bpfsign-fuzz: $(FUZZ_OBJS) $(OBJ)/util.o $(OBJ)/audit.o $(TOOLS)/lib/libbpf.a | $(OUT)
	$(CC) -o $@ $(filter %.o,$^) $(LDLIBS)
