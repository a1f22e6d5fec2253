#!/usr/bin/env bash
# bench/run.sh - throughput and peak memory of tracestream against a no-op
# yajl parse of the same JSON (what `make bench` runs).
#
#   bash bench/run.sh            100 MB and 1 GB files, 1 GB .gz, 10 GB pipe
#   bash bench/run.sh --quick    100 MB only (file, .gz)
#   SIZES="100M 1G" bash bench/run.sh
#
# Env: SIZES     inputs to run (default "100M 1G 10G"); sizes of 5G and more
#                are streamed from gen_trace through a pipe and never stored.
#                The largest stored size is also gzipped (gzip -1).
#      REPEAT=N  run each stored-file and .gz measurement N times and keep
#                the fastest (default 1; the 2-core dev box is noisy)
#      KEEP=1    keep bench/out (generated traces, logs, reports)
#      PIPE_MIN  bytes from which a size is piped instead of stored (5e9)
#      NOOP_FLAGS   yajl_noop options (default --no-utf8-check: the same
#                yajl configuration as tracestream's parser, src/input/parser.c)
#      TRACESTREAM  binary to measure (default ./tracestream, built by make)
#      CC        compiler for the bench tools (default cc)
#
# Prints a table and writes the same as markdown to bench/RESULTS.md, then
# adds the deterministic instructions-per-byte figure (bench/instructions.sh;
# INSTRUCTIONS=0 skips it).
# MB = 1e6 bytes everywhere; MB/s always counts uncompressed JSON bytes.
# Exit 1 when a measured command fails or tracestream disagrees with the
# generator's truth file; missed performance targets are reported, not fatal.
set -euo pipefail

cd "$(dirname "$0")/.."
. bench/lib.sh   # to_bytes, field
BIN=build/bench
OUT=bench/out
RESULTS=bench/RESULTS.md
TS=${TRACESTREAM:-./tracestream}
CC=${CC:-cc}
SIZES=${SIZES:-"100M 1G 10G"}
REPEAT=${REPEAT:-1}
NOOP_FLAGS=${NOOP_FLAGS---no-utf8-check}
PIPE_MIN=${PIPE_MIN:-5000000000}
FAILED=0

case "${1:-}" in
    --quick) SIZES=100M ;;
    "") ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "usage: bench/run.sh [--quick]" >&2; exit 2 ;;
esac

cleanup() {
    if [ "${KEEP:-0}" != 1 ]; then rm -rf "$OUT"; fi
}
trap cleanup EXIT

log() { printf 'bench: %s\n' "$*" >&2; }

build_tools() {
    mkdir -p "$BIN"
    local flags=(-std=c11 -O2 -Wall -Wextra)
    $CC "${flags[@]}" -o "$BIN/gen_trace" bench/gen_trace.c
    $CC "${flags[@]}" -o "$BIN/yajl_noop" bench/yajl_noop.c -lyajl
    $CC "${flags[@]}" -o "$BIN/peakrss" bench/peakrss.c
}

# The generator's exact byte count, from its --truth file.
truth_bytes() { sed -n 's/.*"trace": {"bytes": \([0-9]*\).*/\1/p' "$1"; }

# Compare a tracestream report with the truth file: OK, MISMATCH or "-".
# (Runs in a command substitution: row() turns MISMATCH into the exit code.)
check() {
    local truth=$1 report=$2 name=$3
    if ! command -v python3 >/dev/null; then echo "-"; return; fi
    if python3 bench/check_truth.py "$truth" --report "$report" > "$OUT/$name.check" 2>&1; then
        echo OK
    else
        log "$name: report differs from truth (see below)"
        cat "$OUT/$name.check" >&2
        echo MISMATCH
    fi
}

# row INPUT TOOL BYTES RESFILE [TRUTH]: one line of results.tsv
row() {
    local wall rss status
    wall=$(field wall_s "$4")
    rss=$(field peak_rss_kb "$4")
    status=$(field status "$4")
    if [ "$status" != 0 ]; then
        FAILED=1
        log "$1 / $2 exited with status $status"
    fi
    if [ "${5:-}" = MISMATCH ]; then FAILED=1; fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$wall" "$rss" "$status" \
        "${5:--}" >> "$OUT/results.tsv"
}

# best RES FN ARGS...: run "FN RES.i ARGS..." REPEAT times (FN leaves a
# peakrss result in RES.i) and keep the fastest run as RES.
best() {
    local res=$1 fn=$2 i
    shift 2
    for ((i = 1; i <= REPEAT; i++)); do
        "$fn" "$res.$i" "$@" || true
    done
    for ((i = 1; i <= REPEAT; i++)); do
        echo "$(field wall_s "$res.$i") $res.$i"
    done | sort -n | head -n 1 | { read -r _ f; cp "$f" "$res"; }
}

