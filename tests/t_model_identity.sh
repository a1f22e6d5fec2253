#!/usr/bin/env bash
# The model from what ran: a family is named only when its detect rules
# match and its structure agrees (layer count among its num_hidden_layers,
# MoE or dense, hybrid or not); otherwise the model is described from its
# layers. MoE only where MoE ran. A tie between families names both. The
# framework only from specific evidence (nano-vllm is not vLLM).
. "$(dirname "$0")/lib.sh"

# --- a tie: a second family with the dense family's detect rules ---------
gen_out python3 tests/layers/mkgeneric.py --layers 4 --decode 2 --batch 4 >"$tmp/d.json"
mkdir -p "$tmp/pat/models"
sed -e 's/^family: dense/family: dense-twin/' patterns/models/dense.yaml >"$tmp/pat/models/dense-twin.yaml"
"$TS" -q -f json -p "$tmp/pat" "$tmp/d.json" >"$tmp/tie.json" 2>"$tmp/err" || bad "tie: exit $?: $(cat "$tmp/err")"
"$TS" -q -p "$tmp/pat" "$tmp/d.json" >"$tmp/tie.txt" 2>&1
python3 - "$tmp/tie.json" "$tmp/tie.txt" <<'PY' && ok "a tie between two families names both and neither is chosen" || bad "tie: $(grep model "$tmp/tie.txt")"
import json, sys
m = json.load(open(sys.argv[1]))['model']
txt = open(sys.argv[2]).read()
assert m['family'] is None and m['source'] == 'tie', m
assert sorted(m['tie']) == ['dense', 'dense-twin'], m
assert m['described'] == 'a dense model: 4 attention layers', m
assert 'a tie: families' in txt and 'dense-twin' in txt and 'no family' not in txt, txt
PY

# --- a MoE family on a dense trace: its structure disagrees --------------
cat >"$tmp/pat/models/fake-moe.yaml" <<'YAML'
family: fake-moe
description: "a MoE family whose detect rules match any FlashAttention trace"
num_hidden_layers: [4]
attention: mha
mlp: moe
layer:
  start: [{category: Norm-RMS}]
  attention: [{type: attention}]
  moe: [{type: moe}]
detect:
  - {category: Attention-Flash, weight: 50}
YAML
rm "$tmp/pat/models/dense-twin.yaml"
"$TS" -q -f json -p "$tmp/pat" "$tmp/d.json" >"$tmp/moe.json" 2>"$tmp/err" || bad "unlike: exit $?: $(cat "$tmp/err")"
python3 - "$tmp/moe.json" <<'PY' && ok "a MoE family whose detect rules match a dense trace is not named: no MoE kernel ran" || bad "unlike: $(cat "$tmp/moe.json" | head -c 600)"
import json, sys
r = json.load(open(sys.argv[1]))
m = r['model']
assert m['family'] is None and m['source'] == 'unlike', m
assert m['unlike']['family'] == 'fake-moe' and 'no MoE kernel ran' in m['unlike']['why'], m
assert m['moe'] is False and all('MoE' not in t for t in r['layers']['types']), (m, r['layers']['types'])
PY

need_shared
# --- the GB10 dense hybrid: no MoE anywhere, described, qwen3-next unlike -
f="$SHARED/vllm_qwen3.5-27b-nvfp4_gb10_decode_bs4_piecewise_10steps.pt.trace.json.gz"
if [ -f "$f" ]; then
	ts_out -q -f json "$f" >"$tmp/gb10.json"
	ts_out -q --brief "$f" >"$tmp/gb10.txt"
	python3 - "$tmp/gb10.json" "$tmp/gb10.txt" <<'PY' && ok "GB10: a dense hybrid of 48 GDN + 16 attention layers, no MoE, qwen3-next not named (64 layers, no MoE)" || bad "GB10 model: $(head -c 800 "$tmp/gb10.json")"
import json, sys
r = json.load(open(sys.argv[1]))
txt = open(sys.argv[2]).read()
m = r['model']
assert m['family'] is None and m['unlike']['family'] == 'qwen3-next', m
assert m['described'] == 'a dense hybrid: 48 linear-attention (GDN) + 16 attention layers', m
assert m['moe'] is False, m
assert r['layers']['types'] == {'GDN+FC': 480, 'Attn+FC': 160}, r['layers']['types']
assert not any(c['type'] == 'moe' for c in r['categories']), 'a MoE category'
assert 'a dense hybrid' in txt and 'qwen3-next' not in txt.split('\n')[1], txt[:300]
PY
fi
# --- nano-vllm is nano-vllm, not vLLM -----------------------------------
f="$SHARED/nanovllm_qwen3-0.6b_rtx4080laptop_decode_attention-only-fragment.json.gz"
if [ -f "$f" ]; then
	got=$(ts_out -q -f json "$f" | python3 -c 'import json,sys; print(json.load(sys.stdin)["trace"]["framework"])')
	check "nano-vllm's module paths say nano-vllm, not vLLM" "$got" "nano-vllm"
fi
finish
