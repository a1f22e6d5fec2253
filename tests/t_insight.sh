#!/usr/bin/env bash
# Insight: busy time, idle gaps, launch-bound gaps and stray kernels per
# pass; the typical layer of each stage (the layer anatomy); the first
# screen (--brief). A hand-made trace with known answers
# (tests/insight/mkidle.py) gives exact figures; when ../shared/traces is
# there, every shared trace's anatomy must add up to its mean layer time,
# every pass's busy + idle must equal its span, and the first screen must
# fit 25 lines of 80 columns.
# sanitizers: release only (the insight figures over the shared traces: t_shared_traces and t_outputs run their paths under the sanitizers)
T=insight
. "$(dirname "$0")/lib.sh"

# Serving steps (tests/insight/mksteps.py): each stage's wall (mean, p50,
# max over its passes), step to step, per output token and tokens/s, in
# JSON and on the first screen, against the construction's truth.
python3 "$here/insight/mksteps.py" "$tmp/steps.json" "$tmp/steps_truth.json"
"$TS" --no-progress -f json "$tmp/steps.json" > "$tmp/steps.out" 2> "$tmp/err" &&
	"$TS" --no-progress --brief "$tmp/steps.json" > "$tmp/steps.txt" 2>> "$tmp/err" ||
	bad "steps fixture: exit $?: $(head -c 300 "$tmp/err")"
python3 - "$tmp/steps.out" "$tmp/steps_truth.json" "$tmp/steps.txt" <<'PY' && ok "steps fixture: wall mean/p50/max, 5 decode steps start to start (the prefill breaks the run), per output token and tokens/s, the API summary and the calls that waited on the GPU inside a pass, exact; the first screen leads with them" || bad "steps fixture"
import json, re, sys
d = json.load(open(sys.argv[1])); t = json.load(open(sys.argv[2])); txt = open(sys.argv[3]).read()
for stage in ('decode', 'prefill'):
    got, want = d['stages'][stage]['steps'], t[stage]
    for k, v in want.items():
        g = got[k]
        ok = g == v if v is None or isinstance(v, (int, str)) else abs(g - v) <= max(0.002, 1e-4 * v)
        assert ok, (stage, k, g, v)
api = {r['name']: (r['calls'], r['total_us'], r['sync'], r['in_passes']) for r in d['api']}
assert api == {k: tuple(v) for k, v in t['api'].items()}, api
# the replay's line under each stage (tests/t_whatif.sh) and the second
# line of a wrapped one aside
lines = [l for l in txt.splitlines() if not re.match(r'   (replay:|what if)|     \S', l)]
i = next(n for n, l in enumerate(lines) if l.startswith('Per pass'))
assert lines[i].split()[2:6] == ['wall', 'mean', 'p50', 'max'], lines[i]
assert lines[i + 1].split()[:7] == ['prefill', '689.0', 'us', '689.0', 'us', '689.0', 'us'], lines[i + 1]
want = '64 tokens a pass, 779.0 us a step (the pass 689.0 us): %.0f tokens/s' % t['prefill']['tokens_per_s']
assert want in lines[i + 2], (lines[i + 2], want)
assert 'of it 90.0 us before the pass (GPU idle 90.0 us' in lines[i + 3], lines[i + 3]
assert lines[i + 5].split()[:4] == ['decode', '691.3', 'us', '693.0'], lines[i + 5]
assert 'per output token 1.10 ms (step to step, p50 of 5), batch 4: 3626 tokens/s' in lines[i + 6], lines[i + 6]
assert 'CPU waits on the GPU: 15.0 us of its 80.0 us a pass (cudaMemcpy)' in lines[i + 4], lines[i + 4]
assert 'CPU waits on the GPU: 2.9 us of its 80.0 us a pass (cudaStreamSynchronize)' in lines[i + 7], lines[i + 7]
# the CPU windows the waits are part of: each pass's (its step's on the
# CPU, else its launches'), at most the 80 us of its step annotation
for stage in ('decode', 'prefill'):
    st = d['stages'][stage]['steps']
    win = 0.0
    for p in d['passes']:
        if p['stage'] != stage:
            continue
        w = p['step_window']['cpu'] or p['step_window']['launched']
        win += min(w['end_us'], p['start_us'] + p['idle']['span_us']) - w['start_us']
    assert abs(st['sync_window_us'] - win) <= 0.002, (stage, st['sync_window_us'], win)
    assert st['sync_us'] <= st['sync_window_us'] <= 80.0 * st['passes'], (stage, st)
