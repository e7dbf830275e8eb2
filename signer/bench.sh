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
#                        process per payload (2 * PROCS payloads a round,
#                        half just before bpfsign sign, half just after)
#   verify.vs_primitive  bpfsign verify, one process for the N signatures
#                        (batch mode, eight times a round), against `openssl
#                        speed`'s verify rate
#   verify.vs_processes  bpfsign verify against one `openssl cms -verify`
#                        process per signature (an eighth of PROCS after
#                        each bpfsign verify pass)
# Payloads and signatures are in tmpfs (/dev/shm when there is one): bpfsign
# fsync()s every output, and on a disk that, not signing, sets the rate.
# The signatures of bpfsign and openssl must be byte-identical (RSA) and all
# must verify, or the bench fails.
#
# Usage: bench.sh [N [ROUNDS [PROCS]]]    (from anywhere, after make)
set -eu
n=${1:-1000}
# a round's ratios scatter by a sixth on a shared host (sign.vs_processes
# 10.7-16.7 in one run): ten rounds' medians lay 16% apart from run to run,
# thirty rounds' 8%
rounds=${2:-30}
per=${3:-40}
verifies=8
here=$(cd "$(dirname "$0")" && pwd)
keys=$here/../keys-example
key=$keys/signing.key
cert=$keys/signing.crt
bpfsign=$here/bpfsign

die() { echo "bench: $*" >&2; exit 1; }
[ -x "$bpfsign" ] || die "no $bpfsign (make signer)"
# signing processes are a sixth of the cost of verifying ones: twice as
# many, so that a round's share is not a tenth of a second of CPU time
signs=$((2 * per))
case $n$rounds$per in *[!0-9]*) die "N, ROUNDS and PROCS are counts: $n $rounds $per" ;; esac
if [ "$n" -lt 1 ] || [ "$rounds" -lt 1 ] || [ "$per" -lt 1 ]; then
	die "N, ROUNDS and PROCS must be at least 1"
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

