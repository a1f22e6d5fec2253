#!/usr/bin/env bash
# Every claim checked against the trace (issue 38), from the JSON alone:
#  - what a kernel is bounds its type: a kernel a compute code generator or
#    library wrote (Inductor / Triton, CUTLASS, cuBLAS / cuBLASLt / cuDNN,
#    CK / Tensile, ATen) is never a collective, whatever words its name
#    holds; a fixture shaped like a vLLM + Inductor TP4 trace (the masked
#    vocab-parallel embedding's fused-op list names all_reduce, an add +
#    RMSNorm fused with one) beside the real collectives of its run;
#  - collectives typed by what launched them: RCCL's generic kernel under
#    each c10d spelling and vLLM's all-reduce (tests/claims/mkcollectives.py);
#    replayed from a graph, unknown (and said so) without --capture, its
#    captured op's collective with it (tests/claims/mkgraphcoll.py);
#  - names no rule knows typed by their words, said as such;
#  - compare warns first where the two models differ;
#  - compare's "moe (rest)" row says when each side's kernels there are of
#    kinds the other does not run (a finalize against a sort), not paired;
#  - compare's fusion claim only where the other side's kernels support it;
#  - a slow layer explained by the kernel whose time grew (an all-reduce
#    that waited), not called a misplaced boundary;
#  - the same on every shared trace (the origins below are this test's own
#    regexes, not the tables'), with every rate held to the device's peaks
#    and the passes note held to the categories (no "no attention kernel"
#    above an attention category), and every opportunity to its stage;
#  - one rule for pass spans: a CPU wait before the forward is time between
#    passes in every pass, whether or not an input copy ran before it
#    (tests/claims/mkspans.py), and every shared trace's passes lie inside
#    their step's windows (the GPU window's start; launched in the CPU
#    window; ending inside the GPU window or launched inside the CPU one:
#    the profiler draws no step window around kernels of a nested
#    annotation such as c10d's nccl:*);
#  - a kernel's calls said to spread only where they are its own, not a
#    surcharge of the layer position (fixtures: t_insight.sh);
#  - a trace cut short says what the cut explains: cut before its GPU
#    events (Kineto writes them after the CPU ones) it is not called a
#    front-end process nor told to profile with ProfilerActivity.CUDA.
T=claims
. "$(dirname "$0")/lib.sh"

python3 - "$tmp/tp.json" <<'PY'
import json, sys
names = [
    'triton_poi_fused_add_all_reduce_bitwise_and_bitwise_or_embedding_ge_lt_masked_fill_mul_sub_0',
    'void vllm::cross_device_reduce_1stage<__nv_bfloat16, 4>(vllm::RankData*, vllm::RankSignals, vllm::Signal*, __nv_bfloat16*, int, int)',
    'triton_red_fused__to_copy_add_all_reduce_mean_mul_pow_rsqrt_2',
    'ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)',
    'void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cutlass::reduction::thread::ReduceAdd>>(int)',
    'void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true, (cudnnKernelDataType_t)0>(cudnn::ops::nchw2nhwc_params_t<float>, float const*, float*)',
]
ev, ts = [], 1000.0
for rep in range(3):
    for i, n in enumerate(names):
        ev.append({'ph': 'X', 'cat': 'kernel', 'name': n, 'pid': 0, 'tid': 7, 'ts': ts,
                   'dur': 5.0 + i, 'args': {'device': 0, 'stream': 7, 'correlation': len(ev) + 1}})
        ts += 20.0
json.dump({'traceEvents': ev}, open(sys.argv[1], 'w'))
PY
"$TS" -q -f json "$tmp/tp.json" >"$tmp/tp.out" 2>"$tmp/err" || bad "fixture: exit $?: $(cat "$tmp/err")"
python3 - "$tmp/tp.out" <<'PY' && ok "Inductor, CUTLASS and cuDNN kernels are never collectives: the embedding's all_reduce, the norm's; NCCL and custom all-reduce are" || bad "fixture: $(head -c 600 "$tmp/tp.out")"
import json, sys
k = {x['name'][:40]: (x['type'], x['category']) for x in json.load(open(sys.argv[1]))['kernels']}
want = {
    'triton_poi_fused_add_all_reduce_bitwise_': ('embedding', 'Embedding'),
    'void vllm::cross_device_reduce_1stage<__': ('communication', 'Comm-AllReduce'),
    'triton_red_fused__to_copy_add_all_reduce': ('norm', 'Norm-RMS'),
    'ncclDevKernel_AllGather_RING_LL(ncclDevK': ('communication', 'Comm-AllGather'),
    'void cutlass::device_kernel<cutlass::gem': ('gemm', 'GEMM-CUTLASS'),
    'void cudnn::ops::nchwToNhwcKernel<float,': ('memory', 'Copy-Kernel'),
}
assert k == want, k
PY

# collectives typed by what launched them: one generic kernel, each call
# the kind of its op in every c10d spelling, and compare prints no op
# beside a piece another op launched
python3 "$here/claims/mkcollectives.py" "$tmp/coll.json"
"$TS" -q -f json "$tmp/coll.json" >"$tmp/coll.out" 2>"$tmp/err" || bad "collectives: exit $?: $(cat "$tmp/err")"
python3 - "$tmp/coll.out" <<'PY' && ok "RCCL's generic kernel: each call the kind its op says (all-reduce 6, all-gather 6, reduce-scatter 4, all-to-all 2, broadcast 2)" || bad "collectives: $(head -c 400 "$tmp/coll.out")"
import json, sys
r = json.load(open(sys.argv[1]))
got = {c['category']: (c['count'], round(c['total_us'], 3)) for c in r['categories']}
assert got == {'Comm-AllReduce': (6, 72.0), 'Comm-AllGather': (6, 60.0), 'Comm-ReduceScatter': (4, 40.0),
               'Comm-AllToAll': (2, 20.0), 'Comm-Broadcast/P2P': (2, 20.0)}, got
