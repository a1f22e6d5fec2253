#!/usr/bin/env bash
# Types in context (contexts: in patterns/context.yaml): one GEMM kernel name
# that runs both as a plain projection and between the MoE router and the
# combine, in a hand-made trace whose answers are counted by hand; the same
# kernels launched by a MoE op; and the loader's errors for context rules.
. "$(dirname "$0")/lib.sh"

# One decode pass, 2 layers. Per layer: norm, GEMM X (QKV, 10 us), attention,
# GEMM X (O, 10 us), norm, router GEMM Y (5 us), top-k, GEMM X twice as
# experts (20 us each), moe_sum. So X: 8 launches, 4 plain (40 us) and 4
# experts (80 us); type moe = 2 x (top-k 2 + sum 2 + experts 40) = 88 us.
python3 - "$tmp" <<'PY'
import json, sys
X = 'void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_128x128_32x3_nn_align8>(Params)'
Y = 'sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x64x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas'
NORM = 'void vllm::rms_norm_kernel<c10::BFloat16, 8, 4>(c10::BFloat16*, int, int)'
ATTN = 'void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4> >(flash::Flash_fwd_params)'
TOPK = 'void vllm::moe::topkGatingSoftmax<4, 128, 4, 16, 32, int, 4>(float const*, int)'
SUM = 'void vllm::moe::moe_sum_kernel<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16 const*, int)'
EMB = 'void at::native::(anonymous namespace)::indexSelectLargeIndex<c10::BFloat16, long, unsigned int, 2, 2, -2, true>(int)'
layer = [(NORM, 3, None), (X, 10, None), (ATTN, 8, None), (X, 10, None), (NORM, 3, None),
         (Y, 5, None), (TOPK, 2, 'moe'), (X, 20, 'moe'), (X, 20, 'moe'), (SUM, 2, 'moe')]
for mode in ('position', 'op'):
    ev, ts, ext = [], 1000.0, 10
    ev.append({'ph': 'X', 'cat': 'user_annotation', 'name': 'step[DECODE bs=4]', 'pid': 1, 'tid': 1,
               'ts': 900.0, 'dur': 10.0})
    seq = [(EMB, 2, None)] + layer + layer
    kernels = []
    for name, dur, op in seq:
        ext += 1
        k = {'ph': 'X', 'cat': 'kernel', 'name': name, 'pid': 0, 'tid': 7, 'ts': ts, 'dur': dur,
             'args': {'device': 0, 'stream': 7, 'correlation': ext + 1000}}
        if mode == 'op':
            opname = 'vllm::moe_forward' if op else 'aten::mm'
            ev.append({'ph': 'X', 'cat': 'cpu_op', 'name': opname, 'pid': 1, 'tid': 1,
                       'ts': 901.0 + ext * 0.01, 'dur': 0.005, 'args': {'External id': ext}})
            k['args']['External id'] = ext
        kernels.append(k)
        ts += dur + 1
    if mode == 'op':   # no window: the router's top-k and the sum are not there
        kernels = [k for k in kernels if k['name'] not in (TOPK, SUM)]
    json.dump({'traceEvents': ev + kernels}, open('%s/%s.json' % (sys.argv[1], mode), 'w'))
PY

for mode in position op; do
	"$TS" --format json "$tmp/$mode.json" >"$tmp/$mode.out" 2>"$tmp/err" ||
		echo "not ok - context $mode: exit $?: $(head -c 300 "$tmp/err")"
	"$TS" --format json --stage decode "$tmp/$mode.json" >"$tmp/$mode.dec" 2>/dev/null
	python3 - "$tmp/$mode.out" "$tmp/$mode.dec" "$mode" <<'PY'
import json, sys
r, d, mode = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
def line(ok, msg):
    print('%s - context %s: %s' % ('ok' if ok else 'not ok', mode, msg))
X = [k for k in r['kernels'] if k['name'].startswith('void cutlass::Kernel2')][0]
line(X['count'] == 8 and X['total_us'] == 120.0, 'GEMM X: 8 launches, 120 us (got %s, %s)' % (X['count'], X['total_us']))
line(X.get('name_type') == 'gemm' and X['type'] == 'moe' and X['category'] == 'MoE-GEMM'
     and abs(X.get('context_pct', 0) - 66.67) < 0.01,
     'GEMM X row: main context moe (2/3 of its time), name type gemm (got %s %s %s %s)' %
     (X['type'], X['category'], X.get('name_type'), X.get('context_pct')))
