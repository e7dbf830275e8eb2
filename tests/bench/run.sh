#!/bin/sh
# make bench: every figure a ratio of two variants measured side by side in
# one run (alternating), against the nearest limit.  The signer runs on this
# machine (signer/bench.sh), the rest in one boot of the release guest
# kernel (tests/guest/test_bench.c), which make bench builds first.
#
# Prints each figure as `NAME: RATIO (A vs B)` as it is measured, then a
# summary table; appends the run's ratios to build/bench/history and prints
# how far the last three runs lie apart.  Exits non-zero when a bench fails
# to run (a load error, a wrong result): no figure is a pass or fail.
#
# Usage: tests/bench/run.sh    environment: BPFSIGN_LOG=file (the guest's console)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BPFSIGN_BUILD:-$top/build}
out=$build/bench
log=${BPFSIGN_LOG:-$out/guest.log}
mkdir -p "$out"
res=$out/run.$$
trap 'rm -f "$res"' EXIT

figures() { grep -E '^[a-z][a-z0-9_.]*: -?[0-9.]+ \(' || true; }

echo "bench: the signer, on this machine"
"$top/signer/bench.sh" > "$res.signer" || { cat "$res.signer"; rm -f "$res.signer"; exit 1; }
cat "$res.signer"
figures < "$res.signer" > "$res"
rm -f "$res.signer"

echo "bench: the release guest kernel (TCG: only the ratios mean something)"
# QEMU without address-space randomisation: where its translation buffer
# and the guest's RAM land on the host moved figures from run to run.
BPFSIGN_KERNEL=release BPFSIGN_QUIET=1 BPFSIGN_LOG="$log" \
	setarch "$(uname -m)" -R "$top/qemu/run-guest.sh" bench_load bench_percpu_data bench_arena_args
sed -n 's/^# //p' "$log" | figures >> "$res"

# JITed x86 instructions of each .percpu bench program: its image as the
# guest's bpftool dumped it ("# jit NAME LEN HEX"), counted by objdump here
jit() {
	line=$(grep "^# jit $1 " "$log" | tail -n 1)
	echo "$line" | cut -d' ' -f5 | xxd -r -p > "$res.jit"
	if [ -z "$line" ] || [ "$(wc -c < "$res.jit")" != "$(echo "$line" | cut -d' ' -f4)" ]; then
		echo "bench: no whole JIT image of $1 in $log" >&2
		rm -f "$res.jit"
		exit 1
	fi
	objdump -D -b binary -m i386:x86-64 --insn-width=16 "$res.jit" | grep -cE '^ +[0-9a-f]+:	'
	rm -f "$res.jit"
}
loop=$(jit bench_loop)
data=$(jit bench_percpu_data)
lookup=$(jit bench_map_lookup)
cpu=$(jit bench_cpu_index)
# per access: the program's instructions less the loop's
awk -v l="$loop" -v d="$data" -v m="$lookup" -v c="$cpu" 'BEGIN {
	d -= l; m -= l; c -= l
	printf "percpu.map_lookup_vs_data.jit: %.3f (percpu_array lookup %d vs .percpu variable %d JITed x86 instructions per access)\n", m / d, m, d
	printf "percpu.cpu_index_vs_data.jit: %.3f (bpf_get_smp_processor_id() + array %d vs .percpu variable %d JITed x86 instructions per access)\n", c / d, c, d
}' | tee -a "$res"

# name, ratio, goal: the issue's goals, for the eye; nothing fails on them
echo
echo "summary: ratio = A / B, as each line above says"
awk '
BEGIN {
	goal["load.demo"] = "<= 1.05"
	goal["sign.vs_primitive"] = ">= 0.80"
	printf "  %-34s %10s  %s\n", "figure", "ratio", "goal"
}
{
	name = $1; sub(/:$/, "", name)
	printf "  %-34s %10s  %s\n", name, $2, ((name in goal) ? goal[name] : "-")
}' "$res"

# one line per run: date, then NAME=RATIO
{
	date -u +%Y-%m-%dT%H:%M:%SZ | tr '\n' ' '
	awk '{ n = $1; sub(/:$/, "", n); printf "%s=%s ", n, $2 } END { print "" }' "$res"
} >> "$out/history"
tail -n 3 "$out/history" | awk '
{
	for (i = 2; i <= NF; i++) {
		split($i, kv, "=")
		k = kv[1]; v = kv[2] + 0
		if (!(k in lo)) { order[++nk] = k; lo[k] = hi[k] = v; runs[k] = 0 }
		if (v < lo[k]) lo[k] = v
		if (v > hi[k]) hi[k] = v
		runs[k]++
	}
	nr++
}
END {
	if (nr < 3) {
		printf "spread: %d run(s) in build/bench/history, three make one\n", nr
		exit
	}
	print "spread of the last three runs: (max - min) / min"
	for (i = 1; i <= nk; i++) {
		k = order[i]
		if (runs[k] < 3)
			continue
		printf "  %-34s %8.1f%%  (%s .. %s)\n", k,
			(lo[k] > 0 ? (hi[k] - lo[k]) / lo[k] * 100 : 0), lo[k], hi[k]
	}
}'
