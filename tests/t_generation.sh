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

python3 "$here/layers/mkdit.py" --steps 5 --blocks 12 >"$tmp/dit.json"
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
assert r['trace']['framework'] == 'diffusers', r['trace']['framework']
PY

# the same passes with a token embedding are generation: the GEMM token rows vote
python3 tests/layers/mkgeneric.py --layers 4 --prefill 300 --decode 2 --batch 4 >"$tmp/llm.json"
"$TS" -q -f json "$tmp/llm.json" >"$tmp/llm.out"
python3 - "$tmp/llm.out" <<'PY' && ok "an LLM trace without annotations still gets its stages (embedding, KV-cache writes)" || bad "llm stages: $(head -c 300 "$tmp/llm.out")"
import json, sys
r = json.load(open(sys.argv[1]))
assert [p['stage'] for p in r['passes']] == ['prefill', 'decode', 'decode'], [p['stage'] for p in r['passes']]
assert 'embedding' in r['layers']['generation_evidence'] and 'kv_cache' in r['layers']['generation_evidence']
PY
finish
