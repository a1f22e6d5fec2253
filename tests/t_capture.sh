#!/usr/bin/env bash
# --capture: replayed graph kernels get the op, call site and workload of
# their captured node. Hand-made captures and replays with known answers
# (tests/capture/mkcapture.py: HIP and CUDA forms, two sizes, an unmatched
# replay, a capture whose sequence differs, two captures that disagree),
# errors, no change without --capture, and the shared vLLM piecewise pair
# against an independent Python oracle (tests/capture/oracle.py).
. "$(dirname "$0")/lib.sh"
python3 tests/capture/mkcapture.py "$tmp"
mkdir "$tmp/dir" && cp "$tmp/capture_hip.json" "$tmp/dir/"

for form in hip cuda; do
	"$TS" --format json --capture "$tmp/capture_$form.json" "$tmp/replay_$form.json" \
		>"$tmp/$form.json" 2>"$tmp/$form.err"
	echo "rc=$?" >>"$tmp/$form.err"
done
"$TS" --format json --capture "$tmp/dir" "$tmp/replay_hip.json" >"$tmp/dir.json" 2>/dev/null
"$TS" --format json --capture "$tmp/capture_diff.json" "$tmp/replay_hip.json" >"$tmp/diff.json" 2>/dev/null
"$TS" --format json --capture "$tmp/capture_hip.json" --capture "$tmp/capture_ops.json" \
	"$tmp/replay_hip.json" >"$tmp/amb.json" 2>/dev/null
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
def line(ok, msg, got=None):
    print('%s - capture fixture: %s%s' % ('ok' if ok else 'not ok', msg, '' if ok else ' (got %s)' % (got,)))
for form in ('hip', 'cuda'):
    r = json.load(open('%s/%s.json' % (d, form)))
    err = open('%s/%s.err' % (d, form)).read()
    a = r['attribution']
    want = {'op': 1, 'graph': 4, 'launch': 0, 'unlinked': 0, 'graph_op': 9}
    line(a['kernels'] == want and a['time']['graph_op_us'] == 58.0 and a['time']['graph_us'] == 20.0,
         '%s: 9 replayed kernels (58 us) take their captured ops, the 4 of the unmatched replay stay graph' % form,
         (a['kernels'], a['time']))
    ops = {o['name']: (o['via'], o['calls'], o['kernels'], o['total_us'], o['graph_op_kernels'],
                       o['graph_op_us'], o['callsite'], [(c['site'], c['weight']) for c in o['callsites']])
           for o in r['ops'] if o['via'] == 'op'}
    want = {'aten::mm': ('op', 3, 3, 41.0, 3, 41.0, 'layers/linear.py(20): forward',
                         [('layers/linear.py(20): forward', 3)]),
            'aten::silu': ('op', 3, 3, 13.0, 3, 13.0, 'layers/act.py(5): forward',
                           [('layers/act.py(5): forward', 3)]),
            'aten::add': ('op', 3, 3, 4.0, 3, 4.0, 'model.py(10): forward',
                          [('model.py(10): forward', 3)]),
            'aten::mul': ('op', 1, 1, 2.0, 0, 0.0, None, [])}
    line(ops == want, '%s: ops with calls, kernels, time and capture call sites (torch frames skipped)' % form, ops)
    wl = {w['name']: (w['calls'], w['kernels'], w['total_us'], w['tokens']) for w in r['workloads']}
    want = {'gemm_n128_k64': (3, 3, 41.0, {'min': 16, 'p50': 16, 'max': 32}),
            'silu_h256': (3, 3, 13.0, {'min': 16, 'p50': 16, 'max': 32})}
    line(wl == want, '%s: workloads from the captured shapes: gemm_n128_k64 and silu_h256, M 16..32' % form, wl)
    g = r['graph_replays']
    kinds = [(k['size'], k['matched_size'], k['kernels'], k['replays'], k['total_us'], k['graph'], k['reason'])
             for k in g['kinds']]
    want = [(16, 16, 3, 2, 30.0, 0, None), (32, 32, 3, 1, 28.0, 1, None),
            (64, 32, 4, 1, 20.0, None, '4 kernels replayed; the captured graphs of size 32 have 3')]
    line(kinds == want and (g['replays'], g['matched'], g['refused']) == (4, 3, 1),
         '%s: sizes 16 (twice) and 32 take their graphs; 64 takes none, with the reason' % form, kinds)
    line('1 of 4 graph replays matched no captured graph' in err and 'rc=0' in err,
         '%s: the unmatched replay is warned, exit 0' % form, err)
    c = g['captures']
    line((c['files'], c['graphs'], c['distinct'], c['kernel_nodes'], c['nodes_no_op']) == (1, 2, 2, 6, 0) and
         [(x['size'], x['kernels'], x['annotation']) for x in c['list']] ==
         [(16, 3, 'capture_16_DECODE'), (32, 3, 'capture_32_DECODE')],
         '%s: 2 graphs captured, sized by their capture annotations' % form, c)
