#!/usr/bin/env python3
"""A hand-made trace with known overlap of computation, communication and
copies.

    mkoverlap.py trace.json truth.json

One decode step (step[DECODE bs=4]) of mkidle.py's four layers on stream 7,
as tensor parallelism runs them: each layer's output all-reduce (NCCL, 30
us, stream 8) starts 10 us before the layer's last GEMM ends, and the next
layer waits for it, so 10 us of each all-reduce run under computation and
20 us alone. A host-to-device copy of 10 us runs inside the first layer
(hidden under its kernels), another of 10 us after the step (alone). The
truth holds, from this construction: computation (the union of the other
kernels), communication, their overlap, and the copies' (whole trace and
the decode pass alike).
"""
import json
import sys

from mkidle import EMBED, LAYER, RMS, SAMPLE, NLAYERS, kernel_event, launch_event, write_trace

AR = 'ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)'


def kernel(ev, name, ts, dur, stream, corr):
    ev.append(kernel_event(name, ts, dur, stream, corr))
    ev.append(launch_event(999_000.0 + corr * 0.01, corr, dur=0.005))


def main():
    out, truth_path = sys.argv[1], sys.argv[2]
    ev, t, corr = [], 1_000_000.0, 1000
    ev.append({'ph': 'X', 'cat': 'user_annotation', 'name': 'step[DECODE bs=4]', 'pid': 1,
               'tid': 1, 'ts': 998_900.0, 'dur': 2000.0})
    compute = comm = hidden = 0.0
    kernel(ev, EMBED, t, 6, 7, corr)
    t, compute, corr = t + 6, compute + 6, corr + 1
    first_layer = t
    for _ in range(NLAYERS):
        for name, dur, _ in LAYER:
            kernel(ev, name, t, dur, 7, corr)
            t, compute, corr = t + dur, compute + dur, corr + 1
        kernel(ev, AR, t - 10, 30, 8, corr)
        corr += 1
        comm, hidden = comm + 30, hidden + 10
        t += 20                     # the next layer waits for the all-reduce
    for name, dur in ((RMS, 7), (SAMPLE, 4)):
        kernel(ev, name, t, dur, 7, corr)
        t, compute, corr = t + dur, compute + dur, corr + 1
    for at in (first_layer + 5, t + 100):
        ev.append({'ph': 'X', 'cat': 'gpu_memcpy', 'name': 'Memcpy HtoD (Pinned -> Device)',
                   'pid': 0, 'tid': 9, 'ts': at, 'dur': 10.0,
                   'args': {'device': 0, 'stream': 9, 'bytes': 4096, 'correlation': corr}})
        corr += 1
    write_trace(out, ev)
    busy = compute + comm - hidden
    truth = {'compute_us': compute, 'comm_us': comm, 'comm_hidden_us': hidden,
             'comm_exposed_us': comm - hidden, 'mem_us': 20.0, 'mem_hidden_us': 10.0,
             'mem_exposed_us': 10.0, 'kernel_busy_us': busy, 'busy_with_copies_us': busy + 10.0}
    json.dump(truth, open(truth_path, 'w'), indent=1)


if __name__ == '__main__':
    main()
