#!/usr/bin/env bash
# scripts/parallel-ranks.sh with GNU parallel (Debian's parallel): the ranks
# of a job (tests/ranks/mkranks.py) saved by parallel's jobs, locally with
# -j and through the --sshlogin form (":" is this machine), then merged:
# the report equals the direct run over the same ranks. Skips without GNU
# parallel.
. "$(dirname "$0")/lib.sh"
if ! command -v parallel >/dev/null || ! parallel --version 2>/dev/null | grep -q "GNU parallel"; then
	echo "skip - parallel: GNU parallel is not installed (sh scripts/deps.sh --test installs it)"
	exit 0
fi
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
[ $rc -eq 2 ] && grep -q "missing.json: cannot open" "$tmp/err" &&
	python3 -c 'import json,sys; assert len(json.load(open(sys.argv[1]))["ranks"]) == 1' "$tmp/part.json" &&
	echo "ok - parallel: a missing rank is named, the others are merged, exit 2 (tracestream's code for a missing file)" ||
	{ echo "not ok - parallel: a failing rank (rc $rc): $(cat "$tmp/err")"; fail=1; }
# -c: every rank's --capture; the merged replay table is the direct run's
python3 "$here/capture/mkcapture.py" "$tmp/cap"
mkdir "$tmp/capjob"
cp "$tmp/cap/replay_hip.json" "$tmp/capjob/r0.json"
cp "$tmp/cap/replay_hip.json" "$tmp/capjob/r1.json"
"$TS" --no-progress -q -f json --capture "$tmp/cap/capture_hip.json" "$tmp/capjob" > "$tmp/capdirect.json"
TRACESTREAM=$TS bash "$here/../scripts/parallel-ranks.sh" -j 2 -c "$tmp/cap/capture_hip.json" \
	-o "$tmp/cap.json" "$tmp/parts4" "$tmp"/capjob/*.json
rc=$?
[ $rc -eq 0 ] && python3 - "$tmp/capdirect.json" "$tmp/cap.json" <<'PY' &&
import json, sys
d, m = (json.load(open(p)) for p in sys.argv[1:3])
assert d['graph_replays'] == m['graph_replays'] and d['attribution'] == m['attribution']
assert m['graph_replays']['matched'] == 6 and m['graph_replays']['captures']['files'] == 1
PY
	echo "ok - parallel: -c gives each rank the capture; the merged replay table and attribution are the direct run's" ||
	{ echo "not ok - parallel: -c capture (rc $rc)"; fail=1; }
# -o NAME.html: the merged job as a page (its ranks table and chart)
TRACESTREAM=$TS bash "$here/../scripts/parallel-ranks.sh" -j 2 -o "$tmp/job.html" "$tmp/parts5" "$tmp"/job/*.json
rc=$?
[ $rc -eq 0 ] && grep -q 'data-table="ranks"' "$tmp/job.html" && grep -q 'id="chart-ranks"' "$tmp/job.html" &&
	echo "ok - parallel: -o NAME.html writes the merged job as a page" ||
	{ echo "not ok - parallel: -o job.html (rc $rc)"; fail=1; }
exit $fail
