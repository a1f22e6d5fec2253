#!/usr/bin/env bash
# bench/pair.sh - `tracestream compare A B` (both traces analysed at once, a
# thread per side) against the two single analyses it replaces, with the
# yajl no-op parse of the same bytes as the baseline.
#
#   bash bench/pair.sh            two 1 GB traces
#   bash bench/pair.sh 100M       two 100 MB traces (a quick run)
#   REPEAT=5 KEEP=1 bash bench/pair.sh 1G
#
# Generates A and B with gen_trace --bytes SIZE, seeds 1 and 2 (same shape,
# different durations and jitter, so the two sides are not byte-identical),
# reads both into the page cache, then runs REPEAT times, interleaved so
# machine noise hits every command alike:
#   yajl_noop A, yajl_noop B, tracestream A, tracestream B, tracestream compare A B
# (tracestream with --format json --no-progress, report to /dev/null) and
# keeps each command's fastest run (its wall time and that run's peak RSS,
# as bench/run.sh does).  Then one more, unmeasured, compare run writes its
# JSON report, and both sides are checked against the generator's truth
# files (kernels, kernel time, busy time, passes).
#
# Targets (acceptance of the compare command, on two cores):
#   compare wall     <= 1.15 x max(single A wall, single B wall)
#   compare peak RSS <= single A peak RSS + single B peak RSS + 5 MB
# A missed target prints MISS and is not fatal.
#
# Env: REPEAT=N      runs of each command, best kept (default 3)
#      KEEP=1        keep the generated traces and logs (bench/out/pair-SIZE)
#      TRACESTREAM   binary to measure (default ./tracestream); it is copied
#                    to a temporary path first, so a rebuild during the run
#                    does not change what is measured
#      CPUS          CPU list for taskset (default: all allowed CPUs when
#                    there are at most two, else the first two of them)
#      CHECK=0       skip the truth check of the compare report
#      NOOP_FLAGS    yajl_noop options (default --no-utf8-check: the same
#                    yajl configuration as tracestream's parser)
#      CC            compiler for the bench tools (default cc)
#
# MB = 1e6 bytes everywhere; MB/s is JSON bytes processed / wall seconds
# (both files' bytes for compare).  Peak RSS is ru_maxrss of the measured
# process (bench/peakrss), all its threads together.
# Exit 1 when a measured command fails or the compare report disagrees
# with the truth, 2 on usage errors or a missing binary.
set -euo pipefail

cd "$(dirname "$0")/.."
. bench/lib.sh   # field
BIN=build/bench
TS_SRC=${TRACESTREAM:-./tracestream}
CC=${CC:-cc}
REPEAT=${REPEAT:-3}
NOOP_FLAGS=${NOOP_FLAGS---no-utf8-check}
CHECK=${CHECK:-1}
FAILED=0

case "${1:-}" in
    -h|--help) sed -n '2,44p' "$0"; exit 0 ;;
    -*) echo "usage: bench/pair.sh [SIZE]   (SIZE like 100M or 1G)" >&2; exit 2 ;;
esac
SIZE=${1:-1G}
case $SIZE in
    [0-9]*) ;;
    *) echo "pair: bad SIZE '$SIZE' (want e.g. 100M, 1G)" >&2; exit 2 ;;
esac
case $REPEAT in
    ''|*[!0-9]*|0) echo "pair: REPEAT must be a positive integer" >&2; exit 2 ;;
esac

OUT=bench/out/pair-$SIZE
TMP=$(mktemp -d /tmp/ts_pair.XXXXXX)
TS=$TMP/tracestream

cleanup() {
    rm -rf "$TMP"
    if [ "${KEEP:-0}" != 1 ]; then rm -rf "$OUT"; fi
}
trap cleanup EXIT

log() { printf 'pair: %s\n' "$*" >&2; }

