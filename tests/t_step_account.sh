#!/usr/bin/env bash
# A step is the user's unit: its wall is the step's window, not the
# pass's span, and its parts add up to it. On the SGLang Qwen3-30B B300
# decode (shared) the step is the GPU window of step[DECODE bs=16]
# (6,878.995 us in the trace), the pass starts at its embedding (the
# indexSelect kernel), and the time between is the step's input
# preparation: all read here from the raw trace with the stdlib, not from
# tracestream. The same trace re-saved with that window opened 1 ms
# earlier is 1 ms longer a step, all of it before the pass; without its
# GPU windows, the step falls back to the pass's wall and says so.
T=step
. "$(dirname "$0")/lib.sh"
need_shared
f=$(ls "$SHARED"/sglang_qwen3-30b-a3b_b300_decode_bs16.trace.json* 2>/dev/null | head -1)
[ -n "$f" ] || { echo "ok - step: # SKIP no B300 decode trace"; finish; }

python3 - "$f" "$tmp" <<'PY'
import gzip, json, sys
src, tmp = sys.argv[1], sys.argv[2]
d = json.load(gzip.open(src) if src.endswith('.gz') else open(src))
ev = d['traceEvents']
win = [e for e in ev if e.get('cat') == 'gpu_user_annotation' and e['name'].startswith('step[')]
emb = min(e['ts'] for e in ev if e.get('cat') == 'kernel' and 'indexSelect' in e['name'])
truth = {'wall_us': win[0]['dur'], 'before_us': emb - win[0]['ts'], 'start_us': win[0]['ts']}
json.dump(truth, open(tmp + '/truth.json', 'w'))
win[0]['ts'] -= 1000.0            # the window opened 1 ms earlier
win[0]['dur'] += 1000.0
json.dump(d, open(tmp + '/early.json', 'w'))
d['traceEvents'] = [e for e in ev if e.get('cat') != 'gpu_user_annotation']
json.dump(d, open(tmp + '/nogpu.json', 'w'))
PY
for v in orig early nogpu; do
	in=$f; [ "$v" = orig ] || in=$tmp/$v.json
	"$TS" --no-progress -f json "$in" >"$tmp/$v.out" 2>/dev/null || bad "$v: exit status $?"
	"$TS" --no-progress "$in" >"$tmp/$v.txt" 2>/dev/null
done
python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
t = json.load(open(tmp + '/truth.json'))
def line(ok, what, got):
    print('%s - step: %s%s' % ('ok' if ok else 'not ok', what, '' if ok else ' (got %s)' % (got,)))
def near(a, b, tol=0.01):
    return a is not None and abs(a - b) <= tol
for v, extra in (('orig', 0.0), ('early', 1000.0)):
    d = json.load(open('%s/%s.out' % (tmp, v)))
    p = [p for p in d['passes'] if p['complete']][0]
    s, st = p['step'], d['stages']['decode']['steps']
    line(s is not None and near(s['wall_us'], t['wall_us'] + extra),
         '%s: the step wall is its step[DECODE] GPU window (%.3f us)' % (v, t['wall_us'] + extra), s)
    line(s is not None and near(s['before_pass_us'], t['before_us'] + extra),
         '%s: %.3f us before the pass, to its embedding' % (v, t['before_us'] + extra), s)
    line(s is not None and near(s['before_pass_us'] + s['pass_us'] + s['after_pass_us'], s['wall_us'])
         and s['before_pass_busy_us'] <= s['before_pass_us'] and s['pass_busy_us'] <= s['pass_us'],
         '%s: before + pass + after add up to the wall, busy within each' % v, s)
    line(near(st['per_output_token_us'], t['wall_us'] + extra) and st['per_output_token_from'] == 'step_window'
         and near(st['tokens_per_s'], 16 * 1e6 / (t['wall_us'] + extra), 0.05),
         '%s: per output token and tokens/s from the step, not the pass' % v,
         (st['per_output_token_us'], st['per_output_token_from'], st['tokens_per_s']))
    opp = [o for o in d['opportunities'] if o['kind'] == 'step_idle']
    idle = s['before_pass_us'] - s['before_pass_busy_us'] if s else -1
    line(opp and near(opp[0]['at_stake_us'], idle, 0.002) and d['opportunities'][0]['kind'] == 'step_idle'
         and 'preparing the step' in opp[0]['text'],
         '%s: the step\'s GPU idle before its pass is the largest opportunity (%.3f us)' % (v, idle),
         [(o['kind'], o['at_stake_us']) for o in d['opportunities'][:3]])
    txt = open('%s/%s.txt' % (tmp, v)).read()
    want = 'per output token %.2f ms (one step: its window)' % ((t['wall_us'] + extra) / 1000)
    line(want in txt and 'before the pass (GPU idle' in txt, '%s: the first screen says so' % v,
         [l for l in txt.splitlines() if 'per output token' in l])
