#!/usr/bin/env bash
# Layers, passes and stages from structure alone, on synthetic traces of a
# generic decoder (tests/layers/mkgeneric.py): Inductor / cuBLAS / CUTLASS /
# FA3 / vLLM custom-op names that no model family's rule was written for.
# For N = 1, 7, 80, 126 layers, tensor parallel 1 and 4, eager and graph
# replayed (no External id on the GEMMs), with no step annotation at all:
# every pass is found and complete, has N layers of type Attn+FC (Attn+MoE),
# and the prefill pass (1049 tokens) and the batch-1 decodes are told apart
# by grids and GEMM shapes only (grids only when graph replayed). MoE, whose
# expert GEMMs have a plain GEMM name: their time counts as type moe. No
# family-specific names: layers.expected is null, 0 or N, never a wrong
# number, and no layer-count warning. With SGLang step annotations: the
# kernels of every pass and the orphan kernels match the construction.
. "$(dirname "$0")/lib.sh"
GEN=tests/layers/mkgeneric.py
# the interpreter itself, not a version-manager shim (pyenv's costs ~0.5 s a call)
PY=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
[ -x "$PY" ] || PY=python3

# the generator itself: valid JSON, deterministic, --truth = --truth-file
a=(--moe --layers 3 --tp 4 --prefill 17 --decode 2 --annotate sglang --graph)
if "$PY" "$GEN" "${a[@]}" --truth-file "$tmp/g1.truth" >"$tmp/g1.json" &&
	"$PY" "$GEN" "${a[@]}" --truth >"$tmp/g2.truth" && "$PY" "$GEN" "${a[@]}" >"$tmp/g2.json" &&
	"$PY" -m json.tool "$tmp/g1.json" >/dev/null && cmp -s "$tmp/g1.json" "$tmp/g2.json" &&
	cmp -s "$tmp/g1.truth" "$tmp/g2.truth"; then
	echo "ok - mkgeneric.py: valid JSON, the same trace and truth on every run"
else
	echo "not ok - mkgeneric.py: valid JSON, the same trace and truth on every run"
fi

# Each case: generate the trace and its truth, run the analyzer; the checks
# of all cases run at the end, in one Python process, in case order.
cases=0
case_() { # label generator-options...
	local label=$1 d
	shift
	cases=$((cases + 1))
	d=$tmp/c$(printf '%03d' $cases)
	mkdir "$d"
	printf '%s\n' "$label" >"$d/label"
	if ! "$PY" "$GEN" "$@" --truth-file "$d/truth.json" >"$d/t.json" 2>"$d/gerr"; then
		echo "mkgeneric.py $*: $(head -c 300 "$d/gerr")" >"$d/fail"
		return
	fi
	"$TS" --format json "$d/t.json" >"$d/r.json" 2>"$d/err"
	local rc=$?
	[ $rc -eq 0 ] || echo "$TS exit status $rc: $(head -c 300 "$d/err")" >"$d/fail"
	rm -f "$d/t.json"
}

for n in 1 7 80 126; do
	# large N: fewer decodes, to keep the run short (under ASan too)
	if [ "$n" -le 7 ]; then k=9; else k=2; fi
	for tp in 1 4; do
		case_ "dense N=$n tp=$tp eager" --layers "$n" --tp "$tp" --prefill 1049 --decode "$k" --seed "$n"
		case_ "dense N=$n tp=$tp graph" --layers "$n" --tp "$tp" --prefill 1049 --decode "$k" --seed "$n" --graph
	done
done
for tp in 1 4; do
	case_ "moe N=7 tp=$tp eager" --moe --layers 7 --tp "$tp" --prefill 1049 --decode 9
	case_ "moe N=7 tp=$tp graph" --moe --layers 7 --tp "$tp" --prefill 1049 --decode 9 --graph
