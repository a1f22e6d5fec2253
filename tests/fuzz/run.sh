#!/usr/bin/env bash
# Run each libFuzzer target (built by `make fuzz-build` in build/fuzz) for
# SECONDS, starting from its seed corpus in tests/fuzz/corpus/TARGET; new
# inputs go to build/fuzz/corpus/TARGET, crashes to build/fuzz/crash-TARGET-*.
# Prints executions, executions per second and coverage per target; exits 1
# when a target found a crash, a leak or a timeout (copy the artifact into
# tests/fuzz/corpus/TARGET/crash-NAME once fixed, so `make test` replays it).
#
#   bash tests/fuzz/run.sh SECONDS TARGET...
set -u
cd "$(dirname "$0")/../.."
secs=${1:?seconds}
shift
fail=0
printf '| target | seconds | executions | exec/s | coverage (edges) | features | corpus | result |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---|\n'
for t in "$@"; do
	bin=build/fuzz/fuzz_$t
	new=build/fuzz/corpus/$t
	mkdir -p "$new"
	log=build/fuzz/$t.log
	"$bin" -max_total_time="$secs" -print_final_stats=1 -timeout=20 -rss_limit_mb=2048 \
		-artifact_prefix="build/fuzz/crash-$t-" "$new" "tests/fuzz/corpus/$t" > "$log" 2>&1
	rc=$?
	execs=$(sed -n "s/^stat::number_of_executed_units: *//p" "$log")
	rate=$(sed -n "s/^stat::average_exec_per_sec: *//p" "$log")
	last=$(grep -E '^#[0-9]+' "$log" | tail -1)
	cov=$(printf '%s\n' "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
	ft=$(printf '%s\n' "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(printf '%s\n' "$last" | sed -n 's/.*corp: \([0-9]*\/[0-9A-Za-z]*\).*/\1/p')
	result=ok
	if [ $rc -ne 0 ]; then
		result="FAILED (exit $rc; see $log and build/fuzz/crash-$t-*)"
		fail=1
	fi
	printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$t" "$secs" "${execs:-?}" "${rate:-?}" \
		"${cov:-?}" "${ft:-?}" "${corp:-?}" "$result"
done
exit $fail