d = json.load(open(tmp + '/nogpu.out'))
p = [p for p in d['passes'] if p['complete']][0]
st = d['stages']['decode']['steps']
ok = p['step'] is None or near(p['step']['before_pass_us'] + p['step']['pass_us'] + p['step']['after_pass_us'],
                               p['step']['wall_us'])
line(ok and (st['per_output_token_from'] != 'step_window' or p['step'] is not None),
     'no GPU window: a step from the CPU window adds up, or none is claimed', (p['step'], st['per_output_token_from']))
PY
[ $? -eq 0 ] || bad "the checks ran to their end"

# With no GPU window, a step is its CPU window to the pass's GPU end, where
# the pass began within 2 ms of its launch or of the CPU's waits since: the
# SGLang Qwen3-8B bs32 decode (shared) launched its pass at once, then sat
# 463 ms in hipMemcpyWithStream while the GPU waited. Its step runs from
# its first step annotation's start to its last kernel's end, and the
# time before the pass names that call (all read from the raw trace).
g=$(ls "$SHARED"/sglang_qwen3-8b_mi300x_decode_bs32_cudagraph.json* 2>/dev/null | head -1)
if [ -n "$g" ]; then
	ts_out -f json "$g" >"$tmp/s8.out"
	ts_out "$g" >"$tmp/s8.txt"
	python3 - "$g" "$tmp/s8.out" "$tmp/s8.txt" <<'PY'
import gzip, json, sys
src = sys.argv[1]
raw = json.load(gzip.open(src) if src.endswith('.gz') else open(src))['traceEvents']
ann = [e for e in raw if e.get('cat') == 'user_annotation']
kern = [e for e in raw if e.get('cat') == 'kernel']
call = [e for e in raw if e.get('name') == 'hipMemcpyWithStream' and e.get('dur', 0) > 100000][0]
wall = max(k['ts'] + k['dur'] for k in kern) - min(a['ts'] for a in ann)
d = json.load(open(sys.argv[2]))
p = [p for p in d['passes'] if p['complete']][0]
s, st = p['step'], d['stages']['decode']['steps']
txt = open(sys.argv[3]).read()
ok = (s is not None and abs(s['wall_us'] - wall) <= 0.01
      and abs(s['before_pass_us'] + s['pass_us'] + s['after_pass_us'] - s['wall_us']) <= 0.01
      and s['before_pass_sync_top'] == 'hipMemcpyWithStream'
      and call['dur'] - 100 <= s['before_pass_sync_us'] <= call['dur']
      and st['per_output_token_from'] == 'step_window' and abs(st['per_output_token_us'] - wall) <= 0.01
      and 'in hipMemcpyWithStream)' in txt
      and d['opportunities'][0]['kind'] == 'step_idle' and 'hipMemcpyWithStream' in d['opportunities'][0]['text'])
print('%s - step: a step with no GPU window: its CPU window to its last kernel (%.3f us), the 463 ms wait before the pass named, and first among the opportunities (got %s)'
      % ('ok' if ok else 'not ok', wall, s))
PY
	[ $? -eq 0 ] || bad "the CPU-window checks ran to their end"
fi

# Every shared trace: each pass's step, where it has one, adds up to its
# wall, its parts within it, no busy or wait longer than its part.
for t in "$SHARED"/*.json*; do
	whole_run "$t" || continue
	ts_out -f json "$t" >"$tmp/all.out"
	[ -s "$tmp/all.out" ] || continue
	python3 - "$tmp/all.out" "$(basename "$t")" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bad, n = [], 0
for p in d.get('passes') or []:
    s = p.get('step')
    if not s:
        continue
    n += 1
    parts = s['before_pass_us'] + s['pass_us'] + s['after_pass_us']
    if (abs(parts - s['wall_us']) > 0.01 or min(s['before_pass_us'], s['pass_us'], s['after_pass_us']) < 0
            or s['before_pass_busy_us'] > s['before_pass_us'] + 0.001
            or s['before_pass_sync_us'] > s['before_pass_us'] + 0.001
            or s['pass_busy_us'] + s['pass_launch_bound_us'] > s['pass_us'] + 0.001):
        bad.append((p['index'], s))
print('%s - step: %s: %d steps add up to their walls, each part within it%s'
      % ('not ok' if bad else 'ok', sys.argv[2], n, ' (got %s)' % bad[:2] if bad else ''))
PY
done
finish
