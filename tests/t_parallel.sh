#!/usr/bin/env bash
# scripts/parallel-ranks.sh with GNU parallel (Debian's parallel): the ranks
# of a job (tests/ranks/mkranks.py) saved by parallel's jobs, locally with
# -j and through the --sshlogin form (":" is this machine), then merged:
# the report equals the direct run over the same ranks. Skips without GNU
# parallel.
set -u
TS=$(realpath "${TS:-./tracestream}")
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v parallel >/dev/null || ! parallel --version 2>/dev/null | grep -q "GNU parallel"; then
	echo "skip - parallel: GNU parallel is not installed (sh scripts/deps.sh --test installs it)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
python3 "$here/ranks/mkranks.py" "$tmp/job" "$tmp/truth.json"
"$TS" --no-progress -q -f json "$tmp/job" > "$tmp/direct.json"
same() {
	python3 - "$tmp/direct.json" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); m = json.load(open(sys.argv[2]))
strip = lambda rs: sorted(({k: v for k, v in r.items() if k != 'path'} for r in rs), key=lambda r: r['rank'])
assert strip(d['ranks']) == strip(m['ranks'])
assert d['skew']['layers'] == m['skew']['layers'] and d['skew']['straggler'] == m['skew']['straggler']
assert {k['name']: (k['count'], k['total_us']) for k in d['kernels']} == \
       {k['name']: (k['count'], k['total_us']) for k in m['kernels']}
PY
}
TRACESTREAM=$TS bash "$here/../scripts/parallel-ranks.sh" -j 2 -o "$tmp/local.json" "$tmp/parts" "$tmp"/job/*.json
rc=$?
[ $rc -eq 0 ] && [ "$(ls "$tmp/parts" | wc -l)" -eq 4 ] && same "$tmp/local.json" &&
	echo "ok - parallel: 4 ranks saved by GNU parallel -j 2 and merged: the direct run's rank table, skew and kernels" ||
	{ echo "not ok - parallel: local -j 2 (rc $rc)"; fail=1; }
TRACESTREAM=$TS bash "$here/../scripts/parallel-ranks.sh" -S 2/: -o "$tmp/ssh.json" "$tmp/parts2" "$tmp"/job/*.json
rc=$?
[ $rc -eq 0 ] && same "$tmp/ssh.json" &&
	echo "ok - parallel: the --sshlogin form (2/: is this machine) gives the same report" ||
	{ echo "not ok - parallel: --sshlogin form (rc $rc)"; fail=1; }
TRACESTREAM=$TS bash "$here/../scripts/parallel-ranks.sh" -o "$tmp/part.json" "$tmp/parts3" "$tmp/job/trace_rank_0.json" "$tmp/missing.json" 2> "$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q "missing.json: cannot open" "$tmp/err" &&
	python3 -c 'import json,sys; assert len(json.load(open(sys.argv[1]))["ranks"]) == 1' "$tmp/part.json" &&
	echo "ok - parallel: a rank that fails is named, the others are merged, exit 1" ||
	{ echo "not ok - parallel: a failing rank (rc $rc): $(cat "$tmp/err")"; fail=1; }
exit $fail
