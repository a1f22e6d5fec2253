#!/usr/bin/env bash
# Deterministic throughput: instructions per JSON byte, counted by
# valgrind's callgrind, for tracestream and the yajl no-op on the same
# generated input. Wall-clock figures on a shared VM vary by +-25% from run
# to run; instruction counts are the same every time for the same binary
# and input. Fixed start-up cost (loading the pattern tables, classifying
# each distinct name) is separated from the per-byte cost by measuring two
# sizes: per_byte = (I(big) - I(small)) / (bytes(big) - bytes(small)).
#
# The same is done on a real-shaped input when the shared traces are there:
# the HF Qwen1.5-0.5B H100 trace written once and six times over by
# bench/repeat_stream.py (ids and times shifted, as bench/real.sh does).
#
#   bash bench/instructions.sh [TRACESTREAM]     prints a markdown section
set -euo pipefail
cd "$(dirname "$0")/.."
ts=${1:-./tracestream}
bin=build/bench
command -v valgrind >/dev/null || { echo "instructions: valgrind not installed, skipped"; exit 0; }
mkdir -p "$bin" bench/out
[ -x "$bin/gen_trace" ] || cc -O2 -o "$bin/gen_trace" bench/gen_trace.c
[ -x "$bin/yajl_noop" ] || cc -O2 -o "$bin/yajl_noop" bench/yajl_noop.c -lyajl
small=bench/out/instr-small.json
big=bench/out/instr-big.json
"$bin/gen_trace" --steps 2 >"$small" 2>/dev/null
"$bin/gen_trace" --bytes 30M >"$big" 2>/dev/null
count() { # prints the total instruction count of a command
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
		awk '/refs:/ {gsub(",", "", $4); print $4}'
}
sb=$(stat -c %s "$small")
bb=$(stat -c %s "$big")
ts_s=$(count "$ts" --format json --no-progress "$small")
ts_b=$(count "$ts" --format json --no-progress "$big")
# one parse thread: the instructions the records of the threaded parse add
t1_s=$(count "$ts" -T 1 --format json --no-progress "$small")
t1_b=$(count "$ts" -T 1 --format json --no-progress "$big")
no_s=$(count "$bin/yajl_noop" --no-utf8-check "$small")
no_b=$(count "$bin/yajl_noop" --no-utf8-check "$big")
rm -f "$small" "$big"
awk -v sb="$sb" -v bb="$bb" -v ts_s="$ts_s" -v ts_b="$ts_b" -v no_s="$no_s" -v no_b="$no_b" \
    -v t1_s="$t1_s" -v t1_b="$t1_b" 'BEGIN {
	tpb = (ts_b - ts_s) / (bb - sb); npb = (no_b - no_s) / (bb - sb)
	t1pb = (t1_b - t1_s) / (bb - sb)
	tfix = ts_s - tpb * sb; nfix = no_s - npb * sb; t1fix = t1_s - t1pb * sb
	printf "## Instructions per byte (callgrind, deterministic)\n\n"
	printf "| tool | instructions per JSON byte | fixed start-up (instructions) |\n|---|---:|---:|\n"
	printf "| yajl_noop | %.2f | %.0f |\n| tracestream (all threads) | %.2f | %.0f |\n", npb, nfix, tpb, tfix
	printf "| tracestream -T 1 | %.2f | %.0f |\n\n", t1pb, t1fix
	printf "tracestream / no-op throughput by instruction count: **%.2fx** (inputs %.1f MB and %.1f MB)\n", npb / tpb, sb / 1e6, bb / 1e6
}'

real=../shared/traces/hf_qwen1.5-0.5b-chat_h100.json.gz
if [ ! -f "$real" ]; then
	echo
	echo "real-shaped input: skipped ($real absent)"
	exit 0
fi
r1=bench/out/instr-real1.json
r6=bench/out/instr-real6.json
python3 bench/repeat_stream.py "$real" 1 >"$r1"
python3 bench/repeat_stream.py "$real" 6 >"$r6"
s1=$(stat -c %s "$r1")
s6=$(stat -c %s "$r6")
ts_1=$(count "$ts" --format json --no-progress "$r1")
ts_6=$(count "$ts" --format json --no-progress "$r6")
no_1=$(count "$bin/yajl_noop" --no-utf8-check "$r1")
no_6=$(count "$bin/yajl_noop" --no-utf8-check "$r6")
rm -f "$r1" "$r6"
awk -v s1="$s1" -v s6="$s6" -v ts_1="$ts_1" -v ts_6="$ts_6" -v no_1="$no_1" -v no_6="$no_6" 'BEGIN {
	tpb = (ts_6 - ts_1) / (s6 - s1); npb = (no_6 - no_1) / (s6 - s1)
	printf "\nReal-shaped (HF Qwen1.5-0.5B H100 trace x1 and x6, %.1f MB and %.1f MB): ", s1 / 1e6, s6 / 1e6
	printf "yajl_noop %.2f, tracestream %.2f instructions per byte: **%.2fx**\n", npb, tpb, npb / tpb
}'