PY

# Overlap (tests/insight/mkoverlap.py): computation, communication (TP
# all-reduces partly under the GEMM before them) and copies, what ran
# hidden under what, for the trace and the decode pass, exact; the exposed
# communication is an opportunity, the first screen says it
python3 "$here/insight/mkoverlap.py" "$tmp/ov.json" "$tmp/ov_truth.json"
"$TS" --no-progress -f json "$tmp/ov.json" > "$tmp/ov.out" 2> "$tmp/err" &&
	"$TS" --no-progress --brief "$tmp/ov.json" > "$tmp/ov.txt" 2>> "$tmp/err" ||
	bad "overlap fixture: exit $?: $(head -c 300 "$tmp/err")"
python3 - "$tmp/ov.out" "$tmp/ov_truth.json" "$tmp/ov.txt" <<'PY' && ok "overlap fixture: compute, collectives (40 of 120 us hidden) and copies (10 of 20 us hidden), trace and pass, exact; exposed communication is an opportunity (80 us)" || bad "overlap fixture"
import json, sys
d = json.load(open(sys.argv[1])); t = json.load(open(sys.argv[2])); txt = open(sys.argv[3]).read()
assert d['busy']['overlap'] == t, d['busy']['overlap']
o = d['stages']['decode']['idle']['overlap']
assert {k: o[k] for k in ('compute_us', 'comm_us', 'comm_hidden_us', 'comm_exposed_us')} == \
       {k: t[k] for k in ('compute_us', 'comm_us', 'comm_hidden_us', 'comm_exposed_us')}, o
opp = [(x['kind'], x['stage'], x['at_stake_us']) for x in d['opportunities']]
assert ('comm_exposed', 'decode', 80.0) in opp, opp
assert 'overlap: compute 669.0 us, collectives 120.0 us (33% hidden under compute), copies 20.0 us (50% hidden)' in txt, txt
PY
# ... and on a real training trace (HTA's DDP, NCCL all-reduce under the
# backward pass) against a standard-library union of its intervals
f="$SHARED/hta_a100_ddp_training_nccl.json.gz"
if [ -f "$f" ]; then
	ts_out -f json "$f" > "$tmp/hta.out"
	python3 - "$f" "$tmp/hta.out" <<'PY' && ok "hta ddp: computation, communication, hidden communication and copies as a union of the trace's own intervals; its opportunities are the exposed communication and the GPU's idle time" || bad "hta ddp overlap"
import gzip, json, sys
from decimal import Decimal
ev = json.load(gzip.open(sys.argv[1]), parse_float=Decimal)['traceEvents']   # exact microseconds
def union(iv):
    total, end = Decimal(0), None
    for a, b in sorted(iv):
        if end is None or a >= end:
            total += b - a
            end = b
        elif b > end:
            total += b - end
            end = b
    return total
k = [(e['ts'], e['ts'] + e['dur'], 'nccl' in e['name'].lower()) for e in ev
     if e.get('ph') == 'X' and e.get('cat') == 'kernel']
m = [(e['ts'], e['ts'] + e['dur']) for e in ev
     if e.get('ph') == 'X' and e.get('cat') in ('gpu_memcpy', 'gpu_memset') and e.get('dur', 0) > 0]
comp = union([(a, b) for a, b, c in k if not c]); comm = union([(a, b) for a, b, c in k if c])
busy = union([(a, b) for a, b, _ in k]); allb = union([(a, b) for a, b, _ in k] + m)
want = {'compute_us': comp, 'comm_us': comm, 'comm_hidden_us': comp + comm - busy,
        'mem_us': union(m), 'mem_hidden_us': union(m) + busy - allb, 'kernel_busy_us': busy}
got = json.load(open(sys.argv[2]))
o = got['busy']['overlap']
for key, v in want.items():
    assert abs(Decimal(str(o[key])) - v) <= Decimal('0.001'), (key, o[key], v)
