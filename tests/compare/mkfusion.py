#!/usr/bin/env python3
"""Two synthetic Kineto traces of one dense decoder, one side fused, truth by construction.

    mkfusion.py --out-a A.json --out-b B.json --truth TRUTH.json
                [--fuse allreduce+norm|add+norm] [--fused-side a|b]
                [--layers N] [--decode K] [--seed S]

For `tracestream compare A B`: both traces run the same small dense decoder
(N layers, K decode passes of one token each, eager vLLM-style kernels).
One side (the fused side) runs, once per layer, a fused kernel where the
other side runs two separate kernels:

  allreduce+norm  (tensor parallel 4: an all-reduce after the O projection
                  and after the MLP of every layer)
                  separate: ncclDevKernel_AllReduce_Sum (Comm-AllReduce)
                            then vllm::rms_norm_kernel (Norm-RMS), the
                            post-attention norm
                  fused:    tensorrt_llm ar_fusion
                            allreduce_fusion_kernel_oneshot_lamport
                            (Comm-AllReduce-Norm)
                  the MLP all-reduce stays a separate nccl kernel on both.
  add+norm        (tensor parallel 1, no all-reduce)
                  separate: ATen vectorized_elementwise_kernel
                            CUDAFunctorOnSelf_add (Elementwise-ATen), the
                            residual add, then vllm::rms_norm_kernel
                  fused:    vllm::fused_add_rms_norm_kernel (Norm-FusedAddRMS)

Options:
  --out-a F      trace A (written)
  --out-b F      trace B (written)
  --truth F      the truth (JSON, below)
  --fuse X       allreduce+norm (default) or add+norm
  --fused-side S a or b (default b): which trace runs the fused kernel
  --layers N     decoder layers per pass (default 4, at least 3)
  --decode K     decode passes per trace (default 3)
  --seed S       seed of the duration jitter (default 1); same options,
                 same files

One pass, in launch order (both sides):
  preamble   FillFunctor (attention metadata), embedding (indexSelectLargeIndex)
  N layers   input RMSNorm, QKV GEMM, RoPE, KV-cache write, FA3 attention,
             split-KV combine, O GEMM, [the fusion site: 2 kernels or the
             fused one], gate/up GEMM, SiLU-and-mul, down GEMM,
             [allreduce+norm: MLP all-reduce]
  tail       final RMSNorm, LM-head GEMM, argmax sampling
Every layer has the same kernel names, so any layer is a typical one.
The two sides draw their durations from different seeds (seed*2+0 for A,
seed*2+1 for B): two runs, not one file copied.

How `tracestream patterns explain` typed these names when this was written
(type / category; the compare group is the type's group in
patterns/compare.yaml): FillFunctor elementwise/Elementwise-ATen;
indexSelectLargeIndex embedding/Embedding; rms_norm_kernel norm/Norm-RMS;
sm90_xmma ... cublas gemm/GEMM-cuBLAS; cutlass::Kernel2 ... s16816gemm
gemm/GEMM-CUTLASS; rotary_embedding_kernel rope/RoPE;
reshape_and_cache_flash kv_cache/KVCache-Write; FA3 device_kernel
attention/Attention-Flash; FlashAttnFwdCombine
attention/Attention-Flash-Combine; act_and_mul_kernel
activation/Activation-SiLU-Gated; ncclDevKernel_AllReduce
communication/Comm-AllReduce; allreduce_fusion_kernel_oneshot_lamport
communication/Comm-AllReduce-Norm; CUDAFunctorOnSelf_add
elementwise/Elementwise-ATen; fused_add_rms_norm_kernel
norm/Norm-FusedAddRMS; ArgMaxOps reduce sampling/Sampling.

Truth (--truth), computed here from the construction:
  fusion, fused_side ("a"/"b"), layers, decode,
  merged_row: the name of the merged operation row (the fusion's part
    groups and the fused kernel's group, joined with " + " in the order
    of the groups in patterns/compare.yaml: "norm + communication",
    "norm + elementwise"),
  merged: {"a": {count, total_ns, total_us}, "b": {...}}: every kernel of
    the merged groups on each side,
  rows: {group name: {"a": {...}, "b": {...}}} for every other group that
    has kernels on either side (count 0 / total 0 on a side without),
  kernel_time_us / kernel_time_ns / kernels: per side, every kernel,
  passes / layers_total: per side, K and K * N,
  align: the expected alignment of a decode layer, in order: a list of
    {"kind": "same"|"fused", "fusion": name|null, "a": [names], "b": [names]}
    (the fused pair: the fused kernel on the fused side, the 2 separate
    kernels on the other, in launch order; every other kernel 1-to-1),
  layer_avg_ns: per side, per layer index, per kernel of that layer, its
    duration summed over the K passes (divide by K for the average),
  layer_names: per side, per layer index, the kernel names of that layer
    (the same in every pass).

Durations are whole nanoseconds written with 3 decimals (microseconds), so
every sum is exact.
"""
import json
import random
import sys

