#!/usr/bin/env bash
# Replay every fuzz input kept in the project (tests/fuzz/corpus: the seeds
# libFuzzer starts from; tests/fuzz/regress: inputs that expand to
# megabytes, and those a fuzzer found a bug with) through each target, built
# as a plain program with the build under test (build/san: ASan + UBSan).
# `make fuzz` runs libFuzzer itself; this is the regression half.
set -u
cd "$(dirname "$0")/.."
case "${TS:-./tracestream}" in
*/san/*) dir=build/san/fuzz ;;
*) dir=build/release/fuzz ;;
esac
fail=0
for src in tests/fuzz/fuzz_*.c; do
	t=$(basename "$src" .c)
	t=${t#fuzz_}
	bin=$dir/replay_$t
	if [ ! -x "$bin" ]; then
		echo "not ok - fuzz replay: $bin is not built (make unit)"
		fail=1
		continue
	fi
	dirs=()
	for d in tests/fuzz/corpus/$t tests/fuzz/regress/$t; do
		[ -d "$d" ] && dirs+=("$d")
	done
	out=$(timeout 300 "$bin" "${dirs[@]}" 2>&1)
	rc=$?
	n=$(printf '%s\n' "$out" | sed -n 's/.*: \([0-9]*\) inputs replayed$/\1/p')
	if [ $rc -eq 0 ] && [ "${n:-0}" -gt 0 ] && ! printf '%s\n' "$out" | grep -q "runtime error\|Sanitizer"; then
		echo "ok - fuzz replay: $t: $n inputs, no crash, no sanitizer report"
	else
		echo "not ok - fuzz replay: $t: exit $rc"
		printf '%s\n' "$out" | tail -30
		fail=1
	fi
done
# The partial seeds are of this build's format: a seed of another version is
# refused at its header and would test no section (re-seed: tests/fuzz/seed.py).
stale=""
for f in tests/fuzz/corpus/partial/*; do
	"${TS:-./tracestream}" -q merge "$f" >/dev/null 2>&1 || stale="$stale $(basename "$f")"
done
if [ -z "$stale" ]; then
	echo "ok - fuzz replay: every partial seed merges with this build"
else
	echo "not ok - fuzz replay: partial seeds this build refuses (re-run tests/fuzz/seed.py):$stale"
	fail=1
fi
exit $fail
