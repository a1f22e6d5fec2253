#!/usr/bin/env bash
# Attribution: a hand-made fixture with hand-computed buckets (kernels
# written before and after their launches, a graph replay of two kernels
# under one correlation, an op with two kernels counted as one call, an
# External id with no op), the --join-mem cap (a counted loss, never
# silent), and, when ../shared/traces is present, every shared trace against
# an independent Python oracle (tests/attrib/oracle.py).
. "$(dirname "$0")/lib.sh"

"$TS" --format json tests/attrib/fixture.json >"$tmp/f.json" 2>"$tmp/err" ||
	echo "not ok - attribution fixture: exit status $?: $(head -c 200 "$tmp/err")"
python3 - "$tmp/f.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
a = r['attribution']
def line(ok, msg):
    print('%s - attribution fixture: %s' % ('ok' if ok else 'not ok', msg))
want_k = {'op': 3, 'graph': 2, 'launch': 1, 'unlinked': 2}
want_t = {'op_us': 10.0, 'graph_us': 11.0, 'launch_us': 1.0, 'unlinked_us': 8.0}
line(a['kernels'] == want_k, 'kernels per bucket %s (got %s)' % (want_k, a['kernels']))
line(a['time'] == want_t, 'time per bucket %s (got %s)' % (want_t, a['time']))
want_pct = {'op_pct': 33.33, 'graph_pct': 36.67, 'launch_pct': 3.33, 'unlinked_pct': 26.67}
line(all(abs(a[k] - v) < 0.006 for k, v in want_pct.items()), 'shares %s' % want_pct)
ops = {o['name']: (o['calls'], o['kernels'], o['total_us']) for o in r['ops'] if o['via'] == 'op'}
line(ops == {'aten::mm': (1, 2, 8.0), 'aten::add': (1, 1, 2.0)},
     'ops: aten::mm 1 call of 2 kernels, 8 us; aten::add 1 call, 2 us (got %s)' % ops)
rest = {(o['via'], o['name']): (o['calls'], o['kernels'], o['total_us']) for o in r['ops'] if o['via'] != 'op'}
want = {('graph', 'cudaGraphLaunch'): (1, 2, 11.0), ('launch', 'cudaLaunchKernel'): (1, 1, 1.0),
        ('unlinked', '(unlinked)'): (0, 2, 8.0)}
line(rest == want, 'ops rows with no op: one graph launch of 2 kernels, one launch, 2 unlinked (got %s)' % rest)
par = {k['name']: k['parent_op'] for k in r['kernels']}
line(par.get('gemm_a') == 'aten::mm' and par.get('graph_k1') is None,
     'kernel parent_op: gemm_a -> aten::mm, graph_k1 -> none')
line(a['ops_indexed'] == 2 and a['ops_dropped'] == 0, '2 ops indexed, none dropped')
PY

# parent_op is a plurality with a stated tie rule: a name launched 1:1 by
# two ops goes to the one that launched it first (a strict majority gave
# none); X X X Y Y Z Z goes to X (Boyer-Moore's survivor was Z)
python3 - "$tmp/par.json" <<'PY'
import json, sys
ev, t = [], 1000.0
def call(op, kernel):
    global t
    i = len(ev) + 1
    ev.append({'ph': 'X', 'cat': 'cpu_op', 'name': op, 'pid': 1, 'tid': 1, 'ts': t, 'dur': 5,
               'args': {'External id': i}})
    ev.append({'ph': 'X', 'cat': 'cuda_runtime', 'name': 'cudaLaunchKernel', 'pid': 1, 'tid': 1,
               'ts': t + 1, 'dur': 2, 'args': {'correlation': i, 'External id': i}})
    ev.append({'ph': 'X', 'cat': 'kernel', 'name': kernel, 'pid': 0, 'tid': 7, 'ts': t + 3,
               'dur': 2, 'args': {'device': 0, 'stream': 7, 'correlation': i, 'External id': i}})
    t += 10
for op in ('aten::b_first', 'aten::a_second'):
    call(op, 'tie_kernel')
for op in ('aten::x', 'aten::x', 'aten::x', 'aten::y', 'aten::y', 'aten::z', 'aten::z'):
    call(op, 'three_two_two')