# ------------------------------------------------------------ kernel names
FILL = ('void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<int>, '
        'std::array<char*, 1ul> >(int, at::native::FillFunctor<int>, std::array<char*, 1ul>)')
EMBED = ('void at::native::(anonymous namespace)::indexSelectLargeIndex<c10::BFloat16, long, '
         'unsigned int, 2, 2, -2, true>(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, '
         'at::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>, '
         'at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, '
         'unsigned int, long)')
RMSNORM = ('void vllm::rms_norm_kernel<c10::BFloat16>(c10::BFloat16*, c10::BFloat16 const*, '
           'c10::BFloat16 const*, float, int, int)')
FUSED_ADD_RMSNORM = ('void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, '
                     'c10::BFloat16*, c10::BFloat16 const*, float, int, int)')
ADD = ('void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctorOnSelf_add<'
       'c10::BFloat16>, std::array<char*, 2ul> >(int, at::native::CUDAFunctorOnSelf_add<'
       'c10::BFloat16>, std::array<char*, 2ul>)')
NCCL_AR = 'ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)'
AR_NORM = ('void tensorrt_llm::kernels::ar_fusion::allreduce_fusion_kernel_oneshot_lamport<'
           '(tensorrt_llm::kernels::ar_fusion::AllReduceFusionPattern)1, __nv_bfloat16, 4, true, '
           'false>(tensorrt_llm::kernels::ar_fusion::AllReduceFusionParams)')
GEMM_XMMA_128 = ('sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_'
                 'execute_segment_k_off_kernel__5x_cublas')
GEMM_XMMA_256 = ('sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_warpgroupsize2x1x1_'
                 'execute_segment_k_off_kernel__5x_cublas')
GEMM_CUTLASS_128 = ('void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_128x128_32x3_'
                    'nn_align8>(cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_128x128_32x3_nn_align8::Params)')
GEMM_CUTLASS_64 = ('void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x5_'
                   'tn_align8>(cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x5_tn_align8::Params)')
ROPE = ('void vllm::rotary_embedding_kernel<c10::BFloat16, true>(long const*, c10::BFloat16*, '
        'c10::BFloat16*, c10::BFloat16 const*, int, long, long, int, int, int)')
KVW = ('void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, __nv_bfloat16, '
       '(vllm::Fp8KVCacheDataType)0>(__nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16*, '
       '__nv_bfloat16*, long const*, long, long, long, long, long, int, int, int, float const*, '
       'float const*)')
_FA3_T = ('flash::FlashAttnFwdSm90<flash::CollectiveMainloopFwdSm90<2, cute::tuple<cute::C<1>, '
          'cute::C<1>, cute::C<1> >, cute::tuple<cute::C<128>, cute::C<128>, cute::C<128> >, 128, '
          'cutlass::bfloat16_t, float, cutlass::arch::Sm90, true, false, false, true, true, false, '
          'false, true, true, true, false, false>, flash::CollectiveEpilogueFwd<cute::tuple<'
          'cute::C<128>, cute::C<128>, cute::C<128> >, cute::tuple<cute::C<1>, cute::C<1>, '
          'cute::C<1> >, cutlass::bfloat16_t, cutlass::arch::Sm90, 256, true, true, false, false>, '
          'flash::StaticPersistentTileScheduler<256, 128, true, false, true> >')