done
case_ "moe N=48 tp=4 graph" --moe --layers 48 --tp 4 --prefill 1049 --decode 2 --graph
# the prefill pass between decodes, a batch of 8
case_ "dense N=7 tp=1 prefill-middle bs=8" --layers 7 --prefill 1049 --decode 6 --batch 8 --order prefill-middle
# with SGLang step annotations: kernels per pass and orphans exactly
case_ "dense N=7 tp=4 sglang" --layers 7 --tp 4 --prefill 1049 --decode 4 --annotate sglang
case_ "moe N=7 tp=4 sglang graph bs=8" --moe --layers 7 --tp 4 --prefill 1049 --decode 4 --batch 8 \
	--annotate sglang --graph --order prefill-last
# A kernel typed attention by its name that runs once per pass (FA3's varlen
# scheduler, launched by the metadata op): never a layer's attention, so
# the pass has N layers, not N+1, wherever it runs; it counts among the
# pass's orphans and each layer holds exactly its own kernels. torch.compile
# leaves no embedding kernel to start a pass by name.
for w in head tail front; do
	case_ "dense N=80 tp=4 once-per-pass attention at the $w, compiled" --layers 80 --tp 4 \
		--prefill 1049 --decode 2 --once-attn "$w" --compiled-embed --graph
done
case_ "dense N=7 tp=1 once-per-pass attention, one pass" --layers 7 --prefill 300 --once-attn head
# A linear-attention hybrid deeper than its family's table (48 gated delta
# net + 16 full-attention layers = 64; qwen3-next lists 48): NVFP4 GEMMs
# named just `gemm`, piecewise graphs, FlashInfer attention whose name says
# Prefill in decode, a gated norm and an output gate inside the attention
# block. The same 64 layers in every pass: every pass complete, 64 layers,
# decode from the counts, not the kernel names.
case_ "hybrid 48+16 nvfp4 flashinfer graph, 10 decodes" --hybrid 3 --layers 64 --decode 10 --batch 8 \
	--plain-gemm --flashinfer --graph
case_ "hybrid 48+16 nvfp4 flashinfer graph sglang" --hybrid 3 --layers 64 --decode 4 --batch 8 \
	--plain-gemm --flashinfer --graph --annotate sglang
case_ "hybrid moe 48+16 tp=4 prefill and decodes" --hybrid 3 --moe --tp 4 --layers 64 --prefill 900 \
	--decode 3 --plain-gemm --flashinfer --graph
case_ "hybrid 6+2 eager" --hybrid 3 --layers 8 --prefill 300 --decode 3
case_ "moe N=7 tp=4 once-per-pass attention, eager" --moe --layers 7 --tp 4 --decode 3 --once-attn head

"$PY" - "$tmp" <<'PY'
import glob, json, os, sys

def short(x, n=160):
    s = json.dumps(x)
    return s if len(s) <= n else s[:n] + '...'

