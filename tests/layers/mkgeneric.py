#!/usr/bin/env python3
"""Synthetic Kineto traces of a generic decoder, structure known by construction.

    mkgeneric.py [--layers N] [--tp 1|4] [--prefill T] [--decode K] [--batch B]
                 [--order prefill-first|prefill-last|prefill-middle]
                 [--annotate none|sglang] [--graph] [--moe] [--seed S]
                 [--once-attn head|tail|front] [--compiled-embed]
                 [--hybrid K] [--plain-gemm] [--flashinfer] [--rccl]
                 [--truth | --truth-file FILE]

The kernel names are the ones torch.compile (Inductor), cuBLAS, CUTLASS,
FlashAttention 3 and vLLM's custom ops give: no model family's rule was
written for this trace, so a layer / pass / stage detector has to work from
the structure (norm -> attention -> MLP, repeated N times) and from token
counts (grids, GEMM shapes), not from model-specific names.

Options:
  --layers N     decoder layers per pass (default 4)
  --tp 1|4       tensor parallel degree: 4 adds a custom all-reduce after the
                 O projection and after the down projection (MLP) of every
                 layer, and divides the GEMM shapes (default 1)
  --prefill T    one prefill pass of T tokens (one sequence; default: none)
  --decode K     K decode passes (default 0), each one token per sequence
  --batch B      sequences per decode pass (default 1)
  --order O      where the prefill pass goes among the decodes:
                 prefill-first (default), prefill-last, prefill-middle
  --annotate A   none (default): no step annotation of any kind;
                 sglang: a CPU user_annotation step[EXTEND bs=1 toks=T] /
                 step[DECODE bs=B] around each pass's launches and a
                 gpu_user_annotation of the same name around its kernels
  --graph        graph-replayed (vLLM piecewise CUDA graphs): the kernels of
                 the compiled pieces (embedding, norms, GEMMs, RoPE, SiLU,
                 all-reduces, all MoE kernels, final norm, LM head) carry no
                 External id and have no cpu_op; each piece is one
                 cudaGraphLaunch whose correlation its kernels share. The
                 preamble fill, KV-cache write, attention (+ combine) and
                 sampling stay eager, with their ops
  --moe          MoE MLP instead of the dense one
  --once-attn W  a kernel typed attention by name that runs once per pass: a
                 planner no rule knows, named like FlashAttention 3's
                 (flash::tile_plan_kernel, which the generic flash rule
                 types attention; the table knows FA3's own planner,
                 prepare_varlen_num_blocks, as metadata), launched by its
                 metadata op:
                 head = after the embedding, before the first layer's input
                 norm; tail = after the last layer, before the final norm;
                 front = before the embedding. It is no layer: the truth's
                 layers are unchanged and it counts among the orphans
  --hybrid K     a linear-attention hybrid (Qwen3-Next style): K gated
                 delta net layers (input norm, in-projection, causal conv,
                 gating, the delta rule, its gated norm, out-projection)
                 before each full-attention layer (which adds q/k norms and
                 a sigmoid output gate); --layers counts both kinds
  --plain-gemm   NVFP4 GEMMs as some builds name them, just `gemm`, each
                 after an FP4 quantize kernel: no rule types a GEMM by name
  --flashinfer   FlashInfer paged attention, whose kernel name says Prefill
                 in decode passes too (the tensor-core decode path)
  --rccl         the tensor-parallel all-reduces through RCCL, which names
                 every collective ncclDevKernel_Generic_*: the kernel name
                 hides the collective; its op, record_param_comms with args
                 "Collective name": "allreduce" (eager), says it
  --compiled-embed  the embedding as torch.compile leaves it: an Inductor
                 gather (triton_poi_fused_embedding_0), typed elementwise,
                 so nothing by name starts a pass
  --seed S       seed of the duration jitter (default 1); same seed, same file
  --truth        print the truth (JSON, below) instead of the trace
  --truth-file F write the trace to stdout and the truth to F (one run for both)

One pass, in launch order:
  preamble     FillFunctor (attention metadata), embedding (indexSelectLargeIndex)
  N layers     dense:  input RMSNorm, QKV GEMM, RoPE, KV-cache write, attention,
                       [decode only: split-KV combine], O GEMM, [TP: all-reduce],
                       post-attention RMSNorm, gate/up GEMM, SiLU-and-mul,
                       down GEMM, [TP: all-reduce]
               --moe:  the same up to the post-attention norm, then router
                       GEMM, top-k softmax, moe_align_block_size, two expert
                       GEMMs, moe_sum, [TP: all-reduce]
  tail         final RMSNorm, LM-head GEMM, argmax sampling

Inductor names: the first layer's input norm is
triton_red_fused__to_copy_mean_mul_pow_rsqrt_0 and its RoPE, post-attention
norm and SiLU have suffixes 1-3; the other layers' have suffixes 4-7 (input
norm triton_red_fused_add_mean_mul_pow_rsqrt_4, a fused residual add), the
final norm suffix 8. The attention kernel has the same name in prefill and
decode. The expert GEMMs have a plain CUTLASS GEMM name, the same as the O
projection's (and the router GEMM the down projection's), so only their
place (between top-k/align and moe_sum) or, eager, their CPU op
(vllm::moe_forward, whose External id they carry) says they are MoE.

How `tracestream patterns explain` typed these names when this was written
(type / category): FillFunctor elementwise/Elementwise-ATen; embedding
embedding/Embedding; triton_red_fused_*rsqrt_* norm/Norm-RMS; sm90_xmma
gemm/GEMM-cuBLAS; cutlass::Kernel2 ... s16816gemm gemm/GEMM-CUTLASS (so the
expert GEMMs are typed gemm by name); triton_poi_fused_* elementwise/
Triton-Fused (RoPE and SiLU alike: no Activation-* category, hence no fc
work by name); reshape_and_cache_flash kv_cache/KVCache-Write; FA3
device_kernel attention/Attention-Flash; FlashAttnFwdCombine
attention/Attention-Flash-Combine; cross_device_reduce_1stage
communication/Comm-AllReduce; topkGatingSoftmax moe/MoE-Routing/TopK;
moe_align_block_size_kernel moe/MoE-Sort/Align; moe_sum_kernel
moe/MoE-Finalize; ArgMaxOps reduce sampling/Sampling. No stage hint on any.

Token counts: the prefill pass has T tokens, a decode pass B (one per
sequence). The KV-cache write's grid is [tokens, 1, 1]; eager GEMM ops
(aten::linear) have Input Dims [[M, K], [N, K], []] with M = tokens (the
LM head too), the expert GEMMs' op vllm::moe_forward [[M, H], [M, E], []].
The attention grid is the same in both stages (a persistent scheduler).

Truth (--truth), computed here from the construction:
  passes, layers, stages (per pass "prefill" / "decode"),
  kernels_per_pass (every kernel of the pass, preamble and tail included),
  layer_kernels (per pass, the kernel count of each layer: from its input
  norm to the end of its MLP, the MLP all-reduce included under TP),
  orphans_per_pass (preamble + final norm + LM head + sampling),
  moe_expert_kernels / moe_expert_us (expert GEMM launches and their summed
  time in the whole trace), moe_kernels / moe_us (all MoE-block kernels:
  top-k, align, experts, sum; not the router GEMM), kv_grid (per pass its
  token count), tp, graph, annotate.

Durations are whole nanoseconds written with 3 decimals, so sums are exact.
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
NORM_IN_FIRST = 'triton_red_fused__to_copy_mean_mul_pow_rsqrt_0'
ROPE_FIRST = 'triton_poi_fused_add_cat_clone_mul_1'
NORM_POST_FIRST = 'triton_red_fused_add_mean_mul_pow_rsqrt_2'
SILU_FIRST = 'triton_poi_fused_mul_silu_3'
NORM_IN = 'triton_red_fused_add_mean_mul_pow_rsqrt_4'
ROPE = 'triton_poi_fused_add_cat_clone_mul_5'
NORM_POST = 'triton_red_fused_add_mean_mul_pow_rsqrt_6'
SILU = 'triton_poi_fused_mul_silu_7'
NORM_FINAL = 'triton_red_fused_add_mean_mul_pow_rsqrt_8'
GEMM_XMMA_128 = ('sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_'
                 'execute_segment_k_off_kernel__5x_cublas')
GEMM_XMMA_256 = ('sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_warpgroupsize2x1x1_'
                 'execute_segment_k_off_kernel__5x_cublas')
GEMM_CUTLASS_128 = ('void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_128x128_32x3_'
                    'nn_align8>(cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_128x128_32x3_nn_align8::Params)')
GEMM_CUTLASS_64 = ('void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x5_'
                   'tn_align8>(cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x5_tn_align8::Params)')
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
ALLREDUCE = ('void vllm::cross_device_reduce_1stage<__nv_bfloat16, 4>(vllm::RankData*, '
             'vllm::RankSignals, vllm::Signal*, __nv_bfloat16*, int, int)')
TOPK = ('void vllm::moe::topkGatingSoftmax<8, 64, 4, 16, 32, int, 4>(float const*, bool const*, '
        'float*, int, int*, int*, int, int, int, bool)')
ALIGN = 'moe_align_block_size_kernel'
MOESUM = 'void vllm::moe::moe_sum_kernel<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16 const*, int)'
PREPARE = ('void flash::tile_plan_kernel<1, true>(int, int, int, int const*, '
           'int const*, int const*, int, int, cutlass::FastDivmod, int*, int*, bool)')
EMBED_COMPILED = 'triton_poi_fused_embedding_0'
GDN_CONV_DEC = 'void causal_conv1d_update_kernel<__nv_bfloat16, 4, true>(ConvParamsBase)'
GDN_CONV_PRE = '_causal_conv1d_fwd_kernel'
GDN_GATING = 'fused_gdn_gating_kernel'
GDN_DEC = 'fused_recurrent_gated_delta_rule_fwd_kernel'
GDN_PRE = 'chunk_gated_delta_rule_fwd_kernel_h_blockdim64'
GDN_NORM = '_layer_norm_fwd_1pass_kernel'
QK_NORM = ('void vllm::rms_norm_kernel<c10::BFloat16, 8, 2>(c10::BFloat16*, c10::BFloat16 const*, '
           'long, long, c10::BFloat16 const*, float, int, int)')
SIGMOID = ('void at::native::vectorized_elementwise_kernel<4, at::native::sigmoid_kernel_cuda'
           '(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda(c10::BFloat16)#1}, '
           'std::array<char*, 2ul> >(int, at::native::sigmoid_kernel_cuda(at::TensorIteratorBase&)::'
           '{lambda()#2}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>)')
FP4_QUANT = ('void cvt_fp16_to_fp4<__nv_bfloat16, false>(int, int, int const*, __nv_bfloat16 const*, '
             'float const*, unsigned int*, unsigned int*)')
PLAIN_GEMM = 'gemm'
RCCL_GENERIC = 'ncclDevKernel_Generic_4(ncclDevKernelArgsStorage<4096ul>)'
FLASHINFER = ('void flashinfer::BatchPrefillWithPagedKVCacheKernel<flashinfer::KernelTraits<'
              '(flashinfer::MaskMode)0, 128u, 1u, 4u, 8u, 8u, 1u, 1u, (flashinfer::PosEncodingMode)0, '
              '__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float, int, flashinfer::DefaultAttention<'
              'false, false, false, false> >, false, 1u, flashinfer::PagedParams<__nv_bfloat16, '
              '__nv_bfloat16, __nv_bfloat16, int> >(flashinfer::PagedParams<__nv_bfloat16, '
              '__nv_bfloat16, __nv_bfloat16, int>)')
SAMPLE = ('void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, '
          'at::native::ArgMaxOps<float>, unsigned int, long, 4> >(at::native::ReduceOp<float, '
          'at::native::ArgMaxOps<float>, unsigned int, long, 4>)')

# ------------------------------------------------------------ model shape
HIDDEN, INTER, HEADS, KV_HEADS, HEAD_DIM, VOCAB = 4096, 14336, 32, 8, 128, 128256
EXPERTS, TOPK_K, MOE_INTER = 64, 8, 1408
FLOP_PER_NS, BYTES_PER_NS, LINK_BYTES_PER_NS = 5e5, 3000.0, 200.0

# roles replayed from a CUDA graph under --graph (everything in the
# compiled pieces); the others stay eager
GRAPH_ROLES = {'embed', 'embed_c', 'norm_in', 'qkv', 'rope', 'oproj', 'ar', 'norm_post', 'gateup', 'silu',
               'down', 'router', 'topk', 'align', 'expert1', 'expert2', 'moesum', 'norm_final',
               'lmhead', 'qknorm', 'gate', 'quant'}
MOE_ROLES = {'topk', 'align', 'expert1', 'expert2', 'moesum'}
EXPERT_ROLES = {'expert1', 'expert2'}


def usage(msg):
    sys.stderr.write('mkgeneric.py: %s\n' % msg)
    sys.stderr.write(__doc__.split('\n\n')[1] + '\n')
    raise SystemExit(2)


def parse(argv):
    o = {'layers': 4, 'tp': 1, 'prefill': None, 'decode': 0, 'batch': 1,
         'order': 'prefill-first', 'annotate': 'none', 'graph': False, 'moe': False,
         'seed': 1, 'truth': False, 'truth_file': None, 'once_attn': None,
         'compiled_embed': False, 'hybrid': 0, 'plain_gemm': False, 'flashinfer': False,
         'rccl': False}
    valued = {'--layers': ('layers', int), '--tp': ('tp', int), '--prefill': ('prefill', int),
              '--decode': ('decode', int), '--batch': ('batch', int), '--order': ('order', str),
              '--annotate': ('annotate', str), '--seed': ('seed', int),
              '--truth-file': ('truth_file', str), '--once-attn': ('once_attn', str),
              '--hybrid': ('hybrid', int)}
    flags = {'--graph': 'graph', '--moe': 'moe', '--truth': 'truth',
             '--compiled-embed': 'compiled_embed', '--plain-gemm': 'plain_gemm',
             '--flashinfer': 'flashinfer', '--rccl': 'rccl'}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ('-h', '--help'):
            sys.stdout.write(__doc__)
            raise SystemExit(0)
        if a in flags:
            o[flags[a]] = True
            i += 1
        elif a in valued:
            if i + 1 >= len(argv):
                usage('%s needs a value' % a)
            key, conv = valued[a]
            try:
                o[key] = conv(argv[i + 1])
            except ValueError:
                usage('bad value for %s: %s' % (a, argv[i + 1]))
            i += 2
        else:
            usage('unknown option: ' + a)
    if o['layers'] < 1:
        usage('--layers must be at least 1')
    if o['tp'] not in (1, 4):
        usage('--tp must be 1 or 4')
    if o['prefill'] is not None and o['prefill'] < 1:
        usage('--prefill must be at least 1')
    if o['decode'] < 0 or o['batch'] < 1:
        usage('--decode must be >= 0 and --batch >= 1')
    if o['order'] not in ('prefill-first', 'prefill-last', 'prefill-middle'):
        usage('--order must be prefill-first, prefill-last or prefill-middle')
    if o['annotate'] not in ('none', 'sglang'):
        usage('--annotate must be none or sglang')
    if o['once_attn'] not in (None, 'head', 'tail', 'front'):
        usage('--once-attn must be head, tail or front')
    if o['prefill'] is None and o['decode'] == 0:
        usage('no pass: give --prefill T and/or --decode K')
    return o


def pass_plan(o):
    """[(stage, tokens)] in run order."""
    dec = [('decode', o['batch'])] * o['decode']
    if o['prefill'] is None:
        return dec
    pre = [('prefill', o['prefill'])]
    if o['order'] == 'prefill-first':
        return pre + dec
    if o['order'] == 'prefill-last':
        return dec + pre
    half = len(dec) // 2
    return dec[:half] + pre + dec[half:]


GEMM_ROLES = ('qkv', 'oproj', 'gateup', 'down', 'router', 'lmhead', 'expert1', 'expert2')


def is_linear(o, li):
    """Whether layer li is a gated delta net layer of a --hybrid model."""
    return o['hybrid'] > 0 and (li + 1) % (o['hybrid'] + 1) != 0


def layer_roles(o, stage, li=0):
    """Roles of one layer, in launch order."""
    tp = o['tp'] > 1
    if is_linear(o, li):
        r = ['norm_in', 'qkv', 'conv', 'gating', 'gdn', 'gnorm']
    elif o['hybrid']:
        r = ['norm_in', 'qkv', 'qknorm', 'qknorm', 'rope', 'kvw', 'attn']
    else:
        r = ['norm_in', 'qkv', 'rope', 'kvw', 'attn']
    if stage == 'decode' and 'attn' in r and not o['flashinfer']:
        r.append('combine')
    if o['hybrid'] and 'attn' in r:
        r.append('gate')      # the output gate: sigmoid(gate) * attention
    r.append('oproj')
    if tp:
        r.append('ar')
    r.append('norm_post')
    if o['moe']:
        r += ['router', 'topk', 'align', 'expert1', 'expert2', 'moesum']
    else:
        r += ['gateup', 'silu', 'down']
    if tp:
        r.append('ar')
    if o['plain_gemm']:   # each GEMM takes FP4 activations
        q = []
        for x in r:
            if x in GEMM_ROLES:
                q.append('quant')
            q.append(x)
        r = q
    return r


def kernel_name(role, first, o=None, stage=None):
    if o is not None:
        if o['plain_gemm'] and role in GEMM_ROLES:
            return PLAIN_GEMM
        if o['flashinfer'] and role == 'attn':
            return FLASHINFER
        if o['rccl'] and role == 'ar':
            return RCCL_GENERIC
        if role == 'conv':
            return GDN_CONV_PRE if stage == 'prefill' else GDN_CONV_DEC
        if role == 'gdn':
            return GDN_PRE if stage == 'prefill' else GDN_DEC
    return {
        'gating': GDN_GATING, 'gnorm': GDN_NORM, 'qknorm': QK_NORM, 'gate': SIGMOID,
        'quant': FP4_QUANT,
        'fill': FILL, 'embed': EMBED, 'embed_c': EMBED_COMPILED, 'prepare': PREPARE,
        'norm_in': NORM_IN_FIRST if first else NORM_IN,
        'rope': ROPE_FIRST if first else ROPE,
        'norm_post': NORM_POST_FIRST if first else NORM_POST,
        'silu': SILU_FIRST if first else SILU,
        'qkv': GEMM_XMMA_128, 'oproj': GEMM_CUTLASS_128, 'gateup': GEMM_XMMA_256,
        'down': GEMM_CUTLASS_64, 'router': GEMM_CUTLASS_64, 'expert1': GEMM_CUTLASS_128,
        'expert2': GEMM_CUTLASS_128, 'lmhead': GEMM_XMMA_128,
        'kvw': KVW, 'attn': ATTN, 'combine': COMBINE, 'ar': ALLREDUCE,
        'topk': TOPK, 'align': ALIGN, 'moesum': MOESUM,
        'norm_final': NORM_FINAL, 'sample': SAMPLE,
    }[role]


def gemm_nk(role, tp):
    """(N, K) of a GEMM role, per rank."""
    return {
        'qkv': ((HEADS + 2 * KV_HEADS) * HEAD_DIM // tp, HIDDEN),
        'oproj': (HIDDEN, HEADS * HEAD_DIM // tp),
        'gateup': (2 * INTER // tp, HIDDEN),
        'down': (HIDDEN, INTER // tp),
        'router': (EXPERTS, HIDDEN),
        'expert1': (2 * MOE_INTER // tp, HIDDEN),
        'expert2': (HIDDEN, MOE_INTER // tp),
        'lmhead': (VOCAB // tp, HIDDEN),
    }[role]


def cdiv(a, b):
    return (a + b - 1) // b


def shape(role, tok, seqs, ctx, tp):
    """(grid, block, base duration in ns) of one launch."""
    heads = HEADS // tp
    if role in ('qkv', 'oproj', 'gateup', 'down', 'router', 'lmhead', 'expert1', 'expert2'):
        n, k = gemm_nk(role, tp)
        m = tok * TOPK_K if role in EXPERT_ROLES else tok
        tile = 64 if role in ('down', 'router') else 128
        weights = n * k * 2 * (min(EXPERTS, m) if role in EXPERT_ROLES else 1)
        ns = 3000 + 2.0 * m * n * k / FLOP_PER_NS + weights / BYTES_PER_NS
        return [cdiv(n, tile), cdiv(m, tile), 1], [128 if tile == 64 else 256, 1, 1], ns
    if role in ('conv', 'gating', 'gdn', 'gnorm'):
        return [cdiv(tok * heads, 4), 1, 1], [128, 1, 1], 3000 + tok * heads * HEAD_DIM * 8 / BYTES_PER_NS
    if role == 'qknorm':
        return [tok * heads, 1, 1], [128, 1, 1], 1800 + tok * heads * HEAD_DIM * 4 / BYTES_PER_NS
    if role in ('gate', 'quant'):
        return [cdiv(tok * HIDDEN, 1024), 1, 1], [256, 1, 1], 1500 + tok * HIDDEN * 4 / BYTES_PER_NS
    if role == 'prepare':
        return [cdiv(seqs, 32), 1, 1], [32, 1, 1], 2100
    if role == 'fill':
        return [cdiv(seqs + 1, 512), 1, 1], [512, 1, 1], 1500
    if role in ('embed', 'embed_c'):
        return [min(65535, tok * 32), 1, 1], [128, 1, 1], 2500 + tok * HIDDEN * 4 / BYTES_PER_NS
    if role in ('norm_in', 'norm_post', 'norm_final'):
        return [tok, 1, 1], [512, 1, 1], 2500 + tok * HIDDEN * 6 / BYTES_PER_NS
    if role == 'rope':
        return [cdiv(tok * (heads + KV_HEADS) * HEAD_DIM, 1024), 1, 1], [256, 1, 1], \
            2000 + tok * (heads + KV_HEADS) * HEAD_DIM * 6 / BYTES_PER_NS
    if role == 'kvw':
        return [tok, 1, 1], [min(1024, KV_HEADS * HEAD_DIM), 1, 1], \
            1800 + tok * 2 * KV_HEADS * HEAD_DIM * 4 / BYTES_PER_NS
    if role == 'attn':
        q = tok
        flops = 4.0 * q * ctx * HEAD_DIM * heads / (2 if q == ctx else 1)
        kv = 2.0 * ctx * (KV_HEADS // tp or 1) * HEAD_DIM * 2 * seqs
        return [132, 1, 1], [384, 1, 1], 5000 + flops / FLOP_PER_NS + kv / BYTES_PER_NS
    if role == 'combine':
        return [cdiv(seqs * heads, 8), 1, 1], [256, 1, 1], 2200
    if role == 'ar':
        return [36, 1, 1], [512, 1, 1], 5000 + tok * HIDDEN * 2 / LINK_BYTES_PER_NS
    if role == 'silu':
        return [cdiv(tok * INTER // tp, 1024), 1, 1], [256, 1, 1], 1800 + tok * INTER // tp * 6 / BYTES_PER_NS
    if role == 'topk':
        return [cdiv(tok, 4), 1, 1], [128, 1, 1], 2500 + tok * 2
    if role == 'align':
        return [1, 1, 1], [1024, 1, 1], 3500 + tok
    if role == 'moesum':
        return [tok, 1, 1], [1024, 1, 1], 2000 + tok * TOPK_K * HIDDEN * 2 / BYTES_PER_NS
    if role == 'sample':
        return [seqs, 1, 1], [512, 1, 1], 3500
    raise AssertionError(role)


def cpu_op(role):
    """Name of the op that launches an eager kernel of this role."""
    return {
        'fill': 'aten::fill_', 'embed': 'aten::embedding',
        'prepare': '_vllm_fa3_C::get_scheduler_metadata',
        'qkv': 'aten::linear', 'oproj': 'aten::linear', 'gateup': 'aten::linear',
        'down': 'aten::linear', 'router': 'aten::linear', 'lmhead': 'aten::linear',
        'kvw': '_C_cache_ops::reshape_and_cache_flash', 'attn': '_vllm_fa3_C::fwd',
        'ar': '_C_custom_ar::all_reduce', 'topk': '_moe_C::topk_softmax',
        'align': '_moe_C::moe_align_block_size', 'moesum': '_moe_C::moe_sum',
        'sample': 'aten::argmax',
    }.get(role)


def build(o):
    rng = random.Random(o['seed'])
    tp = o['tp']
    plan = pass_plan(o)
    cpu, gpu = [], []
    cpu_ts = 1_000_000_000  # ns
    gpu_ts = cpu_ts + 50_000
    ext = 1000
    corr = 50_000
    CPU_PID, CPU_TID, GPU_PID, GPU_TID = 4242, 4242, 0, 7

    def us(ns):
        return float('%d.%03d' % divmod(int(ns), 1000))

    def x(cat, name, pid, tid, ts, dur, args=None):
        e = {'ph': 'X', 'cat': cat, 'name': name, 'pid': pid, 'tid': tid,
             'ts': us(ts), 'dur': us(dur)}
        if args is not None:
            e['args'] = args
        return e

    truth = {'passes': len(plan), 'layers': o['layers'], 'stages': [s for s, _ in plan],
             'kernels_per_pass': [], 'layer_kernels': [], 'orphans_per_pass': [],
             'moe_expert_kernels': 0, 'moe_expert_ns': 0, 'moe_kernels': 0, 'moe_ns': 0,
             'kv_grid': [t for _, t in plan], 'tp': tp, 'graph': o['graph'],
             'annotate': o['annotate'], 'moe': o['moe'], 'once_attn': o['once_attn'],
             'hybrid': o['hybrid'], 'rccl': o['rccl'],
             'linear_layers': sum(1 for li in range(o['layers']) if is_linear(o, li))}
    ctx_len = o['prefill'] or 512   # context length the decodes attend to

    for pi, (stage, tok) in enumerate(plan):
        seqs = 1 if stage == 'prefill' else o['batch']
        ctx = tok if stage == 'prefill' else ctx_len + pi
        # (role, first layer?, layer index or None)
        embed = ('embed_c' if o['compiled_embed'] else 'embed', False, None)
        seq = [('fill', False, None), embed]
        if o['once_attn'] == 'front':
            seq.insert(1, ('prepare', False, None))
        elif o['once_attn'] == 'head':
            seq.append(('prepare', False, None))
        counts = []
        for li in range(o['layers']):
            rs = layer_roles(o, stage, li)
            counts.append(len(rs))
            seq += [(r, li == 0, li) for r in rs]
        if o['once_attn'] == 'tail':
            seq.append(('prepare', False, None))
        seq += [('norm_final', False, None), ('lmhead', False, None), ('sample', False, None)]
        truth['kernels_per_pass'].append(len(seq))
        truth['layer_kernels'].append(counts)
        truth['orphans_per_pass'].append(sum(1 for s in seq if s[2] is None))

        pass_cpu0, pass_gpu0 = cpu_ts, None
        ext += 1
        ann_ext = ext            # the step is recorded before the ops in it
        pass_events_cpu = []
        graph_corr = None        # correlation of the open graph piece
        moe_op = None            # the open vllm::moe_forward: [event, start ns]
        last_op = None           # the last op recorded: (event, start ns)
        for role, first, li in seq:
            name = kernel_name(role, first, o, stage)
            grid, block, base = shape(role, tok, seqs, ctx, tp)
            dur = max(500, int(base * rng.uniform(0.95, 1.05)))
            in_graph = o['graph'] and role in GRAPH_ROLES
            kargs = {}
            if in_graph:
                if graph_corr is None:      # a new piece: one cudaGraphLaunch
                    corr += 1
                    graph_corr = corr
                    pass_events_cpu.append(x('cuda_runtime', 'cudaGraphLaunch', CPU_PID, CPU_TID,
                                             cpu_ts, 9000, {'correlation': graph_corr, 'cbid': 311}))
                    cpu_ts += 10_000
                kargs = {'correlation': graph_corr}
            else:
                graph_corr = None
                corr += 1
                if role in EXPERT_ROLES:    # launched by the vllm::moe_forward op itself
                    e = moe_op[0]['args']['External id']
                elif role == 'combine':     # the attention op launches both kernels
                    e = ext
                    last_op[0]['dur'] = us(cpu_ts + 6000 - last_op[1])
                else:
                    ext += 1
                    e = ext
                    if role == 'topk':      # open vllm::moe_forward around the MoE block
                        ext += 1
                        e = ext
                        m_args = {'External id': ext - 1, 'Record function id': 0,
                                  'Input Dims': [[tok, HIDDEN], [tok, EXPERTS], []],
                                  'Input type': ['c10::BFloat16', 'c10::BFloat16', 'std::string']}
                        ev = x('cpu_op', 'vllm::moe_forward', CPU_PID, CPU_TID, cpu_ts, 0, m_args)
                        moe_op = [ev, cpu_ts]
                        pass_events_cpu.append(ev)
                        cpu_ts += 1000
                    if role != 'combine':
                        args = {'External id': e, 'Record function id': 0}
                        if role in ('qkv', 'oproj', 'gateup', 'down', 'router', 'lmhead'):
                            n, k = gemm_nk(role, tp)
                            args['Input Dims'] = [[tok, k], [n, k], []]
                            args['Input type'] = ['c10::BFloat16', 'c10::BFloat16', '']
                        opname = cpu_op(role) or name
                        if o['rccl'] and role == 'ar':
                            opname = 'record_param_comms'
                            args['Collective name'] = 'allreduce'
                        last_op = (x('cpu_op', opname, CPU_PID, CPU_TID, cpu_ts, 7000, args), cpu_ts)
                        pass_events_cpu.append(last_op[0])
                kargs = {'External id': e, 'correlation': corr}
                pass_events_cpu.append(x('cuda_runtime', 'cudaLaunchKernel', CPU_PID, CPU_TID,
                                         cpu_ts + 1000, 4500,
                                         {'External id': e, 'correlation': corr, 'cbid': 211}))
                cpu_ts += 8000
                if role == 'moesum' and moe_op is not None:
                    moe_op[0]['dur'] = us(cpu_ts - moe_op[1])
                    moe_op = None
            kargs.update({'device': 0, 'stream': GPU_TID, 'grid': grid, 'block': block})
            # the GPU starts a kernel no earlier than its launch
            gpu_ts = max(gpu_ts + 1200, cpu_ts + 3000)
            if pass_gpu0 is None:
                pass_gpu0 = gpu_ts
            gpu.append(x('kernel', name, GPU_PID, GPU_TID, gpu_ts, dur, kargs))
            gpu_ts += dur
            if role in EXPERT_ROLES:
                truth['moe_expert_kernels'] += 1
                truth['moe_expert_ns'] += dur
            if role in MOE_ROLES:
                truth['moe_kernels'] += 1
                truth['moe_ns'] += dur
        if o['annotate'] == 'sglang':
            ann = ('step[EXTEND bs=1 toks=%d]' % tok if stage == 'prefill'
                   else 'step[DECODE bs=%d]' % o['batch'])
            cpu.append(x('user_annotation', ann, CPU_PID, CPU_TID, pass_cpu0 - 2000,
                         cpu_ts - pass_cpu0 + 4000, {'External id': ann_ext, 'Record function id': 0}))
            gpu.append(x('gpu_user_annotation', ann, GPU_PID, GPU_TID, pass_gpu0 - 1000,
                         gpu_ts - pass_gpu0 + 2000, {'External id': ann_ext}))
        cpu += pass_events_cpu
        cpu_ts = max(cpu_ts, gpu_ts) + 200_000      # host waits for the sample, then the next step
        gpu_ts = cpu_ts + 50_000

    truth['moe_expert_us'] = truth['moe_expert_ns'] / 1000.0
    truth['moe_us'] = truth['moe_ns'] / 1000.0
    del truth['moe_expert_ns'], truth['moe_ns']
    # GPU events in time order (a gpu_user_annotation window before its kernels)
    gpu.sort(key=lambda e: (e['ts'], 0 if e['cat'] == 'gpu_user_annotation' else 1))
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
    return doc, truth


def main():
    o = parse(sys.argv[1:])
    doc, truth = build(o)
    out = sys.stdout
    if o['truth']:
        out.write(json.dumps(truth) + '\n')
        return
    if o['truth_file']:
        with open(o['truth_file'], 'w') as f:
            f.write(json.dumps(truth) + '\n')
    # one event per line: valid JSON, readable, fast to write
    out.write('{\n')
    for k, v in doc.items():
        if k != 'traceEvents':
            out.write(' %s: %s,\n' % (json.dumps(k), json.dumps(v)))
    out.write(' "traceEvents": [\n')
    ev = doc['traceEvents']
    for i, e in enumerate(ev):
        out.write('  ' + json.dumps(e) + (',\n' if i + 1 < len(ev) else '\n'))
    out.write(' ]\n}\n')


if __name__ == '__main__':
    main()