# NOOP_FLAGS is deliberately unquoted: zero or more options
# shellcheck disable=SC2086
run_noop() { "$BIN/peakrss" "$1" -- "$BIN/yajl_noop" $NOOP_FLAGS "$2" 2> "$3"; }
# shellcheck disable=SC2086
run_zcat_noop() { zcat "$2" | "$BIN/peakrss" "$1" -- "$BIN/yajl_noop" $NOOP_FLAGS - 2> "$3"; }
# run_ts RES FILE REPORT LOG [OPTIONS...]: tracestream with its default
# threads, or the options given (-T N)
run_ts() {
    local res=$1 file=$2 report=$3 log=$4
    shift 4
    "$BIN/peakrss" "$res" -- "$TS" --format json --no-progress "$@" "$file" > "$report" 2> "$log"
}

# The thread counts measured beside the default (the cores): 1, and 2 and
# 4 where the machine has more cores than that.
THREAD_ROWS=${THREAD_ROWS:-$(n=$(nproc); r=1; [ "$n" -gt 2 ] && r="$r 2"; [ "$n" -gt 4 ] && r="$r 4"; echo $r)}

# ts_rows NAME LABEL FILE TRUTH BYTES: tracestream with the default threads,
# then with each of THREAD_ROWS
ts_rows() {
    local name=$1 label=$2 file=$3 truth=$4 bytes=$5 n
    log "$name: tracestream ($(nproc) threads, the default)"
    best "$OUT/$name.ts.res" run_ts "$file" "$OUT/$name.ts.json" "$OUT/$name.ts.log"
    row "$label" tracestream "$bytes" "$OUT/$name.ts.res" \
        "$(check "$truth" "$OUT/$name.ts.json" "$name.ts")"
    for n in $THREAD_ROWS; do
        log "$name: tracestream -T $n"
        best "$OUT/$name.ts$n.res" run_ts "$file" "$OUT/$name.ts$n.json" "$OUT/$name.ts$n.log" -T "$n"
        row "$label" "tracestream -T $n" "$bytes" "$OUT/$name.ts$n.res" \
            "$(check "$truth" "$OUT/$name.ts$n.json" "$name.ts$n")"
    done
}

# Measure noop and tracestream on a stored file; NAME labels the logs.
bench_file() {
    local name=$1 file=$2 truth=$3 bytes
    bytes=$(truth_bytes "$truth")
    log "$name: yajl_noop"
    best "$OUT/$name.noop.res" run_noop "$file" "$OUT/$name.noop.log"
    row "$name file" yajl_noop "$bytes" "$OUT/$name.noop.res"
    ts_rows "$name" "$name file" "$file" "$truth" "$bytes"
}

# tracestream reading .gz itself vs zcat piped into the no-op parser.
bench_gz() {
    local name=$1 file=$2 truth=$3 bytes
    bytes=$(truth_bytes "$truth")
    log "$name: gzip -1"
    gzip -1 -c "$file" > "$file.gz"
    log "$name.gz: zcat | yajl_noop"
    best "$OUT/$name.gz.noop.res" run_zcat_noop "$file.gz" "$OUT/$name.gz.noop.log"
    row "$name .gz" "zcat | yajl_noop" "$bytes" "$OUT/$name.gz.noop.res"
    ts_rows "$name.gz" "$name .gz" "$file.gz" "$truth" "$bytes"
}

# A size too big to store: generate it twice into a pipe; only the consumer
# is measured (peakrss sits after the pipe).
bench_pipe() {
    local name=$1 target=$2
    log "$name pipe: yajl_noop"
    # shellcheck disable=SC2086
    "$BIN/gen_trace" --bytes "$target" --truth "$OUT/$name.truth.json" 2>/dev/null |
        "$BIN/peakrss" "$OUT/$name.noop.res" -- "$BIN/yajl_noop" $NOOP_FLAGS - \
        2> "$OUT/$name.noop.log" || true
    row "$name pipe" yajl_noop "$(truth_bytes "$OUT/$name.truth.json")" "$OUT/$name.noop.res"
    log "$name pipe: tracestream"
    "$BIN/gen_trace" --bytes "$target" --truth "$OUT/$name.truth.json" 2>/dev/null |
        "$BIN/peakrss" "$OUT/$name.ts.res" -- "$TS" --format json --no-progress - \
        > "$OUT/$name.ts.json" 2> "$OUT/$name.ts.log" || true
    row "$name pipe" tracestream "$(truth_bytes "$OUT/$name.truth.json")" "$OUT/$name.ts.res" \
        "$(check "$OUT/$name.truth.json" "$OUT/$name.ts.json" "$name.ts")"
}

