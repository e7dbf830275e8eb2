#!/bin/bash
# make bench, the signer's part: bpfsign against the limits of its primitive,
# side by side in one run.  Each figure is one line
#
#   NAME: RATIO (A vs B)
#
# RATIO is A's rate / B's rate, in operations per CPU second (user + system)
# so that other work on a shared machine does not move it, the median of
# ROUNDS rounds' ratios, each round running every variant once, next to
# each other (openssl speed counts user time itself):
#   sign.vs_primitive    bpfsign sign, one process for N payloads, against
#                        `openssl speed` of the key's type (the most any
#                        signer can do with this key on this machine)
#   sign.user_vs_primitive  the same in user time alone, what openssl speed
#                        counts: the system time above is the atomic,
#                        fsync()ed writing of each signature, not signing
#   sign.vs_processes    bpfsign sign against one `openssl cms -sign`
#                        process per payload (PROCS payloads a round)
#   verify.vs_primitive  bpfsign verify, one process for the N signatures
#                        (batch mode, eight times a round), against `openssl
#                        speed`'s verify rate
#   verify.vs_processes  bpfsign verify against one `openssl cms -verify`
#                        process per signature
# Payloads and signatures are in tmpfs (/dev/shm when there is one): bpfsign
# fsync()s every output, and on a disk that, not signing, sets the rate.
# The signatures of bpfsign and openssl must be byte-identical (RSA) and all
# must verify, or the bench fails.
#
# Usage: bench.sh [N [ROUNDS [PROCS]]]    (from anywhere, after make)
set -eu
n=${1:-1000}
rounds=${2:-10}
per=${3:-40}
verifies=8
here=$(cd "$(dirname "$0")" && pwd)
keys=$here/../keys-example
key=$keys/signing.key
cert=$keys/signing.crt
bpfsign=$here/bpfsign

die() { echo "bench: $*" >&2; exit 1; }
[ -x "$bpfsign" ] || die "no $bpfsign (make signer)"
if [ "$rounds" -lt 1 ] || [ "$per" -lt 1 ] || [ $((rounds * per)) -gt "$n" ]; then
	die "ROUNDS and PROCS must be at least 1, ROUNDS * PROCS at most N"
fi

# openssl speed's name for the key's type
text=$(openssl pkey -in "$key" -noout -text)
case $text in
"Private-Key: ("*" bit, 2 primes)"*)
	bits=${text#Private-Key: (}; bits=${bits%% bit*}
	alg=rsa$bits; label="RSA-$bits" ;;
*prime256v1*) alg=ecdsap256; label="ECDSA P-256" ;;
*secp384r1*) alg=ecdsap384; label="ECDSA P-384" ;;
*) die "$key: a key type openssl speed does not name here" ;;
esac
deterministic=false
case $alg in rsa*) deterministic=true ;; esac

shm=/dev/shm
[ -d "$shm" ] && [ -w "$shm" ] || shm=${TMPDIR:-/tmp}
tmp=$(mktemp -d "$shm/bpfsign-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/a" "$tmp/b"
i=0
while [ $i -lt "$n" ]; do
	head -c 256 /dev/urandom > "$tmp/a/p$i"
	i=$((i + 1))
done
cp "$tmp"/a/p* "$tmp/b/"

# snap NAME: this shell's children's CPU time so far into $tmp/NAME, in the
# shell itself ($(...) would fork a shell whose children are none of these).
# bash, not sh: dash's times counts clock ticks, 10 ms, 3% of a round.
snap() { times > "$tmp/$1"; }
# cpu NAME [FIELDS]: its CPU seconds, user + system (FIELDS 2) or user (1)
cpu() {
	awk -v fields="${2:-2}" 'NR == 2 {
		for (i = 1; i <= fields; i++) {
			split($i, t, "m"); sub(/s$/, "", t[2]); s += t[1] * 60 + t[2]
		}
		printf "%.6f", s
	}' "$tmp/$1"
}