# each op's kernels are of the kind it launched
ops = {o['name']: sorted(c['category'] for c in o['categories']) for o in r['ops']}
assert ops['nccl:_all_gather_base'] == ['Comm-AllGather'], ops
assert ops['vllm::all_reduce'] == ['Comm-AllReduce'], ops
PY
"$TS" -q compare "$tmp/coll.json" "$tmp/coll.json" >"$tmp/cmp.txt" 2>&1
python3 - "$tmp/cmp.txt" <<'PY' && ok "compare labels no collective's row with another call's op" || bad "compare: $(grep -A2 Comm "$tmp/cmp.txt" | head -12)"
import sys
rows, cur = {}, None
for line in open(sys.argv[1]):
    if 'communication: ' in line:
        cur = line.split('communication: ')[1].split()[0]
    elif cur and line.strip().startswith(('A:', 'B:')):
        rows.setdefault(cur, []).append(line)
assert len(rows) == 5, rows
for cat, lines in rows.items():
    for l in lines:
        assert 'op ' not in l or ('AllReduce' in cat and 'vllm::all_reduce' in l), (cat, l)
PY

# the same generic kernel replayed from a graph (vLLM on MI300X): no op
# per kernel, so without --capture each call's collective is unknown and
# said so (no kind invented, no message sized by a kind's rule); with the
# capture's trace each call takes its captured op's collective, 2 a layer
# all-reduces and 1 all-gather a replay, the messages Kineto wrote on
# the kernels kept through the replay (tests/claims/mkgraphcoll.py)
python3 "$here/claims/mkgraphcoll.py" "$tmp/gc"
for v in replay replay_msg; do
	"$TS" -q -f json "$tmp/gc/graphcoll_$v.json" >"$tmp/gc/$v.plain" 2>/dev/null
	"$TS" -q -f json --capture "$tmp/gc/graphcoll_capture.json" "$tmp/gc/graphcoll_$v.json" \
		>"$tmp/gc/$v.cap" 2>"$tmp/err" || bad "graph collectives: exit $?: $(cat "$tmp/err")"
done
"$TS" -q "$tmp/gc/graphcoll_replay.json" >"$tmp/gc/plain.txt" 2>/dev/null
python3 - "$here/claims/mkgraphcoll.py" "$tmp/gc" <<'PY' && ok "RCCL's generic kernel in graph replays: unknown without --capture (said why), with it all-reduce 2 a layer and all-gather 1 a replay, messages kept" || bad "graph collectives: $(cat "$tmp/gc/why" 2>/dev/null)"
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location('mk', sys.argv[1])
mk = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mk)
d, L, R = sys.argv[2], mk.LAYERS, mk.REPLAYS
wrong = []
def want(what, got, exp):
    if got != exp:
        wrong.append('%s: got %s, want %s' % (what, got, exp))
def coll(f):
    return sorted(((c['kind'], c['msg_bytes'], c['group_size'], c['calls'], c['total_us'])
                   for c in json.load(open('%s/%s' % (d, f)))['collectives']), key=repr)
def cats(f):
    return {c['category']: c['count'] for c in json.load(open('%s/%s' % (d, f)))['categories']
            if c['type'] == 'communication'}
ar, ag = 2 * L * R, R
want('plain', coll('replay.plain'), [('unknown', None, None, ar + ag, 12.0 * ar + 9.0 * ag)])
want('plain msg', coll('replay_msg.plain'), [('unknown', None, 8, ar + ag, 12.0 * ar + 9.0 * ag)])
want('plain categories', cats('replay.plain'), {'Comm-Generic': ar + ag})
t = open(d + '/plain.txt').read()
if 'unknown: %d calls of a kernel that runs every collective' % (ar + ag) not in t:
    wrong.append('no note on the unknown calls in the text report')
if 'all_reduce' in t or 'all_gather' in t or 'AllReduce' in t:
    wrong.append('the text report names a collective the trace does not say')
want('capture', coll('replay.cap'), [('all_gather', None, None, ag, 9.0 * ag),
                                      ('all_reduce', None, None, ar, 12.0 * ar)])
