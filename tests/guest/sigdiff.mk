# The signature variants of the differential test (test_sigdiff.c), made on
# the host over tools/mkpayload's bytes with a fixed seed (and, by
# tools/sigcerts.py, around odd certificates, keys and ECDSA encodings, with
# the test keys of tools/sigdiff-keys/; the DER of both is tools/sigder.py),
# each with its offline verdict; included by tests/guest/Makefile (TOP, OBJ,
# OUT, KEYS).

SIGDIFF		:= $(OUT)/sigdiff/manifest
SIGDIFF_SEED	?= 15

$(SIGDIFF): tools/sigvariants.py tools/sigcerts.py tools/sigder.py $(wildcard tools/sigdiff-keys/*.key) \
		$(OBJ)/payload.bin $(TOP)/signer/bpfsign $(wildcard $(KEYS)/*.crt) | $(OUT)
	python3 tools/sigvariants.py --seed $(SIGDIFF_SEED) --payload $(OBJ)/payload.bin \
		--keys $(KEYS) --bpfsign $(TOP)/signer/bpfsign --out $(OUT)/sigdiff

all: $(SIGDIFF)