def check(d):
    label = open(d + '/label').read().strip()

    def line(ok, what, want=None, got=None):
        if ok:
            print('ok - %s: %s' % (label, what))
        else:
            print('not ok - %s: %s: expected %s, got %s' % (label, what, want, got))

    if os.path.exists(d + '/fail'):
        print('not ok - %s: %s' % (label, open(d + '/fail').read().strip()))
        return
    try:
        r = json.load(open(d + '/r.json'))
    except ValueError as e:
        print('not ok - %s: the report is not JSON: %s' % (label, e))
        return
    t = json.load(open(d + '/truth.json'))
    err = open(d + '/err').read()
    N, P = t['layers'], t['passes']
    passes = r.get('passes') or []
    L = r.get('layers') or {}

    line(len(passes) == P, 'pass count', P, len(passes))
    comp = [p.get('complete') for p in passes]
    line(len(passes) == P and all(comp), 'every pass complete', short([True] * P), short(comp))
    got = [p.get('layers') for p in passes]
    line(got == [N] * P, 'layers per pass', '%d in each of %d passes' % (N, P), short(got))
    line(L.get('per_pass') == N, 'layers.per_pass', N, L.get('per_pass'))
    stages = [p.get('stage') for p in passes]
    ann = t['annotate'] != 'none'
    how = ('the step annotations' if ann else 'grids only' if t['graph'] else 'grids and GEMM shapes')
    extra = ''
    if stages != t['stages']:
        bad = [(i, p.get('signals'), p.get('votes')) for i, p in enumerate(passes)
               if i >= len(t['stages']) or p.get('stage') != t['stages'][i]]
        extra = ' (first wrong pass, signals, votes: %s)' % short(bad[0] if bad else None, 200)
    line(stages == t['stages'], 'pass stages (from %s)' % how, short(t['stages']), short(stages) + extra)
    exp = L.get('expected')
    warn = [w for w in err.splitlines() if 'layer count other than' in w or 'every complete pass has' in w]
    if t.get('hybrid'):
        # the family's table is a hint: a warning that says the passes agree
        line(all('every complete pass has %d layers' % N in w for w in warn),
             'a family count is only a hint: the warning says the passes agree on %d' % N,
             'none, or every complete pass has %d layers' % N, short(warn, 300))
    else:
        line(exp in (None, 0, N), 'layers.expected is null, 0 or %d' % N, 'null, 0 or %d' % N, exp)
        line(not warn, 'no layer-count warning', 'none', short(warn, 200))
    mlp = 'MoE' if t['moe'] else 'FC'
    lin = t.get('linear_layers', 0)
    want = {k: v * P for k, v in (('Attn+' + mlp, N - lin), ('GDN+' + mlp, lin)) if v}
    line(L.get('odd_total') == 0, 'self-check: no odd layer', 0, short(L.get('odd')))
    if t.get('hybrid'):
        want_orph = sum(t['orphans_per_pass'])
        line(L.get('orphan_kernels') == want_orph, 'orphan kernels (each layer keeps its MLP)',
             want_orph, L.get('orphan_kernels'))
    line(L.get('types') == want, 'layer types', want, L.get('types'))
    if t['moe']:
        moe = [x for x in r.get('types', []) if x.get('type') == 'moe']
        tot = moe[0]['total_us'] if moe else 0.0
        line(tot + 1e-6 >= t['moe_expert_us'],
             'type moe total_us >= the %d expert GEMMs (%.3f us)' % (t['moe_expert_kernels'], t['moe_expert_us']),
             '>= %.3f' % t['moe_expert_us'], '%.3f' % tot)
    if t.get('once_attn'):
        want = sum(t['orphans_per_pass'])
        line(L.get('orphan_kernels') == want, 'orphan kernels, the once-per-pass kernel among them',
             want, L.get('orphan_kernels'))
        for st in sorted(set(t['stages'])):
            per = [c for s, c in zip(t['stages'], t['layer_kernels']) if s == st][0]
            got = [x.get('kernels') for x in r.get('layer_table', []) if x.get('stage') == st]
            line(got == per, '%s layers hold their own kernels' % st, short(per), short(got))
    if ann:
        got = [p.get('kernels') for p in passes]
        line(got == t['kernels_per_pass'], 'kernels per pass', short(t['kernels_per_pass']), short(got))
        want = sum(t['orphans_per_pass'])
        line(L.get('orphan_kernels') == want, 'orphan kernels (preamble, final norm, LM head, sampling)',
             want, L.get('orphan_kernels'))

for d in sorted(glob.glob(sys.argv[1] + '/c[0-9][0-9][0-9]')):
    check(d)
PY
# --- the self-check -----------------------------------------------------------
# One layer made three times slower (a straggling layer, or what a misplaced
# boundary looks like): one warning naming its layer and pass, in the text
# and in JSON layers.odd; the unchanged trace has none.
"$PY" tests/layers/mkgeneric.py --layers 7 --prefill 300 --decode 2 \
	--truth-file "$tmp/odd.truth" >"$tmp/odd.json"
"$PY" tests/layers/slowlayer.py "$tmp/odd.json" "$tmp/odd.truth" 1 4 3 > "$tmp/odd2.json"
for f in odd odd2; do
	"$TS" --format json "$tmp/$f.json" >"$tmp/$f.out" 2>/dev/null
	"$TS" "$tmp/$f.json" 2>"$tmp/$f.err" >/dev/null
done
"$PY" - "$tmp/odd.out" "$tmp/odd2.out" "$tmp/odd.err" "$tmp/odd2.err" <<'PY'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
ea, eb = open(sys.argv[3]).read(), open(sys.argv[4]).read()
la, lb = a['layers'], b['layers']
print('%s - self-check: no odd layer in the unchanged trace (got %s, %r)' %
      ('ok' if la['odd_total'] == 0 and la['odd'] == [] and 'far off' not in ea else 'not ok',
       la['odd'], ea[:200]))
