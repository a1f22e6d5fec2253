#!/bin/sh
# tests/gpu/device_run.sh - what ran on a lent GPU machine (H100/H200, 16
# cores) to make tests/data/torch_*.json.gz and the thread-scaling figures
# in bench/RESULTS.md.  Never run by make test or CI.
#
# Expects, prepared on the build machine (x86-64) in the ignored folder .dev/:
#   .dev/tracestream .dev/yajl_noop .dev/peakrss   built here
#   .dev/lib/*.so*                                  their shared libraries
#   .dev/traces/*.json.gz                           the traces to scale on
# and $OUT, where the results go (captures.tar, capture.log, scaling.log).
set -u
OUT=${OUT:-/tmp/ts_device_out}
mkdir -p "$OUT" /tmp/cap
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$OUT/gpu.txt" 2>&1
nproc >> "$OUT/gpu.txt"
CAPTURE_BUDGET_S=${CAPTURE_BUDGET_S:-240} timeout "${CAPTURE_TIMEOUT_S:-330}" \
    python3 tests/gpu/capture_decoder.py /tmp/cap > "$OUT/capture.log" 2>&1
echo "capture exit $?" >> "$OUT/capture.log"
tar cf "$OUT/captures.tar" -C /tmp/cap .
export LD_LIBRARY_PATH="$PWD/.dev/lib" TRACESTREAM_PATTERNS="$PWD/patterns"
SIZE=${SIZE:-1G} REPEAT=${REPEAT:-2} THREADS="${THREADS:-1 2 4 8 16}" \
    TRACESTREAM=.dev/tracestream NOOP=.dev/yajl_noop PEAKRSS=.dev/peakrss \
    OUTDIR=/tmp/bench timeout "${SCALING_TIMEOUT_S:-200}" \
    bash bench/scaling.sh .dev/traces/*.json.gz > "$OUT/scaling.log" 2>&1
echo "scaling exit $?" >> "$OUT/scaling.log"
tail -n 30 "$OUT/capture.log" "$OUT/scaling.log"