# now: the CPU milliseconds of this shell's children so far, user + system
# in $all and user in $usr, read with builtins only: a $(...) or a pipe
# would fork children of its own into the count.  bash, not sh: dash's
# times counts clock ticks, 10 ms.
all=0 usr=0
ms() {	# VAR "XmY.ZZZs": milliseconds
	local m=${2%%m*} s=${2#*m}
	s=${s%s}
	printf -v "$1" '%d' $((m * 60000 + 10#${s/./}))
}
now() {
	local u s
	times > "$tmp/times"
	{ read -r _ _; read -r u s; } < "$tmp/times"
	ms usr "$u"
	ms all "$s"
	all=$((all + usr))
}
# run ACC [USR] -- COMMAND...: run it, adding its CPU ms to $ACC (and its
# user ms to $USR)
run() {
	local acc=$1 uacc=$2 a0 u0
	shift 3
	now; a0=$all; u0=$usr
	"$@" || return
	now
	printf -v "$acc" '%d' $((${!acc} + all - a0))
	[ -z "$uacc" ] || printf -v "$uacc" '%d' $((${!uacc} + usr - u0))
}

bpfsign_sign() { (cd "$tmp/a" && exec "$bpfsign" sign --key "$key" --cert "$cert" p*); }
bpfsign_verify() {
	(cd "$tmp/a" && exec "$bpfsign" verify --json --cert "$cert" p*.p7s) > "$tmp/verdicts"
}
# the openssl processes' payloads: FROM to TO counted round the N payloads,
# so that every round has its share whatever N and ROUNDS
cms_sign() {	# FROM TO: one openssl process per payload
	local i p
	for ((i = $1; i < $2; i++)); do
		p=$tmp/b/p$((i % n))
		openssl cms -sign -binary -noattr -nocerts -outform DER -md sha256 \
			-keyid -signer "$cert" -inkey "$key" -in "$p" -out "$p.p7s" || return
	done
}
cms_verify() {	# FROM TO
	local i p
	for ((i = $1; i < $2; i++)); do
		p=$tmp/b/p$((i % n))
		openssl cms -verify -binary -inform DER -in "$p.p7s" -content "$p" \
			-noverify -certfile "$cert" -nointern -out /dev/null 2>/dev/null || return
	done
}

# CPU seconds of each variant in each round, and openssl speed's rates.
# What a figure compares runs next to each other, in slices where it can,
# so that the host's slow moments (this machine's CPU time swung by half
# from round to round) fall on both: the openssl signing processes around
# bpfsign sign, openssl speed (signing, then verifying) between the signing
# and the verifying, and each bpfsign verify pass followed by its share of
# the openssl verifying processes.
r=0
while [ $r -lt "$rounds" ]; do
	lo=$((r * signs))
	mid=$((lo + signs / 2))
	hi=$((lo + signs))
	bs=0 bu=0 bv=0 cs=0 cv=0

	rm -f "$tmp"/a/*.p7s
	run cs "" -- cms_sign $lo $mid || die "openssl cms -sign failed"
	# bpfsign: every payload, one process
	run bs bu -- bpfsign_sign || die "bpfsign sign failed"
	run cs "" -- cms_sign $mid $hi || die "openssl cms -sign failed"

	# the primitive, per CPU second (openssl speed's default: user time)
	openssl speed -seconds 1 -mr "$alg" 2>/dev/null |
		awk -F: '/^\+F[0-9]*:/ { print $4, $5 }' >> "$tmp/speed"
	[ "$(wc -l < "$tmp/speed")" = $((r + 1)) ] || die "openssl speed $alg printed no rates"

	# verifying is several times as fast: VERIFIES passes, a round's CPU
	# time long enough that starting a process and reading the certificate
	# are noise, each followed by its share of the openssl processes
	for ((v = 0; v < verifies; v++)); do
		run bv "" -- bpfsign_verify || die "bpfsign verify refused a signature"
		run cv "" -- cms_verify $((lo + v * per / verifies)) $((lo + (v + 1) * per / verifies)) ||
			die "openssl cms -verify refused a signature"
	done
	[ "$(grep -c '"verified": true' "$tmp/verdicts")" = "$n" ] ||
		die "bpfsign verify did not verify all $n signatures"

	# same key, same bytes: RSA signatures are identical
	if $deterministic; then
		for ((i = lo; i < hi; i++)); do
			p=p$((i % n)).p7s
			cmp -s "$tmp/a/$p" "$tmp/b/$p" || die "$p: bpfsign's differs from openssl's"
		done
	fi

	# this round's CPU seconds: bpfsign sign, bpfsign verify, the openssl
	# processes' signs and verifies, bpfsign sign's user time
	awk -v bs="$bs" -v bv="$bv" -v cs="$cs" -v cv="$cv" -v bu="$bu" \
		'BEGIN { printf "%.6f %.6f %.6f %.6f %.6f\n", bs / 1e3, bv / 1e3, cs / 1e3, cv / 1e3, bu / 1e3 }' \
		>> "$tmp/cpu"
	r=$((r + 1))
done

# each figure: the median of its rounds' ratios (a round's variants ran next
# to each other: what slowed the machine in a round slowed all of them)
paste -d' ' "$tmp/cpu" "$tmp/speed" |
awk -v n="$n" -v rounds="$rounds" -v per="$per" -v label="$label" -v alg="$alg" \
	-v verifies="$verifies" '
{
	bs[NR] = n / $1; bv[NR] = n * verifies / $2; cs[NR] = 2 * per / $3; cv[NR] = per / $4
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
	printf "# signer: %d payloads of 256 bytes, %s, SHA-256; %d rounds of %d bpfsign signatures, %d openssl signing and %d verifying processes; per CPU second, medians of the rounds\n",
		n, label, rounds, n, 2 * per, per
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