ATTN = ('void cutlass::device_kernel<flash::enable_sm90_or_later<' + _FA3_T + ' > >(' + _FA3_T +
        '::Params)')
_COMB_T = ('flash::FlashAttnFwdCombine<cute::tuple<cute::C<8>, cute::C<128> >, 7, 256, 1, false, '
           'true, cutlass::bfloat16_t, float, cutlass::arch::Sm90>')
COMBINE = 'void ' + _COMB_T + '(' + _COMB_T + '::Params)'
ACT = ('void vllm::act_and_mul_kernel<c10::BFloat16, &(c10::BFloat16 vllm::silu_kernel<'
       'c10::BFloat16>(c10::BFloat16 const&)), true>(c10::BFloat16*, c10::BFloat16 const*, int)')
SAMPLE = ('void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, '
          'at::native::ArgMaxOps<float>, unsigned int, long, 4> >(at::native::ReduceOp<float, '
          'at::native::ArgMaxOps<float>, unsigned int, long, 4>)')

# role -> (kernel name, compare group, CPU op, base duration in ns)
ROLES = {
    'fill': (FILL, 'elementwise', 'aten::fill_', 1500),
    'embed': (EMBED, 'embedding', 'aten::embedding', 2600),
    'norm_in': (RMSNORM, 'norm', '_C::rms_norm', 2900),
    'norm_post': (RMSNORM, 'norm', '_C::rms_norm', 2900),
    'norm_final': (RMSNORM, 'norm', '_C::rms_norm', 2900),
    'qkv': (GEMM_XMMA_128, 'gemm', 'aten::linear', 9000),
    'rope': (ROPE, 'rope', '_C::rotary_embedding', 2100),
    'kvw': (KVW, 'kv_cache', '_C_cache_ops::reshape_and_cache_flash', 1900),
    'attn': (ATTN, 'attention', '_vllm_fa3_C::fwd', 12000),
    'combine': (COMBINE, 'attention', None, 2200),   # launched by the attention op
    'oproj': (GEMM_CUTLASS_128, 'gemm', 'aten::linear', 7000),
    'gateup': (GEMM_XMMA_256, 'gemm', 'aten::linear', 26000),
    'act': (ACT, 'activation', '_C::silu_and_mul', 2300),
    'down': (GEMM_CUTLASS_64, 'gemm', 'aten::linear', 14000),
    'lmhead': (GEMM_XMMA_128, 'gemm', 'aten::linear', 60000),
    'sample': (SAMPLE, 'sampling', 'aten::argmax', 3500),
    # the fusion sites
    'ar': (NCCL_AR, 'communication', 'c10d::allreduce_', 9500),
    'ar_mlp': (NCCL_AR, 'communication', 'c10d::allreduce_', 9500),
    'ar_norm': (AR_NORM, 'communication', 'trtllm::allreduce', 8800),
    'add': (ADD, 'elementwise', 'aten::add_', 1700),
    'add_norm': (FUSED_ADD_RMSNORM, 'norm', '_C::fused_add_rms_norm', 3100),
}

# the groups of patterns/compare.yaml, in its order (rows of merged groups
# are named by joining them in this order)
GROUP_ORDER = ['attention', 'moe', 'gemm', 'norm', 'activation', 'rope', 'kv_cache',
               'quantization', 'communication', 'sampling', 'embedding', 'elementwise',
               'memory']

# fusion -> (separate roles, fused role, part groups of patterns/compare.yaml)
FUSIONS = {
    'allreduce+norm': (['ar', 'norm_post'], 'ar_norm', ['communication', 'norm']),
    'add+norm': (['add', 'norm_post'], 'add_norm', ['norm', 'elementwise']),
}

HIDDEN, HEADS, KV_HEADS, HEAD_DIM, INTER, VOCAB = 4096, 32, 8, 128, 14336, 128256


