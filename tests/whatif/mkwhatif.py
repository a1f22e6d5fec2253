#!/usr/bin/env python3
"""Hand-made steps with known answers for the replay of steps: what each
change saves the step, and where its time went.

    mkwhatif.py CASE trace.json truth.json

CASE is one of:
  launch   every kernel launched by the CPU only after the one before ended
           (10 us after, the call 2 us, the kernel 3 us after the call):
           the GPU waits for each launch, so a faster GEMM saves nothing;
  sync     the first half of the kernels queued in one burst, then the CPU
           blocked in cudaStreamSynchronize until they are done (+5 us),
           then the second half launched: a faster first half moves the
           second half's launches with it;
  peer     every kernel queued; an all-reduce a layer, 10 us, but 200 us in
           layer 2 (the rank waited for a peer);
  streams  every kernel queued; a 60 us host-to-device copy on a second
           stream at each layer's start, the layer's attention waiting for
           it (3 us after it ends): the GEMMs before the attention are off
           the step's path, those after it on it;
  graph    every kernel replayed from one cudaGraphLaunch that takes 300 us
           (its first kernel 2 us after the call returns), queued.

One decode step of 4 layers (the layer of tests/insight/mkidle.py: norm
10, GEMM 20, RoPE 5, attention 30 (here 30, or 15 with streams' copies),
GEMM 15, norm 10, GEMM 40, SiLU 8, GEMM 25 us), an embedding before and a
norm and an argmax after, queued kernels 1 us apart. The step's window is a
gpu_user_annotation step[DECODE bs=4]. The truth file holds, computed here
from the construction and nothing else: the step's wall, each projection's
saving (us), and the causes the construction fixes.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'insight'))
import mkidle  # noqa: E402  (kernel names, events, the H100 document)

EMBED, RMS, ADD_RMS, ROPE, ATTN, SILU, SAMPLE, GEMM = (
    mkidle.EMBED, mkidle.RMS, mkidle.ADD_RMS, mkidle.ROPE, mkidle.ATTN, mkidle.SILU,
    mkidle.SAMPLE, mkidle.GEMM)
AR = 'ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)'
TYPE = {EMBED: 'embedding', RMS: 'norm', ADD_RMS: 'norm', ROPE: 'rope', ATTN: 'attention',
        SILU: 'activation', SAMPLE: 'sampling', GEMM: 'gemm', AR: 'communication'}
S0 = 1_000_000.0
STREAM, COPY_STREAM = 7, 9


def layer(case, i):
    ops = [(ADD_RMS, 10), (GEMM, 20), (ROPE, 5), (ATTN, 30), (GEMM, 15)]
    if case == 'peer':
        ops.append((AR, 200 if i == 2 else 10))
    return ops + [(ADD_RMS, 10), (GEMM, 40), (SILU, 8), (GEMM, 25)]


def sequence(case):
    seq = [(EMBED, 6)]
    for i in range(4):
        seq += layer(case, i)
    return seq + [(RMS, 7), (SAMPLE, 4)]


def call(name, ts, dur, corr):
    return {'ph': 'X', 'cat': 'cuda_runtime', 'name': name, 'pid': 1, 'tid': 1, 'ts': ts,
            'dur': dur, 'args': {'correlation': corr}}


def queued(seq, first, corr0, gap=1.0):
    """Kernels back to back from first, gap us apart: [(name, ts, dur, corr)]."""
    out, t = [], first
    for i, (n, d) in enumerate(seq):
        out.append((n, t, float(d), corr0 + i))
        t += d + gap
    return out


def burst(kernels, start):
    """Their launch calls, 2 us each, 3 us apart from start."""
    return [call('cudaLaunchKernel', start + 3 * i, 2.0, c) for i, (_, _, _, c) in enumerate(kernels)]


def by_type(kernels):
    t = {}
    for n, _, d, _ in kernels:
        t[TYPE[n]] = t.get(TYPE[n], 0) + d
    return t


def build(case):
    seq = sequence(case)
    ev, truth, copies = [], {'case': case}, []
    gemm = sum(d for n, d in seq if n == GEMM)
    if case == 'launch':
        ks, t, corr = [], S0 + 45, 100
        for i, (n, d) in enumerate(seq):
            if i:
                t = ks[-1][1] + ks[-1][2] + 15          # the call 10 us after, 2 us, 3 us
            ev.append(call('cudaLaunchKernel', t - 5, 2.0, corr))
            ks.append((n, t, float(d), corr))
            corr += 1
        end = ks[-1][1] + ks[-1][2]
        s1 = end + 20
        busy = sum(d for _, _, d, _ in ks)
        # a kernel made faster only lengthens the wait for the next launch:
        # the GEMMs save nothing, the last kernel (the argmax) half of its
        truth['saving_us'] = {'launch_on_time': (s1 - S0) - busy - 20, 'inputs_overlapped': 45.0,
                              'half:gemm': 0.0, 'half:sampling': 2.0}
        truth['cause_us'] = {'before_first': 45.0, 'launch': 15.0 * (len(ks) - 1),
                             'after_last': 20.0, 'kernels': by_type(ks)}
    elif case == 'sync':
        half = 1 + 2 * 9                                # the embedding and two layers
        a = queued(seq[:half], S0 + 10, 100)
        ev += burst(a, S0 + 5)
        sa = S0 + 5 + 3 * half                          # the sync begins after the burst
        b = a[-1][1] + a[-1][2] + 5
        ev.append(call('cudaStreamSynchronize', sa, b - sa, 9000))
        rest = queued(seq[half:], b + 15, 100 + half)
        ev += burst(rest, b + 10)
        ks = a + rest
        end = ks[-1][1] + ks[-1][2]
        s1 = end + 20
        truth['saving_us'] = {'half:gemm': gemm / 2}
        truth['cause_us'] = {'sync': 5.0, 'launch': 15.0, 'before_first': 10.0,
                             'after_last': 20.0, 'kernels': by_type(ks)}
    elif case == 'peer':
        ks = queued(seq, S0 + 10, 100)
        ev += burst(ks, S0 + 5)
        end = ks[-1][1] + ks[-1][2]
        s1 = end + 20
        truth['saving_us'] = {'no_peer_wait': 190.0, 'half:gemm': gemm / 2}
        truth['cause_us'] = {'peer_wait': 190.0, 'before_first': 10.0, 'after_last': 20.0}
    elif case == 'streams':
        ks, t, corr = [], S0 + 10, 100
        ks.append((EMBED, t, 6.0, corr))
        t += 7
        corr += 1
        for i in range(4):
            lay = layer(case, i)
            start = t
            copies.append((start, 60.0, 5000 + i))
            for j, (n, d) in enumerate(lay):
                if n == ATTN:
                    t = max(t, start + 60 + 3)          # waits for the copy
                ks.append((n, t, float(d), corr))
                corr += 1
                t += d + 1
        for n, d in [(RMS, 7), (SAMPLE, 4)]:
            ks.append((n, t, float(d), corr))
            corr += 1
            t += d + 1
        ev += burst(ks, S0 + 1)
        for i, (_, _, c) in enumerate(copies):
            ev.append(call('cudaMemcpyAsync', S0 + 2 + 3 * len(ks) + 3 * i, 2.0, c))
        end = ks[-1][1] + ks[-1][2]
        s1 = end + 20
        after_attn = sum(d for n, d in layer(case, 0)[4:] if n == GEMM)
        truth['saving_us'] = {'copies_hidden': 4 * 25.0, 'half:attention': 4 * 15.0,
                              'half:gemm': 4 * after_attn / 2}
        # each layer's attention 3 us after its copy, each copy 1 us after
        # the kernel before it on the other stream
        truth['cause_us'] = {'copy': 4 * 60.0, 'other_stream': 4 * (3.0 + 1.0),
                             'before_first': 10.0, 'after_last': 20.0}
    elif case == 'graph':
        ks = queued(seq, S0 + 322, 100)
        ks = [(n, t, d, 100) for n, t, d, _ in ks]      # one graph: one correlation
        ev.append(call('cudaGraphLaunch', S0 + 20, 300.0, 100))
        end = ks[-1][1] + ks[-1][2]
        s1 = end + 10
        truth['saving_us'] = {'launch_on_time': 322.0, 'inputs_overlapped': 322.0,
                              'half:gemm': gemm / 2}
        truth['cause_us'] = {'before_first': 322.0, 'after_last': 10.0, 'kernels': by_type(ks)}
    else:
        raise SystemExit('unknown case ' + case)
    for n, t, d, c in ks:
        ev.append(mkidle.kernel_event(n, t, d, STREAM, c))
    for t, d, c in copies:
        ev.append({'ph': 'X', 'cat': 'gpu_memcpy', 'name': 'Memcpy HtoD (Pageable -> Device)',
                   'pid': 0, 'tid': COPY_STREAM, 'ts': t, 'dur': d,
                   'args': {'correlation': c, 'device': 0, 'stream': COPY_STREAM,
                            'bytes': 1 << 20}})
    ev.append({'ph': 'X', 'cat': 'gpu_user_annotation', 'name': 'step[DECODE bs=4]', 'pid': 0,
               'tid': STREAM, 'ts': S0, 'dur': s1 - S0})
    ev.append({'ph': 'X', 'cat': 'user_annotation', 'name': 'step[DECODE bs=4]', 'pid': 1,
               'tid': 1, 'ts': S0 - 1, 'dur': s1 - S0 + 2})
    ev.sort(key=lambda e: e['ts'])
    truth['wall_us'] = s1 - S0
    return ev, truth


def main():
    case, out, truth_path = sys.argv[1:4]
    ev, truth = build(case)
    mkidle.write_trace(out, ev, cuda_runtime_version=12040)
    json.dump(truth, open(truth_path, 'w'), indent=1)


if __name__ == '__main__':
    main()
