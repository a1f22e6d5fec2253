#!/usr/bin/env bash
# bench/ranks.sh - many ranks of one job: wall time and peak RSS of
# `tracestream -j JOBS` over RANKS traces against one rank alone, and the
# yajl no-op parse of the same bytes run the same way (JOBS at a time).
#
#   bash bench/ranks.sh                 8 ranks of 1 GB, -j 2
#   SIZE=256M RANKS=8 JOBS=2 bash bench/ranks.sh
#
# The ranks are one generated trace (bench/gen_trace) under RANKS names, so
# the disk holds SIZE once; the page cache serves every rank alike. Expect
# wall(all) / wall(one) near RANKS / JOBS, and peak RSS near JOBS times one
# analysis (each rank is freed once summarised).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=build/bench
OUT=bench/out/ranks
TS=${TRACESTREAM:-./tracestream}
SIZE=${SIZE:-1G}
RANKS=${RANKS:-8}
JOBS=${JOBS:-2}
CC=${CC:-cc}
mkdir -p "$BIN" "$OUT"
trap '[ "${KEEP:-0}" = 1 ] || rm -rf "$OUT"' EXIT
[ -x "$BIN/gen_trace" ] || $CC -std=c11 -O2 -o "$BIN/gen_trace" bench/gen_trace.c
[ -x "$BIN/yajl_noop" ] || $CC -std=c11 -O2 -o "$BIN/yajl_noop" bench/yajl_noop.c -lyajl
[ -x "$BIN/peakrss" ] || $CC -std=c11 -O2 -o "$BIN/peakrss" bench/peakrss.c
"$BIN/gen_trace" --bytes "$SIZE" > "$OUT/rank.json" 2>/dev/null
bytes=$(stat -c %s "$OUT/rank.json")
ranks=()
for r in $(seq 0 $((RANKS - 1))); do
	ln -sf rank.json "$OUT/rank_$r.json"
	ranks+=("$OUT/rank_$r.json")
done
cat "$OUT/rank.json" > /dev/null   # into the page cache
field() { awk -v k="$2" '{for (i = 1; i < NF; i++) if ($i == k) print $(i + 1)}' "$1"; }
"$BIN/peakrss" "$OUT/one.m" -- "$TS" --no-progress -f json "${ranks[0]}" > "$OUT/one.json"
"$BIN/peakrss" "$OUT/all.m" -- "$TS" --no-progress -j "$JOBS" -f json "${ranks[@]}" > "$OUT/all.json"
"$BIN/peakrss" "$OUT/noop1.m" -- "$BIN/yajl_noop" --no-utf8-check "${ranks[0]}" > /dev/null 2>&1
"$BIN/peakrss" "$OUT/noopall.m" -- sh -c "printf '%s\n' $(printf '"%s" ' "${ranks[@]}") |
	xargs -P $JOBS -n 1 $BIN/yajl_noop --no-utf8-check > /dev/null 2>&1"
python3 - "$OUT/all.json" "$RANKS" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d['ranks']) == int(sys.argv[2]) and all(r['status'] == 'ok' for r in d['ranks']), 'ranks'
PY
w1=$(field "$OUT/one.m" wall_s); wa=$(field "$OUT/all.m" wall_s)
r1=$(field "$OUT/one.m" peak_rss_kb); ra=$(field "$OUT/all.m" peak_rss_kb)
n1=$(field "$OUT/noop1.m" wall_s); na=$(field "$OUT/noopall.m" wall_s)
nr=$(field "$OUT/noop1.m" peak_rss_kb)
awk -v b="$bytes" -v R="$RANKS" -v J="$JOBS" -v w1="$w1" -v wa="$wa" -v r1="$r1" -v ra="$ra" \
	-v n1="$n1" -v na="$na" -v nr="$nr" 'BEGIN {
	mb = b / 1e6
	printf "## Many ranks (bench/ranks.sh): %d ranks of %.0f MB, -j %d\n\n", R, mb, J
	printf "| run | wall s | MB/s | peak RSS MB |\n|---|---:|---:|---:|\n"
	printf "| tracestream, one rank | %.2f | %.0f | %.1f |\n", w1, mb / w1, r1 / 1024
	printf "| tracestream, %d ranks, -j %d | %.2f | %.0f | %.1f |\n", R, J, wa, R * mb / wa, ra / 1024
	printf "| yajl no-op, one rank | %.2f | %.0f | %.1f |\n", n1, mb / n1, nr / 1024
	printf "| yajl no-op, %d ranks, %d at a time | %.2f | %.0f | - |\n\n", R, J, na, R * mb / na
	printf "%d ranks take %.2fx one rank (ideal %.1fx with %d at a time); throughput %.2fx the no-op run the same way; peak RSS %.2fx one rank (at most %d analyses held).\n", \
		R, wa / w1, R / J, J, (R * mb / wa) / (R * mb / na), ra / r1, J
}'
