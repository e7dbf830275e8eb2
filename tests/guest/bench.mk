# make bench's light skeletons (test_bench.c), included by tests/guest/Makefile
# after skeleton.mk (GEN_LOADER, GL_FLAGS, GL_SIGNING).
#
#   skel_counter_unsigned.lskel.h   the demo's skeleton without a signature
#   meta_bench.lskel.h              about 1 MiB of metadata, signed with signing.key
#   meta_bench_unsigned.lskel.h     the same, without a signature
#   target_many_unsigned.lskel.h    73 programs (target_many.lskel.h, signed, is
#                                   skeleton.mk's), without a signature
#
# An unsigned header is gen-loader's --payload-out form: the same loader and
# metadata as the signed one, an empty signature, so that NAME__load() does
# what it does for an unsigned skeleton (no freeze, no signature check).

BENCH_HEADERS	:= $(OBJ)/skel_counter_unsigned.lskel.h $(OBJ)/meta_bench.lskel.h \
		   $(OBJ)/meta_bench_unsigned.lskel.h $(OBJ)/target_many_unsigned.lskel.h

$(OBJ)/meta_bench.lskel.h: $(OBJ)/meta_bench.bpf.o $(GEN_LOADER)
	$(GEN_LOADER) $< -o $@ --name meta_bench $(GL_SIGNING) $(GL_FLAGS)

$(OBJ)/skel_counter_unsigned.lskel.h $(OBJ)/meta_bench_unsigned.lskel.h \
$(OBJ)/target_many_unsigned.lskel.h: \
$(OBJ)/%_unsigned.lskel.h: $(OBJ)/%.bpf.o $(GEN_LOADER)
	$(GEN_LOADER) $< -o $@ --name $*_unsigned --payload-out $@.payload $(GL_FLAGS)
	rm -f $@.payload

$(OBJ)/test_bench.o: $(BENCH_HEADERS)