r = json.load(open(d + '/dir.json'))
h = json.load(open(d + '/hip.json'))
line(r['attribution'] == h['attribution'] and r['graph_replays']['kinds'] == h['graph_replays']['kinds'],
     '--capture DIR reads the captures in it')
r = json.load(open(d + '/diff.json'))
reasons = [(k['size'], k['reason']) for k in r['graph_replays']['kinds']]
want = [(16, 'kernel 3 of 3 differs: replayed add_k, captured other_k'),
        (32, 'kernel 1 of 3 (gemm_kernel) has grid 32,1,1; captured 16,1,1'),
        (64, '4 kernels replayed; the captured graphs of size 16 have 3')]
line(reasons == want and r['attribution']['kernels']['graph_op'] == 0,
     'a capture whose sequence differs is refused, with the kernel, name or grid that differs', reasons)
r = json.load(open(d + '/amb.json'))
k = {x['size']: (x['graph'], x['fits'], x['reason']) for x in r['graph_replays']['kinds']}
line(k.get(16) == (None, 2, '2 captured graphs fit, with different ops: none is taken') and k.get(32)[0] == 1,
     'two captured graphs that fit but disagree on the ops: neither is taken', k)
PY

# No change without --capture: no graph_op bucket, no replay section.
"$TS" --format json "$tmp/replay_hip.json" >"$tmp/plain.json" 2>/dev/null
"$TS" "$tmp/replay_hip.json" >"$tmp/plain.txt" 2>/dev/null
grep -q 'graph_op\|graph_replays' "$tmp/plain.json" || grep -q 'graph_op\|Graph replays' "$tmp/plain.txt" &&
	echo "not ok - capture fixture: without --capture the reports have no graph_op or replay section" ||
	echo "ok - capture fixture: without --capture the reports have no graph_op or replay section"
python3 - "$tmp/plain.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))['attribution']
ok = a['kernels'] == {'op': 1, 'graph': 13, 'launch': 0, 'unlinked': 0}
print('%s - capture fixture: without --capture every replayed kernel is graph (got %s)' % ('ok' if ok else 'not ok', a['kernels']))
PY
# merge takes partials, not captures: a usage error.
"$TS" merge --capture "$tmp/capture_hip.json" a.tsp b.tsp >/dev/null 2>"$tmp/e"
[ $? -eq 2 ] && grep -q "merge: --capture applies to traces" "$tmp/e" &&
	echo "ok - capture fixture: merge --capture is a usage error (exit 2)" ||
	echo "not ok - capture fixture: merge --capture: $(cat "$tmp/e")"
# Standard input, the text report.
cat "$tmp/replay_hip.json" | "$TS" --capture "$tmp/capture_hip.json" - >"$tmp/stdin.txt" 2>/dev/null
grep -q "graph 1 of capture_hip.json (capture_16_DECODE)" "$tmp/stdin.txt" &&
	grep -q "at layers/linear.py(20): forward \[graph\]" "$tmp/stdin.txt" &&
	echo "ok - capture fixture: a replay through standard input; GRAPH REPLAYS and [graph] call sites in text" ||
	echo "not ok - capture fixture: a replay through standard input: $(head -c 600 "$tmp/stdin.txt")"