kinds = [x['kind'] for x in got['opportunities']]
assert kinds[:2] == ['gpu_idle', 'comm_exposed'], kinds
PY
else
	echo "ok - hta ddp overlap # SKIP ../shared/traces is absent"
fi

# A kernel far from its own median (tests/insight/mkspread.py): a MoE
# expert GEMM slow in 2 of its 12 calls; its time above the median is an
# opportunity, said to be the experts' uneven tokens
python3 "$here/insight/mkspread.py" "$tmp/sp.json" "$tmp/sp_truth.json"
"$TS" --no-progress -f json "$tmp/sp.json" > "$tmp/sp.out" 2> "$tmp/err" ||
	bad "spread fixture: exit $?: $(head -c 300 "$tmp/err")"
python3 - "$tmp/sp.out" "$tmp/sp_truth.json" <<'PY' && ok "spread fixture: the MoE expert GEMM 3.5x its median in 2 of 12 calls: its 100 us above the median is an opportunity (within the histogram's 0.8%), the only one" || bad "spread fixture"
import json, sys
d = json.load(open(sys.argv[1])); t = json.load(open(sys.argv[2]))
o = [x for x in d['opportunities'] if x['kind'] == 'spread']
assert len(o) == 1 and o[0]['stage'] == 'decode', d['opportunities']
calls = t['calls']
assert abs(o[0]['at_stake_us'] - t['excess_us']) <= calls * t['p50_us'] * 0.008 + 0.01, o[0]
assert o[0]['text'].startswith('fused_moe_kernel: its calls spread') and 'over %d calls' % calls in o[0]['text'] \
    and 'uneven shares of the tokens' in o[0]['text'], o[0]['text']
assert all(x['kind'] != 'spread' or x is o[0] for x in d['opportunities'])
PY

# Slow calls that follow the layer position, not the kernel
# (tests/insight/mkposition.py): a block of four consecutive layers took a
# fixed 40 us more a layer, carried by the attention kernel in two layers
# and a norm in the other two, the block at layers 2-5 then 6-9: one
# opportunity names the layers, the surcharge a layer and its cost a
# step, and neither kernel's calls are said to spread. Beside it, two
# expert GEMMs slow in scattered layers (three in a row once) by uneven
# amounts: their spread is their own, said as before.
python3 "$here/insight/mkposition.py" block "$tmp/pos.json" "$tmp/pos_truth.json"
"$TS" --no-progress -f json "$tmp/pos.json" > "$tmp/pos.out" 2> "$tmp/err" ||
	bad "position fixture: exit $?: $(head -c 300 "$tmp/err")"
python3 - "$tmp/pos.out" "$tmp/pos_truth.json" <<'PY' && ok "position fixture: a block of layers 40 us slower a layer, whichever kernel ran there: one opportunity with its layers, surcharge and cost a step; no kernel's calls spread" || bad "position fixture"
import json, sys
d = json.load(open(sys.argv[1])); t = json.load(open(sys.argv[2]))
ops = d['opportunities']
assert not [o for o in ops if o['kind'] == 'spread'], ops
o = [x for x in ops if 'surcharge of the position' in x['text']]
assert len(o) == 1 and o[0]['kind'] == 'slow_layer' and o[0]['stage'] == 'decode', ops
o = o[0]
assert abs(o['at_stake_us'] - t['at_stake_us']) <= 0.01, o
want = ('blocks of 4 layers between layers %d and %d took %.1f us more a layer in %d of %d passes'
        % (t['layers_lo'], t['layers_hi'], t['surcharge_us'], t['passes'], t['passes']))
assert want in o['text'] and '%.1f us a step' % t['per_step_us'] in o['text'], o['text']
assert 'flash_fwd_splitkv_kernel 50%' in o['text'] and 'fused_add_rms_norm_kernel 50%' in o['text'], o['text']
# the layers of the block are said once, in it
assert not [x for x in ops if x['kind'] == 'slow_layer' and x is not o], ops
PY
python3 "$here/insight/mkposition.py" kernel "$tmp/own.json" "$tmp/own_truth.json"
"$TS" --no-progress -f json "$tmp/own.json" > "$tmp/own.out" 2> "$tmp/err" ||
	bad "own spread fixture: exit $?: $(head -c 300 "$tmp/err")"
