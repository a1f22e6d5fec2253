#!/usr/bin/env python3
"""A hand-made Kineto trace with known busy time, idle gaps, launch-bound
gaps, a stray kernel and a known layer anatomy.

    mkidle.py trace.json truth.json

One decode step (SGLang annotation step[DECODE bs=4]): embedding, 4 layers
of (fused-add RMSNorm 10 us, QKV GEMM 20 us, RoPE 5 us, attention 30 us, O
GEMM 15 us, fused-add RMSNorm 10 us, up GEMM 40 us, SiLU 8 us, down GEMM
25 us), final RMSNorm, argmax. Kernels are written as NVIDIA writes them:
each kernel just before its cudaLaunchKernel (same correlation).

Gaps (in us) before each kernel are chosen here; a gap is launch-bound when
its kernel's launch starts after the previous kernel ended. One stray
kernel (a fill) runs 500 ms before the step, launched before the step's
annotation: it is no kernel of the step; without the annotation, it does
no layer work and the pass's idle rule cuts it off (stray). Two kernels are written out of start order. The truth file
holds every figure computed from this construction, not from tracestream.
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
SAMPLE = ('void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, '
          'at::native::ArgMaxOps<float>, unsigned int, long, 4> >(int)')
FILL = ('void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<int>, '
        'std::array<char*, 1ul> >(int, at::native::FillFunctor<int>, std::array<char*, 1ul>)')

LAYER = [(ADD_RMS, 10, 'norm'), (GEMM, 20, 'gemm'), (ROPE, 5, 'rope'), (ATTN, 30, 'attention'),
         (GEMM, 15, 'gemm'), (ADD_RMS, 10, 'norm'), (GEMM, 40, 'gemm'), (SILU, 8, 'activation'),
         (GEMM, 25, 'gemm')]
NLAYERS = 4
H100 = [{'id': 0, 'name': 'NVIDIA H100 80GB HBM3', 'totalGlobalMem': 85018279936,
         'computeMajor': 9, 'computeMinor': 0, 'numSms': 132, 'warpSize': 32}]


def kernel_event(name, ts, dur, stream, corr):
    """A GPU kernel on device 0 as Kineto writes it (4 blocks of 128)."""
    return {'ph': 'X', 'cat': 'kernel', 'name': name, 'pid': 0, 'tid': stream, 'ts': ts,
            'dur': float(dur), 'args': {'correlation': corr, 'device': 0, 'stream': stream,
                                        'grid': [4, 1, 1], 'block': [128, 1, 1]}}


def launch_event(ts, corr, dur=0.5):
    """The host's cudaLaunchKernel of correlation corr."""
    return {'ph': 'X', 'cat': 'cuda_runtime', 'name': 'cudaLaunchKernel', 'pid': 1,
            'tid': 1, 'ts': ts, 'dur': dur, 'args': {'correlation': corr}}


def decode_steps(steps, nlayers, layer_kernels):
    """steps decode steps (step[DECODE bs=4], 500 us apart) of nlayers
    layers on stream 7, each kernel launched 1 us after the one before:
    the embedding, layer_kernels(step, layer)'s (name, us) of each layer,
    the final norm and the sampler."""
    ev, t, corr = [], 1_000_000.0, 1000
    for step in range(steps):
        start = t
        ev.append({'ph': 'X', 'cat': 'user_annotation', 'name': 'step[DECODE bs=4]', 'pid': 1,
                   'tid': 1, 'ts': start - 90, 'dur': 80.0})
        seq = [(EMBED, 6)]
        for layer in range(nlayers):
            seq += layer_kernels(step, layer)
        seq += [(RMS, 7), (SAMPLE, 4)]
        cpu = start - 80
        for name, dur in seq:
            ev.append(kernel_event(name, t, dur, 7, corr))
            ev.append(launch_event(cpu, corr))
            cpu, corr, t = cpu + 1.0, corr + 1, t + dur
        t += 500
    return ev


def write_trace(path, events, **extra):
    """The trace document of an H100 with these events (extra top-level keys
    before them)."""
    doc = {'schemaVersion': 1, 'deviceProperties': H100, **extra, 'traceEvents': events}
    json.dump(doc, open(path, 'w'), indent=1)