def usage(msg):
    sys.stderr.write('mkfusion.py: %s\n' % msg)
    sys.stderr.write(__doc__.split('\n\n')[1] + '\n')
    raise SystemExit(2)


def parse(argv):
    o = {'out_a': None, 'out_b': None, 'truth': None, 'fuse': 'allreduce+norm',
         'fused_side': 'b', 'layers': 4, 'decode': 3, 'seed': 1}
    valued = {'--out-a': ('out_a', str), '--out-b': ('out_b', str), '--truth': ('truth', str),
              '--fuse': ('fuse', str), '--fused-side': ('fused_side', str),
              '--layers': ('layers', int), '--decode': ('decode', int), '--seed': ('seed', int)}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ('-h', '--help'):
            sys.stdout.write(__doc__)
            raise SystemExit(0)
        if a not in valued:
            usage('unknown option: ' + a)
        if i + 1 >= len(argv):
            usage('%s needs a value' % a)
        key, conv = valued[a]
        try:
            o[key] = conv(argv[i + 1])
        except ValueError:
            usage('bad value for %s: %s' % (a, argv[i + 1]))
        i += 2
    if not (o['out_a'] and o['out_b'] and o['truth']):
        usage('--out-a, --out-b and --truth are required')
    if o['fuse'] not in FUSIONS:
        usage('--fuse must be allreduce+norm or add+norm')
    if o['fused_side'] not in ('a', 'b'):
        usage('--fused-side must be a or b')
    if o['layers'] < 3:
        usage('--layers must be at least 3')
    if o['decode'] < 1:
        usage('--decode must be at least 1')
    return o


def layer_roles(o, fused):
    """Roles of one layer, in launch order, on a fused or a separate side."""
    sep, fr, _ = FUSIONS[o['fuse']]
    r = ['norm_in', 'qkv', 'rope', 'kvw', 'attn', 'combine', 'oproj']
    r += [fr] if fused else sep
    r += ['gateup', 'act', 'down']
    if o['fuse'] == 'allreduce+norm':
        r.append('ar_mlp')
    return r


def tp_of(o):
    return 4 if o['fuse'] == 'allreduce+norm' else 1