python3 - "$tmp/own.out" "$tmp/own_truth.json" <<'PY' && ok "own spread fixture: expert GEMMs uneven in scattered layers, three in a row once: their calls spread, the MoE words kept; no surcharge of the position" || bad "own spread fixture"
import json, sys
d = json.load(open(sys.argv[1])); t = json.load(open(sys.argv[2]))
ops = d['opportunities']
assert not [o for o in ops if 'surcharge' in o['text']], ops
o = [x for x in ops if x['kind'] == 'spread' and x['text'].startswith(t['kernel'] + ': its calls spread')]
assert len(o) == 1 and 'over %d calls' % t['calls'] in o[0]['text'], ops
assert abs(o[0]['at_stake_us'] - t['excess_us']) <= t['calls'] * t['p50_us'] * 0.008 + 0.01, o[0]
assert all('uneven shares of the tokens' in x['text'] for x in ops if x['kind'] == 'spread'), ops
PY

python3 "$here/insight/mkidle.py" "$tmp/idle.json" "$tmp/truth.json"
"$TS" --no-progress -f json "$tmp/idle.json" > "$tmp/idle.out" 2> "$tmp/err" ||
	bad "fixture: exit $?: $(head -c 300 "$tmp/err")"
python3 - "$tmp/idle.out" "$tmp/truth.json" <<'PY' && ok "fixture: span, busy, idle, 12 gaps, the 90 us gap and its kernel, 7 launch-bound gaps (one opportunity with the idle time), the stray kernel, exact" || bad "fixture idle figures"
import json, sys
d = json.load(open(sys.argv[1])); t = json.load(open(sys.argv[2]))
assert len(d['passes']) == 1, d['passes']
p = d['passes'][0]
assert p['stage'] == 'decode', p['stage']
x = p['idle']
for k in ('span_us', 'busy_us', 'idle_us', 'gaps', 'stray_kernels', 'stray_us'):
    assert x[k] == t[k], (k, x[k], t[k])
assert abs(x['busy_pct'] - round(100 * t['busy_us'] / t['span_us'], 2)) < 0.006, x
g = x['largest_gap']
assert g['us'] == t['largest_gap_us'] and g['before_kernel'] == t['largest_before'], g
lb = x['launch_bound']
assert lb['gaps'] == t['launch_bound_gaps'] and lb['us'] == t['launch_bound_us'], lb
assert lb['gaps_checked'] == t['gaps'], lb
b = d['busy']
assert b['in_passes']['span_us'] == t['span_us'], b
assert b['outside_passes'] == {'kernels': 1, 'gpu_time_us': 2.0}, b
st = d['stages']['decode']['idle']
assert st['idle_us'] == t['idle_us'] and st['gaps'] == t['gaps'], st
kinds = [o['kind'] for o in d['opportunities']]
# one opportunity for the idle time, its launch-bound gaps the cause inside
# it (its kind when they are at least half of it), never two
gap_opps = [o for o in d['opportunities'] if o['kind'] in ('idle', 'launch_bound')]
assert len(gap_opps) == 1, kinds
o = gap_opps[0]
want = 'launch_bound' if 2 * t['launch_bound_us'] >= t['idle_us'] else 'idle'
assert o['kind'] == want and o['at_stake_us'] == t['idle_us'] and o['stage'] == 'decode', o
assert ('launch-bound, the CPU late: %d gaps' % t['launch_bound_gaps']) in o['text'], o['text']
PY
# the same step without its annotation: the fill is in the stream of the
# pass, and the idle rule cuts it off its start (stray)
python3 "$here/indep/vary.py" no-annotation "$tmp/idle.json" "$tmp/idle_na.json"
"$TS" --no-progress -f json "$tmp/idle_na.json" > "$tmp/idle_na.out" 2> "$tmp/err" ||
	bad "fixture without annotation: exit $?: $(head -c 300 "$tmp/err")"