half = R // 2
want('capture msg', coll('replay_msg.cap'),
     sorted([('all_reduce', s * 4096 * 2, 8, ar // 2, 12.0 * ar / 2) for s in (8, 16)] +
            [('all_gather', s * 32000 * 2, 8, half, 9.0 * half) for s in (8, 16)], key=repr))
want('capture categories', cats('replay.cap'), {'Comm-AllReduce': ar, 'Comm-AllGather': ag})
r = json.load(open(d + '/replay.cap'))
want('attribution', r['attribution']['kernels'], {'op': 0, 'graph': 0, 'launch': 0, 'unlinked': 0,
                                                  'graph_op': R * (6 * L + 1)})
ops = {o['name']: (o['kernels'], [c['category'] for c in o['categories']]) for o in r['ops']}
want('ops', {k: v for k, v in ops.items() if k != 'aten::mm'},
     {'vllm::all_reduce': (L * R, ['Comm-AllReduce']),
      'record_param_comms(allreduce)': (L * R, ['Comm-AllReduce']),
      'nccl:_all_gather_base': (R, ['Comm-AllGather'])})
if wrong:
    open(d + '/why', 'w').write('; '.join(wrong))
    sys.exit(1)
PY

# causes named right: a layer slow by one all-reduce that waited (its
# kernels the typical layer's) is explained by that call, not called a
# misplaced boundary
gen_out python3 "$here/layers/mkfixture.py" tp-dense --layers 6 --passes 2 >"$tmp/tpd.json"
python3 - "$tmp/tpd.json" "$tmp/slow.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d['traceEvents']
ks = sorted((e for e in ev if e.get('cat') == 'kernel'), key=lambda e: e['ts'])
slow = [k for k in ks if k['name'].startswith('ncclDevKernel_AllReduce')][5]   # layer 2's first
t0 = slow['ts']
for e in ev:
    if isinstance(e, dict) and isinstance(e.get('ts'), (int, float)) and e['ts'] > t0:
        e['ts'] += 312.0
slow['dur'] += 312.0
json.dump(d, open(sys.argv[2], 'w'))
PY
"$TS" -f json "$tmp/slow.json" >"$tmp/slow.out" 2>"$tmp/slow.err"
python3 - "$tmp/slow.out" "$tmp/slow.err" <<'PY' && ok "a layer slow by one all-reduce's wait: that call named (322 us against 10 us), no boundary suspected" || bad "slow layer: $(grep -i 'far off' "$tmp/slow.err")"
import json, sys
odd = json.load(open(sys.argv[1]))['layers']['odd']
err = open(sys.argv[2]).read()
assert len(odd) == 1 and odd[0]['layer'] == 2 and odd[0]['same_kernels'], odd
k = odd[0]['slow_kernel']
assert k['name'].startswith('ncclDevKernel_AllReduce') and k['us'] == 322.0 and k['typical_us'] == 10.0, k
assert 'one nccl AllReduce call took 322.0 us against 10.0 us' in err and 'waiting on the other ranks' in err, err
assert 'misplaced' not in err, err
PY

# and where the slow layer's kernels differ (its all-reduce another
# kernel), the warning names what differs against the layer nearest the
# typical time, the kernel it runs and the one it does not
python3 - "$tmp/slow.json" "$tmp/diff.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ks = sorted((e for e in d['traceEvents'] if e.get('cat') == 'kernel'), key=lambda e: e['ts'])
slow = [k for k in ks if k['name'].startswith('ncclDevKernel_AllReduce')][5]
slow['name'] = 'ncclDevKernel_AllReduce_Sum_bf16_TREE_LL128(ncclDevKernelArgsStorage<4096ul>)'
json.dump(d, open(sys.argv[2], 'w'))
PY
"$TS" -f json "$tmp/diff.json" >"$tmp/diff.out" 2>"$tmp/diff.err"
python3 - "$tmp/diff.out" "$tmp/diff.err" <<'PY' && ok "a slow layer whose kernels differ: what differs named (the kernel it runs, the one it lacks)" || bad "differing layer: $(grep -i 'far off' "$tmp/diff.err")"
import json, sys
odd = json.load(open(sys.argv[1]))['layers']['odd']
err = open(sys.argv[2]).read()
assert len(odd) == 1 and odd[0]['layer'] == 2 and not odd[0]['same_kernels'], odd
f = odd[0]['differs_from']
assert f and f['layer'] != 2 and 'TREE_LL128' in f['runs_more'] and 'TREE' not in f['runs_fewer'] \
    and f['runs_fewer'].startswith('ncclDevKernel_AllReduce'), f
assert "its kernels differ from layer %d's: it runs " % f['layer'] in err and 'that one ' in err \
    and 'misplaced layer boundary' in err, err
PY

# compare's fusion claim rests on both sides' kernels: B's fused add +
# RMSNorm against A's Inductor norm, whose op list holds add (the
# residual's or the epsilon's): no "A runs the parts separately"
python3 - "$tmp/tpd.json" "$tmp/ind.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d['traceEvents']:
    if e.get('cat') == 'kernel' and 'fused_add_rms_norm_kernel' in e.get('name', ''):
        e['name'] = 'triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0'
    elif e.get('cat') == 'kernel' and 'vectorized_elementwise' in e.get('name', ''):
        e['name'] = 'triton_poi_fused_cat_index_1'
json.dump(d, open(sys.argv[2], 'w'))
PY
"$TS" -q compare "$tmp/ind.json" "$tmp/tpd.json" >"$tmp/fz.txt" 2>&1
"$TS" -q compare -f json "$tmp/ind.json" "$tmp/tpd.json" >"$tmp/fz.json" 2>/dev/null
python3 - "$tmp/fz.txt" "$tmp/fz.json" <<'PY' && ok "compare claims no fusion where A's Inductor norm may fuse the add too, and says so" || bad "fusion claim: $(grep -i 'fused:\|claimed' "$tmp/fz.txt")"
import json, sys
txt = open(sys.argv[1]).read()
r = json.load(open(sys.argv[2]))
assert 'runs the parts separately' not in txt, txt
assert 'not claimed: B runs add+norm in one' in txt, txt
assert r['fusions_not_claimed'] == 1 and r['first_not_claimed'] == {'fusion': 'add+norm', 'side': 'b'}, r['first_not_claimed']
assert not any(o.get('fused') for o in r['ops']), [o['op'] for o in r['ops'] if o.get('fused')]
PY

# comparing two different models warns first (different depths), the
# same model does not
gen_out python3 "$here/layers/mkfixture.py" tp-dense --layers 8 --passes 2 >"$tmp/tpd8.json"
"$TS" -q compare "$tmp/tpd.json" "$tmp/tpd8.json" >"$tmp/m.txt" 2>&1
"$TS" -q compare "$tmp/tpd.json" "$tmp/ind.json" >"$tmp/m2.txt" 2>&1
python3 - "$tmp/m.txt" "$tmp/m2.txt" <<'PY' && ok "compare warns first where the models differ (6 against 8 layers per pass), not for one model" || bad "models: $(head -5 "$tmp/m.txt")"
import sys
a = open(sys.argv[1]).read().splitlines()
b = open(sys.argv[2]).read()
w = [i for i, l in enumerate(a) if l.startswith('WARNING: A and B run different models')]
assert w and w[0] < 5 and 'A 6 layers per' in a[w[0]] and ', B 8)' in a[w[0]], a[:6]
assert 'different models' not in b, b[:400]
PY

# a split group's rest row pairs no unrelated kernels without saying so:
# A's MoE finalize against B's MoE sort (the MoE GEMMs pair by category)
python3 - "$tmp/ma.json" "$tmp/mb.json" <<'PY'
import json, sys
fin = ('void moe::dev::finalize::finalizeKernel<moe::dev::finalize::KernelParams<__nv_bfloat16, '
       'float, true> >(moe::dev::finalize::KernelParams<__nv_bfloat16, float, true>)')
srt = ('void ck_tile::kentry<2, ck_tile::MoeSortingKernel<ck_tile::MoeSortingProblemEx<int, float, '
       '1, true, false, 4> > >(ck_tile::MoeSortingKernel<ck_tile::MoeSortingProblemEx<int, float, '
       '1, true, false, 4> >::MoeSortingKargs)')
for path, other in ((sys.argv[1], fin), (sys.argv[2], srt)):
    ev, ts = [], 1000.0
    for i in range(8):
        for n, d in (('fused_moe_kernel', 30.0), (other, 5.0)):
            ev.append({'ph': 'X', 'cat': 'kernel', 'name': n, 'pid': 0, 'tid': 7, 'ts': ts,
                       'dur': d, 'args': {'device': 0, 'stream': 7, 'correlation': len(ev) + 1}})
            ts += d + 2
    json.dump({'traceEvents': ev}, open(path, 'w'))
PY
"$TS" -q compare "$tmp/ma.json" "$tmp/mb.json" >"$tmp/mc.txt" 2>&1
"$TS" -q compare -f json "$tmp/ma.json" "$tmp/mb.json" >"$tmp/mc.json" 2>&1
python3 - "$tmp/mc.txt" "$tmp/mc.json" <<'PY' && ok "compare: a rest row holding a MoE finalize against a MoE sort says it is not paired (text and JSON); the MoE GEMMs pair" || bad "unpaired: $(grep -A3 'moe' "$tmp/mc.txt" | head -8)"
import json, sys
t = open(sys.argv[1]).read().splitlines()
r = {o['op']: o for o in json.load(open(sys.argv[2]))['ops']}
assert r['moe (rest)']['unpaired'] is True and r['moe: MoE-GEMM']['unpaired'] is False, r.keys()
i = [k for k, l in enumerate(t) if l.lstrip().startswith('moe (rest)')][0]
assert t[i + 1].strip() == ('not paired: A runs MoE-Finalize, B runs MoE-Sort/Align; neither '
                            "runs the other's, so this gap compares different work"), t[i:i + 3]
PY

# what no rule names still gets a type from the words of its name, said
# as such (a DeepSeek-V3-class training step's FP8 cast, transpose and
# fused-reduce kernels)
python3 - "$tmp/w.json" <<'PY'
import json, sys
names = ['per_token_cast_to_fp8_with_channels', 'per_channel_cast_and_transpose',
         'reduce_fused_impl', 'expand_to_fused_with_scales_impl',
         'nvjet_tst_128x64_64x8_1x1_v_bz_coopA_NNT']
ev = [{'ph': 'X', 'cat': 'kernel', 'name': n, 'pid': 0, 'tid': 7, 'ts': 1000.0 + 50 * i,
       'dur': 10.0, 'args': {'device': 0, 'stream': 7, 'correlation': i + 1}}
      for i, n in enumerate(names)]
json.dump({'traceEvents': ev}, open(sys.argv[1], 'w'))
PY
"$TS" -q -f json "$tmp/w.json" >"$tmp/w.out" 2>/dev/null
python3 - "$tmp/w.out" <<'PY' && ok "names no rule knows typed by their words and said so (80% of kernel time)" || bad "words: $(head -c 300 "$tmp/w.out")"
import json, sys
r = json.load(open(sys.argv[1]))
k = {x['name']: (x['category'], x['by_words']) for x in r['kernels']}
assert k['per_token_cast_to_fp8_with_channels'] == ('Quant-FP8', True), k
assert k['per_channel_cast_and_transpose'] == ('Quant-FP8', True), k
assert k['reduce_fused_impl'] == ('Reduce', True), k
assert k['expand_to_fused_with_scales_impl'] == ('Copy-Kernel', True), k
assert k['nvjet_tst_128x64_64x8_1x1_v_bz_coopA_NNT'][1] is False, k
assert r['classified_pct'] == 100.0 and r['classified_by_words_pct'] == 80.0, (r['classified_pct'], r['classified_by_words_pct'])
PY

# one rule for pass spans and idle: every pass measured alike, the CPU's
# late starts counted between passes
python3 "$here/claims/mkspans.py" "$tmp/sp.json"
"$TS" -q -f json "$tmp/sp.json" >"$tmp/sp.out" 2>"$tmp/err" || bad "spans: exit $?: $(cat "$tmp/err")"
python3 - "$tmp/sp.out" <<'PY' && ok "spans: the CPU's wait before every forward is between passes, in all 10 (two of them open with an input copy); the passes inside their step windows" || bad "spans: $(cat "$tmp/sp.out.why" 2>/dev/null)"
import json, sys
r = json.load(open(sys.argv[1]))
why = []
ps = r['passes']
if [(p['stage'], p['layers']) for p in ps] != [('decode', 4)] * 10:
    why.append('passes %s' % [(p['stage'], p['layers']) for p in ps])
big = [(p['index'], p['idle']['largest_gap']['us']) for p in ps if p['idle']['largest_gap']['us'] > 10]
if big:
    why.append('a wait inside passes %s' % big)
b = r['busy']['between_passes']
if (b['gaps'], b['cpu_late']['gaps'], b['cpu_late']['gaps_checked']) != (9, 9, 9) or b['largest_us'] < 22000:
    why.append('between %s' % b)
for p in ps:
    w, s = p['step_window'], p['span']
    if not w['gpu'] or not (w['gpu']['start_us'] <= s['start_us'] and s['end_us'] <= w['gpu']['end_us']):
        why.append('pass %d %s outside %s' % (p['index'], s, w['gpu']))
if why:
    open(sys.argv[1] + '.why', 'w').write('; '.join(why)[:600])
    sys.exit(1)
PY
"$TS" --no-progress --brief -w 100 "$tmp/sp.json" >"$tmp/sp.txt" 2>/dev/null
grep -q '^ between passes: 9 gaps, 224 ms: the GPU idle 224 ms before the next pass (the CPU late before 9' "$tmp/sp.txt" &&
	ok "spans: the first screen says the time between passes and that the CPU was late" ||
	bad "spans: $(grep -A1 between "$tmp/sp.txt")"

# a cut trace: the note says what the cut explains (before the launches:
# once "a front-end process", after them: "profile with
# ProfilerActivity.CUDA")
python3 - "$tmp/whole.json" <<'PY'
import json, sys
ev = []
for i in range(300):
    ev.append({'ph': 'X', 'cat': 'cpu_op', 'name': 'aten::mm', 'pid': 1, 'tid': 1,
               'ts': 1000.0 + 10 * i, 'dur': 5.0, 'args': {'External id': i + 1}})
for i in range(300):
    ev.append({'ph': 'X', 'cat': 'cuda_runtime', 'name': 'cudaLaunchKernel', 'pid': 1, 'tid': 1,
               'ts': 1001.0 + 10 * i, 'dur': 3.0, 'args': {'correlation': i + 1, 'External id': i + 1}})
for i in range(300):
    ev.append({'ph': 'X', 'cat': 'kernel', 'name': 'nvjet_tst_128x64_64x8_1x1_v_bz_coopA_NNT',
               'pid': 0, 'tid': 7, 'ts': 1005.0 + 10 * i, 'dur': 4.0,
               'args': {'device': 0, 'stream': 7, 'correlation': i + 1, 'External id': i + 1}})
with open(sys.argv[1], 'w') as f:
    f.write('{"traceEvents": [\n' + ',\n'.join(json.dumps(e) for e in ev) + '\n]}\n')
PY
for cut in ops launches; do
	if [ $cut = ops ]; then at=$(grep -n cuda_runtime "$tmp/whole.json" | head -1 | cut -d: -f1)
	else at=$(grep -n '"kernel"' "$tmp/whole.json" | head -1 | cut -d: -f1); fi
	head -n $((at - 1)) "$tmp/whole.json" >"$tmp/cut.json"
	"$TS" -q -f json "$tmp/cut.json" >"$tmp/cut.out" 2>/dev/null
	rc=$?
	note=$(json_get "$tmp/cut.out" "d['passes_note']")
	case $rc:$note in
	1:*"cut short"*"missing part"*) case $note in
		*front-end*|*ProfilerActivity*) bad "cut after the $cut: $note" ;;
		*) ok "a trace cut after its CPU $cut: the note says the kernels are in the missing part (exit 1)" ;;
		esac ;;
	*) bad "cut after the $cut: exit $rc: $note" ;;
	esac