def main():
    out, truth_path = sys.argv[1], sys.argv[2]
    seq = [(EMBED, 6, None)]
    for _ in range(NLAYERS):
        seq += LAYER
    seq += [(RMS, 7, None), (SAMPLE, 4, None)]
    # the gap before each kernel (us) and whether its launch came late
    gaps, late = [], []
    for i in range(len(seq)):
        if i == 0:
            g = 0
        elif i % 7 == 3:
            g = 12          # the CPU launched it late: launch-bound
        elif i % 5 == 0:
            g = 3           # launched early; the GPU still had a gap
        else:
            g = 0           # back to back
        if i == 20:
            g = 90          # the largest gap, launch-bound, before kernel 20
        gaps.append(g)
        late.append(g > 0 and (i % 7 == 3 or i == 20))

    step_ts = 1_000_000.0
    ev = []
    ev.append({'ph': 'X', 'cat': 'user_annotation', 'name': 'step[DECODE bs=4]',
               'pid': 1, 'tid': 1, 'ts': step_ts - 100, 'dur': 5000.0})
    kernels = []
    corr = 1000
    # the stray kernel: 500 ms before the step
    stray_ts = step_ts - 500_000
    kernels.append((stray_ts, 2.0, FILL, corr, stray_ts - 10))
    corr += 1
    t = step_ts
    cpu = step_ts - 50       # the CPU launch clock: ahead of the GPU
    busy = 0.0
    starts = []
    for i, (name, dur, _) in enumerate(seq):
        t += gaps[i]
        starts.append(t)
        if late[i]:
            launch = t - 1.0     # launched after the previous kernel ended
        else:
            cpu += 1.0
            launch = min(cpu, t - gaps[i] - 2.0) if gaps[i] else min(cpu, t - 2.0)
        kernels.append((t, float(dur), name, corr, launch))
        corr += 1
        busy += dur
        t += dur
    # write kernels with their launches after them (NVIDIA), two swapped
    order = list(range(len(kernels)))
    order[10], order[11] = order[11], order[10]
    for k in order:
        ts, dur, name, c, launch = kernels[k]
        ev.append(kernel_event(name, ts, dur, 7, c))
        ev.append(launch_event(launch, c))
    write_trace(out, ev, cuda_runtime_version=12040)

    span = t - step_ts
    idle = sum(gaps)
    ngaps = sum(1 for g in gaps if g > 0)
    lb = [g for g, l in zip(gaps, late) if l]
    # the layer anatomy: every layer is LAYER
    per_type = {}
    for _, dur, ty in LAYER:
        per_type[ty] = per_type.get(ty, 0) + dur
    truth = {
        'span_us': span, 'busy_us': busy, 'idle_us': idle, 'gaps': ngaps,
        'largest_gap_us': max(gaps), 'largest_before': seq[gaps.index(max(gaps))][0],
        'launch_bound_gaps': len(lb), 'launch_bound_us': sum(lb),
        # the fill was launched 500 ms before the step's annotation: no
        # kernel of the step, so never the pass's (outside every pass);
        # with the annotation gone, the pass's idle rule cuts it (stray)
        'stray_kernels': 0, 'stray_us': 0.0, 'stray_unannotated': 1,
        'layers': NLAYERS, 'layer_mean_us': sum(d for _, d, _ in LAYER),
        'layer_kernels': len(LAYER), 'layer_by_type_us': per_type,
        'layer_order': [n for n, _, _ in LAYER],
        # a layer's wall: its first kernel's start to the next layer's, the
        # last to its last kernel's end (kernels 1 .. 9 are layer 0)
        'layer_walls_us': [(starts[1 + 9 * (i + 1)] if i + 1 < NLAYERS
                            else starts[9 * NLAYERS] + seq[9 * NLAYERS][1]) - starts[1 + 9 * i]
                           for i in range(NLAYERS)],
    }
    json.dump(truth, open(truth_path, 'w'), indent=1)


if __name__ == '__main__':
    main()