# Errors: a capture that cannot be read (exit 2, nothing printed), a cut one
# (its error with the byte; the graphs before it are used; exit 1).
"$TS" --capture "$tmp/nope.json" "$tmp/replay_hip.json" >"$tmp/o" 2>"$tmp/e"
rc=$?
[ $rc -eq 2 ] && grep -q "nope.json" "$tmp/e" && [ ! -s "$tmp/o" ] &&
	echo "ok - capture fixture: a missing capture: exit 2, named" ||
	echo "not ok - capture fixture: a missing capture (exit $rc): $(cat "$tmp/e")"
python3 - "$tmp/capture_hip.json" "$tmp/cut.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
# cut in the middle of the second window (after its begin capture)
ev = t['traceEvents']
second = [i for i, e in enumerate(ev) if e['name'].endswith('BeginCapture')][1]
text = json.dumps({'traceEvents': ev[:second + 3]})
open(sys.argv[2], 'w').write(text[:-3])
PY
"$TS" --format json --capture "$tmp/cut.json" "$tmp/replay_hip.json" >"$tmp/o" 2>"$tmp/e"
rc=$?
python3 - "$tmp/o" "$tmp/e" $rc <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
err, rc = open(sys.argv[2]).read(), int(sys.argv[3])
g = r['graph_replays']
ok = (rc == 1 and 'cut.json: byte' in err and 'graphs captured before that point are used' in err
      and g['captures']['graphs'] == 1 and g['captures']['unclosed'] == 1 and g['matched'] == 2)
print('%s - capture fixture: a cut capture: its byte, exit 1, the complete graph before it used, the open one left out%s'
      % ('ok' if ok else 'not ok', '' if ok else ' (got rc %d, %r, %s)' % (rc, err.strip()[:300], g['captures'])))
PY

# Replays of sizes not captured: padded up to the next captured size (the
# size below when there is none above); on HIP the grids tell a replay that
# ran the smaller graph, on CUDA the count alone cannot.
for form in hip cuda; do
	"$TS" --format json --capture "$tmp/capture_$form.json" "$tmp/replay_pad_$form.json" \
		>"$tmp/pad_$form.json" 2>/dev/null
done
"$TS" --capture "$tmp/capture_hip.json" "$tmp/replay_pad_hip.json" >"$tmp/pad.txt" 2>/dev/null
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
def line(ok, msg, got=None):
    print('%s - capture padding: %s%s' % ('ok' if ok else 'not ok', msg, '' if ok else ' (got %s)' % (got,)))
for form, last in (('hip', (24, 16, 0)), ('cuda', (24, 32, 1))):
    r = json.load(open('%s/pad_%s.json' % (d, form)))
    kinds = [(k['size'], k['matched_size'], k['graph']) for k in r['graph_replays']['kinds']]
    want = [(20, 32, 1), (10, 16, 0), (40, 32, 1), (24, 32, 1), last]
    line(kinds == want and r['graph_replays']['matched'] == 5,
         '%s: bs=20 and 24 take the size-32 graph, bs=10 the size-16, bs=40 the size below (32); '
         'the bs=24 replay of the size-16 graph takes %s' % (form, 'it (its grids)' if form == 'hip' else
                                                            'size 32 (CUDA records no grid at capture)'), kinds)
    wl = {w['name']: w['tokens'] for w in r['workloads']}
    want_max = 32
    line(wl['gemm_n128_k64']['max'] == want_max and wl['gemm_n128_k64']['min'] == 16,
         '%s: the workloads take the captured graph\'s tokens (16..32), not the step\'s' % form, wl)
