#!/usr/bin/env python3
"""Synthetic Kineto traces whose layer structure is known by construction.

    mkfixture.py SHAPE [--layers N] [--passes P] [--stage decode|prefill|alternate]
                     [--truth]

--interleave writes each step's annotation just before its kernels
instead of all CPU events first.
--stage alternate makes every 5th pass (0, 5, ...) a prefill step with its
own token count (distinct annotation names), the others decode.

SHAPE:
  tp-dense     tensor parallel dense model: NCCL all-reduce after the O and
               down projections, a separate (fused-add) RMSNorm after each,
               with small kernels (a memset, a cast) between the all-reduce
               and the norm
  tp-fused     the same with the all-reduce and the residual RMSNorm fused in
               one kernel (TRT-LLM / FlashInfer allreduce_fusion): no
               standalone norm inside the pass after the first layer
  dual-norm    Grok-2 style: a dual-residual RMSNorm before attention and
               before the MoE half, all-reduces between the halves

Each pass: embedding, N layers, final norm, LM head, sampling. Every pass
gets an SGLang step annotation. The truth printed with --truth is computed
here from the construction, not from any analyzer.
"""
import json
import sys

GEMM = 'nvjet_tst_128x64_64x8_1x1_v_bz_coopA_NNT'
EMBED = ('void at::native::(anonymous namespace)::indexSelectLargeIndex<c10::BFloat16, '
         'long, unsigned int, 2, 2, -2, true>(int)')
RMS = 'void vllm::rms_norm_kernel<c10::BFloat16, 8, 4>(c10::BFloat16*, int, int)'
ADD_RMS = 'void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, long, int, int)'
ROPE = 'void vllm::rotary_embedding_kernel<c10::BFloat16, true>(long const*, int)'
ATTN = 'void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4> >(flash::Flash_fwd_params)'
SILU = ('void vllm::act_and_mul_kernel<c10::BFloat16, &(float vllm::silu_kernel<c10::BFloat16>'
        '(float const&)), true>(c10::BFloat16*, c10::BFloat16 const*, int)')
NCCL = 'ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)'
AR_NORM = ('void tensorrt_llm::kernels::ar_fusion::allreduce_fusion_kernel_oneshot_lamport<'
           '__nv_bfloat16, 4, true, (tensorrt_llm::kernels::ar_fusion::AllReduceFusionPattern)1>'
           '(tensorrt_llm::kernels::ar_fusion::AllReduceParams<__nv_bfloat16>)')
MEMSET = 'Memset (Device)'
CAST = ('void at::native::vectorized_elementwise_kernel<4, at::native::bfloat16_copy_kernel_cuda'
        '(at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul> >(int)')
DUAL = 'fused_dual_residual_rmsnorm_kernel'
ROUTER = GEMM
TOPK = 'void vllm::moe::topkGatingSoftmax<4, 128, 4, 16, 32, int, 4>(float const*, int)'
MOE = 'fused_moe_kernel'
SAMPLE = ('void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, '
          'at::native::ArgMaxOps<float>, unsigned int, long, 4> >(int)')


def layer(shape, first):
    """Kernel names of one layer, in launch order."""
    if shape == 'tp-dense':
        return [RMS if first else ADD_RMS, GEMM, ROPE, ATTN, GEMM, NCCL, MEMSET,
                CAST, ADD_RMS, GEMM, SILU, GEMM, NCCL]
    if shape == 'tp-fused':
        # the all-reduce of the previous layer's down projection carries
        # this layer's input norm; the first layer has a plain RMSNorm
        return ([RMS] if first else []) + [GEMM, ROPE, ATTN, GEMM, AR_NORM,
                                           GEMM, SILU, GEMM, AR_NORM]
    if shape == 'dual-norm':
        return [DUAL, GEMM, ROPE, ATTN, GEMM, NCCL, DUAL, ROUTER, TOPK, MOE,
                MOE, NCCL]
    raise SystemExit('unknown shape: ' + shape)


def main():
    args = sys.argv[1:]
    if not args:
        raise SystemExit(__doc__)
    shape, n, passes, stage, truth, interleave = args[0], 4, 3, 'decode', False, False
    i = 1
    while i < len(args):
        if args[i] == '--layers':
            n = int(args[i + 1]); i += 2
        elif args[i] == '--passes':
            passes = int(args[i + 1]); i += 2
        elif args[i] == '--stage':
            stage = args[i + 1]; i += 2
        elif args[i] == '--interleave':
            interleave = True; i += 1
        elif args[i] == '--truth':
            truth = True; i += 1
        else:
            raise SystemExit('unknown option: ' + args[i])

    cpu, gpu = [], []
    ts = 1_000_000.0
    ext = 100
    kernels_per_pass = []
    stages = []
    for p in range(passes):
        names = [EMBED]
        for k in range(n):
            names += layer(shape, k == 0)
        # tp-fused: the last down projection's all-reduce carries the final norm
        if shape == 'tp-fused':
            names += [GEMM, SAMPLE]
        else:
            names += [RMS, GEMM, SAMPLE]
        kernels_per_pass.append(sum(1 for x in names if x != MEMSET))
        st = stage if stage != 'alternate' else ('prefill' if p % 5 == 0 else 'decode')
        stages.append(st)
        ann = ('step[DECODE bs=8]' if st == 'decode'
               else 'step[EXTEND bs=2 toks=%d]' % (4096 + p))
        cpu.append({'ph': 'X', 'cat': 'user_annotation', 'name': ann, 'pid': 1,
                    'tid': 1, 'ts': ts - 50, 'dur': 40 + 5 * len(names)})
        for name in names:
            ext += 1
            dur = 3.0 if name in (MEMSET, CAST) else 10.0
            cat = 'gpu_memset' if name == MEMSET else 'kernel'
            gpu.append({'ph': 'X', 'cat': cat, 'name': name, 'pid': 0, 'tid': 7,
                        'ts': round(ts, 3), 'dur': dur,
                        'args': {'External id': ext, 'correlation': ext + 5000,
                                 'device': 0, 'stream': 7}})
            ts += dur + 1.0
        ts += 500.0
    if truth:
        halves = 2 * n
        # outside any layer: the embedding, and the final norm, LM head and
        # sampling (under tp-fused the final norm is the last all-reduce's)
        print(json.dumps({'passes': passes, 'layers': n, 'halves': halves,
                          'kernels_per_pass': kernels_per_pass,
                          'orphans_per_pass': 4, 'stages': stages}))
        return
    if interleave:   # each step's annotation just before its kernels
        events, j = [], 0
        for a in cpu:
            while j < len(gpu) and gpu[j]['ts'] < a['ts']:
                events.append(gpu[j]); j += 1
            events.append(a)
        events += gpu[j:]
    else:            # all CPU events first, as real files have them
        events = cpu + gpu
    sys.stdout.write(json.dumps({'schemaVersion': 1, 'traceEvents': events}, indent=1))
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()