python3 - "$tmp/idle_na.out" "$tmp/truth.json" <<'PY' && ok "fixture without its annotation: the fill 500 ms before the pass is cut off it (stray), the span and gaps as with it" || bad "fixture idle figures without the annotation"
import json, sys
d = json.load(open(sys.argv[1])); t = json.load(open(sys.argv[2]))
assert len(d['passes']) == 1, d['passes']
x = d['passes'][0]['idle']
assert x['stray_kernels'] == t['stray_unannotated'] and x['stray_us'] == 2.0, x
for k in ('span_us', 'busy_us', 'idle_us', 'gaps'):
    assert x[k] == t[k], (k, x[k], t[k])
PY
python3 - "$tmp/idle.out" "$tmp/truth.json" <<'PY' && ok "fixture: the typical layer: 163 us of kernel time, by type and kernel by kernel in its real order (repeats included), adding up; its wall (204.25 us, launch gaps inside) apart from it" || bad "fixture anatomy"
import json, sys
d = json.load(open(sys.argv[1])); t = json.load(open(sys.argv[2]))
a = [x for x in d['layer_anatomy'] if x['stage'] == 'decode']
assert len(a) == 1, d['layer_anatomy']
a = a[0]
assert a['layers'] == t['layers'] and a['mean_us'] == t['layer_mean_us'], a
assert a['kernels_per_layer'] == t['layer_kernels'], a
types = {x['type']: x['mean_us'] for x in a['by_type']}
assert types == t['layer_by_type_us'], types
# in the layer's real order, repeats included: a kernel called again in
# the layer has a row per call (call 2, 3, ...); the calls of most layers
# read as the construction's layer, in its order (the machine may lay a
# norm into the layer before: such a call is in fewer than half)
ks = a['kernels']
assert [k['position'] for k in ks] == sorted(k['position'] for k in ks), ks
assert abs(sum(k['calls_per_layer'] for k in ks) - t['layer_kernels']) < 1e-9, ks
for n in {k['name'] for k in ks}:
    assert [k['call'] for k in ks if k['name'] == n] == list(range(1, 1 + sum(k['name'] == n for k in ks))), n
