#!/bin/sh
# Run the host and/or guest suites and print one closing line over all of
# them.  Every suite ends with "N passed, N failed"; a suite that ends
# without one (it crashed, or never ran) counts as a failure.
#
# Usage: scripts/run-tests.sh [host] [guest]
set -u
. "$(dirname "$0")/env.sh"

passed=0 failed=0 broken=
run_suite() {
	name=$1; shift
	echo "# suite $name"
	out=$build/suite-$name.log
	t0=$(date +%s)
	"$@" 2>&1 | tee "$out"
	echo "# suite $name: $(($(date +%s) - t0)) s"
	rc=$(cat "$out.rc" 2>/dev/null || echo 0)
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -n1)
	if [ -z "$line" ]; then
		broken="$broken $name"
		return
	fi
	p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed}
	passed=$((passed + p)); failed=$((failed + f))
	[ "$rc" = 0 ] || [ "$f" != 0 ] || broken="$broken $name"
}

# The exit status of a command in a pipeline is lost in POSIX sh: record it.
status_of() {
	out=$1; shift
	"$@"; echo $? > "$out.rc"
}

mkdir -p "$build"
for s in "$@"; do
	case $s in
	host)
		for t in "$top"/tests/host/*/run.sh; do
			[ -f "$t" ] || continue
			n=host-$(basename "$(dirname "$t")")
			rm -f "$build/suite-$n.log.rc"
			run_suite "$n" status_of "$build/suite-$n.log" sh "$t"
		done ;;
	guest)
		# Enforcement cannot be lowered once raised: its run-time test
		# goes last, and the boot-parameter test gets a boot of its own.
		rm -f "$build"/suite-guest*.log.rc
		run_suite guest status_of "$build/suite-guest.log" \
			"$top/qemu/run-guest.sh" all enforce_sysctl_runtime
		# The syscall fuzzer (tests/fuzz) for a fixed seed and time; it may
		# raise enforcement, so a boot of its own.  A failure prints the
		# seed and the make fuzz-kernel line that replays it.
		export BPFSIGN_CMDLINE="BPFSIGN_FUZZ_SEED=${BPFSIGN_FUZZ_SEED:-1} BPFSIGN_FUZZ_SECONDS=${BPFSIGN_FUZZ_SECONDS:-45}"
		run_suite guest-fuzz status_of "$build/suite-guest-fuzz.log" \
			"$top/qemu/run-guest.sh" fuzz_syscalls
		export BPFSIGN_CMDLINE=bpf_sig_enforce=1
		run_suite guest-enforce status_of "$build/suite-guest-enforce.log" \
			"$top/qemu/run-guest.sh" enforce_boot_param enforce_caller_keyring_refused \
			bpftool_signed_enforced bpftool_signed_metadata_flipped \
			bpftool_signed_insns_only bpftool_prog_load_enforced
		# The .bpf keyring, provisioned the way an initramfs would.
		export BPFSIGN_CMDLINE=bpf.keyring_unsealed=1
		run_suite guest-bpf-keyring status_of "$build/suite-guest-bpf-keyring.log" \
			"$top/qemu/run-guest.sh" bpf_keyring_provisioned
		# BPF LSM policies (policies/) change what later tests may load.
		unset BPFSIGN_CMDLINE
		run_suite guest-policies status_of "$build/suite-guest-policies.log" \
			"$top/qemu/run-guest.sh" policy_deny_unsigned \
			policy_keyring_allowlist_default policy_keyring_allowlist_file \
			policy_keyring_allowlist_permissive policy_keyring_allowlist_types \
			policy_audit_log
		# "keyring allow bpf" seals .bpf: not in bpf_keyring_provisioned's boot
		export BPFSIGN_CMDLINE=bpf.keyring_unsealed=1
		run_suite guest-policies-bpf-keyring status_of \
			"$build/suite-guest-policies-bpf-keyring.log" \
			"$top/qemu/run-guest.sh" policy_keyring_allowlist_bpf_keyring
		unset BPFSIGN_CMDLINE ;;
	*) echo "run-tests: unknown suite $s" >&2; exit 2 ;;
	esac
done

[ -z "$broken" ] || { echo "# suites that failed or did not finish:$broken"; failed=$((failed + 1)); }
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