t = open(d + '/pad.txt').read()
line('padded up to the captured size 32' in t and 'the captured size below, 32' in t,
     'the text report says which replays were padded up and which took the size below', t[-900:])
PY

# A graph on two streams: its kernels finish in another order than they
# were launched; HIP's names and grids pair each with its node.
"$TS" --format json --capture "$tmp/capture_hip.json" "$tmp/replay_order_hip.json" >"$tmp/order.json" 2>/dev/null
"$TS" --capture "$tmp/capture_hip.json" "$tmp/replay_order_hip.json" >"$tmp/order.txt" 2>/dev/null
"$TS" --format json --capture "$tmp/capture_diff.json" "$tmp/replay_order_hip.json" >"$tmp/order_diff.json" 2>/dev/null
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
def line(ok, msg, got=None):
    print('%s - capture order: %s%s' % ('ok' if ok else 'not ok', msg, '' if ok else ' (got %s)' % (got,)))
r = json.load(open(d + '/order.json'))
kinds = [(k['size'], k['graph'], k['reordered']) for k in r['graph_replays']['kinds']]
ops = {o['name']: (o['graph_op_kernels'], o['graph_op_us']) for o in r['ops'] if o['via'] == 'op'}
line(kinds == [(16, 0, True), (32, 1, False)] and
     ops == {'aten::mm': (2, 30.0), 'aten::silu': (2, 9.0), 'aten::add': (2, 3.0), 'aten::mul': (0, 0.0)},
     'the size-16 replay whose silu_k finished first: each kernel takes the op of its own node', (kinds, ops))
t = open(d + '/order.txt').read()
line('its kernels in another order (paired by name and grid)' in t, 'the text report says the kernels were paired, not in order', t[-700:])
r = json.load(open(d + '/order_diff.json'))
k = r['graph_replays']['kinds'][0]
line(k['graph'] is None and k['reason'].startswith('kernel 1 of 3 differs: replayed silu_k, captured gemm_kernel'),
     'kernels that no order pairs (other_k captured): refused with the first that differs', k)
PY

# Many ranks, saved partials and merge: the replay table and the captures
# travel with the partials. Two ranks replaying through one capture list it
# once and count every replay; saving and merging gives the same; a partial
# saved with --capture gives its capture map to a later --capture.
"$TS" --format json --capture "$tmp/capture_hip.json" "$tmp/replay_hip.json" "$tmp/replay_hip.json" \
	>"$tmp/two.json" 2>/dev/null
