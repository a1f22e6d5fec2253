#!/usr/bin/env python3
"""A diffusion transformer's denoising loop as a Kineto trace: repeating
work that is not LLM generation.

    mkdit.py [--steps S] [--blocks B] [--no-frames] > trace.json

Each denoising step is one `ProfilerStep#N` (a CPU user annotation around
its launches) and runs B transformer blocks: adaLN modulation (a GEMM on
the timestep embedding and elementwise shift/scale), LayerNorm, the QKV
GEMM, FlashAttention (bidirectional: no KV cache, no decode), the output
GEMM, a gated residual, LayerNorm, the MLP (GEMM, GELU, GEMM) and its gated
residual; before the blocks the patch embedding (a GEMM on the latents) and
the timestep embedding, after them the final norm and the unpatchify GEMM.
No token embedding, no KV-cache write, no sampling. The CPU ops are ATen's
(aten::linear, aten::scaled_dot_product_attention, aten::layer_norm, ...)
and, unless --no-frames, the Python frames of diffusers' transformer
(diffusers/models/transformers/transformer_flux.py).
"""
import json
import sys

GEMM = 'sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas'
GEMM2 = 'sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas'
LN = ('void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float, false>'
      '(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)')
ATTN = ('void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, '
        'cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >, false, '
        'false, false, false, false, true, false, false>(pytorch_flash::Flash_fwd_params)')
GELU = ('void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, '
        'at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::'
        '{lambda(c10::BFloat16)#1}, std::array<char*, 2ul> >(int, at::native::GeluCUDAKernelImpl('
        'at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::'
        'operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>)')
MUL = ('void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<'
       'c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> > >('
       'at::TensorIteratorBase&, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, '
       'at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}>(int, '
       'at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, '
       'at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<'
       'c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> > const&)'
       '::{lambda(int)#1})')
ADD = ('void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, '
       'std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)')
SILU = ('void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::silu_kernel('
        'at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::'
        '{lambda(c10::BFloat16)#1}, std::array<char*, 2ul> >(int, at::native::(anonymous namespace)::silu_kernel('
        'at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::'
        '{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>)')

BLOCK = [('aten::silu', SILU, 3), ('aten::linear', GEMM, 20), ('aten::layer_norm', LN, 6),
         ('aten::mul', MUL, 4), ('aten::add', ADD, 4), ('aten::linear', GEMM, 40),
         ('aten::scaled_dot_product_attention', ATTN, 90), ('aten::linear', GEMM, 25),
         ('aten::mul', MUL, 4), ('aten::add', ADD, 4), ('aten::layer_norm', LN, 6),
         ('aten::mul', MUL, 4), ('aten::add', ADD, 4), ('aten::linear', GEMM2, 80),
         ('aten::gelu', GELU, 10), ('aten::linear', GEMM, 70), ('aten::mul', MUL, 4),
         ('aten::add', ADD, 4)]
HEAD = [('aten::linear', GEMM2, 30), ('aten::silu', SILU, 3), ('aten::linear', GEMM, 8)]
TAIL = [('aten::layer_norm', LN, 6), ('aten::mul', MUL, 4), ('aten::linear', GEMM2, 30)]


def main(argv):
    steps, blocks = 5, 12
    if '--steps' in argv:
        steps = int(argv[argv.index('--steps') + 1])
    if '--blocks' in argv:
        blocks = int(argv[argv.index('--blocks') + 1])
    frames = '--no-frames' not in argv
    cpu, gpu = [], []
    t_cpu, t_gpu, ext, corr = 1_000_000.0, 1_000_100.0, 10, 1000

    def x(cat, name, pid, tid, ts, dur, args):
        return {'ph': 'X', 'cat': cat, 'name': name, 'pid': pid, 'tid': tid, 'ts': round(ts, 3),
                'dur': round(dur, 3), 'args': args}
    for s in range(steps):
        step0 = t_cpu
        ext += 1
        step_ext = ext           # the step is recorded before the ops in it
        seq = HEAD + BLOCK * blocks + TAIL
        for op, kern, us in seq:
            ext += 1
            corr += 1
            cpu.append(x('cpu_op', op, 1, 1, t_cpu, 3.0, {'External id': ext, 'Record function id': 0,
                                                           'Input Dims': [[4096, 3072], [3072, 3072], []]}))
            cpu.append(x('cuda_runtime', 'cudaLaunchKernel', 1, 1, t_cpu + 0.5, 2.0,
                         {'External id': ext, 'correlation': corr}))
            t_cpu += 4.0
            t_gpu = max(t_gpu, t_cpu)
            gpu.append(x('kernel', kern, 0, 7, t_gpu, us,
                         {'External id': ext, 'correlation': corr, 'device': 0, 'stream': 7,
                          'grid': [128, 1, 1], 'block': [128, 1, 1]}))
            t_gpu += us + 0.5
        cpu.append(x('user_annotation', 'ProfilerStep#%d' % (s + 2), 1, 1, step0 - 1, t_cpu - step0 + 2,
                     {'External id': step_ext}))
        if frames:
            cpu.append(x('python_function',
                         'diffusers/models/transformers/transformer_flux.py(440): forward', 1, 1,
                         step0, t_cpu - step0, {'Python id': s + 1, 'Python parent id': None}))
        t_cpu = t_gpu + 200.0
    doc = {'schemaVersion': 1,
           'deviceProperties': [{'id': 0, 'name': 'NVIDIA H100 80GB HBM3', 'totalGlobalMem': 85029158912,
                                 'numSms': 132, 'warpSize': 32}],
           'traceEvents': cpu + gpu}
    json.dump(doc, sys.stdout)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