# Copy the binary aside, waiting a little if a rebuild has it missing or
# half-written (it must answer --version).
copy_binary() {
    local try
    for try in $(seq 1 24); do
        if [ -x "$TS_SRC" ] && cp "$TS_SRC" "$TS" 2>/dev/null &&
            "$TS" --version >/dev/null 2>&1; then
            return 0
        fi
        log "$TS_SRC not usable yet, retrying in 5 s ($try/24)"
        sleep 5
    done
    echo "pair: $TS_SRC not found or not runnable; run make first" >&2
    exit 2
}

build_tools() {
    mkdir -p "$BIN"
    local flags=(-std=c11 -O2 -Wall -Wextra)
    $CC "${flags[@]}" -o "$BIN/gen_trace" bench/gen_trace.c
    $CC "${flags[@]}" -o "$BIN/yajl_noop" bench/yajl_noop.c -lyajl
    $CC "${flags[@]}" -o "$BIN/peakrss" bench/peakrss.c
}

# Allowed CPUs, expanded ("0-2,5" -> "0 1 2 5").
allowed_cpus() {
    sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status | tr ',' '\n' |
        awk -F- '{ hi = NF > 1 ? $2 : $1; for (c = $1; c <= hi; c++) printf "%d ", c }'
}

# Sets PIN (a taskset prefix, or nothing) and CORES_DESC.
choose_cpus() {
    PIN=()
    local cpus n
    if [ -n "${CPUS:-}" ]; then
        command -v taskset >/dev/null || { echo "pair: CPUS needs taskset" >&2; exit 2; }
        PIN=(taskset -c "$CPUS")
        CORES_DESC="CPUs $CPUS (taskset)"
        return
    fi
    read -r -a cpus <<< "$(allowed_cpus)"
    n=${#cpus[@]}
    if [ "$n" -gt 2 ] && command -v taskset >/dev/null; then
        PIN=(taskset -c "${cpus[0]},${cpus[1]}")
        CORES_DESC="2 of $n CPUs (taskset -c ${cpus[0]},${cpus[1]})"
    else
        CORES_DESC="$n CPU(s): ${cpus[*]}"
        if [ "$n" -lt 2 ]; then
            log "warning: only $n CPU; the wall-time target assumes two cores"
        fi
    fi
}

# measure LABEL I CMD...: one peakrss run into $OUT/LABEL.I.res; stdout of
# the command goes to /dev/null, stderr to $OUT/LABEL.I.log.
measure() {
    local label=$1 i=$2 status
    shift 2
    "${PIN[@]}" "$BIN/peakrss" "$OUT/$label.$i.res" -- "$@" \
        > /dev/null 2> "$OUT/$label.$i.log" || true
    status=$(field status "$OUT/$label.$i.res" 2>/dev/null || true)
    if [ "${status:-x}" != 0 ]; then
        FAILED=1
        log "$label (run $i) failed with status ${status:-unknown}:"
        tail -n 5 "$OUT/$label.$i.log" >&2 || true
        [ -f "$OUT/$label.$i.res" ] || echo "wall_s 0 peak_rss_kb 0 status 127" > "$OUT/$label.$i.res"
    fi
}

# best LABEL BYTES: the fastest successful run (else the fastest) as one
# results.tsv line: label bytes wall kb status(worst of all runs) and the
# slowest successful run's wall (to show the noise).
best() {
    local label=$1 bytes=$2 i
    for ((i = 1; i <= REPEAT; i++)); do
        cat "$OUT/$label.$i.res"
    done | awk -v label="$label" -v bytes="$bytes" '
        { for (j = 1; j < NF; j++) v[$j] = $(j + 1)
          ok = v["status"] == 0
          if (v["status"] != 0) worst = v["status"]
          if (ok && v["wall_s"] > slowest) slowest = v["wall_s"]
          if (pick == "" || (ok && !pick_ok) || (ok == pick_ok && v["wall_s"] < w)) {
              pick = NR; pick_ok = ok; w = v["wall_s"]; kb = v["peak_rss_kb"]
          } }
        END { printf "%s\t%s\t%s\t%s\t%s\t%s\n", label, bytes, w, kb, worst == "" ? 0 : worst,
                     slowest == "" ? "-" : slowest }'
}

# The compare report's two sides against the truth files: OK or MISMATCH.
check_compare() {
    if ! command -v python3 >/dev/null; then echo "- (no python3)"; return; fi
    if ! "${PIN[@]}" "$TS" compare --format json --no-progress "$A" "$B" \
        > "$OUT/compare.json" 2> "$OUT/compare.check.log"; then
        log "compare (check run) failed:"
        tail -n 5 "$OUT/compare.check.log" >&2
        echo MISMATCH
        return
    fi
    if python3 - "$OUT/compare.json" "$OUT/a.truth.json" "$OUT/b.truth.json" \
        > "$OUT/compare.check" 2>&1 <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
bad = 0
for side, path in (("a", sys.argv[2]), ("b", sys.argv[3])):
    truth = json.load(open(path))
    t, r = truth["trace"], report[side]
    for what, got, want in (
            ("partial", r["partial"], False),
            ("kernels", r["kernels"], t["kernels"]),
            ("kernel_time_ns", round(r["kernel_time_us"] * 1000), t["kernel_time_ns"]),
            ("busy_time_ns", round(r["busy_time_us"] * 1000), t["busy_time_ns"]),
            ("passes", r["passes"], truth["steps"]),
            ("layers", r["layers"], truth["steps"] * truth["layers"])):
        if got != want:
            bad += 1
            print(f"MISMATCH {side}.{what}: got {got!r}, want {want!r}")
sys.exit(1 if bad else 0)
PY
    then
        echo OK
    else
        log "compare report differs from the truth:"
        cat "$OUT/compare.check" >&2
        echo MISMATCH
    fi
}

render() {
    awk -F'\t' -v check="$1" '
    function mbps(k) { return wall[k] > 0 ? bytes[k] / 1e6 / wall[k] : 0 }
    function rssmb(k) { return kb[k] * 1024 / 1e6 }
    function pm(ok) { return ok ? "PASS" : "MISS" }
    {
        n++; order[n] = $1; bytes[$1] = $2; wall[$1] = $3; kb[$1] = $4; st[$1] = $5; slowest[$1] = $6
        if ($5 != 0) failed = 1
    }
    END {
        # the no-op baseline of compare: A then B parsed one after the other
        bytes["noopAB"] = bytes["noop_a"] + bytes["noop_b"]
        wall["noopAB"] = wall["noop_a"] + wall["noop_b"]
        base["ts_a"] = "noop_a"; base["ts_b"] = "noop_b"; base["compare"] = "noopAB"
        name["noop_a"] = "yajl_noop A"; name["noop_b"] = "yajl_noop B"
        name["ts_a"] = "tracestream A"; name["ts_b"] = "tracestream B"
        name["compare"] = "tracestream compare A B"
        printf "%-25s %9s %8s %8s %12s %9s %10s %s\n", "command", "JSON MB", "wall s", "MB/s",
               "peak RSS MB", "vs no-op", "slowest s", "status"
        for (i = 1; i <= n; i++) {
            k = order[i]
            r = (k in base) && mbps(base[k]) > 0 ? sprintf("%.2fx", mbps(k) / mbps(base[k])) : "-"
            m = sprintf("%.1f", mbps(k))
            s = st[k] == 0 ? "ok" : "exit " st[k]
            if (st[k] != 0) m = r = "-"
            if (k == "compare") s = s ", truth " check
            printf "%-25s %9.1f %8.3f %8s %12.1f %9s %10s %s\n", name[k], bytes[k] / 1e6,
                   wall[k], m, rssmb(k), r, slowest[k], s
        }
        print "  (wall s, MB/s, peak RSS: the fastest run; slowest s: the slowest run, for the noise;"
        print "   vs no-op: MB/s over the no-op MB/s of the same bytes, for compare yajl_noop A then B)"
        print ""
        print "ratios:"
        if (failed) {
            print "  FAILED: a measured command exited non-zero; targets not judged"
            exit
        }
        slow = wall["ts_a"] > wall["ts_b"] ? wall["ts_a"] : wall["ts_b"]
        r = wall["compare"] / slow
        printf "  compare wall / max(single A, single B): %.3f s / %.3f s = %.3fx (target <= 1.15x: %s)\n",
               wall["compare"], slow, r, pm(r <= 1.15)
        lim = rssmb("ts_a") + rssmb("ts_b") + 5
        printf "  compare peak RSS: %.1f MB vs single A + single B + 5 MB = %.1f + %.1f + 5 = %.1f MB (%s)\n",
               rssmb("compare"), rssmb("ts_a"), rssmb("ts_b"), lim, pm(rssmb("compare") <= lim)
        printf "  tracestream single A / yajl no-op A throughput: %.3fx\n", mbps("ts_a") / mbps("noop_a")
        printf "  tracestream single B / yajl no-op B throughput: %.3fx\n", mbps("ts_b") / mbps("noop_b")
        printf "  compare / yajl no-op A then B throughput: %.3fx\n", mbps("compare") / mbps("noopAB")
        printf "  (info) compare wall / (single A + single B): %.3f (0.5 = the two sides fully overlapped)\n",
               wall["compare"] / (wall["ts_a"] + wall["ts_b"])
    }' "$OUT/results.tsv"
}

main() {
    copy_binary
    log "building tools into $BIN"
    build_tools
    choose_cpus
    rm -rf "$OUT"
    mkdir -p "$OUT"
    A=$OUT/a.json
    B=$OUT/b.json

    log "generating A and B ($SIZE each, seeds 1 and 2)"
    "$BIN/gen_trace" --bytes "$SIZE" --seed 1 --truth "$OUT/a.truth.json" > "$A" 2> "$OUT/gen_a.log" &
    local pa=$!
    "$BIN/gen_trace" --bytes "$SIZE" --seed 2 --truth "$OUT/b.truth.json" > "$B" 2> "$OUT/gen_b.log" &
    local pb=$!
    if ! wait "$pa" || ! wait "$pb"; then
        cat "$OUT/gen_a.log" "$OUT/gen_b.log" >&2
        echo "pair: gen_trace failed" >&2
        exit 2
    fi
    if cmp -s "$A" "$B"; then
        echo "pair: A and B are identical; gen_trace ignored --seed?" >&2
        exit 2
    fi
    local ba bb i
    ba=$(stat -c %s "$A")
    bb=$(stat -c %s "$B")
    cat "$A" "$B" > /dev/null   # into the page cache

    for ((i = 1; i <= REPEAT; i++)); do
        log "run $i/$REPEAT"
        # NOOP_FLAGS is deliberately unquoted: zero or more options
        # shellcheck disable=SC2086
        measure noop_a "$i" "$BIN/yajl_noop" $NOOP_FLAGS "$A"
        # shellcheck disable=SC2086
        measure noop_b "$i" "$BIN/yajl_noop" $NOOP_FLAGS "$B"
        measure ts_a "$i" "$TS" --format json --no-progress "$A"
        measure ts_b "$i" "$TS" --format json --no-progress "$B"
        measure compare "$i" "$TS" compare --format json --no-progress "$A" "$B"
    done
    {
        best noop_a "$ba"
        best noop_b "$bb"
        best ts_a "$ba"
        best ts_b "$bb"
        best compare "$((ba + bb))"
    } > "$OUT/results.tsv"

    local check="-"
    if [ "$CHECK" = 1 ]; then
        log "checking the compare report against the truth"
        check=$(check_compare)
        [ "$check" != MISMATCH ] || FAILED=1
    fi

    echo
    echo "tracestream compare A B: $SIZE + $SIZE, best of $REPEAT (interleaved)"
    echo "binary: $TS_SRC ($("$TS" --version 2>&1 | head -n 1)); cores: $CORES_DESC"
    echo "CPU: $(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n 1)"
    echo "inputs: gen_trace --bytes $SIZE --seed 1 / --seed 2: A $ba bytes, B $bb bytes;" \
        "no-op: yajl_noop ${NOOP_FLAGS:-(no options)}"
    echo
    render "$check"
    if [ "${KEEP:-0}" = 1 ]; then echo "kept: $OUT"; fi
    return "$FAILED"
}

main
