#!/usr/bin/env bash
# The bundled sample (bench/gen_trace --steps 3) against the exact facts its
# generator wrote down when it made it (tests/data/sample_trace.truth.json).
# sanitizers: release only (one report, made under the sanitizers in t_outputs)
. "$(dirname "$0")/lib.sh"
if "$TS" --format json tests/data/sample_trace.json.gz >"$tmp/r.json" 2>"$tmp/err"; then
	if python3 bench/check_truth.py tests/data/sample_trace.truth.json --report "$tmp/r.json" >"$tmp/diff" 2>&1; then
		echo "ok - bundled sample matches its generator's truth (events, kernels, times, memory, platform)"
	else
		echo "not ok - bundled sample vs truth: $(head -c 400 "$tmp/diff")"
	fi
else
	echo "not ok - bundled sample: exit $?: $(head -c 300 "$tmp/err")"
fi
