#!/usr/bin/env bash
# bench/capture.sh - the cost of --capture: the shared vLLM piecewise replay
# trace written K times over (bench/repeat_stream.py) to about SIZE, read by
# a yajl no-op parse, by tracestream, by tracestream --capture with the
# batch-8192 capture trace, and by tracestream --capture with a partial
# saved with that capture (its capture map), in the same run; best of
# REPEAT rounds each.
#
#   bash bench/capture.sh            200 MB
#   SIZE=1G REPEAT=3 bash bench/capture.sh
#
# Prints MB/s and peak RSS of each and the ratios; checks that every copy's
# 361 replayed kernels took their captured ops (graph_op = K x 361). When
# ../shared/traces lacks the pair it prints "skipped" and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh   # field
SHARED=${SHARED:-../shared/traces}
CAP=$(ls "$SHARED"/vllm_mi300x_graph_capture_bs8192_piecewise.pt.trace.json* 2>/dev/null | head -1 || true)
REP=$(ls "$SHARED"/vllm_mi300x_mixed_prefilldecode_piecewise_graph.json* 2>/dev/null | head -1 || true)
if [ -z "$CAP" ] || [ -z "$REP" ]; then
	echo "bench/capture.sh: skipped ($SHARED has not the vLLM piecewise pair)"
	exit 0
fi
TS=${TRACESTREAM:-./tracestream}
SIZE=${SIZE:-200M}
REPEAT=${REPEAT:-3}
CC=${CC:-cc}
BIN=build/bench
OUT=bench/out/capture
mkdir -p "$BIN" "$OUT"
trap '[ "${KEEP:-0}" = 1 ] || rm -rf "$OUT"' EXIT
[ -x "$BIN/yajl_noop" ] || $CC -std=c11 -O2 -o "$BIN/yajl_noop" bench/yajl_noop.c -lyajl
[ -x "$BIN/peakrss" ] || $CC -std=c11 -O2 -o "$BIN/peakrss" bench/peakrss.c
bytes_of() { python3 -c "import sys; s=sys.argv[1]; m={'K':1e3,'M':1e6,'G':1e9}; print(int(float(s[:-1])*m[s[-1]]) if s[-1] in m else int(s))" "$1"; }
want=$(bytes_of "$SIZE")
copy=$(python3 bench/repeat_stream.py --info "$REP" | python3 -c "import json,sys; print(json.load(sys.stdin)['copy_bytes'])")
K=$(( (want + copy - 1) / copy ))
python3 bench/repeat_stream.py "$REP" "$K" > "$OUT/replay.json"
bytes=$(stat -c %s "$OUT/replay.json")
cat "$OUT/replay.json" > /dev/null
best() { # label cmd...: fastest wall of REPEAT runs, and its peak RSS
	local label=$1; shift
	local bw=999999 br=0
	for i in $(seq 1 "$REPEAT"); do
		"$BIN/peakrss" "$OUT/$label.res" -- "$@" > "$OUT/$label.out" 2>/dev/null || true
		w=$(field wall_s "$OUT/$label.res"); r=$(field peak_rss_kb "$OUT/$label.res")
		if awk -v a="$w" -v b="$bw" 'BEGIN { exit !(a < b) }'; then bw=$w; br=$r; cp "$OUT/$label.out" "$OUT/$label.best"; fi
	done
	echo "$bw $br"
}
read -r nw nr < <(best noop "$BIN/yajl_noop" --no-utf8-check "$OUT/replay.json")
read -r tw tr < <(best plain "$TS" --no-progress -f json "$OUT/replay.json")
read -r cw cr < <(best capture "$TS" --no-progress -f json --capture "$CAP" "$OUT/replay.json")
"$TS" -q --no-progress --capture "$CAP" --save-state "$OUT/cap.tsp" "$REP" > /dev/null
read -r pw pr < <(best captsp "$TS" --no-progress -f json --capture "$OUT/cap.tsp" "$OUT/replay.json")
python3 - "$OUT/plain.best" "$OUT/capture.best" "$K" "$OUT/captsp.best" <<'PY'
import json, sys
p, c, k = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
t = json.load(open(sys.argv[4]))
assert t['attribution'] == c['attribution'] and t['graph_replays']['kinds'] == c['graph_replays']['kinds']
assert p['attribution']['kernels']['graph'] == 361 * k, p['attribution']['kernels']
assert c['attribution']['kernels']['graph_op'] == 361 * k, c['attribution']['kernels']
assert c['graph_replays']['matched'] == 25 * k and c['graph_replays']['refused'] == 0
PY
tsp=$(stat -c %s "$OUT/cap.tsp")
awk -v b="$bytes" -v K="$K" -v nw="$nw" -v nr="$nr" -v tw="$tw" -v tr="$tr" -v cw="$cw" -v cr="$cr" \
	-v pw="$pw" -v pr="$pr" -v tsp="$tsp" 'BEGIN {
	mb = b / 1e6
	printf "## --capture (bench/capture.sh): the vLLM piecewise replay x%d, %.0f MB\n\n", K, mb
	printf "| run | wall s | MB/s | peak RSS MB |\n|---|---:|---:|---:|\n"
	printf "| yajl no-op | %.2f | %.0f | %.1f |\n", nw, mb / nw, nr / 1024
	printf "| tracestream | %.2f | %.0f | %.1f |\n", tw, mb / tw, tr / 1024
	printf "| tracestream --capture (31.7 MB capture read first) | %.2f | %.0f | %.1f |\n", cw, mb / cw, cr / 1024
	printf "| tracestream --capture PARTIAL (its map, %.0f KB partial) | %.2f | %.0f | %.1f |\n\n", tsp / 1024, pw, mb / pw, pr / 1024
	printf "tracestream at %.2fx the no-op, with --capture %.2fx (%.2fx tracestream alone), with the saved map %.2fx; peak RSS %.2fx with --capture, %.2fx with the saved map. Every copy matched: %d x 361 kernels given their captured ops, the same with the saved map.\n", \
		nw / tw, nw / cw, tw / cw, nw / pw, cr / tr, pr / tr, K
}'