# Generator speed, writing to /dev/null.
bench_generator() {
    local target=$1
    "$BIN/peakrss" "$OUT/gen.res" -- "$BIN/gen_trace" --bytes "$target" \
        --truth "$OUT/gen.truth.json" > /dev/null 2>&1
    awk -v b="$(truth_bytes "$OUT/gen.truth.json")" -v w="$(field wall_s "$OUT/gen.res")" \
        'BEGIN { printf "%.0f MB in %.2f s, %.0f MB/s (to /dev/null)", b / 1e6, w, b / 1e6 / w }'
}

# Table rows plus ratios; FORMAT is "text" or "md".
render() {
    awk -F'\t' -v fmt="$1" '
    function mbps(i) { return wall[i] > 0 ? bytes[i] / 1e6 / wall[i] : 0 }
    function rss(i) { return kb[i] * 1024 / 1e6 }
    function mdesc(t) { gsub(/\|/, "\\|", t); return t }
    {
        n++; input[n] = $1; tool[n] = $2; bytes[n] = $3; wall[n] = $4; kb[n] = $5
        status[n] = $6; truth[n] = $7
        if ($2 !~ /^tracestream/) base[$1] = n
    }
    END {
        if (fmt == "md") {
            print "| input | tool | JSON MB | wall s | MB/s | peak RSS MB | vs no-op | truth |"
            print "|---|---|---:|---:|---:|---:|---:|---|"
        } else
            printf "%-10s %-18s %9s %8s %8s %12s %9s %s\n", "input", "tool", "JSON MB",
                   "wall s", "MB/s", "peak RSS MB", "vs no-op", "truth"
        for (i = 1; i <= n; i++) {
            ratio = "-"
            if (tool[i] ~ /^tracestream/ && (input[i] in base) && mbps(base[input[i]]) > 0)
                ratio = sprintf("%.2fx", mbps(i) / mbps(base[input[i]]))
            st = status[i] == 0 ? truth[i] : truth[i] " (exit " status[i] ")"
            if (fmt == "md")
                printf "| %s | %s | %.1f | %.2f | %.1f | %.1f | %s | %s |\n", input[i],
                       mdesc(tool[i]), bytes[i] / 1e6, wall[i], mbps(i), rss(i), ratio, st
            else
                printf "%-10s %-18s %9.1f %8.2f %8.1f %12.1f %9s %s\n", input[i], tool[i],
                       bytes[i] / 1e6, wall[i], mbps(i), rss(i), ratio, st
        }
    }' "$OUT/results.tsv"
}

# Targets, checked against the rows we have; "n/a" when a size was not run.
targets() {
    awk -F'\t' -v md="$1" '
    function mbps(i) { return wall[i] > 0 ? bytes[i] / 1e6 / wall[i] : 0 }
    function verdict(ok) { return ok ? "met" : "MISSED" }
    function line(text) { print (md == "md" ? "- " : "  ") text }
    {
        n++; bytes[n] = $3; wall[n] = $4; kb[n] = $5; status[n] = $6
        if (!($1 in seen)) { seen[$1] = 1; order[++m] = $1 }
        if ($2 == "tracestream") ts[$1] = n
        else if ($2 == "tracestream -T 1") one[$1] = n
        else if ($2 !~ /^tracestream/) base[$1] = n
    }
    END {
        for (k = 1; k <= m; k++) {
            in_ = order[k]
            if (!(in_ in ts) || !(in_ in base) || mbps(base[in_]) <= 0) continue
            if (status[ts[in_]] != 0 || status[base[in_]] != 0) {
                line(in_ ": FAILED (a command exited non-zero)")
                continue
            }
            r = mbps(ts[in_]) / mbps(base[in_])
            w = wall[base[in_]] > 0 ? wall[ts[in_]] / wall[base[in_]] : 0
            if (in_ ~ /\.gz$/) {
                s = (in_ in one) && mbps(one[in_]) > 0 ? mbps(ts[in_]) / mbps(one[in_]) : 0
                line(sprintf("%s: %.2fx zcat | no-op (target >= 0.8x: %s); %.2fx -T 1 (target: no slower, >= 1.0x: %s)",
                             in_, r, verdict(r >= 0.8), s, verdict(s >= 1.0)))
            } else
                line(sprintf("%s: wall %.2fx the no-op wall, %.2fx its MB/s (target wall <= 0.8x: %s)",
                             in_, w, r, verdict(w <= 0.8)))
        }
        h = ts["100M file"]; a = ts["1G file"]; b = ts["10G pipe"]
        if (h && status[h] != 0) h = 0
        if (a && status[a] != 0) a = 0
        if (b && status[b] != 0) b = 0
        if (a) {
            mb = kb[a] * 1024 / 1e6
            line(sprintf("peak RSS at 1 GB: %.1f MB (target <= 32 MB: %s)", mb, verdict(mb <= 32)))
        } else line("peak RSS at 1 GB: n/a (needs SIZES with 1G)")
        if (h && a && kb[h] > 0) {
            r = kb[a] / kb[h]
            line(sprintf("peak RSS 1 GB / 100 MB: %.2fx (target <= 1.20x: %s)", r, verdict(r <= 1.2)))
        } else line("peak RSS 1 GB / 100 MB: n/a (needs SIZES with 100M and 1G)")
        if (b) {
            mb = kb[b] * 1024 / 1e6
            line(sprintf("peak RSS at 10 GB through a pipe, nothing dropped (truth): %.1f MB (target <= 32 MB: %s)",
                         mb, verdict(mb <= 32)))
        } else line("peak RSS at 10 GB: n/a (needs SIZES with 10G)")
        if (a && b && kb[a] > 0) {
            r = kb[b] / kb[a]
            line(sprintf("peak RSS 10 GB / 1 GB: %.2fx (goal <= 1.20x: %s)", r, verdict(r <= 1.2)))
        } else line("peak RSS 10 GB / 1 GB: n/a (needs SIZES with 1G and 10G)")
    }' "$OUT/results.tsv"
}

