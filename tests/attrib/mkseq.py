#!/usr/bin/env python3
"""A hand-made trace of HF-style eager ops with known workloads.

    mkseq.py trace.json truth.json

One CPU thread runs, in order:

  1. a QKV projection: aten::linear -> aten::addmm over 10 tokens (T = 10);
  2. an unfused RMSNorm over [2, 5, 64] in float32, as HF transformers
     writes it: to (cast), pow, mean, add, rsqrt, mul, to, mul; the cast
     before pow is not part of it, the one between the muls is;
  3. the same over the per-head q [2, 5, 4, 16]: 40 rows, 4 heads of 10
     tokens;
  4. a broken try: pow, mean, relu, rsqrt, mul, mul (relu ends it): no norm;
  5. an unfused rotate_half RoPE on q [2, 4, 5, 16]: mul, slice, slice,
     neg, cat, mul, add;
  6. a fused RMSNorm over [20, 16] rows after the GEMM: per head, 2 heads;
  7. SDPA, causal prefill (flash backend, is_causal True);
  8. SDPA, a decode step (efficient backend, one query token).

Every compute op launches one kernel of a chosen duration. The truth file
holds, per workload name and dtype, the calls, tokens, heads and kernel
time that follow from this construction.
"""
import json
import sys

events = []
truth = {}
ext = [100]
ts = [1000.0]
gpu_ts = [50000.0]


def op(name, dims, types, concrete=None, dur=4.0, kernel=None, nested=None, wl=None):
    """A CPU op at the current time; nested ops run inside it; a kernel of
    `kernel` us is launched by it. wl: (name, dtype) whose time it adds to."""
    e = ext[0]
    ext[0] += 1
    start = ts[0]
    ts[0] += 0.5
    args = {'External id': e, 'Input Dims': dims, 'Input type': types,
            'Concrete Inputs': concrete or [''] * len(dims)}
    ev = {'ph': 'X', 'cat': 'cpu_op', 'name': name, 'pid': 1, 'tid': 1, 'ts': start,
          'dur': 0, 'args': args}
    events.append(ev)
    for sub in nested or []:
        sub()
    if kernel is not None:
        events.append({'ph': 'X', 'cat': 'kernel', 'name': 'void elementwise_kernel_%s<float>(int)'
                       % name.split('::')[-1], 'pid': 0, 'tid': 7, 'ts': gpu_ts[0],
                       'dur': kernel, 'args': {'External id': e, 'correlation': e,
                                               'device': 0, 'stream': 7}})
        gpu_ts[0] += kernel + 1
        if wl:
            truth[wl]['total_us'] += kernel
    ts[0] = max(ts[0], start + dur) + 0.5
    ev['dur'] = ts[0] - 0.5 - start


def want(name, dtype, calls, tokens, heads=None):
    truth[(name, dtype)] = {'calls': calls, 'tokens': tokens, 'heads': heads, 'total_us': 0.0}


F, B, S = 'float', 'c10::BFloat16', 'Scalar'


def cast(shape, k, wl=None):
    op('aten::to', [shape, [], [], [], []], [F, S, S, S, ''], dur=3,
       nested=[lambda: op('aten::_to_copy', [shape], [F], dur=2,
                          nested=[lambda: op('aten::copy_', [shape, shape, []], [F, F, S],
                                             kernel=k, wl=wl)])])


def hf_rmsnorm(shape, wl, broken=False):
    red = shape[:-1] + [1]
    cast(shape, 1.0)                          # before pow: not the norm's
    op('aten::pow', [shape, []], [F, S], ['', '2'], kernel=2.0, wl=wl,
       nested=[lambda: op('aten::result_type', [shape, []], [F, S])])
    op('aten::mean', [shape, [], [], []], [F, S, S, ''], kernel=3.0, wl=wl)
    if broken:
        op('aten::relu', [red], [F], kernel=0.5)
    else:
        op('aten::add', [red, [], []], [F, S, S], kernel=0.75, wl=wl)
    op('aten::rsqrt', [red], [F], kernel=0.5, wl=wl)
    op('aten::mul', [shape, red], [F, F], kernel=2.5, wl=wl)
    cast(shape, 1.25, wl)                     # between the muls: the norm's
    op('aten::mul', [[shape[-1]], shape], [B, B], kernel=2.25, wl=wl)


