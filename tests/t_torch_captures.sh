#!/usr/bin/env bash
# Real traces captured on a GPU (tests/gpu/README.md): a plain-PyTorch
# decoder, dense, MoE and hybrid, eager, compiled and CUDA-graph decode.
# Each is held against an oracle that does not use tracestream: the
# Python stack's module calls (tests/gpu/module_truth.py) give every
# eagerly launched layer's kernels, the truth file the passes and the
# layers per pass. And the model is described from what ran: MoE exactly
# where the router's top-k and the experts ran, a hybrid's layers of two
# kinds. The compiled hybrid and MoE traces are not checked here yet:
# Inductor names each fused norm by its place in the period and moves the
# linear-attention state updates to the end of the graph (see the notes
# of issue 37).
T=torch
. "$(dirname "$0")/lib.sh"
data=$here/data

for stem in torch_dense_eager_h200 torch_dense_compile_h200 torch_dense_graph_h200 \
	torch_hybrid_eager_h200 torch_hybrid_graph_h200 torch_moe_eager_h200; do
	f=$data/$stem.json.gz
	if ! whole_run "$f"; then
		echo "skip - $T: $stem (over 1 MB: the release build checks it)"
		continue
	fi
	if ! "$TS" annotate --no-progress -q "$f" -o "$tmp/ann.json" 2>"$tmp/err"; then
		bad "$stem: annotate failed: $(head -c 200 "$tmp/err")"
		continue
	fi
	python3 "$here/gpu/module_truth.py" "$f" "$data/$stem.truth.json" "$tmp/ann.json" >"$tmp/out"
	while IFS= read -r line; do
		case $line in
		ok\ -\ *) ok "$stem: ${line#ok - }" ;;
		*) bad "$stem: ${line#not ok - }" ;;
		esac
	done <"$tmp/out"
	"$TS" --no-progress -f json "$f" >"$tmp/r.json" 2>/dev/null
	moe=$(json_get "$tmp/r.json" "d['model']['moe']")
	want=$(json_get "$data/$stem.truth.json" "d['moe']")
	check "$stem: MoE said exactly where it ran" "$moe" "$want"
	desc=$(json_get "$tmp/r.json" "d['model']['described']")
	case $stem in
	*hybrid*) want='a dense model: 2 attention + 6 other layers' ;;
	*moe*) want='a MoE model: 8 attention layers' ;;
	*) want='a dense model: 8 attention layers' ;;
	esac
	check "$stem: the model as described" "${desc%%; attention *}" "$want"
	# its attention by the heads the shapes recorded, as the truth has them
	# (compiled graphs record none: nothing said)
	heads=$(json_get "$tmp/r.json" "(lambda a: '%s %d/%d' % (a['kind'], a['heads'], a['kv_heads']) if a else '-')(d['model']['attention'])")
	truth=$(json_get "$data/$stem.truth.json" "'%s %d/%d' % ('MHA' if d['heads'] == d['kv_heads'] else 'GQA', d['heads'], d['kv_heads'])")
	case $heads in
	-) case $stem in *compile*) ok "$stem: no attention shapes recorded, no kind said" ;;
	   *) bad "$stem: no attention kind from the recorded shapes" ;; esac ;;
	*) check "$stem: the attention's kind and heads from its shapes" "$heads" "$truth" ;;
	esac
done
# Structure first: with every kernel name a random string, these keep
# their passes and their layer counts, with no annotation and no name to
# say where a pass begins. The eager dense decoder: the GPU waits on every
# launch, inside passes as between them, so a pass begins where its first
# kernel runs again after two attention units (attention by its op). The
# graph-replayed decode steps (dense, hybrid) and the compiled dense model:
# no op names the embedding or the sampler of a replayed step, and the GPU
# waits between steps more than twice as long as anywhere inside one.
for stem in torch_dense_eager_h200 torch_dense_graph_h200 torch_hybrid_graph_h200 \
	torch_dense_compile_h200; do
	f=$data/$stem.json.gz
	if python3 "$here/layers/opaque.py" "$TS" "$f" "$tmp/opaque.json.gz" >/dev/null 2>"$tmp/err" &&
		"$TS" annotate --no-progress -q "$tmp/opaque.json.gz" -o "$tmp/ann.json" 2>>"$tmp/err"; then
		line=$(python3 "$here/gpu/module_truth.py" --counts "$tmp/opaque.json.gz" "$data/$stem.truth.json" "$tmp/ann.json")
		case $line in
		ok\ -\ *) ok "$stem, random kernel names: ${line#ok - }" ;;
		*) bad "$stem, random kernel names: ${line#not ok - }" ;;
		esac
	else
		bad "$stem, random kernel names: $(head -c 200 "$tmp/err")"
	fi
done
finish
