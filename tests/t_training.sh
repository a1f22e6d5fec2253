#!/usr/bin/env bash
# A training step told apart with no autograd op in the trace
# (tests/layers/mktrain.py: a DeepSeek-V3-class expert-parallel MoE step on
# DeepGEMM, DeepEP, FlashAttention 3 and rotary_kernel, kernels and runtime
# launches only): backward kernels alone make it training, so it gets the
# training note and no inference pass, layer, stage or layer opportunity;
# the open DeepSeek stack is classified (>= 97% of kernel time), and
# LayerNorm's ln_fwd_kernel is a norm, not Triton attention.
. "$(dirname "$0")/lib.sh"
PY=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
[ -x "$PY" ] || PY=python3

"$PY" tests/layers/mktrain.py --layers 6 --steps 2 >"$tmp/t.json"
"$PY" tests/layers/mktrain.py --layers 6 --steps 2 --no-backward >"$tmp/f.json"
"$TS" --format json "$tmp/t.json" >"$tmp/t.out" 2>"$tmp/t.err" || echo "not ok - training: exit status $?: $(head -c 300 "$tmp/t.err")"
"$TS" "$tmp/t.json" >"$tmp/t.txt" 2>/dev/null
"$TS" --format json "$tmp/f.json" >"$tmp/f.out" 2>/dev/null
"$PY" - "$tmp/t.out" "$tmp/t.txt" "$tmp/f.out" <<'PY'
import json, sys
r, txt, f = json.load(open(sys.argv[1])), open(sys.argv[2]).read(), json.load(open(sys.argv[3]))
def line(ok, what, got):
    print('%s - training step: %s%s' % ('ok' if ok else 'not ok', what, '' if ok else ' (got %s)' % (got,)))
note = r.get('passes_note') or ''
line('training step' in note and 'training step' in '\n'.join(txt.splitlines()[:3]),
     'the training note, in JSON and on the first screen', note)
line(r['passes'] == [] and r['layers']['per_pass'] == 0 and r['layers']['total'] == 0
     and r['layers']['types'] == {} and r['layer_table'] == [] and r['layers']['odd'] == [],
     'no inference pass or layer', (r['passes'][:1], r['layers']))
st = r['stages']
line(all(st[s]['passes'] == 0 for s in st) and all(st[s]['kernels'] == 0 for s in ('prefill', 'decode', 'mixed')),
     'no stage but unknown', st)
kinds = [o['kind'] for o in r['opportunities']]
line(not any(k in ('slow_layer', 'idle', 'launch_bound') for k in kinds), 'no layer or pass opportunity', kinds)
line(r['layers']['orphan_kernels'] == r['trace']['kernels'] if 'kernels' in r.get('trace', {})
     else r['layers']['orphan_kernels'] == sum(k['count'] for k in r['kernels']),
     'every kernel is outside any pass', r['layers']['orphan_kernels'])
for doc, what in ((r, 'the step'), (f, 'its forward kernels alone')):
    line(doc['classified_pct'] >= 97.0, '%s: >= 97%% of kernel time classified' % what, doc['classified_pct'])
cat = {}
for k in r['kernels']:
    cat[k['name']] = k['category']
want = {'ln_fwd_kernel': 'Norm-Layer', 'compute_attn_ws': 'Attention-Flash', 'rotary_kernel': 'RoPE',
        'notify_dispatch': 'Comm-Notify', 'dispatch': 'Comm-AllToAll', 'combine': 'Comm-AllToAll',
        'm_grouped_fp8_gemm_contiguous_kernel': 'MoE-GEMM', 'fp8_gemm_kernel': 'GEMM-FP8'}
got = {}
for name, c in cat.items():
    for w in want:
        if w in name and (w != 'dispatch' or 'notify' not in name) and (w != 'combine' or 'cached' not in name):
            got.setdefault(w, c)
line(got == want, 'the DeepSeek stack classified by its own names', got)
PY

# The backward words at a boundary only: FlashAttention's, cuDNN's and
# ATen's backward kernels say training; an opaque name (a hash, a random
# string) that holds "bwd" or "dgrad" inside a word says nothing.
for pair in "flash_bwd_dot_do_o_kernel:1" "FmhaBwdKernel:1" "sm90_xmma_dgrad_f16:1" \
	    "void at::native::embedding_backward_cuda_kernel<float>:1" \
	    "k7x4bwdq9zr:0" "kq0dgradz1:0" "kmbackwardx:0"; do
	name=${pair%:*} want=${pair##*:}
	# two names (the word, and it with a suffix): one name is never enough
	printf '{"traceEvents":[{"ph":"X","cat":"kernel","name":"%s","pid":0,"tid":7,"ts":1,"dur":2},{"ph":"X","cat":"kernel","name":"%s_2","pid":0,"tid":7,"ts":5,"dur":2}]}' "$name" "$name" >"$tmp/b.json"
	got=$("$TS" --format json "$tmp/b.json" 2>/dev/null | "$PY" -c 'import json,sys; print(int("training step" in (json.load(sys.stdin).get("passes_note") or "")))')
	check "training: $name says training: $want" "$got" "$want"
done
# Backward kernels by name make a training step when they are one kernel
# in 50 at least, under two names or more: a random name that holds "Bwd"
# (3 of 300) is no training step, nor one that holds "BWD" and runs twice
# a layer (30 of 300, one name); 30 flash_bwd kernels of 300 (two names)
# are, and the note says the evidence is kernel names, not autograd ops.
for pair in "3:0" "30:1" "30r:0"; do
	nb=${pair%:*} want=${pair##*:}
	"$PY" - "$nb" >"$tmp/s.json" <<'PY'
import json, random, string, sys
rand, nb, r = sys.argv[1].endswith('r'), int(sys.argv[1].rstrip('r')), random.Random(7)
names = [''.join(r.choice(string.ascii_letters + string.digits) for _ in range(40)) for _ in range(20)]
ev = []
for i in range(300):
    n = names[i % 20]
    if i % (300 // nb) == 0:
        if nb < 10 or rand:
            n = names[0][:10] + ('DBwdP' if nb < 10 else 'VBWD0') + names[0][15:]
        else:
            n = ('flash_bwd_dot_do_o_kernel', 'flash_bwd_convert_dq_kernel')[(i // 10) % 2]
    ev.append({'ph': 'X', 'cat': 'kernel', 'name': n, 'pid': 0, 'tid': 7, 'ts': 10 * i, 'dur': 5})
json.dump({'traceEvents': ev}, sys.stdout)
PY
	note=$("$TS" --format json "$tmp/s.json" 2>/dev/null | "$PY" -c 'import json,sys; print(json.load(sys.stdin).get("passes_note") or "")')
	got=0; case $note in *"training step"*) got=1 ;; esac
	check "training: $nb of 300 kernels named backward says training: $want" "$got" "$want"
	if [ "$nb" = 30 ]; then
		case $note in
		*"30 of 300 kernels are backward"*) ok "training: the note names kernel evidence" ;;
		*) bad "training: the note names kernel evidence (got '$note')" ;;
		esac
	fi
done
finish
