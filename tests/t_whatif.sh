#!/usr/bin/env bash
# Each step replayed from its dependencies (views/whatif.h), on steps of
# known answers (tests/whatif/mkwhatif.py: a launch-bound step, a sync
# stall, a rank waiting on a peer, two streams overlapping, a graph
# replay): every projection within 1% of what the construction saves
# (a faster GEMM in a launch-bound step saves nothing), the causes the
# construction fixes, the causes adding up to the wall, every start
# explained; the same through a saved partial. On the shared traces: the
# causes add up to each stage's steps, the B300 decode is replayed with
# projections, a step whose queued kernels waited with no cause is given
# none and says why, and the gpt-oss B200 eager prefill's "launches on
# time" is its kernels' time on the step's path with the GPU's switch.
T=whatif
. "$(dirname "$0")/lib.sh"

for c in launch sync peer streams graph; do
	python3 "$here/whatif/mkwhatif.py" $c "$tmp/$c.json" "$tmp/$c.truth" || bad "$c: generator"
	"$TS" --no-progress -f json "$tmp/$c.json" >"$tmp/$c.out" 2>"$tmp/$c.err" || bad "$c: exit $?"
	"$TS" --no-progress --save-state "$tmp/$c.part" -f json "$tmp/$c.json" >/dev/null 2>&1
	"$TS" --no-progress merge -f json "$tmp/$c.part" >"$tmp/$c.merged" 2>"$tmp/$c.merr" ||
		bad "$c: merge exit $? $(cat "$tmp/$c.merr")"
	python3 - "$tmp/$c.out" "$tmp/$c.truth" "$tmp/$c.merged" <<'PY' && ok "$c: every projection within 1% of the construction's, its causes, adding up to the wall, every start explained; the same after a saved partial" || bad "$c"
import json, sys
d = json.load(open(sys.argv[1])); t = json.load(open(sys.argv[2])); m = json.load(open(sys.argv[3]))
w = [s for s in d['whatif'] if s['stage'] == 'decode']
assert len(w) == 1, d['whatif']
w = w[0]
assert w['steps'] == 1 and w['fidelity_pct'] == 100 and w['drift_pct'] < 0.01, w
assert abs(w['step_mean_us'] - t['wall_us']) < 0.01, (w['step_mean_us'], t['wall_us'])
assert abs(sum(w['by_cause_us'].values()) - w['step_mean_us']) < 0.01, w['by_cause_us']
got = {p['change']: p['saving_us'] for p in w['projections']}
for k, v in t['saving_us'].items():
    g = got.get(k, 0.0)
    assert abs(g - v) <= max(0.01 * v, 0.01), (k, g, v)
    p = [p for p in w['projections'] if p['change'] == k]
    assert not p or abs(p[0]['step_us'] - (t['wall_us'] - v)) <= max(0.01 * t['wall_us'], 0.01), p
c = w['by_cause_us']
for k, v in t['cause_us'].items():
    if k == 'kernels':
        for ty, us in v.items():
            assert abs(c.get(ty, 0) - us) <= 0.01 * us + 0.01, (ty, c.get(ty), us)
    else:
        assert abs(c.get(k, 0) - v) <= 0.01 * v + 0.01, (k, c.get(k), v)
assert [p['saving_us'] for p in w['projections']] == sorted((p['saving_us'] for p in w['projections']), reverse=True)
mw = [s for s in m['whatif'] if s['stage'] == 'decode'][0]
assert mw == w, (mw, w)
PY
done
"$TS" --no-progress "$tmp/launch.json" >"$tmp/launch.txt" 2>/dev/null
grep -q "what if, replayed (100% of starts explained): launches on time" "$tmp/launch.txt" &&
	grep -q "^The decode step replayed (1 of 1 steps" "$tmp/launch.txt" &&
	ok "launch: the first screen leads the step's projections with launches on time; the report has the replay's table" ||
	bad "launch: text $(grep -i -A2 'what if\|replayed' "$tmp/launch.txt")"

need_shared
python3 - "$SHARED" "$TS" <<'PY'
import gzip, json, os, subprocess, sys
sys.path.append(os.environ['TS_TESTS'])
import tscache
shared, ts = sys.argv[1], sys.argv[2]
def run(f):
    return json.loads(tscache.out(ts, '--no-progress', '-f', 'json', os.path.join(shared, f)))
def line(ok, what):
    print('%s - whatif: %s' % ('ok' if ok else 'not ok', what))
fails = []
for f in sorted(os.listdir(shared)):
    if not f.endswith(('.json', '.json.gz')):
        continue
    for s in run(f).get('whatif', []):
        if s['steps'] and abs(sum(s['by_cause_us'].values()) - s['step_mean_us']) > 0.005 * s['step_mean_us']:
            fails.append((f, s['stage']))
line(not fails, 'every shared trace: the causes add up to each stage\'s mean step within 0.5%%%s' % (fails or ''))
d = run('sglang_qwen3-30b-a3b_b300_decode_bs16.trace.json.gz')
w = d['whatif'][0]
line(w['steps'] == 1 and abs(w['step_mean_us'] - 6878.995) < 0.01 and w['fidelity_pct'] >= 90
     and w['projections'] and w['no_projection'] is None,
     'B300 decode: its 6.88 ms step replayed with projections (%.1f%% of starts explained)' % w['fidelity_pct'])
d = run('sglang_qwen3-8b_mi300x_decode_bs32_cudagraph.json.gz')
w = d['whatif'][0]
line(not w['projections'] and 'no cause in the trace' in (w['no_projection'] or '')
     and w['by_cause_us']['unexplained'] > 400000,
     'Qwen3-8B bs32 decode: kernels queued 463 ms with no cause in the trace: no projection, and why')
# gpt-oss B200 eager prefill: launched on time, the step is its kernels on
# the path, the switch between them, and what comes after them
d = run('vllm_gptoss120b_b200_tp8_eager_prefill.json.gz')
w = [s for s in d['whatif'] if s['stage'] == 'prefill'][0]
c = w['by_cause_us']
kern = sum(v for k, v in c.items() if k not in ('launch', 'sync', 'unexplained', 'before_first',
                                                 'after_last', 'other_stream', 'switch'))
p = [x for x in w['projections'] if x['change'] == 'launch_on_time'][0]
line(w['projections'][0]['change'] == 'launch_on_time' and kern <= p['step_us'] <= 1.15 * kern,
     'gpt-oss B200 eager prefill: launches on time first, %.2f ms a step against %.2f ms of kernels on its path'
     % (p['step_us'] / 1e3, kern / 1e3))
PY
finish
