#!/usr/bin/env bash
# Run every test: unit binaries and tests/t_*.sh scripts, against the
# release build and the AddressSanitizer + UBSan build, side by side
# (TEST_JOBS=1: one after the other). Each check
# prints "ok - ...", "not ok - ..." or "skip - ..."; this script counts them
# and ends with one line "tests: N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.."

export SHARED="${SHARED:-$(cd .. && pwd)/shared/traces}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:exitcode=99}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=99}"
log=$(mktemp)
times=$(mktemp)
trap 'rm -f "$log" "$times"' EXIT

run() { # label, command...
	local label=$1
	shift
	local out rc t0
	t0=$(date +%s.%N)
	out=$("$@" 2>&1)
	rc=$?
	awk -v a="$t0" -v b="$(date +%s.%N)" -v l="$label" 'BEGIN { printf "%.1f %s\n", b - a, l }' >> "$times"
	printf '%s\n' "$out" | sed "s/^\(ok\|not ok\|skip\) - /\1 - [$label] /" | tee -a "$log" |
		grep -E '^(not ok|skip)' || true
	if [ $rc -ne 0 ] && ! printf '%s\n' "$out" | grep -q '^not ok'; then
		echo "not ok - [$label] $* exited with status $rc" | tee -a "$log"
		printf '%s\n' "$out" | tail -20
	fi
}

# The two builds run side by side (most tests use one core), each into its
# own log; the logs are printed in order when both are done.
variant() { # release|san
	local variant=$1 TS
	if [ $variant = release ]; then TS=./tracestream; else TS=build/san/tracestream; fi
	export TS
	[ -x "$TS" ] || { echo "not ok - [$variant] $TS is not built" | tee -a "$log"; return; }
	echo "== $variant build ($TS)"
	for t in build/$variant/unit/test_*; do
		case $t in *.d) continue ;; esac
		run "$variant $(basename "$t")" "$t"
	done
	for t in tests/t_*.sh; do
		run "$variant $(basename "$t" .sh)" bash "$t"
	done
	# the threaded parse under ThreadSanitizer (make TSAN=1), beside the
	# release build's tests
	if [ $variant = release ] && [ -x build/tsan/tracestream ]; then
		TS=build/tsan/tracestream run "tsan t_threads" bash tests/t_threads.sh
	fi
}

jobs_=${TEST_JOBS:-2}
main_log=$log main_times=$times
for v in release san; do
	(log="$main_log.$v" times="$main_times.$v"; : > "$log"; : > "$times"; variant $v > "$main_log.$v.out" 2>&1) &
	[ "$jobs_" -le 1 ] && wait
done
wait
for v in release san; do
	cat "$main_log.$v.out"
	cat "$main_log.$v" >> "$log"
	cat "$main_times.$v" >> "$times"
	rm -f "$main_log.$v" "$main_log.$v.out" "$main_times.$v"
done

echo "slowest (seconds):"
sort -rn "$times" | head -8 | awk '{ printf "  %6.1f  %s\n", $1, $2 " " $3 }'
pass=$(grep -c '^ok - ' "$log")
fail=$(grep -c '^not ok - ' "$log")
skip=$(grep -c '^skip - ' "$log")
echo "tests: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
