#!/usr/bin/env bash
# Prefill and decode need evidence of LLM generation (a step annotation
# naming a stage or tokens, a token embedding, a KV-cache write, a stage-
# named attention kernel, a serving framework's module paths). A diffusion
# transformer's denoising loop (tests/layers/mkdit.py: ProfilerStep per
# step, no embedding lookup, no KV cache, diffusers' frames) is reported as
# forward passes with their layers, stage unknown, and the first screen
# says it does not look like LLM generation; the framework is diffusers,
# not HF transformers (its path holds "transformers/").
. "$(dirname "$0")/lib.sh"

gen_out python3 "$here/layers/mkdit.py" --steps 5 --blocks 12 >"$tmp/dit.json"
"$TS" -q -f json "$tmp/dit.json" >"$tmp/dit.out" 2>"$tmp/err" || bad "dit: exit $?: $(cat "$tmp/err")"
"$TS" -q --brief -w 200 "$tmp/dit.json" >"$tmp/dit.txt" 2>&1
python3 - "$tmp/dit.out" "$tmp/dit.txt" <<'PY' && ok "a diffusion transformer: 5 complete passes of 12 layers, stage unknown, not LLM generation" || bad "dit: $(head -5 "$tmp/dit.txt")"
import json, sys
r = json.load(open(sys.argv[1]))
txt = open(sys.argv[2]).read()
ps = r['passes']
assert [(p['stage'], p['layers'], p['complete']) for p in ps] == [('unknown', 12, True)] * 5, ps
assert r['layers']['generation_evidence'] == [], r['layers']['generation_evidence']
assert r['stages']['prefill']['passes'] == 0 and r['stages']['decode']['passes'] == 0
assert 'not LLM generation' in txt and 'prefill' not in txt.split('Per pass')[0], txt[:400]
assert r['layers']['diffusion'], r['layers']
assert r['trace']['framework'] == 'diffusers', r['trace']['framework']
PY

# what looks like generation in a diffusion framework's passes (a token
# embedding each step, as a text encoder runs) does not make them prefill:
# diffusers runs them, denoising steps with no stage, and says so
python3 - "$tmp/dit.json" "$tmp/emb.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d['traceEvents']
op = next(e for e in ev if e.get('cat') == 'cpu_op')
ks = sorted((e for e in ev if e.get('cat') == 'kernel'), key=lambda e: e['ts'])
add = []
for i, s in enumerate(e for e in ev if e.get('cat') == 'user_annotation' and e['name'].startswith('ProfilerStep')):
    first = next(k for k in ks if k['ts'] >= s['ts'])
    x = 10 ** 7 + i
    add += [{'ph': 'X', 'cat': 'cpu_op', 'name': 'aten::embedding', 'pid': op['pid'], 'tid': op['tid'],
             'ts': s['ts'] + 1, 'dur': 2, 'args': {'External id': x, 'Input Dims': [[2, 77], [49408, 768]]}},
            {'ph': 'X', 'cat': 'cuda_runtime', 'name': 'cudaLaunchKernel', 'pid': op['pid'], 'tid': op['tid'],
             'ts': s['ts'] + 1.5, 'dur': 1, 'args': {'External id': x, 'correlation': x}},
            {'ph': 'X', 'cat': 'kernel', 'pid': first['pid'], 'tid': first['tid'], 'ts': first['ts'] - 3, 'dur': 2,
             'name': 'void at::native::(anonymous namespace)::indexSelectLargeIndex<c10::BFloat16, long, unsigned int, 2, 2, -2, true>(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>)',
             'args': {'correlation': x, 'External id': x, 'device': 0, 'stream': first['args'].get('stream', 7),
                      'grid': [154, 1, 1], 'block': [128, 1, 1]}}]
