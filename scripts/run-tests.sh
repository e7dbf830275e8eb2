#!/bin/sh
# Run the host and/or guest suites and print one closing line over all of
# them.  Every suite ends with "N passed, N failed"; a suite that ends
# without one (it crashed, or never ran) counts as a failure.
#
# The suites run BPFSIGN_JOBS (default 2) at a time: a TCG boot keeps about
# one core busy, so two boots side by side, or a boot beside the host
# suites, take little longer than one.  Each suite writes its own log and
# its own guest console log, and is printed whole, in the order below, once
# it has finished.
#
# Usage: scripts/run-tests.sh [host] [guest] [BOOT...]
#   host    the host suites, tests/host/*/run.sh
#   guest   every guest boot of boots() below
#   BOOT    one guest boot by its name (guest-policies, ...)
set -u
. "$(dirname "$0")/env.sh"

max=${BPFSIGN_JOBS:-2}
passed=0 failed=0 broken='' queue='' order='' done_='' running=0

# start NAME ENV... -- CMD...: run CMD with ENV in the background; its output,
# time and exit status go to build/suite-NAME.log{,.time,.rc}, the status
# last: its file marks the suite as finished
start() {
	while [ "$running" -ge "$max" ]; do
		reap
	done
	name=$1; shift
	out=$build/suite-$name.log
	rm -f "$out" "$out.rc" "$out.time"
	(
		t0=$(date +%s)
		env "$@" > "$out" 2>&1
		rc=$?
		echo $(($(date +%s) - t0)) > "$out.time"
		echo $rc > "$out.rc"
	) &
	queue="$queue $name:$!"
	order="$order $name"
	running=$((running + 1))
}

# reap: wait until any running job has finished (a slot freed by a short
# boot is not held by a long one started before it), then print every
# suite whose turn in the order has come
reap() {
	while :; do
		for job in $queue; do
			name=${job%%:*}
			[ -f "$build/suite-$name.log.rc" ] || continue
			wait "${job#*:}"
			running=$((running - 1))
			queue=$(echo "$queue" | sed "s/ $name:[0-9]*//")
			done_="$done_ $name"
			flush
			return
		done
		sleep 1
	done
}

# flush: report finished suites in the order they were started
flush() {
	while [ -n "$order" ]; do
		# shellcheck disable=SC2086
		set -- $order
		case " $done_ " in *" $1 "*) ;; *) return ;; esac
		name=$1; shift
		order="$*"
		case $name in
		host)
			for t in "$top"/tests/host/*/run.sh; do
				[ -f "$t" ] && report "host-$(basename "$(dirname "$t")")"
			done ;;
		*) report "$name" ;;
		esac
	done
}

# report NAME: print a finished suite and add its closing line to the total
report() {
	out=$build/suite-$1.log
	echo "# suite $1"
	cat "$out"
	echo "# suite $1: $(cat "$out.time" 2>/dev/null || echo '?') s"
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -n1)
	if [ -z "$line" ]; then
		broken="$broken $1"
		return
	fi
	p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed}
	passed=$((passed + p)); failed=$((failed + f))
	[ "$(cat "$out.rc" 2>/dev/null)" = 0 ] || [ "$f" != 0 ] || broken="$broken $1"
}

# The host suites share build outputs (make -C signer ...): one after the
# other, in one background job, each with its own log.
host_suites() {
	for t in "$top"/tests/host/*/run.sh; do
		[ -f "$t" ] || continue
		n=host-$(basename "$(dirname "$t")")
		out=$build/suite-$n.log
		t0=$(date +%s)
		sh "$t" > "$out" 2>&1
		rc=$?
		echo $(($(date +%s) - t0)) > "$out.time"
		echo $rc > "$out.rc"
	done
	echo 0 > "$build/suite-host.log.rc"
}

# guest [smp=N] [run=SCRIPT] [timeout=S] NAME CMDLINE TEST...: one boot of
# the guest (2 CPUs, or N), with its own console log, by qemu/run-guest.sh
# or by SCRIPT (a path from the top, which runs it and prints its own TAP),
# killed after S seconds (default BPFSIGN_TIMEOUT, or 600)
guest() {
	smp=2 runner=$top/qemu/run-guest.sh timeout=${BPFSIGN_TIMEOUT:-600}
	while :; do
		case $1 in
		smp=*) smp=${1#smp=}; shift ;;
		run=*) runner=$top/${1#run=}; shift ;;
		timeout=*) timeout=${1#timeout=}; shift ;;
		*) break ;;
		esac
	done
	name=$1 cmdline=$2; shift 2
	start "$name" BPFSIGN_SMP="$smp" BPFSIGN_CMDLINE="$cmdline" BPFSIGN_TIMEOUT="$timeout" \
		BPFSIGN_LOG="$build/guest-$name.log" "$runner" "$@"
}