most = [k['name'] for k in ks if k['calls_per_layer'] >= 0.5]
assert most == t['layer_order'], most
assert abs(sum(k['mean_us'] for k in a['kernels']) - a['mean_us']) < 1e-6
assert abs(sum(x['mean_us'] for x in a['by_category']) - a['mean_us']) < 1e-6
w = t['layer_walls_us']
assert abs(a['wall_mean_us'] - sum(w) / len(w)) < 0.01, (a['wall_mean_us'], w)
mid = sorted(w)[(len(w) - 1) // 2]
assert abs(a['wall_p50_us'] - mid) <= 0.02 * mid, (a['wall_p50_us'], w)
PY

"$TS" --no-progress --brief -w 80 "$tmp/idle.json" > "$tmp/brief" 2> "$tmp/err"
if [ "$(wc -l < "$tmp/brief")" -le 25 ] && awk 'length($0) > 80 { exit 1 }' "$tmp/brief" &&
	grep -q '^Largest opportunities' "$tmp/brief" && grep -q '^Typical decode layer 204.2 us wall, 9 kernels, 163.0 us kernel time$' "$tmp/brief"; then
	ok "fixture: --brief is one screen (at most 25 lines of 80 columns) with the layer and the opportunities"
else
	bad "fixture: --brief: $(cat "$tmp/brief")"
fi
"$TS" --no-progress -w 80 "$tmp/idle.json" > "$tmp/full" 2> "$tmp/err"
if head -n "$(wc -l < "$tmp/brief")" "$tmp/full" | cmp -s - "$tmp/brief" && grep -q '^Kernel summary' "$tmp/full"; then
	ok "fixture: the full report begins with the first screen, then the detail"
else
	bad "fixture: the full report does not begin with the first screen"
fi
# a width applies on a terminal or with -w only: on a pipe, in a file, the
# first screen's lines are whole (the trace's long name, the devices)
long="$tmp/a_trace_with_a_name_longer_than_the_eighty_columns_of_a_terminal_screen_rank0.json"
cp "$tmp/idle.json" "$long"
"$TS" --no-progress --brief "$long" > "$tmp/pipe" 2> "$tmp/err"
"$TS" --no-progress --brief -w 80 "$long" > "$tmp/w80" 2> "$tmp/err"
if [ "$(head -1 "$tmp/pipe")" = "tracestream $("$TS" --version | cut -d' ' -f2): $(basename "$long")" ] &&
	head -1 "$tmp/w80" | grep -q '\.\.\.$' && awk 'length($0) > 80 { exit 1 }' "$tmp/w80"; then
	ok "the first screen is whole on a pipe, cut to the width with -w 80"
else
	bad "first screen widths: pipe '$(head -1 "$tmp/pipe")', -w 80 '$(head -1 "$tmp/w80")'"
fi
"$TS" --no-progress --show-layers -w 100 "$tmp/idle.json" > "$tmp/layers" 2> "$tmp/err"
grep -q '^Typical decode layer (mean over 4 layers of 1 complete passes): kernel time 163.000 us, .*; wall 204.250 us' "$tmp/layers" &&
	ok "--show-layers prints the typical layer" || bad "--show-layers: $(grep -i typical "$tmp/layers")"

shared="$SHARED"
if [ ! -d "$shared" ]; then
	echo "ok - insight: shared traces # SKIP ../shared/traces is absent"
	exit $fail
fi
for f in "$shared"/*.json "$shared"/*.json.gz; do
	[ -e "$f" ] || continue
	n=$(basename "$f")
	"$TS" --no-progress --brief -w 80 "$f" > "$tmp/b" 2>/dev/null
	lines=$(wc -l < "$tmp/b")
	# an opportunity is a verdict: wrapped whole, never cut with "..."
	if [ "$lines" -le 25 ] && awk 'length($0) > 80 { exit 1 }' "$tmp/b" &&
		! sed -n '/^Largest opportunities/,$p' "$tmp/b" | grep -q '\.\.\.$'; then
		ok "$n: the first screen fits ($lines lines of at most 80 columns), its opportunities whole"
	else
		bad "$n: the first screen: $lines lines: $(cat "$tmp/b")"
	fi
	ts_out -f json "$f" > "$tmp/j"
	python3 - "$tmp/j" "$n" <<'PY' && ok "$n: each stage's typical layer adds up to its mean layer time; busy + idle = span in every pass; CPU waits within their CPU windows" || bad "$n: anatomy or idle sums"
import json, sys
d = json.load(open(sys.argv[1])); name = sys.argv[2]
for a in d['layer_anatomy']:
    m = a['mean_us']
    # the mean layer time from the per-index table (its own sums)
    rows = [r for r in d['layer_table'] if r['stage'] == a['stage']]
    n = sum(r['passes'] for r in rows)
    mt = sum(r['mean_us'] * r['passes'] for r in rows) / n
    assert abs(mt - m) <= 1e-3 * max(1, m), (a['stage'], m, mt)
    for part in ('by_type', 'by_category', 'kernels'):
        s = sum(x['mean_us'] for x in a[part])
        assert abs(s - m) <= 0.002 * len(a[part]) + 1e-6, (a['stage'], part, s, m)
    assert abs(sum(x['share_pct'] for x in a['by_type']) - 100) < 0.1, a['by_type']
for p in d['passes']:
    x = p['idle']
    assert abs(x['busy_us'] + x['idle_us'] - x['span_us']) < 0.002, (p['index'], x)
    assert x['gaps'] == 0 or x['largest_gap']['us'] <= x['idle_us'] + 1e-6, x
    assert x['launch_bound']['us'] <= x['idle_us'] + 1e-6, x
for o in d['opportunities']:
    assert o['at_stake_us'] > 0 and o['text'], o
for name, s in d['stages'].items():
    st = s.get('steps')
    if st:    # a wait is never longer than the CPU time it is part of
        assert st['sync_us'] <= st['sync_window_us'] + 0.002, (name, st)
PY
done
j() { ts_out -f json "$shared/$1"; }
if [ -e "$shared/sglang_qwen3-8b_mi300x_prefill_then_decode.json.gz" ]; then
	j sglang_qwen3-8b_mi300x_prefill_then_decode.json.gz | python3 -c '
import json, sys
d = json.load(sys.stdin)
x = d["passes"][0]["idle"]
assert x["stray_kernels"] == 12 and x["busy_pct"] > 99, x
assert x["largest_gap"]["us"] < 1000, x
assert d["passes"][0]["stage"] == "prefill"
' && ok "Qwen3-8B prefill: the kernel 493 ms before the pass and the 11 of input preparation before the CPU's 254 us wait for the embedding are not the pass's (the embedding and the first layer's input norm are); the pass is over 99% busy" ||
		bad "Qwen3-8B prefill: stray kernel"
fi
if [ -e "$shared/vllm_gptoss120b_b200_tp8_eager_prefill.json.gz" ]; then
	j vllm_gptoss120b_b200_tp8_eager_prefill.json.gz | python3 -c '
import json, sys
d = json.load(sys.stdin)
x = d["passes"][0]["idle"]
assert x["launch_bound"]["gaps"] > x["gaps"] / 2, x
assert d["opportunities"][0]["kind"] in ("idle", "launch_bound"), d["opportunities"][0]
' && ok "gpt-oss-120b eager TP8: most gaps are launch-bound, and idle time is the first opportunity" ||
		bad "gpt-oss eager: launch-bound gaps"
fi
# --- the first screen: --stage reaches it; a pass row is for complete passes ---
gen_out python3 "$here/layers/mkgeneric.py" --layers 4 --prefill 512 --decode 3 --batch 8 --seed 3 > "$tmp/pd.json"
"$TS" --no-progress --brief -w 100 "$tmp/pd.json" > "$tmp/pd.all" 2>/dev/null
"$TS" --no-progress --brief -w 100 --stage decode "$tmp/pd.json" > "$tmp/pd.dec" 2>/dev/null
if grep -q '^ prefill ' "$tmp/pd.all" && grep -q '^ decode ' "$tmp/pd.all" &&
   ! grep -q 'prefill' "$tmp/pd.dec" && grep -q '^ decode ' "$tmp/pd.dec" &&
   grep -q '^Typical decode layer' "$tmp/pd.dec" && grep -q 'passes 3 decode of 4 layers; decode: ' "$tmp/pd.dec"; then
	ok "--stage decode: the first screen shows decode only (passes, pass row, typical layer, opportunities)"
else
	bad "--stage on the first screen: $(cat "$tmp/pd.dec")"
fi
# the same trace cut in the middle of its last decode pass: that pass is
# partial, so the decode row is the mean of the 2 complete ones
python3 - "$tmp/pd.json" "$tmp/cut.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d['traceEvents']
k = [e for e in ev if e.get('cat') == 'kernel']
last = max(e['ts'] for e in k)
# the start of the last pass: its first kernel after the biggest ts jump
ts = sorted(e['ts'] for e in k)
gaps = sorted(range(1, len(ts)), key=lambda i: ts[i] - ts[i - 1])[-1]
cut = (ts[gaps] + last) / 2
d['traceEvents'] = [e for e in ev if e.get('cat') != 'kernel' or e['ts'] + e.get('dur', 0) < cut]
json.dump(d, open(sys.argv[2], 'w'))
PY
"$TS" --no-progress -f json "$tmp/cut.json" > "$tmp/cut.out" 2>/dev/null
"$TS" --no-progress --brief -w 100 "$tmp/cut.json" > "$tmp/cut.txt" 2>/dev/null
python3 - "$tmp/cut.out" "$tmp/cut.txt" <<'PY' && ok "a partial pass is named beside the pass row, not averaged into its wall" || bad "partial pass in the first screen: $(sed -n 3,6p "$tmp/cut.txt")"
import json, re, sys
d = json.load(open(sys.argv[1])); txt = open(sys.argv[2]).read()
dec = [p for p in d['passes'] if p['stage'] == 'decode']
full = [p for p in dec if p['complete']]
assert len(full) >= 1 and len(dec) > len(full), [(p['complete'], p['layers']) for p in dec]
mean_ms = sum(p['idle']['span_us'] for p in full) / len(full) / 1000   # the wall
m = re.search(r'^ decode +([0-9.]+) (ms|us)', txt, re.M)
got = float(m.group(1)) / (1 if m.group(2) == 'ms' else 1000)
assert abs(got - mean_ms) <= 0.011 * max(mean_ms, 0.01) + 0.0051, (got, mean_ms)
assert '%d decode (+%d partial)' % (len(full), len(dec) - len(full)) in txt, txt[:300]
PY

# --- noisy kernels: the mean far above the median is said, with both ---
python3 - "$tmp/noisy.json" <<'PY'
import json, sys
ev, t = [], 0
for i in range(20):                     # steady: 5 us every call
    ev.append({"ph": "X", "cat": "kernel", "name": "steady_kernel", "pid": 0, "tid": 7, "ts": t, "dur": 5, "args": {"device": 0}}); t += 10
for i in range(10):                     # noisy: 9 calls of 2 us, one of 300 us
    ev.append({"ph": "X", "cat": "kernel", "name": "spiky_kernel", "pid": 0, "tid": 7, "ts": t, "dur": 300 if i == 4 else 2, "args": {"device": 0}}); t += 400
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$TS" --no-progress --full-names -w 200 "$tmp/noisy.json" > "$tmp/noisy.txt" 2>/dev/null
if grep -q '^    spiky_kernel: median 2.0 us, mean 31.8 us, max 300.0 us over 10 calls$' "$tmp/noisy.txt" &&
   ! grep -q '^    steady_kernel' "$tmp/noisy.txt"; then
	ok "a noisy kernel (9 calls of 2 us, one of 300 us) is named with its median and mean; a steady one is not"
else
	bad "noisy kernels: $(grep -A3 noisy "$tmp/noisy.txt")"
fi

# --- the opportunities never add up to more than the time at stake: per
# stage, the kernel-time ones (roofline, slow layer) within its kernel time,
# the idle one within its idle time ---
# a case where they would overlap: one decode layer 50x slower, and a
# device so fast every GEMM is far below its peak
python3 "$here/layers/mkgeneric.py" --layers 7 --prefill 300 --decode 2 --truth-file "$tmp/odd.truth" > "$tmp/odd.json"
python3 "$here/layers/slowlayer.py" "$tmp/odd.json" "$tmp/odd.truth" 1 4 50 > "$tmp/odd50.json"
mkdir -p "$tmp/fast"
printf 'devices:\n  - name: Fast GPU\n    vendor: nvidia\n    match: zzz-none\n    hbm_tbps: 9000\n    tflops: {bf16: 900000, fp16: 900000, fp32: 900000, tf32: 900000, fp8: 900000}\n    source: test\n' > "$tmp/fast/devices.yaml"
"$TS" --no-progress -f json --patterns "$tmp/fast" --device 'Fast GPU' "$tmp/odd50.json" > "$tmp/odd50.out" 2>/dev/null
python3 - "$tmp/odd50.out" <<'PY' && ok "a 50x slow layer and GEMMs far below peak: the roofline opportunity after it is held to the kernel time it leaves, and says so" || bad "overlapping opportunities"
import json, sys
d = json.load(open(sys.argv[1]))
dec = [o for o in d['opportunities'] if o['stage'] == 'decode' and o['kind'] in ('roofline', 'slow_layer')]
assert any('held to the' in o['text'] for o in dec), [o['text'] for o in dec]
assert abs(sum(o['at_stake_us'] for o in dec) - d['stages']['decode']['gpu_time_us']) <= 0.01, dec
PY
over=""
for f in "$tmp/pd.json" "$tmp/idle.json" "$tmp/odd50.json" "$SHARED"/*.json "$SHARED"/*.json.gz; do
	[ -f "$f" ] || continue
	whole_run "$f" || continue
	"$TS" --no-progress -f json "$f" 2>/dev/null | python3 -c '
import json, sys
from collections import defaultdict
d = json.load(sys.stdin)
k, i = defaultdict(float), defaultdict(float)
for o in d["opportunities"]:
    if o["kind"] in ("roofline", "slow_layer"):
        k[o["stage"]] += o["at_stake_us"]
    elif o["kind"] in ("idle", "launch_bound"):
        i[o["stage"]] += o["at_stake_us"]
for s, v in k.items():
    assert v <= d["stages"][s]["gpu_time_us"] + 0.01, (s, v)
for s, v in i.items():
    assert v <= d["stages"][s]["idle"]["idle_us"] + 0.01, (s, v)
' || over="$over $(basename "$f")"
done
[ -z "$over" ] && ok "the opportunities of a stage never add up to more than its kernel time (roofline, slow layer) and idle time (every trace here)" || bad "opportunities over the time at stake:$over"

exit $fail