"$TS" -q --save-state "$tmp/h.tsp" --capture "$tmp/capture_hip.json" "$tmp/replay_hip.json" >/dev/null 2>&1
"$TS" -q --save-state "$tmp/c.tsp" --capture "$tmp/capture_cuda.json" "$tmp/replay_cuda.json" >/dev/null 2>&1
"$TS" -q --save-state "$tmp/plain.tsp" "$tmp/replay_hip.json" >/dev/null 2>&1
"$TS" --format json merge "$tmp/h.tsp" "$tmp/h.tsp" >"$tmp/m2.json" 2>/dev/null
"$TS" --format json merge "$tmp/h.tsp" "$tmp/c.tsp" >"$tmp/mhc.json" 2>/dev/null
"$TS" --format json merge "$tmp/plain.tsp" "$tmp/plain.tsp" >"$tmp/mplain.json" 2>/dev/null
"$TS" --format json --capture "$tmp/h.tsp" "$tmp/replay_hip.json" >"$tmp/fromp.json" 2>/dev/null
"$TS" --format json --capture "$tmp/plain.tsp" "$tmp/replay_hip.json" >"$tmp/fromplain.json" 2>"$tmp/fromplain.err"
echo "rc=$?" >>"$tmp/fromplain.err"
python3 - "$tmp/h.tsp" "$tmp/flip.tsp" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read()); b[len(b) // 2] ^= 0x10
open(sys.argv[2], 'wb').write(b)
PY
"$TS" --format json --capture "$tmp/flip.tsp" "$tmp/replay_hip.json" >"$tmp/fromflip.json" 2>"$tmp/fromflip.err"
echo "rc=$?" >>"$tmp/fromflip.err"
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
def line(ok, msg, got=None):
    print('%s - capture ranks and partials: %s%s' % ('ok' if ok else 'not ok', msg, '' if ok else ' (got %s)' % (got,)))
def kinds(r):
    return [(k['size'], k['matched_size'], k['kernels'], k['replays'], k['total_us'], k['graph'], k['reason'])
            for k in r['graph_replays']['kinds']]
def counts(r):
    g = r['graph_replays']
    return (g['replays'], g['matched'], g['refused'], g['kernels'], g['kernels_matched'], g['time_us'], g['matched_us'])
one = json.load(open(d + '/hip.json'))
two = json.load(open(d + '/two.json'))
want = [(16, 16, 3, 4, 60.0, 0, None), (32, 32, 3, 2, 56.0, 1, None),
        (64, 32, 4, 2, 40.0, None, '4 kernels replayed; the captured graphs of size 32 have 3')]
c = two['graph_replays']['captures']
line(kinds(two) == want and counts(two) == (8, 6, 2, 26, 18, 156.0, 116.0) and
     (c['files'], c['graphs'], c['distinct'], c['kernel_nodes']) == (1, 2, 2, 6) and
     c['list'] == one['graph_replays']['captures']['list'],
     'two ranks through one capture: every replay counted (8, 6 matched), the capture listed once',
     (kinds(two), counts(two), c))
line(two['attribution']['kernels']['graph_op'] == 18 and two['attribution']['time']['graph_op_us'] == 116.0,
     'two ranks: 18 kernels (116 us) take their captured ops', two['attribution'])
m2 = json.load(open(d + '/m2.json'))
line(m2['graph_replays'] == two['graph_replays'] and m2['attribution'] == two['attribution'],
     'a partial saved with --capture, merged twice: the replay table and captures of the two-rank run')
mhc = json.load(open(d + '/mhc.json'))
c = mhc['graph_replays']['captures']
files = sorted({x['file'].split('/')[-1] for x in c['list']})
line((c['files'], c['graphs'], c['distinct']) == (2, 4, 4) and files == ['capture_cuda.json', 'capture_hip.json'] and
     counts(mhc)[:3] == (8, 6, 2) and len(mhc['graph_replays']['kinds']) == 5 and
     kinds(mhc)[2][3] == 2,
     'partials of other captures (HIP and CUDA): both files listed; kinds kept apart by the graph they took, the refused kind one row',
     (c, kinds(mhc)))
mp = json.load(open(d + '/mplain.json'))
line('graph_replays' not in mp and 'graph_op' not in mp['attribution']['kernels'],
     'partials saved without --capture merge with no graph_op bucket and no replay section', mp['attribution'])
fp = json.load(open(d + '/fromp.json'))
cp, ch = dict(fp['graph_replays']['captures']), dict(one['graph_replays']['captures'])
cp.pop('bytes'); ch.pop('bytes')
line(fp['attribution'] == one['attribution'] and fp['ops'] == one['ops'] and
     fp['workloads'] == one['workloads'] and kinds(fp) == kinds(one) and cp == ch,
     '--capture PARTIAL: the capture map it saved matches the replays as the capture trace did')
err = open(d + '/fromplain.err').read()
r = json.load(open(d + '/fromplain.json'))
line('plain.tsp: a saved partial with no capture map (its run had no --capture)' in err and 'rc=1' in err and
     r['graph_replays']['matched'] == 0,
     '--capture of a partial saved without --capture: said, exit 1, no replay matched', err)
err = open(d + '/fromflip.err').read()
r = json.load(open(d + '/fromflip.json'))
line('flip.tsp: byte' in err and 'bad saved partial' in err and 'rc=1' in err and
     r['graph_replays']['captures']['graphs'] == 0 and r['attribution']['kernels']['graph'] == 13,
     '--capture of a corrupt partial: its byte, exit 1, nothing taken from it', err)
PY

# compare: --capture serves both sides; --capture-b gives B its own (two
# runs whose captures name other ops for the same kernels).
"$TS" -f json compare --capture "$tmp/capture_hip.json" --capture-b "$tmp/capture_ops.json" \
	"$tmp/replay_hip.json" "$tmp/replay_hip.json" >"$tmp/cmpb.json" 2>/dev/null
"$TS" -f json compare --capture "$tmp/capture_hip.json" --capture "$tmp/capture_ops.json" \
	"$tmp/replay_hip.json" "$tmp/replay_hip.json" >"$tmp/cmp2.json" 2>/dev/null
"$TS" --capture-b "$tmp/capture_ops.json" "$tmp/replay_hip.json" >/dev/null 2>"$tmp/e"
echo "rc=$?" >>"$tmp/e"
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
def line(ok, msg, got=None):
    print('%s - capture compare: %s%s' % ('ok' if ok else 'not ok', msg, '' if ok else ' (got %s)' % (got,)))
c = json.load(open(d + '/cmpb.json'))
ops = [(o['a_op'], o['b_op']) for o in c['ops']]
line(('aten::mm', 'aten::matmul') in ops,
     'with --capture-b, A takes its ops from --capture and B from its own (aten::mm against aten::matmul)', ops)
c = json.load(open(d + '/cmp2.json'))
ops = [(o['a_op'], o['b_op']) for o in c['ops']]
line(all('aten::matmul' not in x for x in ops) and all(a == b for a, b in ops),
     'one --capture for both with two captures that disagree on size 16: neither side takes either', ops)
e = open(d + '/e').read()
line('rc=2' in e and '--capture-b apply to compare only' in e, '--capture-b without compare: a usage error', e)
PY

# Tables and the first screen with --capture: the replays table and the ops
# table's graph_op columns hold the JSON report's figures; --csv-dir, the
# workbook and the page have the replays table only with --capture.
"$TS" -f csv --table replays --capture "$tmp/capture_hip.json" "$tmp/replay_hip.json" >"$tmp/replays.csv" 2>/dev/null
"$TS" -f csv --table ops --capture "$tmp/capture_hip.json" "$tmp/replay_hip.json" >"$tmp/ops.csv" 2>/dev/null
"$TS" -q --csv-dir "$tmp/csv1" --capture "$tmp/capture_hip.json" "$tmp/replay_hip.json" >/dev/null 2>&1
"$TS" -q --csv-dir "$tmp/csv0" "$tmp/replay_hip.json" >/dev/null 2>&1
"$TS" -f html -o "$tmp/p1.html" --capture "$tmp/capture_hip.json" "$tmp/replay_hip.json" 2>/dev/null
"$TS" -f html -o "$tmp/p0.html" "$tmp/replay_hip.json" 2>/dev/null
"$TS" -f xlsx -o "$tmp/w1.xlsx" --capture "$tmp/capture_hip.json" "$tmp/replay_hip.json" 2>/dev/null
"$TS" -f xlsx -o "$tmp/w0.xlsx" "$tmp/replay_hip.json" 2>/dev/null
"$TS" --brief --capture "$tmp/capture_hip.json" "$tmp/replay_hip.json" >"$tmp/brief1" 2>/dev/null
"$TS" --brief "$tmp/replay_hip.json" >"$tmp/brief0" 2>/dev/null
python3 - "$tmp" <<'PY'
import csv, json, os, re, sys, zipfile
d = sys.argv[1]
def line(ok, msg, got=None):
    print('%s - capture tables: %s%s' % ('ok' if ok else 'not ok', msg, '' if ok else ' (got %s)' % (got,)))
r = json.load(open(d + '/hip.json'))
rows = list(csv.DictReader(open(d + '/replays.csv', newline='')))
lst = r['graph_replays']['captures']['list']
want = [(k['size'], k['matched_size'], k['kernels'], k['replays'], k['total_us'],
         lst[k['graph']]['index'] if k['graph'] is not None else None, k['reason'] or '')
        for k in r['graph_replays']['kinds']]
got = [(int(x['size']), int(x['matched_size']), int(x['kernels']), int(x['replays']), float(x['total_us']),
        int(x['graph_index']) if x['graph_index'] else None, x['reason']) for x in rows]
line(got == want, 'the replays table: one row per kind, as JSON graph_replays.kinds', got)
ops = {x['op']: (int(x['graph_op_kernels']), float(x['graph_op_us'])) for x in csv.DictReader(open(d + '/ops.csv', newline=''))}
want = {o['name']: (o['graph_op_kernels'], o['graph_op_us']) for o in r['ops']}
line(ops == want, 'the ops table gains graph_op_kernels and graph_op_us, as JSON', ops)
line(sorted(os.listdir(d + '/csv1')) == sorted(os.listdir(d + '/csv0') + ['replays.csv']) and
     'replays.csv' not in os.listdir(d + '/csv0') and
     'graph_op' not in open(d + '/csv0/ops.csv').read(),
     '--csv-dir: replays.csv and the graph_op columns only with --capture')
p1, p0 = open(d + '/p1.html').read(), open(d + '/p0.html').read()
line('id="t-replays"' in p1 and 'capture_16_DECODE' in p1 and 'id="t-replays"' not in p0 and
     '--capture: 3 of 4 graph replays matched (1 none); ops for 72.5% of kernel time' in p1,
     'the page: the replays table and the first-screen line only with --capture')
def sheets(p):
    return [n for n in zipfile.ZipFile(p).namelist() if n.startswith('xl/worksheets/sheet')]
line(len(sheets(d + '/w1.xlsx')) == len(sheets(d + '/w0.xlsx')) + 1 and
     'replays' in zipfile.ZipFile(d + '/w1.xlsx').read('xl/workbook.xml').decode() and
     'replays' not in zipfile.ZipFile(d + '/w0.xlsx').read('xl/workbook.xml').decode(),
     'the workbook: a replays sheet only with --capture')
b1, b0 = open(d + '/brief1').read(), open(d + '/brief0').read()
line('  --capture: 3 of 4 graph replays matched (1 none); ops for 72.5% of kernel time\n' in b1 and
     'graph replay:' not in b1 and len(b1.splitlines()) <= 25 and
     re.search(r'  graph replay: [0-9.]+% of kernel time without ops or shapes; --capture adds them\n', b0),
     'the first screen says how much of the replay got its ops back (72.5% = 58 of 80 us); without '
     '--capture, how much it would give ops to', (b1, b0))
PY

# The shared vLLM piecewise pair: the capture of the batch-8192 graphs and
# the trace that replays them.
cap=$(ls "$SHARED"/vllm_mi300x_graph_capture_bs8192_piecewise.pt.trace.json* 2>/dev/null | head -1)
rep=$(ls "$SHARED"/vllm_mi300x_mixed_prefilldecode_piecewise_graph.json* 2>/dev/null | head -1)
if [ -z "$cap" ] || [ -z "$rep" ]; then
	echo "skip - vllm piecewise pair: $SHARED has not the capture and replay traces"
	exit 0
fi
python3 tests/capture/oracle.py "$cap" "$rep" >"$tmp/oracle.json"
"$TS" --format json "$rep" >"$tmp/v0.json" 2>/dev/null
"$TS" --format json --capture "$cap" "$rep" >"$tmp/v1.json" 2>"$tmp/v1.err"
"$TS" --format json --stage mixed --capture "$cap" "$rep" >"$tmp/v1m.json" 2>/dev/null
"$TS" --format json --stage mixed "$rep" >"$tmp/v0m.json" 2>/dev/null
python3 - "$tmp/oracle.json" "$tmp/v0.json" "$tmp/v1.json" "$tmp/v1m.json" "$tmp/v0m.json" <<'PY'
import json, sys
o, v0, v1, v1m, v0m = (json.load(open(p)) for p in sys.argv[1:6])
def line(ok, msg, got=None):
    print('%s - vllm piecewise pair: %s%s' % ('ok' if ok else 'not ok', msg, '' if ok else ' (got %s)' % (got,)))
a0, a1 = v0['attribution'], v1['attribution']
line(a1['kernels']['graph_op'] == o['graph_op']['kernels'] == 361 and
     round(a1['time']['graph_op_us'] * 1000) == o['graph_op']['ns'] and a1['kernels']['graph'] == 0,
     'all 361 replayed kernels (%.1f%% of kernel time) take a captured op, as the oracle finds; graph with no op %.1f%% -> %.1f%%'
     % (a1['graph_op_pct'], a0['graph_pct'], a1['graph_pct']), (a1['kernels'], o['graph_op']))
g = v1['graph_replays']
line((g['replays'], g['matched'], g['refused']) == (25, 25, 0) and o['unmatched'] == [] and
     g['captures']['graphs'] == 25 and g['captures']['distinct'] == 3,
     '25 replays match the 25 captured graphs (3 distinct: first piece, 23 alike, last)', g)
ops = {x['name']: x for x in v1['ops']}
bad = []
for name, want in o['ops'].items():
    x = ops.get(name)
    if not x or x['graph_op_kernels'] != want['kernels'] or round(x['graph_op_us'] * 1000) != want['ns']:
        bad.append((name, want['kernels'], x and x['graph_op_kernels']))
        continue
    got_sites = {c['site']: c['weight'] for c in x['callsites']}
    if x['graph_op_kernels'] == x['kernels'] and got_sites != want['sites']:
        bad.append((name, want['sites'], got_sites))
extra = [x['name'] for x in v1['ops'] if x.get('graph_op_kernels') and x['name'] not in o['ops']]
line(not bad and not extra,
     'every op: replayed kernels, their time and call sites (per kernel) equal the oracle\'s (%d ops)' % len(o['ops']),
     (bad, extra))
w0 = sum(w['total_us'] for w in v0['workloads'])
w1 = sum(w['total_us'] for w in v1['workloads'])
line(w1 > w0 + 140000 and len(v1['workloads']) > len(v0['workloads']),
     'workloads gain the replayed time: %.0f us -> %.0f us, %d -> %d definitions'
     % (w0, w1, len(v0['workloads']), len(v1['workloads'])))
m0 = sum(x['total_us'] for x in v0m['ops'] if x['via'] == 'op')
m1 = sum(x['total_us'] for x in v1m['ops'] if x['via'] == 'op')
line(m1 > m0 + 140000 and not any(x['via'] == 'graph' for x in v1m['ops']),
     'the mixed stage view\'s ops gain the replayed time: %.0f us -> %.0f us' % (m0, m1))
moe = [w for w in v1['workloads'] if w['kind'] == 'gemm']
line(any(w['tokens'] and w['tokens']['max'] == 8192 for w in moe),
     'GEMM workloads carry the captured graphs\' 8192 tokens', [(w['name'], w['tokens']) for w in moe])
PY
# without --capture, the warning about graph-replayed time says what gives
# the ops back; with it, it does not
"$TS" --no-progress "$tmp/replay_hip.json" 2>"$tmp/w1.err" >/dev/null
"$TS" --no-progress --capture "$tmp/capture_hip.json" "$tmp/replay_hip.json" 2>"$tmp/w2.err" >/dev/null
if grep -q 'replayed from CUDA/HIP graphs with no CPU op detail: a trace of the graph capture .* --capture' "$tmp/w1.err" &&
   ! grep -q 'given with --capture gives' "$tmp/w2.err"; then
	echo "ok - capture: the graph-replay warning points to --capture when none was given"
else
	echo "not ok - capture: graph-replay warning hint: $(cat "$tmp/w1.err" "$tmp/w2.err" | head -5)"
fi
