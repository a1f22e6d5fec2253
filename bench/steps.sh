#!/usr/bin/env bash
# bench/steps.sh - peak memory and throughput as the number of forward
# passes grows: gen_trace --steps K (48-layer MoE decode steps, every 8th an
# EXTEND) piped into tracestream and into the yajl no-op parse, for each K.
# The layer machine keeps one pass's per-layer figures and per-index
# statistics, so it does not grow with K (pass records are capped at 16,384
# and take ~150 bytes each); what grows is the kernel -> CPU op index, 16
# bytes per cpu_op (about 840 per step here), capped by --join-mem.
#
#   bash bench/steps.sh              K = 10 100 1000 5000
#   STEPS="10 100" bash bench/steps.sh
#
# Prints a markdown table (and appends it to bench/RESULTS.md with
# APPEND=1); exits 1 when a run fails or the pass/layer counts are not
# K and 48K.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh   # field
BIN=build/bench
TS=${TRACESTREAM:-./tracestream}
CC=${CC:-cc}
STEPS=${STEPS:-"10 100 1000 5000"}
NOOP_FLAGS=${NOOP_FLAGS---no-utf8-check}
mkdir -p "$BIN"
$CC -std=c11 -O2 -Wall -Wextra -o "$BIN/gen_trace" bench/gen_trace.c
$CC -std=c11 -O2 -Wall -Wextra -o "$BIN/yajl_noop" bench/yajl_noop.c -lyajl
$CC -std=c11 -O2 -Wall -Wextra -o "$BIN/peakrss" bench/peakrss.c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

failed=0
{
	echo
	echo "### Forward passes vs memory (bench/steps.sh, $(date -u +%Y-%m-%d))"
	echo
	echo "| steps | MB | passes | layers | tracestream MB/s | peak RSS MB | yajl no-op MB/s | no-op peak RSS MB | ratio |"
	echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
} >"$tmp/table.md"
for k in $STEPS; do
	"$BIN/gen_trace" --steps "$k" --truth "$tmp/truth.json" >"$tmp/t.json"
	bytes=$(stat -c %s "$tmp/t.json")
	# shellcheck disable=SC2086
	"$BIN/peakrss" "$tmp/noop.res" -- "$BIN/yajl_noop" $NOOP_FLAGS "$tmp/t.json" 2>/dev/null
	"$BIN/peakrss" "$tmp/ts.res" -- "$TS" --format json --no-progress "$tmp/t.json" >"$tmp/r.json" 2>/dev/null || failed=1
	read -r passes layers ok < <(python3 - "$tmp/r.json" "$k" <<'PY'
import json, sys
r, k = json.load(open(sys.argv[1])), int(sys.argv[2])
n, L = len(r['passes']), r['layers']['total']
print(n, L, int(n == k and L == 48 * k and all(p['complete'] for p in r['passes'])))
PY
)
	[ "$ok" = 1 ] || { echo "bench/steps.sh: $k steps gave $passes passes, $layers layers" >&2; failed=1; }
	python3 - "$k" "$bytes" "$passes" "$layers" "$(field wall_s "$tmp/ts.res")" \
		"$(field peak_rss_kb "$tmp/ts.res")" "$(field wall_s "$tmp/noop.res")" \
		"$(field peak_rss_kb "$tmp/noop.res")" >>"$tmp/table.md" <<'PY'
import sys
k, b, p, l, tw, tr, nw, nr = sys.argv[1:]
b = int(b)
ts, no = b / 1e6 / float(tw), b / 1e6 / float(nw)
print('| %s | %.0f | %s | %s | %.0f | %.1f | %.0f | %.1f | %.2fx |' %
      (k, b / 1e6, p, l, ts, int(tr) / 1024, no, int(nr) / 1024, ts / no))
PY
done
cat "$tmp/table.md"
if [ "${APPEND:-0}" = 1 ]; then cat "$tmp/table.md" >>bench/RESULTS.md; fi
exit $failed
