#!/usr/bin/env bash
# Compare two tracestream binaries on the same generated input, with the
# yajl no-op baseline, in one run: each tool runs REPEAT times, interleaved
# (noop, old, new, noop, old, new, ...) so machine noise hits all alike; the
# best (fastest) run of each is reported, with peak RSS.
#
#   bash bench/compare.sh OLD_BINARY NEW_BINARY [SIZE]    (SIZE default 1G)
#   REPEAT=5 KEEP=1 bash bench/compare.sh /tmp/old/tracestream ./tracestream 100M
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: compare.sh OLD_BINARY NEW_BINARY [SIZE]}
new=${2:?usage: compare.sh OLD_BINARY NEW_BINARY [SIZE]}
size=${3:-1G}
REPEAT=${REPEAT:-3}
bin=build/bench
mkdir -p "$bin" bench/out
cc -O2 -o "$bin/gen_trace" bench/gen_trace.c
cc -O2 -o "$bin/yajl_noop" bench/yajl_noop.c -lyajl
cc -O2 -o "$bin/peakrss" bench/peakrss.c
input=bench/out/compare-$size.json
[ -f "$input" ] || "$bin/gen_trace" --bytes "$size" >"$input"
bytes=$(stat -c %s "$input")
cat "$input" >/dev/null   # into the page cache

declare -A best_s best_kb
run() { # label cmd...
	local label=$1
	shift
	"$bin/peakrss" "$tmp" -- "$@" >/dev/null 2>&1 <"$input" || { echo "compare: $label failed" >&2; exit 1; }
	local s kb
	s=$(awk '{for (i = 1; i < NF; i++) if ($i == "wall_s") print $(i + 1)}' "$tmp")
	kb=$(awk '{for (i = 1; i < NF; i++) if ($i == "peak_rss_kb") print $(i + 1)}' "$tmp")
	if [ -z "${best_s[$label]:-}" ] || awk "BEGIN{exit !($s < ${best_s[$label]})}"; then
		best_s[$label]=$s
	fi
	best_kb[$label]=$kb
}
tmp=$(mktemp)
trap 'rm -f "$tmp"; [ "${KEEP:-0}" = 1 ] || rm -f "$input"' EXIT
for ((i = 0; i < REPEAT; i++)); do
	run noop "$bin/yajl_noop" --no-utf8-check -
	run old "$old" --format json --no-progress -
	run new "$new" --format json --no-progress -
done
printf '%-10s %10s %10s %12s\n' tool "MB/s" "RSS MB" "vs no-op"
for t in noop old new; do
	mbs=$(awk "BEGIN{printf \"%.1f\", $bytes / 1e6 / ${best_s[$t]}}")
	rss=$(awk "BEGIN{printf \"%.1f\", ${best_kb[$t]} / 1024}")
	ratio=$(awk "BEGIN{printf \"%.3f\", ${best_s[noop]} / ${best_s[$t]}}")
	printf '%-10s %10s %10s %11sx\n' "$t" "$mbs" "$rss" "$ratio"
done
awk "BEGIN{printf \"new/old throughput: %.3f (input %.0f MB, best of %d)\n\", ${best_s[old]} / ${best_s[new]}, $bytes / 1e6, $REPEAT}"