want = [(1, 4, 'Attn+FC')]
got = [(x['pass'], x['layer'], x['type']) for x in lb['odd']]
ok = (lb['odd_total'] == 1 and got == want and lb['odd'][0]['us'] > 2.5 * lb['odd'][0]['typical_us']
      and lb['per_pass'] == 7 and 'far off' in eb and 'layer 4 of pass 1' in eb
      and any('layer 4 of pass 1' in w for w in b['warnings']))
print('%s - self-check: the layer made 3x slower is named (layer 4 of pass 1) in text and JSON (got %s, %r)' %
      ('ok' if ok else 'not ok', lb['odd'], eb[:300]))
PY
# --- passes whose head looks cut -----------------------------------------------
# The first layer's input norm in a form no rule types a norm (so every
# pass's head looks like a layer's tail), in five identical passes: the
# same structure in every pass is the model's, so every pass is complete
# (before, all five were partial and the report said no complete pass).
for ann in none sglang; do
	"$PY" tests/layers/mkgeneric.py --layers 7 --decode 5 --tp 4 --compiled-embed --graph --annotate "$ann" |
		sed 's/triton_red_fused__to_copy_mean_mul_pow_rsqrt_0/triton_red_fused__to_copy_0/g' >"$tmp/cut.json"
	"$TS" --format json "$tmp/cut.json" 2>/dev/null | "$PY" -c '
import json, sys
r = json.load(sys.stdin)
got = [(p["layers"], p["complete"]) for p in r["passes"]]
ok = got == [(7, True)] * 5 and r["passes_note"] is None and r["layers"]["per_pass"] == 7
print("%s - identical passes whose head looks cut (annotate %s): 5 complete passes of 7 layers (got %s, note %r)"
      % ("ok" if ok else "not ok", sys.argv[1], got, r["passes_note"]))' "$ann"
done
# --- relative stage signals -------------------------------------------------
# Graph-replayed, no annotations: the KV-cache write grids are the only
# absolute evidence. Take them away from one pass and it must get its stage
# from the other passes: a decode pass from the kernels seen only in decode
# passes (the split-KV combine) and its time per layer; the prefill pass
# (when it is the only one without grids) from its time per layer.
"$PY" tests/layers/mkgeneric.py --layers 7 --tp 1 --graph --prefill 1049 --decode 4 \
	--truth-file "$tmp/rel.truth" >"$tmp/rel.json"
for strip in 3 0; do
	"$PY" - "$tmp/rel.json" "$tmp/rel.truth" "$strip" "$tmp/rel$strip.json" <<'PY'
import json, sys
d, t, k = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
kern = sorted((e for e in d['traceEvents'] if e.get('cat') == 'kernel'), key=lambda e: e['ts'])
lo = sum(t['kernels_per_pass'][:k])
for e in kern[lo:lo + t['kernels_per_pass'][k]]:
    e.get('args', {}).pop('grid', None)
json.dump(d, open(sys.argv[4], 'w'))
PY
	"$TS" --format json "$tmp/rel$strip.json" >"$tmp/rel$strip.out" 2>/dev/null
	"$PY" - "$tmp/rel$strip.out" "$tmp/rel.truth" "$strip" <<'PY'
import json, sys
r, t, k = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
P = r['passes']
got = [p['stage'] for p in P]
p = P[k] if k < len(P) else {}
sig = p.get('signals', {})
if t['stages'][k] == 'decode':
    want_sig = {'only_in': 'decode', 'duration': 'decode'}
else:
    want_sig = {'only_in': None, 'duration': 'prefill'}
ok = (got == t['stages'] and sig.get('kv_grid') is None
      and {x: sig.get(x) for x in want_sig} == want_sig)
print('%s - relative signals: pass %d without grids is %s from %s (got %s, signals %s, evidence %r)' %
      ('ok' if ok else 'not ok', k, t['stages'][k], want_sig, got, sig, p.get('evidence')))
