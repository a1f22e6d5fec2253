#!/usr/bin/env python3
"""A synthetic Kineto trace of a DeepSeek-V3-class MoE training step.

    mktrain.py [--layers N] [--steps S] [--no-backward] [--seed S]

The shape of the traces issue 27 reports misread: an expert-parallel MoE
training step whose trace holds GPU kernels and runtime launches but no
autograd CPU op (so nothing on the CPU side says "training"), on the open
DeepSeek stack: DeepGEMM FP8 GEMMs (dense and grouped), DeepEP dispatch /
combine with their notify steps, FlashAttention 3 warp-specialised
(`flash::compute_attn_ws`), `rotary_kernel`, and LayerNorm kernels named
`layer_norm::ln_fwd_kernel` (which a Triton attention rule once matched by
substring). Each step: N layers forward (norm, QKV GEMM, rotary, attention,
O GEMM, norm, router GEMM, top-k, DeepEP notify + dispatch, grouped expert
GEMMs, DeepEP cached notify + combine), a loss, the backward of every layer
in reverse (the libraries' backward kernels: flash_bwd, ln_bwd,
DeepGEMM wgrad / dgrad), then the optimizer (a fused Adam).

--no-backward writes the forward kernels alone (an inference-looking
trace of the same stack, for the classified share).

Truth (what a correct analyzer reports): a training step, no inference
pass; every kernel has a known type.
"""
import json
import random
import sys

LN_FWD = ('void layer_norm::ln_fwd_kernel<layer_norm::Kernel_traits<layer_norm::Kernel_traits_base<'
          '7168u, cutlass::bfloat16_t, cutlass::bfloat16_t, cutlass::bfloat16_t, float, unsigned int, '
          '128u>, 7168u, 1u, 4u, 16u, 4u> >(layer_norm::FwdParams)')
LN_BWD = ('void layer_norm::ln_bwd_kernel<layer_norm::Kernel_traits<layer_norm::Kernel_traits_base<'
          '7168u, cutlass::bfloat16_t, cutlass::bfloat16_t, cutlass::bfloat16_t, float, unsigned int, '
          '128u>, 7168u, 1u, 4u, 16u, 4u> >(layer_norm::BwdParams)')
GEMM = 'void deep_gemm::fp8_gemm_kernel<7168u, 128u, 128u, 4u, 8u>(float*, int*, unsigned int)'
GEMM_WGRAD = ('void deep_gemm::fp8_wgrad_gemm_kernel<7168u, 128u, 128u, 4u>(float*, int*, '
              'unsigned int)')
GROUPED = ('void deep_gemm::m_grouped_fp8_gemm_contiguous_kernel<2048u, 7168u, 128u, 8u>(float*, '
           'int*, unsigned int)')
ROTARY = 'rotary_kernel'
ATTN = ('void flash::compute_attn_ws<Flash_fwd_kernel_traits<128, 128, 128, 16, 2, true, 1, '
        'cutlass::bfloat16_t>, true>(flash::Flash_fwd_params)')
ATTN_BWD = ('void flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<128, '
            '64, 128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t>, true, false>(flash::Flash_bwd_params)')
TOPK = 'void moe_fused_gate_kernel<float, 256, 8>(float*, float*, int*, int, int, int)'
NOTIFY = ('void deep_ep::intranode::notify_dispatch<8>(int const*, int*, int, int const*, int*, '
          'int, int, int, bool const*, int*, int*, int, void**, int**, int)')
DISPATCH = 'void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*, int*, long*, float*)'
CACHED = 'void deep_ep::intranode::cached_notify_combine<8>(void**, int*, int, int, int**, int)'
COMBINE = 'void deep_ep::intranode::combine<__nv_bfloat16, 8, 768>(int4*, float*, int4 const*)'
LOSS = ('void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, '
        'at::native::(anonymous namespace)::LogSoftMaxForwardEpilogue>(float*, float const*, int)')