# CPU seconds of each variant in each round, and openssl speed's rates
r=0
while [ $r -lt "$rounds" ]; do
	lo=$((r * per))
	hi=$((lo + per))

	# bpfsign: every payload, one process
	rm -f "$tmp"/a/*.p7s
	snap t0
	(cd "$tmp/a" && exec "$bpfsign" sign --key "$key" --cert "$cert" p*) ||
		die "bpfsign sign failed"
	snap t1
	# verifying is several times as fast: VERIFIES passes, a round's CPU time
	# long enough that starting a process and reading the certificate are noise
	v=0
	while [ $v -lt "$verifies" ]; do
		(cd "$tmp/a" && exec "$bpfsign" verify --json --cert "$cert" p*.p7s) > "$tmp/verdicts" ||
			die "bpfsign verify refused a signature"
		v=$((v + 1))
	done
	snap t2
	[ "$(grep -c '"verified": true' "$tmp/verdicts")" = "$n" ] ||
		die "bpfsign verify did not verify all $n signatures"

	# the primitive, per CPU second (openssl speed's default: user time)
	openssl speed -seconds 1 -mr "$alg" 2>/dev/null |
		awk -F: '/^\+F[0-9]*:/ { print $4, $5 }' >> "$tmp/speed"
	[ "$(wc -l < "$tmp/speed")" = $((r + 1)) ] || die "openssl speed $alg printed no rates"

	# one openssl process per payload, this round's share
	snap t3
	i=$lo
	while [ $i -lt $hi ]; do
		openssl cms -sign -binary -noattr -nocerts -outform DER -md sha256 \
			-keyid -signer "$cert" -inkey "$key" \
			-in "$tmp/b/p$i" -out "$tmp/b/p$i.p7s" || die "openssl cms -sign failed"
		i=$((i + 1))
	done
	snap t4
	i=$lo
	while [ $i -lt $hi ]; do
		openssl cms -verify -binary -inform DER -in "$tmp/b/p$i.p7s" \
			-content "$tmp/b/p$i" -noverify -certfile "$cert" -nointern \
			-out /dev/null 2>/dev/null || die "openssl cms -verify refused p$i.p7s"
		i=$((i + 1))
	done
	snap t5

	# same key, same bytes: RSA signatures are identical
	if $deterministic; then
		i=$lo
		while [ $i -lt $hi ]; do
			cmp -s "$tmp/a/p$i.p7s" "$tmp/b/p$i.p7s" ||
				die "p$i.p7s: bpfsign's differs from openssl's"
			i=$((i + 1))
		done
	fi

	# this round's CPU seconds: bpfsign sign, bpfsign verify, the openssl
	# processes' signs and verifies, bpfsign sign's user time
	awk -v t0="$(cpu t0)" -v t1="$(cpu t1)" -v t2="$(cpu t2)" -v t3="$(cpu t3)" \
		-v t4="$(cpu t4)" -v t5="$(cpu t5)" -v u0="$(cpu t0 1)" -v u1="$(cpu t1 1)" \
		'BEGIN { printf "%.6f %.6f %.6f %.6f %.6f\n", t1 - t0, t2 - t1, t4 - t3, t5 - t4, u1 - u0 }' \
		>> "$tmp/cpu"
	r=$((r + 1))
done

# each figure: the median of its rounds' ratios (a round's variants ran next
# to each other: what slowed the machine in a round slowed all of them)
paste -d' ' "$tmp/cpu" "$tmp/speed" |
awk -v n="$n" -v rounds="$rounds" -v per="$per" -v label="$label" -v alg="$alg" \
	-v verifies="$verifies" '
{
	bs[NR] = n / $1; bv[NR] = n * verifies / $2; cs[NR] = per / $3; cv[NR] = per / $4
	bu[NR] = n / $5; os[NR] = $6; ov[NR] = $7
	rs[NR] = bs[NR] / os[NR]; rp[NR] = bs[NR] / cs[NR]; ru[NR] = bu[NR] / os[NR]
	rv[NR] = bv[NR] / ov[NR]; rq[NR] = bv[NR] / cv[NR]
}
function median(v, k,    i, j, t) {
	for (i = 2; i <= k; i++)
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
}
END {
	printf "# signer: %d payloads of 256 bytes, %s, SHA-256; %d rounds of %d bpfsign signatures, %d openssl processes; per CPU second, medians of the rounds\n",
		n, label, rounds, n, per
	printf "sign.vs_primitive: %.3f (bpfsign sign %.0f sig/s vs openssl speed %s %.0f sign/s)\n",
		median(rs, NR), median(bs, NR), alg, median(os, NR)
	printf "sign.user_vs_primitive: %.3f (bpfsign sign %.0f sig/s vs openssl speed %s %.0f sign/s, both per user CPU second)\n",
		median(ru, NR), median(bu, NR), alg, median(os, NR)
	printf "sign.vs_processes: %.3f (bpfsign sign %.0f sig/s vs one openssl cms -sign per payload %.1f sig/s)\n",
		median(rp, NR), median(bs, NR), median(cs, NR)
	printf "verify.vs_primitive: %.3f (bpfsign verify, one process, %.0f verify/s vs openssl speed %s %.0f verify/s)\n",
		median(rv, NR), median(bv, NR), alg, median(ov, NR)
	printf "verify.vs_processes: %.3f (bpfsign verify, one process, %.0f verify/s vs one openssl cms -verify per file %.1f verify/s)\n",
		median(rq, NR), median(bv, NR), median(cv, NR)
}'