types = {t['type']: (t['count'], t['total_us']) for t in r['types']}
want_moe = (8, 88.0) if mode == 'position' else (4, 80.0)
want_gemm = (6, 50.0)      # X plain 4 x 10 + Y 2 x 5
line(types.get('moe') == want_moe and types.get('gemm') == want_gemm,
     'types split X by context: moe %s, gemm %s (got %s, %s)' % (want_moe, want_gemm, types.get('moe'), types.get('gemm')))
cats = {c['category']: (c['count'], c['total_us']) for c in r['categories']}
line(cats.get('MoE-GEMM') == (4, 80.0), 'category MoE-GEMM 4 launches 80 us (got %s)' % (cats.get('MoE-GEMM'),))
dt = {t['type']: (t['count'], t['total_us']) for t in d['types']}
line(dt.get('moe') == want_moe and dt.get('gemm') == want_gemm,
     '--stage decode splits the same way (got %s, %s)' % (dt.get('moe'), dt.get('gemm')))
P = r['passes']
line(len(P) == 1 and P[0]['layers'] == 2 and r['layers']['types'] == {'Attn+MoE': 2},
     'one pass of 2 Attn+MoE layers (got %s %s)' % ([p['layers'] for p in P], r['layers']['types']))
PY
done

# The same model on two vendors gets the same MoE share by type: the
# Qwen3-30B-A3B decode traces on B300 (expert GEMMs are trtllm-gen bmm
# kernels between the router and the finalize) and MI300X (CK MoE kernels).
SHARED=${SHARED:-../shared/traces}
b300=$SHARED/sglang_qwen3-30b-a3b_b300_decode_bs16.trace.json.gz
mi300=$SHARED/sglang_qwen3-30b-a3b_mi300x_decode_bs16.trace.json.gz
if [ -f "$b300" ] && [ -f "$mi300" ]; then
	"$TS" --format json "$b300" >"$tmp/b.json" 2>/dev/null
	"$TS" --format json "$mi300" >"$tmp/m.json" 2>/dev/null
	python3 - "$tmp/b.json" "$tmp/m.json" <<'PY'
import json, sys
b, m = (json.load(open(x)) for x in sys.argv[1:3])
pb = {t['type']: t['pct'] for t in b['types']}.get('moe', 0)
pm = {t['type']: t['pct'] for t in m['types']}.get('moe', 0)
print('%s - Qwen3-30B-A3B decode: moe by type within 5 points on B300 and MI300X (%.2f%% / %.2f%%)'
      % ('ok' if abs(pb - pm) <= 5 and pb > 50 else 'not ok', pb, pm))
PY
else
	echo "skip - Qwen3-30B-A3B B300 / MI300X traces not in $SHARED"
fi

# Loader errors of context rules: FILE:LINE:COLUMN, exit 3.
bad_case() { # name expected-first-line (file on stdin)
	mkdir -p "$tmp/$1"
	cat >"$tmp/$1/c.yaml"
	(cd "$tmp" && "$TS" patterns check "$1") >/dev/null 2>"$tmp/err"
	local rc=$? first
	first=$(head -1 "$tmp/err")
	if [ $rc -eq 3 ] && [ "$first" = "$2" ]; then echo "ok - context loader: $1 -> $2"
	else echo "not ok - context loader: $1: exit $rc, got '$first', want '$2'"; fi
}
bad_case ctx-unknown-category "ctx-unknown-category/c.yaml:4:15: unknown category 'MoE-Expert' (declare it under categories:)" <<'Y'
contexts:
  - name: x
    kernels: [{type: gemm}]
    category: MoE-Expert
    op: moe
Y
bad_case ctx-both "ctx-both/c.yaml:2:5: a context needs exactly one of op: (the launching CPU op) or after: (the kernels that open it)" <<'Y'
contexts:
  - name: x
    kernels: [{type: gemm}]
    op: moe
    after: [{type: moe}]
    until: [{type: norm}]
    category: MoE-GEMM
Y
bad_case ctx-no-until "ctx-no-until/c.yaml:2:5: a context with after: needs until: (the kernels that close it)" <<'Y'
contexts:
  - name: x
    kernels: [{type: gemm}]
    after: [{type: moe}]
    category: MoE-GEMM
Y
bad_case ctx-bad-regex "ctx-bad-regex/c.yaml:4:14: invalid regex '(moe': missing closing parenthesis (at offset 4)" <<'Y'
contexts:
  - name: x
    kernels: [{type: gemm}]
    op: '(moe'
    category: MoE-GEMM
Y
bad_case token-grid-type "token-grid-type/c.yaml:1:22: unknown type 'kvcache'" <<'Y'
token_grids: [{type: kvcache}]
Y
exit 0
