#!/bin/sh
# Bounded libFuzzer run of the header parser, seeded with a real header.
# Usage: fuzz/run.sh SECONDS SEED-HEADER...
set -eu
cd "$(dirname "$0")/.."
secs=$1
shift
mkdir -p fuzz-corpus/lskel
for seed in "$@"; do
	cp "$seed" fuzz-corpus/lskel/
done
./fuzz-lskel -max_total_time="$secs" -max_len=65536 -print_final_stats=1 \
	-dict=fuzz/lskel.dict fuzz-corpus/lskel