json.dump({'traceEvents': ev}, open(sys.argv[1], 'w'))
PY
"$TS" -q -f json "$tmp/par.json" >"$tmp/par.out" 2>/dev/null
python3 - "$tmp/par.out" <<'PY'
import json, sys
par = {k['name']: k['parent_op'] for k in json.load(open(sys.argv[1]))['kernels']}
ok = par.get('tie_kernel') == 'aten::b_first' and par.get('three_two_two') == 'aten::x'
print('%s - attribution: parent_op by plurality: a 1:1 tie to the op that launched first, 3:2:2 to the 3 (got %s)' %
      ('ok' if ok else 'not ok', par))
PY

# memory operations belong to their ops: aten::copy_ issues two memcpys
# beside its kernel, aten::_local_scalar_dense one device-to-host copy and
# no kernel (the sync users hunt for): it has a row
python3 - "$tmp/mem.json" <<'PY'
import json, sys
ev = [
    {'ph': 'X', 'cat': 'cpu_op', 'name': 'aten::copy_', 'pid': 1, 'tid': 1, 'ts': 100, 'dur': 30,
     'args': {'External id': 1}},
    {'ph': 'X', 'cat': 'cpu_op', 'name': 'aten::_local_scalar_dense', 'pid': 1, 'tid': 1, 'ts': 200,
     'dur': 30, 'args': {'External id': 2}},
    {'ph': 'X', 'cat': 'gpu_memcpy', 'name': 'Memcpy HtoD (Pinned -> Device)', 'pid': 0, 'tid': 7,
     'ts': 110, 'dur': 6, 'args': {'device': 0, 'stream': 7, 'External id': 1, 'bytes': 1000}},
    {'ph': 'X', 'cat': 'gpu_memcpy', 'name': 'Memcpy DtoD (Device -> Device)', 'pid': 0, 'tid': 7,
     'ts': 120, 'dur': 4, 'args': {'device': 0, 'stream': 7, 'External id': 1, 'bytes': 500}},
    {'ph': 'X', 'cat': 'kernel', 'name': 'void at::native::elementwise_kernel<128, 4>(int)', 'pid': 0,
     'tid': 7, 'ts': 130, 'dur': 3, 'args': {'device': 0, 'stream': 7, 'External id': 1}},
    {'ph': 'X', 'cat': 'gpu_memcpy', 'name': 'Memcpy DtoH (Device -> Pinned)', 'pid': 0, 'tid': 7,
     'ts': 210, 'dur': 2, 'args': {'device': 0, 'stream': 7, 'External id': 2, 'bytes': 8}},
]
json.dump({'traceEvents': ev}, open(sys.argv[1], 'w'))
PY
"$TS" -q -f json "$tmp/mem.json" >"$tmp/mem.out" 2>/dev/null
python3 - "$tmp/mem.out" <<'PY'
import json, sys
ops = {o['name']: (o['kernels'], o['total_us'], o['memops'], o['memops_us'], o['memops_bytes'])
       for o in json.load(open(sys.argv[1]))['ops']}
want = {'aten::copy_': (1, 3.0, 2, 10.0, 1500), 'aten::_local_scalar_dense': (0, 0.0, 1, 2.0, 8)}
print('%s - attribution: memcpy / memset time and bytes beside each op\'s kernel time; an op of copies only has its row (got %s)' %
      ('ok' if ops == want else 'not ok', ops))
PY

# --join-mem: a generated trace of 1,800 ops with shapes (40 decode passes)
# in an index capped below its size: some ops are indexed, the rest are
# counted and warned, never silent; their kernels fall back to their launch.
# Every op is accounted for, and the default holds them all.
gen_out python3 tests/layers/mkgeneric.py --layers 4 --decode 40 --seed 3 >"$tmp/many.json"
"$TS" --format json --join-mem 3K "$tmp/many.json" >"$tmp/j.json" 2>"$tmp/err"
"$TS" --format json "$tmp/many.json" >"$tmp/j0.json" 2>"$tmp/err0"
python3 - "$tmp/many.json" "$tmp/j.json" "$tmp/err" "$tmp/j0.json" "$tmp/err0" <<'PY'
import json, sys
tr = json.load(open(sys.argv[1]))
ops = sum(1 for e in tr['traceEvents'] if e.get('cat') == 'cpu_op' and 'External id' in e.get('args', {}))
kern = sum(1 for e in tr['traceEvents'] if e.get('cat') == 'kernel')
a, err = json.load(open(sys.argv[2]))['attribution'], open(sys.argv[3]).read()
ok = (a['ops_indexed'] > 0 and a['ops_dropped'] > 0 and a['ops_indexed'] + a['ops_dropped'] == ops
      and a['index_bytes'] <= 3 * 1024 and 0 < a['kernels']['op'] < kern
      and a['kernels']['launch'] > 0 and 'past --join-mem' in err)
