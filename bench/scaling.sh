#!/usr/bin/env bash
# bench/scaling.sh - thread scaling of tracestream on REAL-SHAPED input,
# beside the yajl no-op parse of the same bytes, in one run.
#
#   bash bench/scaling.sh                       1 GB of each default trace
#   SIZE=100M THREADS="1 2" bash bench/scaling.sh
#   bash bench/scaling.sh TRACE.json.gz ...     other traces
#
# For each trace (default: the MI300X Qwen3-30B decode, the gpt-oss B200
# eager prefill and the GB10 hybrid decode from ../shared/traces; absent
# ones are skipped with a message): bench/repeat_stream.py writes it K times
# over to about SIZE bytes (plain JSON), then REPEAT rounds of
#   yajl_noop FILE                 (--no-utf8-check, tracestream's configuration)
#   tracestream -T N FILE          for each N in THREADS
# keeping each command's fastest run.  Printed per trace and thread count:
# wall, MB/s, peak RSS, MB/s over the no-op's, the speed-up over -T 1, and
# whether the JSON report is byte-identical to -T 1's (it must be: exit 1
# otherwise).  Timings are reported, never asserted.
#
# Env: SIZE (default 1G; K, M, G suffixes, MB = 1e6 bytes), THREADS (default
# "1 2 4 8" and the core count where it is larger), REPEAT (default 2),
# TRACESTREAM (default ./tracestream), NOOP / PEAKRSS (prebuilt bench/yajl_noop
# and bench/peakrss; built into a temporary directory with CC when unset),
# OUTDIR (where the inputs go; default bench/out), TSV (also write the rows
# there, tab-separated).
set -euo pipefail
START_DIR=$PWD
cd "$(dirname "$0")/.."

SIZE=${SIZE:-1G}
REPEAT=${REPEAT:-2}
CC=${CC:-cc}
OUTDIR=${OUTDIR:-bench/out}
TS_SRC=${TRACESTREAM:-./tracestream}
cores=$(nproc)
THREADS=${THREADS:-$(r="1 2 4 8"; [ "$cores" -gt 8 ] && r="$r $cores"; echo "$r")}

case $REPEAT in ''|*[!0-9]*|0) echo "scaling: REPEAT must be a positive integer" >&2; exit 2 ;; esac
for n in $THREADS; do
    case $n in ''|*[!0-9]*|0) echo "scaling: bad thread count '$n'" >&2; exit 2 ;; esac
done
. bench/lib.sh   # to_bytes, field
TARGET=$(to_bytes "$SIZE") || { echo "scaling: bad SIZE '$SIZE'" >&2; exit 2; }

