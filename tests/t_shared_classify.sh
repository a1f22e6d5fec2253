#!/usr/bin/env bash
# Classification on the real traces: at least 97% of kernel time classified
# on every LLM inference trace, the right model family for each (truth:
# ../shared/traces/MANIFEST.md), and every kernel's type as labeled by hand
# in tests/classify/names.tsv.
. "$(dirname "$0")/lib.sh"
if [ ! -d "$SHARED" ]; then
	echo "skip - classification on shared traces: $SHARED not found"
	exit 0
fi

# file stem -> expected family ("-" = not an inference trace, "none" = no family)
while read -r stem family; do
	f=$(ls "$SHARED/$stem".* 2>/dev/null | head -1)
	if [ -z "$f" ]; then
		echo "skip - $stem: not in $SHARED"
		continue
	fi
	if ! ts_out --format json "$f" >"$tmp/r.json"; then
		"$TS" --format json "$f" >/dev/null 2>"$tmp/err"
		echo "not ok - $stem: exit status $?: $(head -c 200 "$tmp/err")"
		continue
	fi
	python3 - "$tmp/r.json" "$stem" "$family" tests/classify/names.tsv <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
stem, family, table = sys.argv[2], sys.argv[3], sys.argv[4]
labels = {}
for line in open(table, encoding='utf-8').read().split('\n')[1:]:
    if line:
        src, ev, typ, cat, stage, name = line.split('\t', 5)
        labels[name] = typ
got = r['model']['family'] or 'none'
if family == '-':
    print('ok - %s: training trace, classified %.2f%% (no threshold), family %s' % (stem, r['classified_pct'], got))
else:
    pct = r['classified_pct']
    print('%s - %s: %.2f%% of kernel time classified (>= 97%%)' % ('ok' if pct >= 97 else 'not ok', stem, pct))
    print('%s - %s: model family %s (want %s)' % ('ok' if got == family else 'not ok', stem, got, family))
bad = [(k['name'][:90], k.get('name_type', k['type']), labels.get(k['name'])) for k in r['kernels']
       if k['name'] in labels and labels[k['name']] != k.get('name_type', k['type'])]
unlabeled = [k['name'][:90] for k in r['kernels'] if k['name'] not in labels]
if bad:
    print('not ok - %s: %d kernels differ from their hand label, e.g. %r' % (stem, len(bad), bad[0]))
elif unlabeled and family != '-':
    print('not ok - %s: %d kernels missing from names.tsv, e.g. %s' % (stem, len(unlabeled), unlabeled[0]))
else:
    print('ok - %s: every kernel type matches its hand label' % stem)
PY
done <<'LIST'
sglang_qwen3-30b-a3b_b300_decode_bs16.trace.json qwen3-moe
sglang_qwen3-30b-a3b_mi300x_decode_bs16.trace.json qwen3-moe
sglang_qwen3-8b_mi300x_prefill_then_decode.json dense
sglang_qwen3-8b_mi300x_decode_bs32_cudagraph.json dense
hf_qwen1.5-0.5b-chat_h100.json dense
vllm_gptoss120b_b200_tp8_eager_prefill.json gpt-oss
vllm_mi300x_mixed_prefilldecode_piecewise_graph.json gpt-oss
vllm_mi300x_graph_capture_bs8192_piecewise.pt.trace.json none
hta_a100_ddp_training_nccl.json -
switchtransformers_toy-moe_a100_train -
LIST
exit 0