print('%s - --join-mem 3K: %d of %d ops indexed, the rest counted and warned, their kernels fall back to the launch (got %s %s)' %
      ('ok' if ok else 'not ok', a['ops_indexed'], ops, a['kernels'], err.strip()[:120]))
a, err = json.load(open(sys.argv[4]))['attribution'], open(sys.argv[5]).read()
ok = a['ops_indexed'] == ops and a['ops_dropped'] == 0 and a['kernels']['op'] == kern and 'join-mem' not in err
print('%s - default --join-mem: all %d ops indexed in %d bytes, every kernel linked to its op' %
      ('ok' if ok else 'not ok', ops, a['index_bytes']))
PY
"$TS" --join-mem 1X tests/attrib/fixture.json >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--join-mem: '1X' is not a size" "$tmp/err" &&
	echo "ok - --join-mem 1X is a usage error (exit 2)" ||
	echo "not ok - --join-mem 1X is a usage error (exit 2): $(cat "$tmp/err")"

# Call sites, workloads, nested ops (tests/attrib/calls.json, by hand):
# aten::linear -> aten::matmul launch nothing (only the innermost op, aten::mm,
# counts); two aten::mm calls [32,64]x[64,128] and [16,64]x[64,128] are one
# definition gemm_n128_k64 with M 32 and 16; aten::silu launches two kernels
# in one call. Python frames: model.py(10) [0,100] > torch module [1,51] >
# linear.py(20) [2,42] > builtin [3,33]; act.py(5) [60,80]; on a second
# thread runner.py(7). Launches at 5 and 31 -> linear.py (the torch frame and
# the builtin are skipped), 65 and 66 -> act.py, 90 -> model.py (act.py has
# ended), the graph launch at 150 on thread 2 -> runner.py.
"$TS" --format json tests/attrib/calls.json >"$tmp/c.json" 2>"$tmp/err" ||
	echo "not ok - calls fixture: exit status $?: $(head -c 200 "$tmp/err")"
python3 - "$tmp/c.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
def line(ok, msg, got):
    print('%s - calls fixture: %s%s' % ('ok' if ok else 'not ok', msg, '' if ok else ' (got %s)' % (got,)))
ops = {o['name']: (o['via'], o['calls'], o['kernels'], o['total_us'], o['callsite']) for o in r['ops']}
want = {'aten::mm': ('op', 2, 2, 15.0, 'layers/linear.py(20): forward'),
        'aten::silu': ('op', 1, 2, 5.0, 'layers/act.py(5): forward'),
        'aten::add': ('op', 1, 1, 1.0, 'model.py(10): forward'),
        'cudaGraphLaunch': ('graph', 1, 2, 11.0, 'runner.py(7): replay')}
line(ops == want, 'ops with calls, kernels, time and call sites; aten::linear and aten::matmul launch nothing', ops)
wl = {(w['name'], w['kind'], w['dtype']): (w['calls'], w['kernels'], w['total_us'], w['tokens'])
      for w in r['workloads']}
want = {('gemm_n128_k64', 'gemm', 'c10::BFloat16'): (2, 2, 15.0, {'min': 16, 'p50': 16, 'max': 32}),
        ('silu_h256', 'silu', 'c10::BFloat16'): (1, 2, 5.0, {'min': 32, 'p50': 32, 'max': 32})}
line(wl == want, 'workloads gemm_n128_k64 (2 calls, M 16..32) and silu_h256 (1 call of 2 kernels)', wl)
py = r['attribution']['python']
line((py['frames'], py['indexed'], py['lookups'], py['found'], py['out_of_order']) == (6, 4, 6, 6, 0),
     '6 frames, 4 indexed (torch and builtin skipped), 6 launches looked up, all found', py)