if [ $# -gt 0 ]; then
    TRACES=()
    for t in "$@"; do case $t in /*) TRACES+=("$t") ;; *) TRACES+=("$START_DIR/$t") ;; esac; done
else
    S=../shared/traces
    TRACES=("$S/sglang_qwen3-30b-a3b_mi300x_decode_bs16.trace.json.gz"
            "$S/vllm_gptoss120b_b200_tp8_eager_prefill.json.gz"
            "$S/vllm_qwen3.5-27b-nvfp4_gb10_decode_bs4_piecewise_10steps.pt.trace.json.gz")
fi

TMP=$(mktemp -d /tmp/ts_scaling.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
log() { printf 'scaling: %s\n' "$*" >&2; }

cp "$TS_SRC" "$TMP/tracestream" || { echo "scaling: $TS_SRC not found; run make first" >&2; exit 2; }
TS=$TMP/tracestream
NOOP=${NOOP:-}
PEAKRSS=${PEAKRSS:-}
if [ -z "$NOOP" ]; then
    $CC -std=c11 -O2 -o "$TMP/yajl_noop" bench/yajl_noop.c -lyajl
    NOOP=$TMP/yajl_noop
fi
if [ -z "$PEAKRSS" ]; then
    $CC -std=c11 -O2 -o "$TMP/peakrss" bench/peakrss.c
    PEAKRSS=$TMP/peakrss
fi
mkdir -p "$OUTDIR"
FAILED=0

# run LABEL CMD...: REPEAT runs, the fastest kept as "wall kb status"
run() {
    local label=$1 i best="" st
    shift
    for ((i = 1; i <= REPEAT; i++)); do
        "$PEAKRSS" "$TMP/$label.$i.res" -- "$@" > "$TMP/$label.$i.out" 2> "$TMP/$label.$i.log" || true
        st=$(field status "$TMP/$label.$i.res")
        [ "$st" = 0 ] || { FAILED=1; log "$label run $i: exit $st"; tail -n 3 "$TMP/$label.$i.log" >&2; }
    done
    for ((i = 1; i <= REPEAT; i++)); do
        echo "$(field wall_s "$TMP/$label.$i.res") $(field peak_rss_kb "$TMP/$label.$i.res") $(field status "$TMP/$label.$i.res") $i"
    done | sort -n | head -n 1
}

printf '%-28s %-16s %8s %8s %8s %9s %8s %9s %s\n' trace tool "MB" "wall s" "MB/s" "RSS MB" "vs no-op" "vs -T 1" "report"
for trace in "${TRACES[@]}"; do
    if [ ! -f "$trace" ]; then
        log "skipped: $trace not present"
        continue
    fi
    name=$(basename "$trace" | sed 's/\.json.*//; s/\.pt\.trace//; s/\.trace//' | cut -c1-28)
    copy=$(python3 bench/repeat_stream.py --info "$trace" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["copy_bytes"])')
    k=$(( (TARGET + copy - 1) / copy ))
    file=$OUTDIR/scaling-$SIZE-$name.json
    log "$name: writing $file ($k copies)"
    python3 bench/repeat_stream.py "$trace" "$k" > "$file"
    bytes=$(stat -c %s "$file")
    cat "$file" > /dev/null
    read -r nw nkb nst _ < <(run noop "$NOOP" --no-utf8-check "$file")
    awk -v n="$name" -v b="$bytes" -v w="$nw" -v kb="$nkb" 'BEGIN {
        printf "%-28s %-16s %8.0f %8.3f %8.1f %9.1f %8s %9s %s\n", n, "yajl no-op", b / 1e6, w,
               b / 1e6 / w, kb * 1024 / 1e6, "-", "-", "-" }'
    w1=""
    for n in $THREADS; do
        read -r tw tkb tst ti < <(run "ts$n" "$TS" -T "$n" -f json --no-progress "$file")
        cp "$TMP/ts$n.$ti.out" "$TMP/report.$n.json"
        [ -n "$w1" ] || { w1=$tw; cp "$TMP/report.$n.json" "$TMP/report.first.json"; }
        same=identical
        if ! cmp -s "$TMP/report.first.json" "$TMP/report.$n.json"; then same=DIFFERS; FAILED=1; fi
        [ "$tst" = 0 ] || same="exit $tst"
        awk -v n="$name" -v t="$n" -v b="$bytes" -v w="$tw" -v kb="$tkb" -v nw="$nw" -v w1="$w1" \
            -v s="$same" 'BEGIN {
            printf "%-28s %-16s %8.0f %8.3f %8.1f %9.1f %7.2fx %8.2fx %s\n", n, "tracestream -T " t,
                   b / 1e6, w, b / 1e6 / w, kb * 1024 / 1e6, nw / w, w1 / w, s }'
        if [ -n "${TSV:-}" ]; then
            printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$n" "$bytes" "$tw" "$tkb" "$nw" >> "$TSV"
        fi
    done
    rm -f "$file"
done
echo "  (fastest of $REPEAT runs; $(nproc) cores; vs no-op = tracestream MB/s over the no-op's;"
echo "   report: the JSON report against the first thread count's, byte for byte)"
exit $FAILED
