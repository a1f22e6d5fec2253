#!/usr/bin/env bash
# golden.sh OLD NEW [DIR]: the outputs of two tracestream binaries held
# byte for byte, for a change that should not change them (a refactor):
# every format (text, --brief, -w 80, --show-layers --full-names, JSON,
# HTML, every CSV table) of every shared trace (../shared/traces), of the
# captures in tests/data and of the fixtures, a compare and a ranks run.
# Prints the files that differ and exits 1 when any does; 0 when none.
set -u
old=$1 new=$2
cd "$(dirname "$0")/.."
out=${3:-$(mktemp -d)}
shared=${SHARED:-../shared/traces}
run() { # run BIN DIR
	local ts=$1 o=$2
	mkdir -p "$o"
	for t in "$shared"/*.json* tests/data/*.json.gz; do
		[ -f "$t" ] || continue
		local b
		b=$(basename "$t"); b=${b%%.json*}; b=${b%.pt.trace}
		"$ts" --no-progress "$t" >"$o/$b.txt" 2>"$o/$b.err"; echo "rc=$?" >>"$o/$b.err"
		"$ts" --no-progress --show-layers --full-names "$t" >"$o/$b.layers.txt" 2>/dev/null
		"$ts" --no-progress --brief "$t" >"$o/$b.brief.txt" 2>/dev/null
		"$ts" --no-progress -w 80 "$t" >"$o/$b.w80.txt" 2>/dev/null
		"$ts" --no-progress -f json "$t" >"$o/$b.json" 2>/dev/null
		"$ts" --no-progress -f html "$t" >"$o/$b.html" 2>/dev/null
		mkdir -p "$o/$b.csv"
		"$ts" --no-progress --csv-dir "$o/$b.csv" -f json "$t" >/dev/null 2>&1
	done
	local a=tests/data/torch_dense_eager_h200.json.gz c=tests/data/torch_dense_compile_h200.json.gz
	"$ts" --no-progress compare "$a" "$c" >"$o/compare.txt" 2>&1
	"$ts" --no-progress compare -f json "$a" "$c" >"$o/compare.json" 2>&1
	"$ts" --no-progress "$a" "$c" >"$o/ranks.txt" 2>&1
	for f in tests/fixtures/*.json; do
		"$ts" --no-progress "$f" >"$o/fx_$(basename "$f" .json).txt" 2>&1
		"$ts" --no-progress -f json "$f" >"$o/fx_$(basename "$f" .json).json" 2>&1
	done
}
run "$old" "$out/old"
run "$new" "$out/new"
if diff -rq "$out/old" "$out/new"; then
	echo "golden: the same output ($(find "$out/new" -type f | wc -l) files, in $out)"
else
	echo "golden: outputs differ (in $out)"
	exit 1
fi