PY
# The same by stage: no pass here, so every kernel is of stage unknown and
# its views equal the whole.
"$TS" --format json --stage unknown tests/attrib/calls.json >"$tmp/cu.json" 2>/dev/null
python3 - "$tmp/c.json" "$tmp/cu.json" <<'PY'
import json, sys
a, b = (json.load(open(x)) for x in sys.argv[1:3])
oa = {o['name']: (o['calls'], o['kernels'], o['total_us']) for o in a['ops'] if o['via'] == 'op'}
ob = {o['name']: (o['calls'], o['kernels'], o['total_us']) for o in b['ops']}
wa = {w['name']: (w['calls'], w['tokens']) for w in a['workloads']}
wb = {w['name']: (w['calls'], w['tokens']) for w in b['workloads']}
ok = oa == ob and wa == wb and all(o['via'] == 'op' for o in b['ops'])
print('%s - calls fixture: --stage unknown holds every op-linked kernel and workload (got %s %s)' %
      ('ok' if ok else 'not ok', ob, wb))
PY
# --verify-ops: the toy family requires gemm and silu (present: exit 0);
# dense requires gqa too (missing: exit 4, and the report says so).
"$TS" ops --verify-ops -p tests/attrib/toy tests/attrib/calls.json >"$tmp/v.txt" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "✓ gemm .*required .* 2 calls" "$tmp/v.txt" && grep -q "✓ silu" "$tmp/v.txt" &&
	grep -q "every required operator is present" "$tmp/v.txt" &&
	echo "ok - --verify-ops: family toy has its required gemm and silu (exit 0)" ||
	echo "not ok - --verify-ops: family toy has its required gemm and silu (exit $rc): $(cat "$tmp/v.txt")"
"$TS" ops --verify-ops --model dense tests/attrib/calls.json >"$tmp/v.txt" 2>"$tmp/err"
rc=$?
[ $rc -eq 4 ] && grep -q "✗ gqa .*required" "$tmp/v.txt" && grep -q "1 required operator missing" "$tmp/v.txt" &&
	grep -q "a required operator is missing" "$tmp/err" &&
	echo "ok - --verify-ops --model dense: gqa is missing, exit 4" ||
	echo "not ok - --verify-ops --model dense: gqa is missing, exit 4 (exit $rc): $(cat "$tmp/v.txt" "$tmp/err")"
"$TS" --format json --verify-ops --model dense tests/attrib/calls.json >"$tmp/v.json" 2>/dev/null
python3 - "$tmp/v.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))['operator_coverage']
k = {o['kind']: (o['required'], o['found'], o['calls']) for o in c['operators']}
ok = c['family'] == 'dense' and not c['ok'] and c['missing_required'] == 1 and \
     k['gemm'] == (True, True, 2) and k['gqa'] == (True, False, 0) and k['silu'] == (False, True, 1)
print('%s - --verify-ops JSON: operator_coverage per kind (got %s)' % ('ok' if ok else 'not ok', c))
PY
# A bad operator rule is reported at its YAML line and column.
mkdir -p "$tmp/badops"
printf 'operators:\n  - {kind: gemm, op: "^aten::mm$",\n     workload: "gemm_n{a1[9]}"}\n' >"$tmp/badops/ops.yaml"
"$TS" patterns check "$tmp/badops" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] && grep -q "ops.yaml:3:.*dimension index is 0 to 5" "$tmp/err" &&
	echo "ok - a bad workload template is a pattern error at its line (exit 3)" ||
	echo "not ok - a bad workload template is a pattern error at its line (exit $rc): $(cat "$tmp/err")"
printf 'family: f\nattention: mha\nmlp: fc\noperators:\n  required: [gemm, nosuchkind]\n' >"$tmp/badops/f.yaml"
mkdir -p "$tmp/badops/models" && mv "$tmp/badops/f.yaml" "$tmp/badops/models/" && rm "$tmp/badops/ops.yaml"
"$TS" patterns check "$tmp/badops" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] && grep -q "f.yaml:5:.*no operator rule has kind 'nosuchkind'" "$tmp/err" &&
	echo "ok - a family requiring an unknown operator kind is a pattern error (exit 3)" ||
	echo "not ok - a family requiring an unknown operator kind is a pattern error (exit $rc): $(cat "$tmp/err")"