cpu = [e for e in ev if e.get('cat') != 'kernel'] + [a for a in add if a['cat'] != 'kernel']
d['traceEvents'] = cpu + sorted(ks + [a for a in add if a['cat'] == 'kernel'], key=lambda e: e['ts'])
json.dump(d, open(sys.argv[2], 'w'))
PY
"$TS" -q -f json "$tmp/emb.json" >"$tmp/emb.out" 2>"$tmp/err"
"$TS" -q --brief -w 200 "$tmp/emb.json" >"$tmp/emb.txt" 2>&1
python3 - "$tmp/emb.out" "$tmp/emb.txt" <<'PY' && ok "a diffusion transformer with a token embedding each step: diffusers' denoising steps, 5 passes of 12 layers, no stage, said so" || bad "dit with embedding: $(head -5 "$tmp/emb.txt")"
import json, sys
r = json.load(open(sys.argv[1])); txt = open(sys.argv[2]).read()
ps = r['passes']
assert [(p['stage'], p['layers'], p['complete']) for p in ps] == [('unknown', 12, True)] * 5, ps
assert r['layers']['diffusion'] and r['stages']['prefill']['passes'] == 0, r['layers']
head = txt.split('Per pass')[0]
assert 'diffusion, not LLM generation: diffusers runs the passes' in head and 'prefill' not in head, head
PY

# the same passes with a token embedding are generation: the GEMM token rows vote
gen_out python3 tests/layers/mkgeneric.py --layers 4 --prefill 300 --decode 2 --batch 4 >"$tmp/llm.json"
"$TS" -q -f json "$tmp/llm.json" >"$tmp/llm.out"
python3 - "$tmp/llm.out" <<'PY' && ok "an LLM trace without annotations still gets its stages (embedding, KV-cache writes)" || bad "llm stages: $(head -c 300 "$tmp/llm.out")"
import json, sys
r = json.load(open(sys.argv[1]))
assert [p['stage'] for p in r['passes']] == ['prefill', 'decode', 'decode'], [p['stage'] for p in r['passes']]
assert 'embedding' in r['layers']['generation_evidence'] and 'kv_cache' in r['layers']['generation_evidence']
PY
# An encoder's forward (tests/layers/mkencoder.py, written apart from the
# sources from HF transformers' BertModel): a token embedding, attention
# that sees the whole sequence (SDPA, is_causal False, no mask), no KV
# cache, no sampling, no generate(): its passes have no stage and the
# first screen says why; the attention's heads are still named. The
# decoder of the same generator (causal prefill, then decode against a
# growing cache) keeps its stages.
for kind in bert decoder; do
	python3 "$here/layers/mkencoder.py" $kind "$tmp/$kind.json" --layers 6 >/dev/null
	"$TS" -q -f json "$tmp/$kind.json" >"$tmp/$kind.out" 2>"$tmp/err" || bad "$kind: exit $?: $(cat "$tmp/err")"
	"$TS" -q --brief -w 200 "$tmp/$kind.json" >"$tmp/$kind.txt" 2>&1
done
python3 - "$tmp/bert.out" "$tmp/bert.txt" "$tmp/bert.truth.json" <<'PY' && ok "an encoder (BERT, bidirectional attention): its passes have no stage, the first screen says it is an encoder's forward" || bad "encoder: $(head -6 "$tmp/bert.txt")"
import json, sys
r = json.load(open(sys.argv[1])); txt = open(sys.argv[2]).read(); truth = json.load(open(sys.argv[3]))
ps = r['passes']
want = [('unknown', truth['layers_per_pass'], True)] * truth['forward_passes']
assert [(p['stage'], p['layers'], p['complete']) for p in ps] == want, ([(p['stage'], p['layers']) for p in ps], want)
assert r['layers']['encoder'] and r['layers']['generation_evidence'] == [], r['layers']
assert r['stages']['prefill']['passes'] == 0 and r['stages']['decode']['passes'] == 0
head = txt.split('Per pass')[0]
assert "an encoder's forward, not LLM generation" in head and 'prefill' not in head, head
assert r['model']['attention']['kind'] == 'MHA', r['model']['attention']
PY
python3 - "$tmp/decoder.out" "$tmp/decoder.truth.json" <<'PY' && ok "the decoder control (causal prefill, decode with a cache): prefill then decode passes, no encoder" || bad "decoder control"
import json, sys
r = json.load(open(sys.argv[1])); truth = json.load(open(sys.argv[2]))
got = [(p['stage'], p['layers']) for p in r['passes']]
want = [(s, truth['layers_per_pass']) for s in truth['stages']]
assert got == want, (got, want)
assert not r['layers']['encoder'], r['layers']
PY
finish
