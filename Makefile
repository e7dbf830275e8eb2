# bpfsign kit: `make demo` and `make test` are all a fresh machine needs.
# Every target installs or builds what it is missing first.

.PHONY: all deps kernel tools guest-tests signer gen-loader policies host-test guest-test \
	test demo run bench fuzz fuzz-kernel install uninstall clean distclean help

# V=1, the install directories (PREFIX, DESTDIR, ...) and BPF_CLANG, the one
# clang for BPF programs: the scripts and tests/guest take it as CLANG.
include common/build.mk
export CLANG := $(BPF_CLANG)
# -s hides the sub-makes' commands unless V=1
S := $(if $(filter 1,$(V)),,-s)

all: kernel tools signer gen-loader policies guest-tests

help:
	@echo "make demo        sign a program, boot the patched kernel, load it, reject a tampered copy"
	@echo "make test        host tests and guest tests (builds everything first)"
	@echo "make deps        install missing Debian packages"
	@echo "make kernel      patched 6.12 debug guest kernel in build/ (ccache; BPFSIGN_KERNEL=release for the release one)"
	@echo "make tools       libbpf and bpftool from the patched tree"
	@echo "make guest-test  boot the guest and run tests/guest (GUEST_ARGS=... to filter)"
	@echo "make run PROG=./loader [ARGS=...] [CERTS=my.crt]"
	@echo "                 boot the guest and run your own program (CERTS in its session keyring)"
	@echo "make bench       side-by-side benchmarks, printed as ratios"
	@echo "make fuzz        bounded libFuzzer runs of the parsers"
	@echo "make fuzz-kernel the guest syscall fuzzer: SEED=N SECONDS=M [OPS=K POLICY=0|1 VERBOSE=1] (replays a seed)"
	@echo "make install     tools, library, man pages, policies, initramfs hook (PREFIX=/usr/local DESTDIR=)"
	@echo "make uninstall   remove what make install put there (same PREFIX and DESTDIR)"
	@echo "V=1              show the commands"

deps:
	@scripts/deps.sh

kernel: deps
	@scripts/build-kernel.sh

tools: kernel
	@scripts/build-tools.sh

signer: deps
	@$(MAKE) $(S) -C signer

gen-loader: tools signer
	@$(MAKE) $(S) -C gen-loader

policies: tools gen-loader
	@$(MAKE) $(S) -C policies

guest-tests: tools signer gen-loader
	@$(MAKE) $(S) -C tests/guest

host-test: signer gen-loader
	@scripts/run-tests.sh host

guest-test: guest-tests
	@scripts/run-tests.sh guest

test: guest-tests
	@scripts/run-tests.sh host guest

demo: guest-tests
	@scripts/demo.sh

# Your own program in the guest (README, "Your own program"): a static
# binary, or a dynamic one whose libraries are copied with it.
run: kernel tools
	@[ -n "$(PROG)" ] || { echo "make run: PROG=path/to/your/binary" >&2; exit 2; }
	@qemu/run-guest.sh --run $(foreach c,$(CERTS),--cert $(c)) $(PROG) $(ARGS)

# Benchmarks time the release kernel, never the debug one: tests/bench/run.sh
# runs the signer's bench here and the kernel's in three release boots.
bench: signer guest-tests
	@BPFSIGN_KERNEL=release scripts/build-kernel.sh
	@tests/bench/run.sh

fuzz: signer gen-loader
	@$(MAKE) -s -C signer fuzz
	@$(MAKE) -s -C gen-loader fuzz

# The guest syscall fuzzer (tests/fuzz) for one seed in a boot of its own;
# OPS=K replays exactly the first K operations of the seed; POLICY=0 or 1
# runs only the plain run or only the policy mode (unset: both).
SEED ?= 1
SECONDS ?= 60
fuzz-kernel: guest-tests
	@BPFSIGN_CMDLINE="BPFSIGN_FUZZ_SEED=$(SEED) BPFSIGN_FUZZ_SECONDS=$(SECONDS) \
		BPFSIGN_FUZZ_OPS=$(OPS) BPFSIGN_FUZZ_VERBOSE=$(VERBOSE) BPFSIGN_FUZZ_POLICY=$(POLICY)" \
		BPFSIGN_TIMEOUT=$$(($(SECONDS) + 300)) qemu/run-guest.sh fuzz_syscalls

# Installs what is built, building what is missing of it, but neither
# packages nor the kernel: the patched tree's libbpf and vmlinux (make
# tools) must be there.  debian/ packages the same tree.
BUILD ?= $(if $(BPFSIGN_BUILD),$(BPFSIGN_BUILD),$(CURDIR)/build)
install uninstall:
	@[ -f $(BUILD)/tools/lib/libbpf.a ] || [ $@ = uninstall ] || \
		{ echo "make install: run 'make tools' first (the patched libbpf and kernel BTF)" >&2; exit 1; }
	@$(MAKE) $(S) -C signer $@
	@$(MAKE) $(S) -C gen-loader $@ BUILD=$(BUILD)
	@$(MAKE) $(S) -C policies $@ BUILD=$(BUILD)

clean:
	-@$(MAKE) -s -C signer clean
	-@$(MAKE) -s -C policies clean
	-@$(MAKE) -s -C gen-loader clean
	-@$(MAKE) -s -C tests/guest clean
	rm -rf build/initramfs* build/tools build/guest

distclean: clean
	rm -rf build
