# bpfsign kit: `make demo` and `make test` are all a fresh machine needs.
# Every target installs or builds what it is missing first.

.PHONY: all deps kernel tools guest-tests signer gen-loader host-test guest-test \
	test demo bench fuzz fuzz-kernel clean distclean help

all: kernel tools signer gen-loader guest-tests

help:
	@echo "make demo        sign a program, boot the patched kernel, load it, reject a tampered copy"
	@echo "make test        host tests and guest tests (builds everything first)"
	@echo "make deps        install missing Debian packages"
	@echo "make kernel      patched 6.12 debug guest kernel in build/ (ccache; BPFSIGN_KERNEL=release for the release one)"
	@echo "make tools       libbpf and bpftool from the patched tree"
	@echo "make guest-test  boot the guest and run tests/guest (GUEST_ARGS=... to filter)"
	@echo "make bench       side-by-side benchmarks, printed as ratios"
	@echo "make fuzz        bounded libFuzzer runs of the parsers"
	@echo "make fuzz-kernel the guest syscall fuzzer: SEED=N SECONDS=M [OPS=K VERBOSE=1] (replays a seed)"

deps:
	@scripts/deps.sh

kernel: deps
	@scripts/build-kernel.sh

tools: kernel
	@scripts/build-tools.sh

signer: deps
	@$(MAKE) -s -C signer

gen-loader: tools signer
	@$(MAKE) -s -C gen-loader

guest-tests: tools signer gen-loader
	@$(MAKE) -s -C tests/guest

host-test: signer gen-loader
	@scripts/run-tests.sh host

guest-test: guest-tests
	@scripts/run-tests.sh guest

test: guest-tests
	@scripts/run-tests.sh host guest

demo: guest-tests
	@scripts/demo.sh

# Benchmarks time the release kernel, never the debug one.
bench: signer guest-tests
	@$(MAKE) -s -C signer bench
	@BPFSIGN_KERNEL=release scripts/build-kernel.sh
	@BPFSIGN_KERNEL=release BPFSIGN_QUIET=1 qemu/run-guest.sh bench_arena_args bench_percpu_data

fuzz: signer gen-loader
	@$(MAKE) -s -C signer fuzz
	@$(MAKE) -s -C gen-loader fuzz

# The guest syscall fuzzer (tests/fuzz) for one seed in a boot of its own;
# OPS=K replays exactly the first K operations of the seed.
SEED ?= 1
SECONDS ?= 60
fuzz-kernel: guest-tests
	@BPFSIGN_CMDLINE="BPFSIGN_FUZZ_SEED=$(SEED) BPFSIGN_FUZZ_SECONDS=$(SECONDS) \
		BPFSIGN_FUZZ_OPS=$(OPS) BPFSIGN_FUZZ_VERBOSE=$(VERBOSE)" \
		BPFSIGN_TIMEOUT=$$(($(SECONDS) + 300)) qemu/run-guest.sh fuzz_syscalls

clean:
	-@$(MAKE) -s -C signer clean
	-@$(MAKE) -s -C gen-loader clean
	-@$(MAKE) -s -C tests/guest clean
	rm -rf build/initramfs* build/tools build/guest

distclean: clean
	rm -rf build