# boot [smp=N] [run=SCRIPT] [timeout=S] NAME CMDLINE TEST...: the boot NAME, when it is
# asked for ($want: "guest" for every boot); with $listing set, only its
# name into $names
boot() {
	for b in "$@"; do
		case $b in smp=* | run=* | timeout=*) ;; *) break ;; esac
	done
	if [ -n "$listing" ]; then
		names="$names $b"
		return 0
	fi
	case " $want " in *" guest "*|*" $b "*) guest "$@" ;; esac
}

# The guest boots: which tests share a boot, on which command line and how
# many CPUs, and why.  This list is the one place that says so; README.md,
# tests/guest and kernel-patches/README point here.  A test that is not
# TEST_EXPLICIT runs in the first boot ("all"); every explicit one is named
# in exactly one boot.
boots() {
	# Enforcement cannot be lowered once raised: its run-time test
	# goes last, and the boot-parameter test gets a boot of its own.
	boot guest "" all enforce_sysctl_runtime
	# The syscall fuzzer (tests/fuzz) for a fixed seed and time, with its
	# race thread: a third in policy mode (the LSM policies attached),
	# then the plain run; it may raise enforcement, so a boot of its own.  A failure prints the seed and the make fuzz-kernel
	# line that replays it.
	boot guest-fuzz "BPFSIGN_FUZZ_SEED=${BPFSIGN_FUZZ_SEED:-1} BPFSIGN_FUZZ_SECONDS=${BPFSIGN_FUZZ_SECONDS:-45}" \
		fuzz_syscalls
	# Under bpf_sig_enforce=1: the bpftool-signed skeletons and
	# gen-loader's --no-trailer one, bpftool prog load -S refused for its
	# session keyring, gen-loader's skeletons for the target.  4 CPUs:
	# more than the 2 of the machine that signed the skeletons, which
	# must not size anything for its own (issue 17)
	boot smp=4 guest-enforce bpf_sig_enforce=1 \
		enforce_boot_param enforce_caller_keyring_refused \
		bpftool_signed_enforced bpftool_signed_metadata_flipped \
		bpftool_signed_insns_only bpftool_prog_load_enforced \
		gen_loader_no_trailer_enforced gen_loader_no_trailer_metadata_flipped \
		target_perf_every_cpu_smp4 target_alternatives \
		target_kconfig_resolved target_many_programs
	# The harness itself: a failing test, a kernel WARNING, a KASAN report
	# and a kmemleak leak, each injected for real, must fail a boot
	# (tests/guest/inject.sh runs the boot and checks that each does).
	boot run=tests/guest/inject.sh guest-inject "" inject_fail inject_warn \
		inject_kasan inject_leak
	# The third review of signed attributes (issue 40) enrols team A's
	# certificate in the secondary and a session keyring: a boot of its own
	boot guest-sig-forms "" attack_round3_sig_attrs_explicit_seq \
		attack_round3_sig_attrs_explicit_seq_over_data attack_round3_sig_attrs_indefinite \
		attack_round3_sig_second_signer attack_round3_sig_embedded_content \
		attack_round3_sig_attrs_malformed attack_round3_sig_attrs_keyrings \
		attack_round3_sig_ecdsa_label
	# The .bpf keyring, provisioned the way an initramfs would.
	boot guest-bpf-keyring bpf.keyring_unsealed=1 bpf_keyring_provisioned
	# systemd-keyring-setup's sequence; it raises enforcement
	boot guest-bpf-keyring-systemd bpf.keyring_unsealed=1 bpf_keyring_systemd_sequence
	# BPF LSM policies (policies/) change what later tests may load.
	boot timeout=1200 guest-policies "" attack_audit_kernel_preload policy_deny_unsigned \
		policy_keyring_allowlist_default policy_keyring_allowlist_file \
		policy_keyring_allowlist_permissive policy_keyring_allowlist_types \
		policy_audit_log policy_replace policy_replace_failed \
		policy_key_allowlist attack_key_allow_secondary_skid_clone attack_key_allow_chain_issuer \
		attack_key_allow_user_keyring_skid_forgery attack_key_allow_long_skid_prefix \
		attack_sig_key_two_signer_infos \
		attack_policy_repin_fake_maps attack_policy_ringbuf_replay \
		attack_policy_unsigned_type_rewrites_counters attack_policy_guard_map_in_map \
		attack_policy_guard_iterator attack_policy_guard_signed_writer \
		attack_policy_guard_bind_map
	# floods of denials from many uids: slow under TCG, a boot of their own
	boot guest-policies-flood "" policy_flood_cap_bpf policy_flood_token \
		attack_policy_tally_full_by_uids attack_policy_tally_full_by_token_uids
	# the attacks on the guard and the policies' hooks, and on who may
	# install MAC policy (round 4, F1): a boot of their own, or
	# guest-policies outlasts run-guest.sh's 600 s under load
	boot timeout=1200 guest-policies-guard "" \
		attack_policy_fmod_ret_skips_guard attack_policy_guard_unpinned_status \
		attack_policy_guard_link_ops_held attack_policy_bind_fake_config \
		attack_round2_trampoline_full_reload attack_round2_tail_call_into_policy \
		attack_round4_config_ptrace attack_policy_reload_race attack_policy_writer_reported \
		attack_policy_users_repinned attack_policy_load_window_writer \
		attack_round4_allowlist_copy_blocks_reload attack_round4_mac_admin_audit_replay \
		attack_round4_mac_admin_token attack_round6_pin_dir_precreated \
		attack_round6_pin_dir_control \
		attack_round5_window_writer_kept attack_round5_window_writer_freed \
		attack_round5_window_map_in_map attack_round5_window_fill_tallies \
		attack_round5_fill_tallies_control
	# Updates under a full trampoline (issue 42): the replay loads 37
	# signed copies and updates bpf_lsm_bpf_prog's trampoline for each,
	# minutes under TCG on a loaded machine; in guest-policies-guard it
	# ran past 600 s (2026-12-07): a boot of its own, 1800 s.  The same
	# replay against keyring-allowlist (attack_round3_signed_replay_allowlist_*)
	# runs the same CLI path (policy_replace covers its replace): explicit
	boot timeout=1800 guest-policies-replay "" attack_round3_signed_replay_reload
	# "keyring allow bpf" seals .bpf: not in bpf_keyring_provisioned's boot
	boot guest-policies-bpf-keyring bpf.keyring_unsealed=1 \
		policy_keyring_allowlist_bpf_keyring
	# IPE policies (tests/guest/test_ipe.c) stay loaded and active, and
	# the IPE-vs-bpf_sig_enforce comparison raises enforcement: a boot of
	# their own, the comparison last. ipe.success_audit=1 puts IPE's
	# records of the kernel's own loads at boot into the kernel log.
	boot guest-ipe ipe.success_audit=1 \
		attack_ipe_wq_kernel_load attack_timer_softirq_load attack_ipe_verified_alone \
		attack_ipe_boot_policy_reactivate attack_token_wq_init_creds \
		ipe_bpf_kernel_load_at_boot ipe_bpf_policy_parse ipe_bpf_unsigned_denied \
		ipe_bpf_builtin_signed_allowed ipe_bpf_user_keyring ipe_bpf_loader_children \
		ipe_bpf_default_deny ipe_bpf_policy_switch ipe_bpf_permissive_mode \
		ipe_vs_sig_enforce
}

listing=1 names=''
boots
listing='' want=''
for s in "$@"; do
	case " host guest $names " in
	*" $s "*) [ "$s" = host ] || want="$want $s" ;;
	*) echo "run-tests: unknown suite $s (host, guest or one boot:$names)" >&2; exit 2 ;;
	esac
done

mkdir -p "$build"
case " $* " in
*" host "*)
	rm -f "$build/suite-host.log.rc"
	host_suites > /dev/null 2>&1 &
	queue="$queue host:$!"
	order="$order host"
	running=$((running + 1)) ;;
esac
[ -z "$want" ] || boots
while [ -n "$queue" ]; do
	reap
done

[ -z "$broken" ] || { echo "# suites that failed or did not finish:$broken"; failed=$((failed + 1)); }
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