def gemm_nk(role, tp):
    return {
        'qkv': ((HEADS + 2 * KV_HEADS) * HEAD_DIM // tp, HIDDEN),
        'oproj': (HIDDEN, HEADS * HEAD_DIM // tp),
        'gateup': (2 * INTER // tp, HIDDEN),
        'down': (HIDDEN, INTER // tp),
        'lmhead': (VOCAB // tp, HIDDEN),
    }[role]


def launch_shape(role, tp):
    """(grid, block) of one decode launch (one token)."""
    if role in ('qkv', 'oproj', 'gateup', 'down', 'lmhead'):
        n, _ = gemm_nk(role, tp)
        tile = 64 if role == 'down' else 128
        return [(n + tile - 1) // tile, 1, 1], [128 if tile == 64 else 256, 1, 1]
    return {
        'fill': ([1, 1, 1], [512, 1, 1]),
        'embed': ([32, 1, 1], [128, 1, 1]),
        'norm_in': ([1, 1, 1], [1024, 1, 1]),
        'norm_post': ([1, 1, 1], [1024, 1, 1]),
        'norm_final': ([1, 1, 1], [1024, 1, 1]),
        'rope': ([1, 1, 1], [512, 1, 1]),
        'kvw': ([1, 1, 1], [1024, 1, 1]),
        'attn': ([132, 1, 1], [384, 1, 1]),
        'combine': ([HEADS // tp // 8 or 1, 1, 1], [256, 1, 1]),
        'act': ([INTER // tp // 1024 or 1, 1, 1], [1024, 1, 1]),
        'sample': ([1, 1, 1], [512, 1, 1]),
        'ar': ([2, 1, 1], [512, 1, 1]),
        'ar_mlp': ([2, 1, 1], [512, 1, 1]),
        'ar_norm': ([16, 1, 1], [1024, 1, 1]),
        'add': ([4, 1, 1], [128, 1, 1]),
        'add_norm': ([1, 1, 1], [1024, 1, 1]),
    }[role]


def us(ns):
    return float('%d.%03d' % divmod(int(ns), 1000))


def build_side(o, side, fused):
    """(trace document, list of passes: [(role, layer index or None, name, dur ns)])."""
    rng = random.Random(o['seed'] * 2 + (0 if side == 'a' else 1))
    tp = tp_of(o)
    CPU_PID, CPU_TID, GPU_PID, GPU_TID = 4242, 4242, 0, 7
    cpu, gpu, passes = [], [], []
    cpu_ts = 1_000_000_000
    gpu_ts = cpu_ts + 50_000
    ext, corr = 1000, 50_000

    def x(cat, name, pid, tid, ts, dur, args):
        return {'ph': 'X', 'cat': cat, 'name': name, 'pid': pid, 'tid': tid,
                'ts': us(ts), 'dur': us(dur), 'args': args}

    for pi in range(o['decode']):
        seq = [('fill', None), ('embed', None)]
        for li in range(o['layers']):
            seq += [(r, li) for r in layer_roles(o, fused)]
        seq += [('norm_final', None), ('lmhead', None), ('sample', None)]
        kernels = []
        attn_ext = None
        for role, li in seq:
            name, _, opname, base = ROLES[role]
            grid, block = launch_shape(role, tp)
            if role == 'attn':
                base += 20 * pi          # the context grows by one token a pass
            dur = max(500, int(base * rng.uniform(0.95, 1.05)))
            corr += 1
            if role == 'combine':
                e = attn_ext
            else:
                ext += 1
                e = ext
                args = {'External id': e, 'Record function id': 0}
                if role in ('qkv', 'oproj', 'gateup', 'down', 'lmhead'):
                    n, k = gemm_nk(role, tp)
                    args['Input Dims'] = [[1, k], [n, k], []]
                    args['Input type'] = ['c10::BFloat16', 'c10::BFloat16', '']
                cpu.append(x('cpu_op', opname, CPU_PID, CPU_TID, cpu_ts,
                             13000 if role == 'attn' else 7000, args))
                if role == 'attn':
                    attn_ext = e
            cpu.append(x('cuda_runtime', 'cudaLaunchKernel', CPU_PID, CPU_TID, cpu_ts + 1000, 4500,
                         {'External id': e, 'correlation': corr, 'cbid': 211}))
            cpu_ts += 8000
            gpu_ts = max(gpu_ts + 1200, cpu_ts + 3000)
            gpu.append(x('kernel', name, GPU_PID, GPU_TID, gpu_ts, dur,
                         {'External id': e, 'correlation': corr, 'device': 0, 'stream': GPU_TID,
                          'grid': grid, 'block': block}))
            gpu_ts += dur
            kernels.append((role, li, name, dur))
        passes.append(kernels)
        cpu_ts = max(cpu_ts, gpu_ts) + 200_000
        gpu_ts = cpu_ts + 50_000

    gpu.sort(key=lambda e: e['ts'])
    doc = {
        'schemaVersion': 1,
        'deviceProperties': [{'id': 0, 'name': 'NVIDIA H100 80GB HBM3', 'totalGlobalMem': 85029158912,
                              'computeMajor': 9, 'computeMinor': 0, 'maxThreadsPerBlock': 1024,
                              'numSms': 132, 'warpSize': 32}],
        'cuda_runtime_version': 12080,
        'traceEvents': [
            {'ph': 'M', 'name': 'process_name', 'pid': CPU_PID, 'tid': 0, 'args': {'name': 'python3'}},
            {'ph': 'M', 'name': 'process_name', 'pid': GPU_PID, 'tid': 0, 'args': {'name': 'GPU 0'}},
        ] + cpu + gpu,
    }
    if tp > 1:
        doc['distributedInfo'] = {'backend': 'nccl', 'rank': 0, 'world_size': tp}
    return doc, passes


def write_trace(path, doc):
    with open(path, 'w') as out:
        out.write('{\n')
        for k, v in doc.items():
            if k != 'traceEvents':
                out.write(' %s: %s,\n' % (json.dumps(k), json.dumps(v)))
        out.write(' "traceEvents": [\n')
        ev = doc['traceEvents']
        for i, e in enumerate(ev):
            out.write('  ' + json.dumps(e) + (',\n' if i + 1 < len(ev) else '\n'))
        out.write(' ]\n}\n')


def cell(count, ns):
    return {'count': count, 'total_ns': ns, 'total_us': us(ns)}


def truth_of(o, passes):
    sep, fr, parts = FUSIONS[o['fuse']]
    fs = o['fused_side']
    merged_groups = set(parts) | {ROLES[fr][1]}
    merged_row = ' + '.join(g for g in GROUP_ORDER if g in merged_groups)
    t = {'fusion': o['fuse'], 'fused_side': fs, 'layers': o['layers'], 'decode': o['decode'],
         'merged_row': merged_row, 'merged_groups': sorted(merged_groups, key=GROUP_ORDER.index),
         'merged': {}, 'rows': {}, 'kernel_time_ns': {}, 'kernel_time_us': {}, 'kernels': {},
         'passes': {}, 'layers_total': {}, 'layer_avg_ns': {}, 'layer_names': {}}
    per_group = {}
    for side in ('a', 'b'):
        count, ns = {}, {}
        for p in passes[side]:
            for role, _, _, dur in p:
                g = ROLES[role][1]
                g = merged_row if g in merged_groups else g
                count[g] = count.get(g, 0) + 1
                ns[g] = ns.get(g, 0) + dur
        per_group[side] = (count, ns)
        allk = [k for p in passes[side] for k in p]
        t['kernel_time_ns'][side] = sum(k[3] for k in allk)
        t['kernel_time_us'][side] = us(t['kernel_time_ns'][side])
        t['kernels'][side] = len(allk)
        t['passes'][side] = len(passes[side])
        t['layers_total'][side] = len(passes[side]) * o['layers']
        # per layer index, per kernel of the layer: its duration summed over the passes
        lay = []
        for li in range(o['layers']):
            sums = None
            for p in passes[side]:
                d = [k[3] for k in p if k[1] == li]
                sums = d if sums is None else [u + v for u, v in zip(sums, d)]
            lay.append(sums)
        t['layer_avg_ns'][side] = lay
        t['layer_names'][side] = [[k[2] for k in passes[side][0] if k[1] == li]
                                  for li in range(o['layers'])]
    names = set(per_group['a'][0]) | set(per_group['b'][0])
    for g in sorted(names, key=lambda g: GROUP_ORDER.index(g) if g in GROUP_ORDER else -1):
        row = {s: cell(per_group[s][0].get(g, 0), per_group[s][1].get(g, 0)) for s in ('a', 'b')}
        if g == merged_row:
            t['merged'] = row
        else:
            t['rows'][g] = row
    # the alignment of one decode layer (every layer has the same kernels)
    roles = {s: layer_roles(o, s == fs) for s in ('a', 'b')}
    other = 'b' if fs == 'a' else 'a'
    align = []
    ro = roles[other]
    rf = roles[fs]
    # walk the fused side; its fused role takes the two separate roles
    k = 0
    for r in rf:
        if r == fr:
            pair = {'kind': 'fused', 'fusion': o['fuse'], fs: [ROLES[r][0]],
                    other: [ROLES[x][0] for x in sep]}
            assert ro[k:k + len(sep)] == sep
            k += len(sep)
        else:
            assert ro[k] == r
            pair = {'kind': 'same', 'fusion': None, fs: [ROLES[r][0]], other: [ROLES[ro[k]][0]]}
            k += 1
        align.append(pair)
    assert k == len(ro)
    t['align'] = align
    t['layer_roles'] = roles
    return t


def main():
    o = parse(sys.argv[1:])
    passes = {}
    for side in ('a', 'b'):
        doc, passes[side] = build_side(o, side, side == o['fused_side'])
        write_trace(o['out_a'] if side == 'a' else o['out_b'], doc)
    with open(o['truth'], 'w') as f:
        json.dump(truth_of(o, passes), f, indent=1)
        f.write('\n')


if __name__ == '__main__':
    main()