PY
done
# --- one rule for stages ------------------------------------------------------
# SGLang decode steps whose GPU window also holds bookkeeping kernels after
# sampling (alloc_decode_kernel, metadata): they are outside any layer and
# pass, but inside the step's window, so they take its stage: nothing is
# staged unknown.
"$PY" tests/layers/mkgeneric.py --layers 3 --annotate sglang --decode 3 --batch 4 >"$tmp/win.json"
"$PY" - "$tmp/win.json" "$tmp/win2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d['traceEvents']
wins = sorted((e for e in ev if e.get('cat') == 'gpu_user_annotation'), key=lambda e: e['ts'])
kern = [e for e in ev if e.get('cat') == 'kernel']
extra = []
for w in wins:
    end = max(k['ts'] + k['dur'] for k in kern if w['ts'] <= k['ts'] < w['ts'] + w['dur'])
    for i, name in enumerate(('alloc_decode_kernel', 'resolve_future_token_ids_kernel')):
        extra.append({'ph': 'X', 'cat': 'kernel', 'name': name, 'pid': 0, 'tid': 7,
                      'ts': round(end + 1 + 3 * i, 3), 'dur': 2.0, 'args': {'device': 0, 'stream': 7}})
    w['dur'] = round(end + 10 - w['ts'], 3)
# kernels in time order, as real files have them
d['traceEvents'] = ([e for e in ev if e.get('cat') != 'kernel'] +
                    sorted(kern + extra, key=lambda e: e['ts']))
json.dump(d, open(sys.argv[2], 'w'))
PY
"$TS" --format json "$tmp/win2.json" >"$tmp/win2.out" 2>/dev/null
"$PY" - "$tmp/win2.out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
st = r['stages']
nk = r['trace']['kernels']
ok = (st['unknown']['kernels'] == 0 and st['decode']['kernels'] == nk
      and [p['stage'] for p in r['passes']] == ['decode'] * 3
      and [p['layers'] for p in r['passes']] == [3] * 3)
print('%s - step windows: kernels after sampling inside a decode window are decode (unknown %d, decode %d of %d, passes %s)'
      % ('ok' if ok else 'not ok', st['unknown']['kernels'], st['decode']['kernels'], nk,
         [(p['stage'], p['layers']) for p in r['passes']]))
PY
# --- attention units ------------------------------------------------------------
# A copy kernel between an attention kernel and its split-KV combine (decode)
# does not split the attention unit: still one layer per attention.
"$PY" tests/layers/mkgeneric.py --layers 7 --annotate sglang --decode 3 --batch 4 >"$tmp/unit.json"
"$PY" - "$tmp/unit.json" "$tmp/unit2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d['traceEvents']
kern = sorted((e for e in ev if e.get('cat') == 'kernel'), key=lambda e: e['ts'])
COPY = ('void at::native::vectorized_elementwise_kernel<4, at::native::bfloat16_copy_kernel_cuda'
        '(at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul> >(int)')
extra = []
for a, b in zip(kern, kern[1:]):
    if 'FlashAttnFwdSm90' in a['name'] and 'FlashAttnFwdCombine' in b['name']:
        end = a['ts'] + a['dur']
        assert b['ts'] - end > 0.2
        extra.append({'ph': 'X', 'cat': 'kernel', 'name': COPY, 'pid': 0, 'tid': 7,
                      'ts': round(end + 0.05, 3), 'dur': 0.1, 'args': {'device': 0, 'stream': 7}})
assert len(extra) == 21, len(extra)
d['traceEvents'] = ([e for e in ev if e.get('cat') != 'kernel'] +
                    sorted(kern + extra, key=lambda e: e['ts']))
json.dump(d, open(sys.argv[2], 'w'))
PY
"$TS" --format json "$tmp/unit2.json" >"$tmp/unit2.out" 2>/dev/null
"$PY" - "$tmp/unit2.out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
got = [(p['layers'], p['complete']) for p in r['passes']]
print('%s - a copy kernel between attention and its combine keeps one unit: 3 passes of 7 layers (got %s)'
      % ('ok' if got == [(7, True)] * 3 else 'not ok', got))
PY
exit 0
