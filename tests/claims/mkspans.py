#!/usr/bin/env python3
"""A vLLM-shaped tensor-parallel decode run whose CPU is late before every
pass: each step's annotation opens, the GPU idles 22-28 ms while the CPU
prepares the batch, then the forward runs. Two steps of ten (2 and 7) also
launch a small input copy as their step opens, before the wait: a pass
measured from its step's first kernel would hold the wait in those two and
not in the others.

    mkspans.py OUT.json

Kernels carry their launches (cudaLaunchKernel, by correlation); the
step's GPU windows come after the kernels, as Kineto writes them. The
truth, from the construction: 10 decode passes of 4 layers; inside each
pass no gap longer than 10 us (its GPU work, about 24 ms, is as long as
the waits); 9 gaps between passes, each one waited
for the CPU (the embedding launched after the GPU went idle); every pass
inside its step's windows.
"""
import json
import sys

GEMM = 'nvjet_tst_128x64_64x8_1x1_v_bz_coopA_NNT'
EMBED = ('void at::native::(anonymous namespace)::indexSelectLargeIndex<c10::BFloat16, '
         'long, unsigned int, 2, 2, -2, true>(int)')
RMS = 'void vllm::rms_norm_kernel<c10::BFloat16, 8, 4>(c10::BFloat16*, int, int)'
ADD_RMS = 'void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, long, int, int)'
ROPE = 'void vllm::rotary_embedding_kernel<c10::BFloat16, true>(long const*, int)'
ATTN = ('void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4> >'
        '(flash::Flash_fwd_params)')
SILU = ('void vllm::act_and_mul_kernel<c10::BFloat16, &(float vllm::silu_kernel<c10::BFloat16>'
        '(float const&)), true>(c10::BFloat16*, c10::BFloat16 const*, int)')
AR = 'void vllm::cross_device_reduce_1stage<__nv_bfloat16, 4>(vllm::RankData*, int, int)'
COPY = ('void at::native::vectorized_elementwise_kernel<4, at::native::bfloat16_copy_kernel_cuda'
        '(at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul> >(int)')
SAMPLE = ('void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, '
          'at::native::ArgMaxOps<float>, unsigned int, long, 4> >(int)')
LAYER = [RMS, GEMM, ROPE, ATTN, GEMM, AR, ADD_RMS, GEMM, SILU, GEMM, AR]
NAME = 'execute_context_0(0)_generation_4(4)'


def main():
    cpu, gpu, launches, windows = [], [], [], []
    t = 1000.0
    corr = [0]

    def kernel(name, start, dur, launch):
        corr[0] += 1
        gpu.append({'ph': 'X', 'cat': 'kernel', 'name': name, 'pid': 0, 'tid': 7,
                    'ts': start, 'dur': dur,
                    'args': {'device': 0, 'stream': 7, 'correlation': corr[0]}})
        launches.append({'ph': 'X', 'cat': 'cuda_runtime', 'name': 'cudaLaunchKernel',
                         'pid': 1, 'tid': 1, 'ts': launch, 'dur': 3.0,
                         'args': {'correlation': corr[0]}})
        return start + dur

    for step in range(10):
        open_ = t
        first = None
        if step in (2, 7):
            first = t + 10.0
            kernel(COPY, first, 3.0, t + 5.0)
        wait = 22000.0 + 700.0 * (step % 9)
        g = t + wait                       # the embedding, launched late
        launch = g - 4.0
        first = first if first is not None else g
        names = [EMBED] + LAYER * 4 + [RMS, GEMM, SAMPLE]
        for i, n in enumerate(names):
            dur = 1400.0 if n == GEMM else 8.0
            # later kernels are launched well ahead of the GPU
            end = kernel(n, g, dur, launch if i == 0 else g - 30.0)
            g = end + 2.0
        cpu.append({'ph': 'X', 'cat': 'user_annotation', 'name': NAME, 'pid': 1,
                    'tid': 1, 'ts': open_, 'dur': g - open_ - 1.0})
        windows.append({'ph': 'X', 'cat': 'gpu_user_annotation', 'name': NAME, 'pid': 0,
                        'tid': 7, 'ts': first, 'dur': g - 2.0 - first})
        t = g + 50.0
    json.dump({'traceEvents': cpu + launches + gpu + windows}, open(sys.argv[1], 'w'))


main()
