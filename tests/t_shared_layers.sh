#!/usr/bin/env bash
# Layers, passes and stages on the real traces against the truth in
# ../shared/traces/MANIFEST.md: layers per complete pass, the stage of each
# complete pass, the HF trace's 10-layer partial tail, and no layers on the
# graph-capture and training traces.
. "$(dirname "$0")/lib.sh"
if [ ! -d "$SHARED" ]; then
	echo "skip - layers on shared traces: $SHARED not found"
	exit 0
fi

# stem  layers-per-complete-pass  stage-of-complete-passes  partial-passes(layers,...)
while read -r stem want_layers want_stage want_partial; do
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
	python3 - "$tmp/r.json" "$stem" "$want_layers" "$want_stage" "$want_partial" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
stem, want_layers, want_stage, want_partial = sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
passes = r['passes']
complete = [p for p in passes if p['complete']]
partial = [p['layers'] for p in passes if not p['complete']]
def line(ok, what):
    print('%s - %s: %s' % ('ok' if ok else 'not ok', stem, what))
if want_layers == 0:
    line(r['layers']['total'] == 0 and not passes,
         'no layers and no forward pass claimed (got %d layers, %d passes)' % (r['layers']['total'], len(passes)))
    sys.exit(0)
got = sorted(set(p['layers'] for p in complete))
line(len(complete) >= 1 and got == [want_layers] and r['layers']['per_pass'] == want_layers,
     '%d layers in every complete pass (complete passes %d, counts %s)' % (want_layers, len(complete), got))
stages = sorted(set(p['stage'] for p in complete))
if want_stage != '*':   # '*': the MANIFEST gives no stage
    line(stages == [want_stage], 'complete passes are %s (got %s, votes %s)' %
         (want_stage, stages, [p['votes'] for p in complete][:3]))
wp = [] if want_partial == '-' else [int(x) for x in want_partial.split(',')]
line(partial == wp, 'partial passes %s (got %s)' % (wp, partial))
st = r['stages'][want_stage if want_stage != '*' else stages[0]]
want_stage = want_stage if want_stage != '*' else stages[0]
line(st['passes'] == len(complete) + len([p for p in passes if not p['complete'] and p['stage'] == want_stage])
     and st['layers'] >= want_layers and st['gpu_time_us'] > 0,
     'stages.%s counts the passes (%s)' % (want_stage, st))
PY
done <<'LIST'
sglang_qwen3-30b-a3b_b300_decode_bs16.trace.json 48 decode -
sglang_qwen3-30b-a3b_mi300x_decode_bs16.trace.json 48 decode -
sglang_qwen3-8b_mi300x_prefill_then_decode.json 36 prefill -
sglang_qwen3-8b_mi300x_decode_bs32_cudagraph.json 36 decode -
vllm_gptoss120b_b200_tp8_eager_prefill.json 36 prefill -
vllm_mi300x_mixed_prefilldecode_piecewise_graph.json 24 mixed -
hf_qwen1.5-0.5b-chat_h100.json 24 * 10
vllm_mi300x_graph_capture_bs8192_piecewise.pt.trace.json 0 - -
hta_a100_ddp_training_nccl.json 0 - -
switchtransformers_toy-moe_a100_train 0 - -
LIST

# --debug-layers lists exactly the kernels the layer table counts, and
# --show-layers prints one row per layer index.
f=$(ls "$SHARED"/sglang_qwen3-8b_mi300x_decode_bs32_cudagraph.json* 2>/dev/null | head -1)
if [ -n "$f" ]; then
	"$TS" --show-layers --debug-layers 0,35 "$f" >"$tmp/text"
	n0=$(awk '/^Kernels of the requested layers/ {on=1; next} on && $1 == "0" {c++} /^Memory/ {on=0} END {print c+0}' "$tmp/text")
	n35=$(awk '/^Kernels of the requested layers/ {on=1; next} on && $1 == "35" {c++} /^Memory/ {on=0} END {print c+0}' "$tmp/text")
	rows=$(awk '/^Layers, decode/ {on=1; getline; next} on && NF == 0 {on=0} on {c++} END {print c+0}' "$tmp/text")
	want=$(ts_out --format json "$f" | python3 -c "import json,sys; t=json.load(sys.stdin)['layer_table']; print(int(t[0]['kernels']), int(t[35]['kernels']))")
	[ "$n0 $n35" = "$want" ] && [ "$rows" = 36 ] && echo "ok - --debug-layers 0,35 lists $want kernels, as the layer table counts; --show-layers has 36 rows" ||
		echo "not ok - --debug-layers/--show-layers: listed '$n0 $n35', table '$want', rows $rows"
fi
"$TS" --debug-layers 1-x tests/cli/tiny.json >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "is not a list like 0,1,5-7" "$tmp/err" && echo "ok - --debug-layers with a bad list: exit 2" || echo "not ok - --debug-layers 1-x: $(cat "$tmp/err")"
exit 0
