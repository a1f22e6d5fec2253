#!/usr/bin/env bash
# bench/threads_split.sh - instructions per JSON byte, split into the main
# thread (records in order and the whole analysis) and the workers (the
# parse of pieces), counted by callgrind (--separate-threads=yes, so
# deterministic) on a REAL-SHAPED input: a shared trace written K and 8K
# times over by bench/repeat_stream.py, the fixed start-up cost removed by
# the difference of the two sizes. Beside it, the yajl no-op's instructions
# per byte of the same bytes.
#
#   bash bench/threads_split.sh [TRACE] [K]
#
# TRACE defaults to the SGLang Qwen3-30B MI300X decode of ../shared/traces
# (graph-replayed, many Python frames), K to 4; absent, it says so and
# exits 0. TRACESTREAM (default ./tracestream) and THREADS (default: the
# command's own choice) are used as given.
set -euo pipefail
cd "$(dirname "$0")/.."
ts=${TRACESTREAM:-./tracestream}
trace=${1:-../shared/traces/sglang_qwen3-30b-a3b_mi300x_decode_bs16.trace.json.gz}
k=${2:-4}
command -v valgrind >/dev/null || { echo "threads_split: valgrind not installed, skipped"; exit 0; }
[ -f "$trace" ] || { echo "threads_split: $trace is not here, skipped"; exit 0; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir -p build/bench
[ -x build/bench/yajl_noop ] || cc -O2 -o build/bench/yajl_noop bench/yajl_noop.c -lyajl
python3 bench/repeat_stream.py "$trace" "$k" > "$out/small.json"
python3 bench/repeat_stream.py "$trace" $((8 * k)) > "$out/big.json"
threads=()
[ -n "${THREADS:-}" ] && threads=(-T "$THREADS")
for f in small big; do
	valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$out/ts.$f" \
		"$ts" "${threads[@]}" -q -f json -o /dev/null "$out/$f.json" >/dev/null 2>&1
	valgrind --tool=callgrind --callgrind-out-file="$out/noop.$f" \
		build/bench/yajl_noop --no-utf8-check "$out/$f.json" >/dev/null 2>&1
done
python3 - "$out" "$trace" <<'PY'
import glob, os, sys
d, trace = sys.argv[1], sys.argv[2]
def total(p):
    for line in open(p):
        if line.startswith(('summary:', 'totals:')):
            return int(line.split()[1])
    return 0
size = {f: os.path.getsize(os.path.join(d, f + '.json')) for f in ('small', 'big')}
b = size['big'] - size['small']
def per_byte(pattern):
    return (sum(total(p) for p in glob.glob(os.path.join(d, pattern % 'big'))) -
            sum(total(p) for p in glob.glob(os.path.join(d, pattern % 'small')))) / b
main = per_byte('ts.%s-01')
workers = per_byte('ts.%s-0[2-9]') + per_byte('ts.%s-[1-9][0-9]')
noop = per_byte('noop.%s')
print('## Instructions per byte by thread (callgrind, real-shaped)\n')
print('%s written %.1f MB and %.1f MB; the difference per byte:\n' %
      (os.path.basename(trace), size['small'] / 1e6, size['big'] / 1e6))
print('| | instructions per byte |')
print('|---|---:|')
print('| yajl no-op | %.2f |' % noop)
print('| tracestream, main thread (records in order, the analysis) | %.2f |' % main)
print('| tracestream, workers (the parse of pieces) | %.2f |' % workers)
print('| tracestream, all threads | %.2f (%.2fx the no-op) |' % (main + workers, (main + workers) / noop))
PY