LOSS_BWD = ('void at::native::(anonymous namespace)::cunn_SoftMaxBackward<4, float, float, float, '
            'at::native::(anonymous namespace)::LogSoftMaxBackwardEpilogue>(float*, float const*, '
            'float const*, long)')
ADAM = ('void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous '
        'namespace)::TensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor'
        '<float, 4, (at::native::ADAM_MODE)1, false>, float*, double, double, double, double, '
        'double, bool, float*, float*>(at::native::(anonymous namespace)::TensorListMetadata<4>, '
        'at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, '
        'false>, float*, double, double, double, double, double, bool, float*, float*)')

FORWARD = [('norm', LN_FWD, 9000), ('qkv', GEMM, 60000), ('rope', ROTARY, 6000),
           ('attn', ATTN, 90000), ('o', GEMM, 40000), ('norm', LN_FWD, 9000),
           ('router', GEMM, 8000), ('topk', TOPK, 5000), ('notify', NOTIFY, 7000),
           ('dispatch', DISPATCH, 50000), ('experts', GROUPED, 150000),
           ('experts', GROUPED, 120000), ('notify', CACHED, 6000), ('combine', COMBINE, 45000)]
BACKWARD = [('combine', DISPATCH, 50000), ('experts', GROUPED, 150000), ('experts', GEMM_WGRAD, 140000),
            ('dispatch', COMBINE, 45000), ('router', GEMM_WGRAD, 9000), ('norm', LN_BWD, 15000),
            ('o', GEMM_WGRAD, 70000), ('attn', ATTN_BWD, 200000), ('qkv', GEMM_WGRAD, 100000),
            ('norm', LN_BWD, 15000)]


def main(argv):
    o = {'layers': 4, 'steps': 2, 'backward': True, 'seed': 1}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == '--no-backward':
            o['backward'] = False
            i += 1
        elif a in ('--layers', '--steps', '--seed') and i + 1 < len(argv):
            o[a[2:]] = int(argv[i + 1])
            i += 2
        else:
            sys.stderr.write(__doc__)
            return 2
    rng = random.Random(o['seed'])
    ev = [{'ph': 'M', 'name': 'process_name', 'pid': 0, 'tid': 0, 'args': {'name': 'GPU 0'}}]
    ts, corr = 2_000_000_000, 10_000

    def kernel(name, base):
        nonlocal ts, corr
        dur = int(base * rng.uniform(0.95, 1.05))
        corr += 1
        ev.append({'ph': 'X', 'cat': 'cuda_runtime', 'name': 'cudaLaunchKernel', 'pid': 1, 'tid': 1,
                   'ts': (ts - 4000) / 1000.0, 'dur': 3.0, 'args': {'correlation': corr}})
        ev.append({'ph': 'X', 'cat': 'kernel', 'name': name, 'pid': 0, 'tid': 7,
                   'ts': ts / 1000.0, 'dur': dur / 1000.0,
                   'args': {'device': 0, 'stream': 7, 'correlation': corr,
                            'grid': [132, 1, 1], 'block': [384, 1, 1]}})
        ts += dur + 1500

    for _ in range(o['steps']):
        for _ in range(o['layers']):
            for _, name, base in FORWARD:
                kernel(name, base)
        kernel(LOSS, 30000)
        if o['backward']:
            kernel(LOSS_BWD, 30000)
            for _ in range(o['layers']):
                for _, name, base in BACKWARD:
                    kernel(name, base)
            kernel(ADAM, 400000)
        ts += 2_000_000
    doc = {'schemaVersion': 1,
           'deviceProperties': [{'id': 0, 'name': 'NVIDIA H800', 'totalGlobalMem': 85029158912,
                                 'computeMajor': 9, 'computeMinor': 0, 'numSms': 132,
                                 'warpSize': 32}],
           'distributedInfo': {'backend': 'nccl', 'rank': 0, 'world_size': 8},
           'traceEvents': ev}
    json.dump(doc, sys.stdout)
    sys.stdout.write('\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
