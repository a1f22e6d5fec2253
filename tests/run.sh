#!/usr/bin/env bash
# Run every test: unit binaries and tests/t_*.sh scripts, against the
# release build and the AddressSanitizer + UBSan build (but the scripts
# marked "# sanitizers: release only"; and t_threads under
# ThreadSanitizer), as one pool of jobs, TEST_JOBS at a time
# (default: one more than the cores: a job waiting on Python or a
# child leaves a core to another), the longest first (by the last run's times, kept in
# build/test-times, else tests/expected-times, else the order below). Each
# check prints "ok - ...", "not ok - ..." or "skip - ..."; the results are
# printed in a fixed order when all are done, and the script ends with one
# line "tests: N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.."

export SHARED="${SHARED:-$(cd .. && pwd)/shared/traces}"
# a quarantine of 32 MB (not 256) and short allocation stacks: a freed
# block is still held back long enough to catch its use after free, and
# the runs that allocate much take a third less time
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:exitcode=99:quarantine_size_mb=32:malloc_context_size=8}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=99}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# python3 as the interpreter itself, not a version manager's shim (pyenv's
# costs 0.3 s a call, and the tests make thousands)
py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
if [ -n "$py" ] && [ -x "$py" ]; then
	mkdir -p "$work/bin" && ln -s "$py" "$work/bin/python3" && export PATH="$work/bin:$PATH"
fi
export TS_PYTHON_RESOLVED=1
# one folder for the reports every script asks of the same trace (ts_out
# in tests/lib.sh, tests/tscache.py): each made once a run
export TS_CACHE="$work/cache"
mkdir -p "$TS_CACHE"
# the last run's seconds per job; on a fresh clone the ones measured when
# tests/expected-times was written (the order only: nothing is timed)
times_file=build/test-times
order_file=$times_file
[ -f "$order_file" ] || order_file=tests/expected-times

# the jobs: "variant label command..." one a line, in the order results
# are printed
jobs_list() {
	local v TS t
	for v in release san; do
		if [ $v = release ]; then TS=./tracestream; else TS=build/san/tracestream; fi
		if [ ! -x "$TS" ]; then
			echo "$v missing $TS"
			continue
		fi
		for t in build/$v/unit/test_*; do
			case $t in *.d) continue ;; esac
			[ -x "$t" ] && echo "$v $(basename "$t") $t"
		done
		for t in tests/t_*.sh; do
			# a test whose C paths others run under the sanitizers
			# (a sweep of the same report over more inputs) says so
			# in a line "# sanitizers: release only (why)"
			[ $v = san ] && grep -q '^# sanitizers: release only' "$t" && continue
			echo "$v $(basename "$t" .sh) bash $t"
		done
	done
	# the threaded parse under ThreadSanitizer (make TSAN=1)
	[ -x build/tsan/tracestream ] && echo "tsan t_threads bash tests/t_threads.sh"
}

# one job: its output into $work/N.out, its time into $work/N.time
run_job() { # n variant label command...
	local n=$1 v=$2 label="$2 $3" out rc t0 TS
	shift 3
	case $v in
	release) TS=./tracestream ;;
	san) TS=build/san/tracestream ;;
	tsan) TS=build/tsan/tracestream ;;
	esac
	t0=$(date +%s.%N)
	out=$(TS=$TS "$@" 2>&1)
	rc=$?
	awk -v a="$t0" -v b="$(date +%s.%N)" -v l="$label" 'BEGIN { printf "%.1f %s\n", b - a, l }' > "$work/$n.time"
	{
		printf '%s\n' "$out" | sed "s/^\(ok\|not ok\|skip\) - /\1 - [$label] /"
		if [ $rc -ne 0 ] && ! printf '%s\n' "$out" | grep -q '^not ok'; then
			echo "not ok - [$label] $* exited with status $rc"
			printf '%s\n' "$out" | tail -20
		fi
	} > "$work/$n.out"
	# progress: one line a job as it ends, its failures with it
	printf '%5s s  %-28s %4d ok\n' "$(cut -d' ' -f1 "$work/$n.time")" "$label" "$(grep -c '^ok - ' "$work/$n.out")"
	grep '^not ok' "$work/$n.out" || true
}

jobs_list > "$work/jobs"
# longest first: the last run's seconds per label (0 for a new one keeps
# the list's order among the unknown)
awk -v tf="$order_file" 'BEGIN { while ((getline l < tf) > 0) { split(l, a, " "); s[a[2] " " a[3]] = a[1] } }
	{ k = $1 " " $2; printf "%s %d %s\n", (k in s ? s[k] : 0), NR, $0 }' "$work/jobs" |
	sort -k1,1nr -k2,2n > "$work/order"

njobs=${TEST_JOBS:-$(($(nproc 2>/dev/null || echo 2) + 1))}
running=0
while read -r _ n v label cmd; do
	if [ "$label" = missing ]; then
		echo "not ok - [$v] $cmd is not built" > "$work/$n.out"
		continue
	fi
	# shellcheck disable=SC2086
	run_job "$n" "$v" "$label" $cmd &
	running=$((running + 1))
	if [ $running -ge "$njobs" ]; then
		wait -n
		running=$((running - 1))
	fi
done < "$work/order"
wait

total=$(wc -l < "$work/jobs")
for i in $(seq 1 "$total"); do
	[ -f "$work/$i.out" ] && cat "$work/$i.out"
done > "$work/log"
echo "== results, in order (failures and skips):"
grep -E '^(not ok|skip)' "$work/log" || true
cat "$work"/*.time | sort -rn > "$work/times"
mkdir -p build && cp "$work/times" "$times_file"
echo "slowest (seconds):"
head -8 "$work/times" | awk '{ printf "  %6.1f  %s\n", $1, $2 " " $3 }'
pass=$(grep -c '^ok - ' "$work/log")
fail=$(grep -c '^not ok - ' "$work/log")
skip=$(grep -c '^skip - ' "$work/log")
echo "tests: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