cpu_model() {
    sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n 1
}

# The new run goes first in RESULTS.md; the runs before it stay below.
write_results() {
    local gen=$1 old
    old=$(mktemp)
    if [ -f "$RESULTS" ]; then sed '1{/^# tracestream benchmark$/d}' "$RESULTS" > "$old"; fi
    {
        echo "# tracestream benchmark"
        echo
        echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
        echo "- CPU: $(cpu_model) ($(nproc) cores), RAM $(awk '/MemTotal/ { printf "%.0f GB", $2 * 1024 / 1e9 }' /proc/meminfo)"
        echo "- tracestream: $("$TS" --version 2>&1 | head -n 1); sizes: $SIZES"
        echo "- inputs: gen_trace (NVIDIA-shaped SGLang MoE decode trace); generator: $gen"
        echo "- MB = 1e6 bytes; MB/s counts uncompressed JSON bytes in every case;"
        echo "  peak RSS is ru_maxrss of the measured process only (bench/peakrss);"
        echo "  stored files are read from the page cache (they were just written)."
        echo "- no-op baseline: bench/yajl_noop ${NOOP_FLAGS:-(no options)}: yajl with callbacks"
        echo "  that only return 1 (numbers via yajl_number, never converted);"
        echo "  the .gz baseline is zcat | yajl_noop."
        echo
        echo "## Results"
        echo
        render md
        echo
        echo "## Targets"
        echo
        targets md
        if [ -s "$old" ]; then
            echo
            echo "# Earlier runs"
            cat "$old"
        fi
    } > "$RESULTS.new"
    mv "$RESULTS.new" "$RESULTS"
    rm -f "$old"
}

main() {
    [ -x "$TS" ] || { echo "bench: $TS not found; run make first" >&2; exit 2; }
    rm -rf "$OUT"
    mkdir -p "$OUT"
    : > "$OUT/results.tsv"
    log "building tools into $BIN"
    build_tools

    local size bytes largest=""
    for size in $SIZES; do
        bytes=$(to_bytes "$size")
        if [ "$bytes" -ge "$PIPE_MIN" ]; then
            bench_pipe "$size" "$size"
            continue
        fi
        log "$size: generating"
        "$BIN/gen_trace" --bytes "$size" --truth "$OUT/$size.truth.json" \
            > "$OUT/trace_$size.json" 2>/dev/null
        bench_file "$size" "$OUT/trace_$size.json" "$OUT/$size.truth.json"
        largest=$size
    done
    if [ -n "$largest" ]; then
        bench_gz "$largest" "$OUT/trace_$largest.json" "$OUT/$largest.truth.json"
    fi

    local gen
    gen=$(bench_generator "${largest:-100M}")
    echo
    render text
    echo
    echo "targets:"
    targets text
    echo "generator: $gen"
    write_results "$gen"
    # The deterministic figure: wall-clock here varies from run to run.
    if [ "${INSTRUCTIONS:-1}" = 1 ]; then
        log "instructions per byte (callgrind)"
        { echo; bash bench/instructions.sh "$TS"; } | tee -a "$RESULTS"
    fi
    echo "written: $RESULTS"
    return "$FAILED"
}

main