done

need_shared
# under a sanitizer the shared traces up to 1 MB (whole_run in lib.sh; the
# python sweeps below read SMALL_ONLY): the release build checks them all
case "$TS" in */san/* | */tsan/*) export SMALL_ONLY=1 ;; esac
ORIGIN='^(?:void )?(?:triton_|cutlass|cublas|ck::|ck_tile::|at::native::)|^(?:Custom_)?Cijk_|^nvjet_|^(?:sm\d+|ampere|volta|turing|hopper)_(?:xmma|[sdhcz]?gemm)'
# every trace's report (ts_out: made once a run), then one Python run holds
# each to the six claims below, a line per trace and claim
n=0
for f in "$SHARED"/*.json "$SHARED"/*.json.gz; do
	[ -e "$f" ] || continue
	whole_run "$f" || continue
	n=$((n + 1))
	ts_out -q -f json "$f" >"$tmp/r.$n.json"
	echo "$(basename "$f")" >>"$tmp/reports"
done
python3 - "$tmp" "$ORIGIN" <<'PY' >"$tmp/claims.out"
import json, re, sys
tmp = sys.argv[1]
origin = re.compile(sys.argv[2])
def check1(r):
    wrong = [k['name'][:80] for k in r.get('kernels', [])
             if k['type'] == 'communication' and origin.search(k['name'])]
    if wrong:
        return '; '.join(wrong)
def check2(r):
    peaks = (r.get('trace') or {}).get('peaks')
    if not peaks:
        return None         # no device known: no peak to hold a rate to
    top = max(peaks['tflops'].values())
    wrong = []
    def held(what, x):
        if x.get('tflops') is not None and x['tflops'] > top:
            wrong.append('%s %.1f TFLOP/s' % (what, x['tflops']))
        if x.get('tbps') is not None and x['tbps'] > peaks['hbm_tbps']:
            wrong.append('%s %.2f TB/s' % (what, x['tbps']))
        if x.get('pct_of_peak') is not None and x['pct_of_peak'] > 100:
            wrong.append('%s %.1f%% of peak' % (what, x['pct_of_peak']))
    for w in r.get('workloads') or []:
        held(w['name'], w)
    for a in r.get('layer_anatomy') or []:
        held(a['stage'] + ' layer', a)
        for t in a['by_type']:
            held(a['stage'] + ' ' + t['type'], t)
    if wrong:
        return '; '.join(wrong[:5])
def check3(r):
    wrong = []
    for o in r.get('opportunities') or []:
        if o.get('saves_us') is not None and not 0 <= o['saves_us'] <= o['at_stake_us'] + 0.01:
            wrong.append('%s saves %.1f us of %.1f us at stake' % (o['kind'], o['saves_us'], o['at_stake_us']))
        st = (r.get('stages') or {}).get(o['stage'] or '')
        if o['stage'] in (None, 'unknown') and o['kind'] in ('gpu_idle', 'comm_exposed') and not r.get('passes'):
            # a training step's: the GPU's idle time in the kernel span, the
            # collectives that ran alone in the kernel time
            cap = r['trace']['gpu_span_us'] if o['kind'] == 'gpu_idle' else r['trace']['kernel_time_us']
            if o['at_stake_us'] > cap + 0.01:
                wrong.append('%s %.1f us over %.1f us' % (o['kind'], o['at_stake_us'], cap))
            continue
        if not st:
            wrong.append('%s with no stage' % o['kind'])
            continue
        if o['kind'] in ('idle', 'launch_bound'):
            if not st['complete_passes']:
                wrong.append('%s from a stage with no complete pass' % o['kind'])
            if o['at_stake_us'] > st['idle']['span_us'] + 0.01:
                wrong.append('%s %.1f us over a %.1f us span' % (o['kind'], o['at_stake_us'], st['idle']['span_us']))
        elif o['kind'] == 'step_idle':
            # the GPU idle before the passes in their step windows: no more
            # than the time before them there
            before = sum(p['step']['before_pass_us'] - p['step']['before_pass_busy_us']
                         for p in r['passes'] if p['stage'] == o['stage'] and p['complete'] and p.get('step'))
            if o['at_stake_us'] > before + 0.01:
                wrong.append('%s %.1f us over the %.1f us idle before the passes in their steps'
                             % (o['kind'], o['at_stake_us'], before))
        elif o['at_stake_us'] > st['gpu_time_us'] + 0.01:
            wrong.append('%s %.1f us over %.1f us of GPU time' % (o['kind'], o['at_stake_us'], st['gpu_time_us']))
    if wrong:
        return '; '.join(wrong[:4])
def check4(r):
    wrong = []
    for p in r.get('passes') or []:
        w, s, e = p['step_window'], p['span'], 0.01
        g, c, l = w['gpu'], w['cpu'], w['launched']
        launched_in = c and l and c['start_us'] - e <= l['start_us'] and l['end_us'] <= c['end_us'] + e
        if c and l and not launched_in:
            wrong.append('pass %d launched %s outside the CPU window %s' % (p['index'], l, c))
        if g and s['start_us'] < g['start_us'] - e:
            wrong.append('pass %d starts %.1f us before its window' % (p['index'], g['start_us'] - s['start_us']))
        if g and s['end_us'] > g['end_us'] + e and not launched_in:
            wrong.append('pass %d ends %.1f us after its window' % (p['index'], s['end_us'] - g['end_us']))
    if wrong:
        return '; '.join(wrong[:4])
def check5(r):
    t = (r.get('trace') or {}).get('kernel_time_us') or 0
    if not (t == 0 or r['classified_pct'] >= 97):
        return '%s%% classified' % r['classified_pct']
def check6(r):
    note = r.get('passes_note') or ''
    types = {c['type'] for c in r.get('categories') or []}
    if 'no attention kernel' in note and 'attention' in types:
        return note + ' beside ' + str(sorted(types))
CLAIMS = [(check1, "no compute library's kernel typed a collective"),
          (check2, "no workload, layer or type rate above the device's peaks"),
          (check3, "no opportunity larger than its stage (GPU time, the passes' span for idle, the idle before the passes in their steps for step idle), none from a window of partial passes, none saving more than its time at stake"),
          (check4, "every pass inside its step's windows (GPU, or launched in the CPU one)"),
          (check5, 'at least 97% of kernel time has a type (or no kernel time)'),
          (check6, 'the note on passes does not deny a type the categories show')]
for i, name in enumerate(open(tmp + '/reports').read().split()):
    try:
        r = json.load(open('%s/r.%d.json' % (tmp, i + 1)))
    except ValueError as e:
        r = e
    for check, claim in CLAIMS:
        try:
            why = 'no JSON report: %s' % r if isinstance(r, Exception) else check(r)
        except Exception as e:
            why = 'check failed: %r' % e
        print('ok - claims: %s: %s' % (name, claim) if why is None else 'not ok - claims: %s: %s' % (name, why))
PY
[ $? -eq 0 ] || bad "the claims on the shared traces did not all run"
cat "$tmp/claims.out"
grep -q '^not ok' "$tmp/claims.out" && fail=1
# A count the first screen gives is the trace's own (issue 58): "N
# captures begun" is the trace's StreamBeginCapture calls, counted here
# from the raw events, not the calls and the capture annotations together;
# no GPU is busy more than its kernel span (several GPUs: a share of each).
python3 - "$SHARED" "$TS" <<'PY'
import gzip, json, os, re, subprocess, sys
sys.path.append(os.environ['TS_TESTS'])
import tscache
shared, ts = sys.argv[1:3]
for f in sorted(os.listdir(shared)):
    if not f.endswith(('.json', '.json.gz')):
        continue
    p = os.path.join(shared, f)
    if os.environ.get('SMALL_ONLY') and os.path.getsize(p) > 1000000:
        continue
    out = tscache.out(ts, '--brief', p)
    full = tscache.out(ts, p)
    b = re.search(r'GPU busy .*?\(([0-9.]+)% of', full)
    if b and float(b.group(1)) > 100.05:
        print('not ok - claims: %s: GPU busy %s%% of a span (busy is each device\'s own)' % (f, b.group(1)))
    m = re.search(r'\((\d+) captures? begun', out)
    if not m:
        continue
    d = json.load(gzip.open(p) if p.endswith('.gz') else open(p))
    raw = sum(1 for e in (d['traceEvents'] if isinstance(d, dict) else d)
              if isinstance(e, dict) and 'StreamBeginCapture' in str(e.get('name', '')))
    ok = int(m.group(1)) == raw
    print('%s - claims: %s: "%s captures begun" is its %d StreamBeginCapture calls'
          % ('ok' if ok else 'not ok', f, m.group(1), raw))
PY
# A kernel's calls spread only where its slow calls are its own (issue
# 58): read back from the launches table, a spread kernel's time above its
# median does not lie, two thirds of it or more, in blocks of three or more
# consecutive layers of a pass that each took about the same extra time
# (every call held against its median over the pass's layers), carried a
# quarter or more by kernels of other types: that is the layer position's
# surcharge, said as one slow_layer opportunity naming the layers.
python3 - "$SHARED" "$TS" "$tmp" <<'PY'
import csv, json, os, statistics, subprocess, sys
from collections import defaultdict
sys.path.append(os.environ['TS_TESTS'])
import tscache
shared, ts, tmp = sys.argv[1:4]

def blocks(calls):
    """calls: (layer, key, type, dur) of one pass -> {layer: {(key, type): excess}} of its blocks."""
    by = defaultdict(list)
    for l, key, ty, d in calls:
        by[key].append(d)
    med = {k: statistics.median(v) for k, v in by.items()}
    cnt = {k: len(v) for k, v in by.items()}
    n = max(l for l, *_ in calls) + 1
    sur, time, ex = [0.0] * n, [0.0] * n, defaultdict(dict)
    for l, key, ty, d in calls:
        time[l] += d
        x = d - med[key]
        if cnt[key] >= 3 and x > max(med[key] / 10, 1.0):
            sur[l] += x
            ex[l][(key, ty)] = ex[l].get((key, ty), 0) + x
    thr, out, a = max(statistics.median(time) / 20, 0.001), {}, 0
    while a < n:
        if sur[a] < thr:
            a += 1
            continue
        b = a
        while b < n and sur[b] >= thr:
            b += 1
        m = statistics.median(sur[a:b])
        if b - a >= 3 and 3 * sum(m / 2 <= s <= 1.5 * m for s in sur[a:b]) >= 2 * (b - a):
            out.update({l: ex[l] for l in range(a, b)})
        a = b
    return out

for f in sorted(os.listdir(shared)):
    p = os.path.join(shared, f)
    if not f.endswith(('.json', '.json.gz')) or (os.environ.get('SMALL_ONLY') and os.path.getsize(p) > 1000000):
        continue
    r = json.loads(tscache.out(ts, '-q', '-f', 'json', p) or '{}')
    spread = [o for o in r.get('opportunities') or [] if o['kind'] == 'spread']
    if not spread:
        continue
    c = os.path.join(tmp, 'launches.csv')
    subprocess.run([ts, '-q', '--table', 'launches', '-f', 'csv', '-o', c, p], capture_output=True)
    rows = [x for x in csv.DictReader(open(c)) if x['pass'] and x['layer']]
    for o in spread:
        k = o['text'].split(': its calls spread')[0]
        passes, seen = defaultdict(list), defaultdict(int)
        for x in rows:
            if x['stage'] != o['stage']:
                continue
            key = (x['name'], x['pass'], x['layer'])
            seen[key] += 1
            passes[x['pass']].append((int(x['layer']), (x['short'], seen[key]), x['type'], float(x['dur_us'])))
        own = o['at_stake_us']      # its time above its median, as claimed
        inb = others = total = 0.0
        ktype = {x['type'] for x in rows if x['short'] == k}
        for calls in passes.values():
            for l, ex in blocks(calls).items():
                for (key, ty), x in ex.items():
                    total += x
                    inb += x if key[0] == k else 0
                    others += x if ty not in ktype else 0
        positional = own > 0 and 3 * inb >= 2 * own and 4 * others >= total > 0
        print('%s - claims: %s: %s: its calls spread, not a surcharge of the layer position '
              '(%.0f of its %.0f us above the median in blocks of layers, other types %.0f of %.0f us)'
              % ('not ok' if positional else 'ok', f, k, inb, own, others, total))
PY
# Device facts are checked against each other (issue 58): a numSms that
# is another field's value (an RTP-LLM trace's is its
# sharedMemPerMultiprocessor) is named in a warning, never printed as SMs;
# multiProcessorCount stands in where the trace has it.
python3 - "$SHARED" "$TS" "$tmp" <<'PY'
import gzip, json, os, subprocess, sys
shared, ts, tmp = sys.argv[1:4]
src = os.path.join(shared, 'sglang_qwen3-30b-a3b_b300_decode_bs16.trace.json.gz')
if os.path.exists(src):
    for mpc in (True, False):
        d = json.load(gzip.open(src))
        dev = d['deviceProperties'][0]
        dev['numSms'] = dev['sharedMemPerMultiprocessor']
        if mpc:
            dev['multiProcessorCount'] = 148
        f = os.path.join(tmp, 'sms.json')
        json.dump(d, open(f, 'w'))
        r = subprocess.run([ts, '--no-progress', '--brief', f], capture_output=True, text=True)
        want = '(148 SMs)' if mpc else 'B300 SXM6 AC, rank'
        ok = want in r.stdout and str(dev['numSms']) not in r.stdout and \
            'numSms %d is no GPU' % dev['numSms'] in r.stderr
        print('%s - claims: a numSms of %d %s' % ('ok' if ok else 'not ok', dev['numSms'],
              'gives way to multiProcessorCount 148, with a warning' if mpc
              else 'is set aside with a warning, no SM count printed'))
PY
# Attention is named by its heads where shapes recorded them, never by a
# guess (issue 58): no layer type says MHA (an attention layer is Attn);
# a workload named gqa_ has fewer KV heads than query heads, mha_ as many,
# mqa_ one; the model's attention kind is its heads' (a rank of several
# sees its share: one KV head there may be GQA's; the shared traces,
# and the H200 captures of tests/data against their truth: 16 query / 4
# KV heads, GQA, from every view of the workloads, the compiled runs'
# too); an encoder (bidirectional attention only) has no stage.
python3 - "$SHARED" "$TS" "$here/data" <<'PY'
import json, os, re, subprocess, sys
sys.path.append(os.environ['TS_TESTS'])
import tscache
shared, ts, data = sys.argv[1:4]
paths = [os.path.join(shared, f) for f in sorted(os.listdir(shared)) if f.endswith(('.json', '.json.gz'))]
paths += [os.path.join(data, f) for f in sorted(os.listdir(data)) if f.startswith('torch_') and f.endswith('.json.gz')]
if os.environ.get('SMALL_ONLY'):
    paths = [p for p in paths if os.path.getsize(p) <= 1000000]
bad = []
checked = 0
for p in paths:
    r = json.loads(tscache.out(ts, '--no-progress', '-f', 'json', p) or '{}')
    if not r:
        continue
    name = os.path.basename(p)
    types = (r.get('layers') or {}).get('types') or {}
    if any(t.startswith('MHA') for t in types):
        bad.append('%s: layer types %s' % (name, sorted(types)))
    for w in r.get('workloads') or []:
        m = re.match(r'(gqa|mha|mqa)_.*_h(\d+)_kv(\d+)_', w['name'])
        if not m:
            continue
        checked += 1
        h, kv = int(m.group(2)), int(m.group(3))
        want = 'mha' if h == kv else 'mqa' if kv == 1 else 'gqa'
        if m.group(1) != want:
            bad.append('%s: %s is %s' % (name, w['name'], want))
    a = r['model'].get('attention')
    if a:
        want = 'MHA' if a['heads'] == a['kv_heads'] else 'GQA' if a['kv_heads'] > 1 else \
            'GQA or MQA' if a['per_rank'] else 'MQA'
        if a['kind'] != want or a['kind'] not in (r['model'].get('described') or ''):
            bad.append('%s: model attention %s' % (name, a))
    # an encoder's forward (bidirectional attention, no causal one, no
    # evidence of generation but an embedding) has no stage; a trace so
    # made is called one
    lay = r.get('layers') or {}
    kinds = [w['name'] for w in r.get('workloads') or [] if w['kind'] in ('gqa', 'mla')]
    bidir = kinds and all(k.startswith('attn_bidir_') for k in kinds)
    if lay.get('encoder') and any(q['stage'] != 'unknown' for q in r['passes']):
        bad.append('%s: an encoder with staged passes' % name)
    if bidir and set(lay.get('generation_evidence') or []) <= {'embedding'} and \
            not lay.get('diffusion') and not lay.get('encoder'):
        bad.append('%s: bidirectional attention only, not called an encoder' % name)
    t = p[:-len('.json.gz')] + '.truth.json'
    if name.startswith('torch_') and os.path.exists(t) and 'graph' not in name:
        tr = json.load(open(t))
        if not a or (a['heads'], a['kv_heads']) != (tr['heads'], tr['kv_heads']):
            bad.append('%s: attention %s, truth %s/%s' % (name, a, tr['heads'], tr['kv_heads']))
print('%s - claims: attention named by its heads (%d workloads; no MHA layer type; the H200 eager '
      'and compiled captures GQA 16/4 as their truth; bidirectional attention only is an encoder, '
      'whose passes have no stage)%s' % ('ok' if not bad and checked else 'not ok', checked,
                                              '' if not bad else ': ' + '; '.join(bad[:4])))
PY
# A kernel typed by what its launch says where its name cannot (issue
# 58): the GB10 decode's cunn_SoftMaxForward, launched by aten::_softmax
# from vLLM's topk_topp_sampler.py, is sampling; the switch transformer's
# softmax kernels, launched from its attention module, stay attention.
python3 - "$SHARED" "$TS" <<'PY'
import json, os, subprocess, sys
sys.path.append(os.environ['TS_TESTS'])
import tscache
shared, ts = sys.argv[1:3]
def kernels(f):
    p = os.path.join(shared, f)
    if not os.path.exists(p):
        return None
    d = json.loads(tscache.out(ts, '--no-progress', '-f', 'json', p))
    return [(k['name'], k['category'], k['count']) for k in d['kernels'] if 'oftMax' in k['name'] or 'softmax_warp' in k['name']]
g = kernels('vllm_qwen3.5-27b-nvfp4_gb10_decode_bs4_piecewise_10steps.pt.trace.json.gz')
s = kernels('switchtransformers_toy-moe_a100_train.json')
if g is None or s is None:
    print('skip - claims: the GB10 or switch transformer trace is not here')
else:
    ok = g and all(c == 'Sampling' for _, c, _ in g) and s and all(c == 'Attention-Softmax' for _, c, _ in s)
    print('%s - claims: a softmax by its call site: the sampler\'s is sampling (GB10), attention\'s stays attention%s'
          % ('ok' if ok else 'not ok', '' if ok else ' (%s; %s)' % (g, s)))
PY
finish
