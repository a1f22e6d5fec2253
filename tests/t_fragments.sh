#!/usr/bin/env bash
# Traces that hold no forward pass, said plainly (tests/layers/mkgeneric.py
# shapes, cut by hand): a window cut inside one layer (8 kernels) or across
# two (17) is "no complete pass" with its kernel count, never "passes 1
# decode"; a worker's CPU side alone (its ops, computing ones among them,
# no kernel launch, no GPU activity) is a CPU-only profile, told to profile
# with ProfilerActivity.CUDA (a front-end process is tests/t_trace_kinds.sh's);
# CPU launches with no kernel recorded say the GPU activity was not captured.
. "$(dirname "$0")/lib.sh"
PY=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
[ -x "$PY" ] || PY=python3

"$PY" tests/layers/mkgeneric.py --layers 7 --decode 3 --tp 4 --truth-file "$tmp/t.truth" >"$tmp/t.json"
"$PY" - "$tmp/t.json" "$tmp/t.truth" "$tmp" <<'PY'
import json, sys
d, t, out = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
ev = d['traceEvents']
kern = sorted((e for e in ev if e.get('cat') == 'kernel'), key=lambda e: e['ts'])
# inside layer 3 of the first pass: past its input norm and QKV GEMM
lo = 2 + sum(t['layer_kernels'][0][:3]) + 4
for n in (8, 17):
    keep = set(id(e) for e in kern[lo:lo + n])
    doc = dict(d, traceEvents=[e for e in ev if e.get('cat') != 'kernel' or id(e) in keep])
    json.dump(doc, open('%s/frag%d.json' % (out, n), 'w'))
cpu = [e for e in ev if e.get('cat') not in ('kernel', 'cuda_runtime', 'gpu_user_annotation')]
json.dump(dict(d, traceEvents=cpu), open(out + '/front.json', 'w'))
nogpu = [e for e in ev if e.get('cat') not in ('kernel', 'gpu_user_annotation')]
json.dump(dict(d, traceEvents=nogpu), open(out + '/nogpu.json', 'w'))
PY
for f in frag8 frag17 front nogpu; do
	"$TS" "$tmp/$f.json" >"$tmp/$f.txt" 2>/dev/null
	rc=$?
	"$TS" --format json "$tmp/$f.json" >"$tmp/$f.out" 2>/dev/null
	[ $rc -eq 0 ] || echo "not ok - $f: exit status $rc"
done
"$PY" - "$tmp" <<'PY'
import json, re, sys
d = sys.argv[1]
def check(name, want, complete=0):
    r = json.load(open('%s/%s.out' % (d, name)))
    txt = open('%s/%s.txt' % (d, name)).read()
    # the first lines, a wrapped verdict joined again
    head = ' '.join(l.strip() for l in txt.splitlines()[:5])
    note = r.get('passes_note') or ''
    ok = (want in note and sum(p['complete'] for p in r['passes']) == complete
          and not re.search(r'(?<!partial )passes 1 ', head) and note[:40] in head)
    print('%s - %s: "%s" in passes_note and the first screen, no pass counted as one (got %r; %r)' %
          ('ok' if ok else 'not ok', name, want, note, head))
check('frag8', 'no complete pass: the window holds 8 kernels, part of a layer')
check('frag17', 'no complete pass: the window holds 17 kernels, parts of two layers')
check('front', 'no GPU activity recorded: a CPU-only profile')
check('nogpu', 'the profiler recorded no GPU activity')
PY