if [ ! -d "$SHARED" ]; then
	echo "skip - attribution on shared traces: $SHARED not found"
	exit 0
fi
for f in "$SHARED"/*.json "$SHARED"/*.json.gz; do
	[ -e "$f" ] || continue
	# the Python oracles against every shared trace with the release build;
	# under the sanitizers two of them
	case "$TS:$(basename "$f")" in
	*/san/*:hf_*|*/san/*:sglang_qwen3-8b_mi300x_prefill*) ;;
	*/san/*) continue ;;
	esac
	if ! ts_out --format json "$f" >"$tmp/r.json"; then
		echo "not ok - $(basename "$f"): tracestream failed"
		continue
	fi
	python3 tests/attrib/oracle.py --workloads "$f" "$tmp/r.json"
done

# Qwen3-8B prefill (SGLang EXTEND bs=15, 15360 tokens): its GEMMs are exactly
# the model's projections, 36 layers each, plus the LM head on the last
# token of each of the 15 requests; aten::mm is innermost (145 calls).
f=$(ls "$SHARED"/sglang_qwen3-8b_mi300x_prefill_then_decode.json* 2>/dev/null | head -1)
if [ -n "$f" ]; then
	ts_out --format json "$f" >"$tmp/q.json"
	python3 - "$tmp/q.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
g = {w['name']: (w['calls'], w['tokens']['min'], w['tokens']['p50'], w['tokens']['max'])
     for w in r['workloads'] if w['kind'] == 'gemm'}
want = {'gemm_n6144_k4096': (36, 15360, 15360, 15360), 'gemm_n4096_k4096': (36, 15360, 15360, 15360),
        'gemm_n24576_k4096': (36, 15360, 15360, 15360), 'gemm_n4096_k12288': (36, 15360, 15360, 15360),
        'gemm_n151936_k4096': (1, 15, 15, 15)}
print('%s - qwen3-8b prefill: GEMM workloads are QKV, O, gate+up, down x36 at M=15360 and the LM head once at M=15 (got %s)' %
      ('ok' if g == want else 'not ok', g))
mm = [o for o in r['ops'] if o['name'] == 'aten::mm']
nested = [o['name'] for o in r['ops'] if o['name'] in ('aten::linear', 'aten::matmul')]
print('%s - qwen3-8b prefill: aten::mm counts 145 calls, no aten::linear/matmul row (got %s %s)' %
      ('ok' if mm and mm[0]['calls'] == 145 and not nested else 'not ok', mm and mm[0]['calls'], nested))
w = {x['name']: x['calls'] for x in r['workloads']}
ok = (w.get('fused_add_rmsnorm_h4096') == 72 and w.get('gqa_paged_prefill_h32_kv8_d128') == 36
      and w.get('rope_h32_d128') == 36 and w.get('silu_h12288') == 36
      and w.get('embedding_v151936_d4096') == 1)
print('%s - qwen3-8b prefill: norm, attention (h32 kv8 d128), RoPE, SiLU and embedding workloads (got %s)' %
      ('ok' if ok else 'not ok', w))
sites = {o['name']: o['callsite'] for o in r['ops']}
ok = (sites['aten::mm'] or '').endswith('sglang/srt/layers/quantization/unquant.py(136): apply') and \
     (sites['aiter::mha_batch_prefill'] or '').endswith('aiter_backend.py(2039): forward_extend')
print('%s - qwen3-8b prefill: call sites are framework lines, not kernel-library wrappers (got %s)' %
      ('ok' if ok else 'not ok', {k: sites[k] for k in ('aten::mm', 'aiter::mha_batch_prefill')}))
PY
	"$TS" ops --verify-ops "$f" >/dev/null 2>&1 && echo "ok - qwen3-8b prefill: --verify-ops finds the dense family's operators (exit 0)" ||
		echo "not ok - qwen3-8b prefill: --verify-ops finds the dense family's operators"
fi

# The ops table's categories and graph columns (CSV) hold what JSON and the
# text say: the categories of each op's kernels, by first seen.
f=$(ls "$SHARED"/vllm_gptoss120b_b200_tp8_eager_prefill.json* 2>/dev/null | head -1)
if [ -n "$f" ]; then
	ts_out -q -f json "$f" >"$tmp/gp.json"
	ts_out -q -f csv --table ops "$f" >"$tmp/gp.csv"
	ts_out -q "$f" >"$tmp/gp.txt"
	python3 - "$tmp" <<'PY'
import csv, json, sys
d = sys.argv[1]
r = json.load(open(d + '/gp.json'))
rows = {x['op']: x for x in csv.DictReader(open(d + '/gp.csv', newline=''))}
want = {o['name']: ', '.join(c['category'] for c in o['categories']) for o in r['ops']}
got = {k: v['categories'] for k, v in rows.items()}
txt = open(d + '/gp.txt').read()
moe = want.get('vllm::moe_forward', '')
ok = (got == want and 'MoE-GEMM' in moe and all(v['graph'] == 'false' for v in rows.values())
      and ('vllm::moe_forward'.ljust(40) + ' ' + moe + '\n') in txt)
print('%s - gpt-oss prefill: the ops table names each op\'s kernel categories as JSON and the text do (%s)'
      % ('ok' if ok else 'not ok', moe if ok else got))
PY
fi

# Graph replay records no ops: --verify-ops says so and exits 4; the graph
# launch row carries the replaying call site, marked [graph].
f=$(ls "$SHARED"/sglang_qwen3-30b-a3b_b300_decode_bs16.trace.json* 2>/dev/null | head -1)
if [ -n "$f" ]; then
	"$TS" ops --verify-ops "$f" >"$tmp/g.txt" 2>/dev/null
	rc=$?
	[ $rc -eq 4 ] && grep -q "most kernel time is graph replay" "$tmp/g.txt" &&
		grep -q "cuda_graph_runner.py(1359): replay \[graph\]" "$tmp/g.txt" &&
		echo "ok - sglang b300: --verify-ops exits 4 under graph replay; the graph launch's call site is marked [graph]" ||
		echo "not ok - sglang b300: --verify-ops under graph replay (exit $rc): $(head -c 600 "$tmp/g.txt")"
fi

# The default join holds every op of a 10x repeated shared trace (ids
# shifted per copy, as one longer capture): ten times the single trace's
# indexed ops and linked kernels, none dropped.
f=$(ls "$SHARED"/hf_qwen1.5-0.5b-chat_h100.json* 2>/dev/null | head -1)
if [ -n "$f" ]; then
	gen_out python3 tests/layers/repeat.py "$f" 10 >"$tmp/rep10.json"
	ts_out --format json "$f" >"$tmp/r1.json"
	"$TS" --format json "$tmp/rep10.json" >"$tmp/r10.json" 2>"$tmp/err"
	python3 - "$tmp/r1.json" "$tmp/r10.json" "$tmp/err" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))['attribution']
b = json.load(open(sys.argv[2]))['attribution']
ok = (b['ops_indexed'] == 10 * a['ops_indexed'] > 0 and b['ops_dropped'] == 0 and
      b['kernels']['op'] == 10 * a['kernels']['op'] and 'join-mem' not in open(sys.argv[3]).read())
print('%s - 10x repeated HF trace: all %d ops indexed by default (%d bytes), %d kernels linked' %
      ('ok' if ok else 'not ok', b['ops_indexed'], b['index_bytes'], b['kernels']['op']))
PY
else
	echo "skip - 10x repeated trace: $SHARED not present"
fi

# The capture trace's 110,876 Python frames: the frame index is capped by
# --join-mem like the op index; what does not fit is counted, never silent.
f=$(ls "$SHARED"/vllm_mi300x_graph_capture_bs8192_piecewise.pt.trace.json* 2>/dev/null | head -1)
if [ -n "$f" ]; then
	ts_out --format json "$f" >"$tmp/p1.json"
	"$TS" --format json --join-mem 24K "$f" >"$tmp/p2.json" 2>/dev/null
	python3 - "$tmp/p1.json" "$tmp/p2.json" <<'PY'
import json, sys
a, b = (json.load(open(x))['attribution']['python'] for x in sys.argv[1:3])
ok = (a['frames'] == 110876 and a['dropped'] == 0 and a['index_bytes'] <= 24 * 2 * a['indexed'] + 24 * 1024
      and b['frames'] == 110876 and b['index_bytes'] <= 24 * 1024 and b['dropped'] > 0
      and b['indexed'] + b['dropped'] == a['indexed'])
print('%s - capture trace: 110,876 frames, %d indexed in %d bytes; --join-mem 24K keeps %d and counts %d dropped' %
      ('ok' if ok else 'not ok', a['indexed'], a['index_bytes'], b['indexed'], b['dropped']))
PY
fi

# Call sites behind the launches are let go: a thread's launches come in
# time order, so the frame index keeps what lies between them and the
# latest frame. A launch back before what is kept finds no call site, is
# counted and said; the others are exact. 3,000 frames on one thread (over
# 2 chunks of changes), a launch under frame 2,990, then one under frame 5.
python3 - "$tmp/late.json" <<'PY'
import json, sys
ev = []
for i in range(3000):
    ev.append({"ph": "X", "cat": "python_function", "name": "model.py(%d): layer%d" % (i % 40, i % 40),
               "pid": 1, "tid": 1, "ts": 1000 + 10 * i, "dur": 8})
for c, i in ((1, 2990), (2, 5)):
    t = 1000 + 10 * i + 2
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
               "ts": t, "dur": 1, "args": {"correlation": c}})
    ev.append({"ph": "X", "cat": "kernel", "name": "k%d" % c, "pid": 0, "tid": 7,
               "ts": 40000 + c * 10, "dur": 3, "args": {"correlation": c, "device": 0, "stream": 7}})
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$TS" --format json "$tmp/late.json" >"$tmp/late.out" 2>"$tmp/late.err"
python3 - "$tmp/late.out" "$tmp/late.err" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))['attribution']['python']
err = open(sys.argv[2]).read()
ok = (p['indexed'] == 3000 and p['lookups'] == 2 and p['found'] == 1 and p['late'] == 1
      and '1 runtime calls came before an earlier one on their thread' in err)
print('%s - a launch back before the frames still kept: none found, counted (late %d) and said; the other found (%d of %d)' %
      ('ok' if ok else 'not ok', p['late'], p['found'], p['lookups']))
PY

# The GEMM-M stage signal: the HF trace's full pass runs aten::mm on 8944 =
# 16 x 559 token rows (its flash attention q is [16, 559, 16, 64]), so it is
# a prefill with no annotation or kernel hint saying so; a threshold above
# 8944 turns the signal to decode, and the pass stays prefill by the query
# blocks of its FlashAttention grid (5: 559 query tokens a row, 128 a block).
f=$(ls "$SHARED"/hf_qwen1.5-0.5b-chat_h100.json* 2>/dev/null | head -1)
if [ -n "$f" ]; then
	ts_out --format json "$f" >"$tmp/h1.json"
	"$TS" --format json --decode-threshold 10000 "$f" >"$tmp/h2.json" 2>/dev/null
	python3 - "$tmp/h1.json" "$tmp/h2.json" <<'PY'
import json, sys
a, b = (json.load(open(x)) for x in sys.argv[1:3])
pa = [p for p in a['passes'] if p['complete']][0]
pb = [p for p in b['passes'] if p['complete']][0]
ok = ({k: pa['signals'][k] for k in ('annotation', 'kernel_hints', 'gemm_m', 'kv_grid', 'q_grid')} == {'annotation': None, 'kernel_hints': None, 'gemm_m': 'prefill', 'kv_grid': None, 'q_grid': 'prefill'}
      and pa['stage'] == 'prefill' and pa['gemm_m']['max'] == 8944 and pa['q_grid'] == 5
      and pb['signals']['gemm_m'] == 'decode' and pb['signals']['q_grid'] == 'prefill'
      and pb['stage'] == 'prefill')
print('%s - hf: the GEMM-M signal (M up to 8944) and FlashAttention\'s 5 query blocks make the full pass prefill; --decode-threshold 10000 turns the GEMM-M signal to decode, the query blocks keep the pass prefill (got %s %s / %s %s)' %
      ('ok' if ok else 'not ok', pa['stage'], pa['signals'], pb['stage'], pb['signals']))
PY
fi
exit 0