def main():
    out, truth_path = sys.argv[1], sys.argv[2]
    want('gemm_n192_k64', B, 1, 10)
    want('rmsnorm_h64', F, 1, 10)
    want('rmsnorm_h16', F, 1, 10, 4)
    want('rope_h4_d16', B, 1, 10)
    want('rmsnorm_h16', B, 1, 10, 2)
    want('gqa_ragged_prefill_causal_h4_kv2_d16', B, 1, 10)
    want('gqa_ragged_decode_h4_kv2_d16', B, 1, 2)
    want('attn_bidir_h4_kv4_d16', B, 1, 10)
    # 1. QKV projection: T = 10
    op('aten::linear', [[2, 5, 64], [192, 64], [192]], [B, B, B], dur=6,
       nested=[lambda: op('aten::addmm', [[192], [10, 64], [64, 192], [], []], [B, B, B, S, S],
                          ['', '', '', '1', '1'], kernel=7.0, wl=('gemm_n192_k64', B))])
    # 2. 3. 4. HF RMSNorm: hidden, per head, broken
    hf_rmsnorm([2, 5, 64], ('rmsnorm_h64', F))
    hf_rmsnorm([2, 5, 4, 16], ('rmsnorm_h16', F))
    hf_rmsnorm([2, 5, 64], None, broken=True)
    # 5. rotate_half RoPE
    q, cos, half = [2, 4, 5, 16], [1, 1, 5, 16], [2, 4, 5, 8]
    r = ('rope_h4_d16', B)
    op('aten::mul', [q, cos], [B, B], kernel=1.5, wl=r)
    op('aten::slice', [q, [], [], [], []], [B, S, S, S, S], ['', '3', '0', '8', '1'],
       nested=[lambda: op('aten::as_strided', [q, [], [], []], [B, '', '', ''])])
    op('aten::slice', [q, [], [], [], []], [B, S, S, S, S], ['', '3', '8', '9223372036854775807', '1'])
    op('aten::neg', [half], [B], kernel=0.75, wl=r)
    op('aten::cat', [[], []], ['TensorList', S], ['', '-1'], kernel=1.25, wl=r)
    op('aten::mul', [q, cos], [B, B], kernel=1.5, wl=r)
    op('aten::add', [q, q, []], [B, B, S], ['', '', '1'], kernel=1.0, wl=r)
    # 6. a fused norm over tokens x heads rows after the GEMM
    op('_C::rms_norm', [[20, 16], [20, 16], [16], []], [B, B, B, S], kernel=1.75,
       wl=('rmsnorm_h16', B))
    # 7. SDPA, causal prefill: scaled_dot_product_attention ->
    # _scaled_dot_product_flash_attention -> _flash_attention_forward (launches)
    qd, kd = [2, 4, 5, 16], [2, 2, 5, 16]
    op('aten::scaled_dot_product_attention', [qd, kd, kd, [], [], [], [], []],
       [B, B, B, '', S, S, S, S], ['', '', '', '', '0.', 'True', '0.25', 'False'], dur=20,
       nested=[lambda: op('aten::_scaled_dot_product_flash_attention', [qd, kd, kd, [], [], [], []],
                          [B, B, B, S, S, S, S], ['', '', '', '0.', 'True', 'False', '0.25'], dur=15,
                          nested=[lambda: op('aten::_flash_attention_forward',
                                             [[2, 5, 4, 16], [2, 5, 2, 16], [2, 5, 2, 16]] + [[]] * 12,
                                             [B, B, B] + [''] * 12,
                                             ['', '', '', '', '', '5', '5', '0.', 'True', 'False',
                                              '0.25', '', '', '', ''],
                                             kernel=9.0,
                                             wl=('gqa_ragged_prefill_causal_h4_kv2_d16', B))])])
    # 8. SDPA, one query token against 6 cached
    op('aten::_scaled_dot_product_efficient_attention',
       [[2, 4, 1, 16], [2, 2, 6, 16], [2, 2, 6, 16], [], [], [], [], []],
       [B, B, B, '', S, S, S, S], ['', '', '', '', 'False', '0.', 'False', ''], kernel=3.5,
       wl=('gqa_ragged_decode_h4_kv2_d16', B))
    # 9. SDPA, not causal (an encoder's, a diffusion transformer's): every
    # token attends to every other, no prefill; as many KV heads as query
    # heads
    op('aten::_scaled_dot_product_efficient_attention',
       [[2, 4, 5, 16], [2, 4, 5, 16], [2, 4, 5, 16], [], [], [], [], []],
       [B, B, B, '', S, S, S, S], ['', '', '', '', 'False', '0.', 'False', ''], kernel=4.5,
       wl=('attn_bidir_h4_kv4_d16', B))
    # as Kineto writes them: CPU ops first, then the GPU's kernels
    events.sort(key=lambda e: e['cat'] == 'kernel')
    doc = {'traceEvents': events, 'deviceProperties': [{'id': 0, 'name': 'NVIDIA H100 80GB HBM3'}]}
    with open(out, 'w') as f:
        json.dump(doc, f)
    with open(truth_path, 'w') as f:
        json.dump([dict(name=k[0], dtype=k[1], **v) for k, v in truth.items()], f, indent=1)


main()
