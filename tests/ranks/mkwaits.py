#!/usr/bin/env python3
"""The ranks of a data-parallel training job with no layer structure, one
rank slower than the rest: each of K iterations is a GEMM then an
all-reduce that ends on every rank at once (the slowest GEMM's end plus
the transfer). The slow rank computes 300 us a GEMM and the others 200,
so the others sit in each all-reduce 100 us longer: it is the rank they
wait for, though no layer position can name it.

    mkwaits.py DIR TRUTH [--ranks N] [--straggler R] [--iters K]

Files are DIR/trace_rank_R.json (distributedInfo {rank: R, world_size:
N}); TRUTH holds the straggler, each rank's all-reduce time, and the
waits the construction fixes (beyond the least all-reduce time of any
rank): the straggler 0, every other rank K x 100 us.
"""
import argparse
import json
import os

GEMM = 'ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_tn'
AR = 'ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)'
A100 = [{'id': 0, 'name': 'NVIDIA A100-SXM4-80GB', 'totalGlobalMem': 85198045184,
         'computeMajor': 8, 'computeMinor': 0, 'numSms': 108, 'warpSize': 32}]


def kernel(name, ts, dur, stream, corr):
    return {'ph': 'X', 'cat': 'kernel', 'name': name, 'pid': 0, 'tid': stream, 'ts': ts,
            'dur': float(dur), 'args': {'correlation': corr, 'device': 0, 'stream': stream,
                                        'grid': [108, 1, 1], 'block': [256, 1, 1]}}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('dir')
    ap.add_argument('truth')
    ap.add_argument('--ranks', type=int, default=8)
    ap.add_argument('--straggler', type=int, default=5)
    ap.add_argument('--iters', type=int, default=20)
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    comm = {}
    for r in range(a.ranks):
        g = 300.0 if r == a.straggler else 200.0
        ev, t, corr = [], 1_000_000.0, 1
        for i in range(a.iters):
            ev.append(kernel(GEMM, t, g, 7, corr))
            ev.append({'ph': 'X', 'cat': 'cuda_runtime', 'name': 'cudaLaunchKernel', 'pid': 1,
                       'tid': 1, 'ts': t - 10, 'dur': 4.0, 'args': {'correlation': corr}})
            end = 1_000_000.0 + i * 360.0 + 300.0 + 50.0   # the slowest GEMM's end + transfer
            ev.append(kernel(AR, t + g, end - (t + g), 20, corr + 1))
            comm[r] = comm.get(r, 0.0) + end - (t + g)
            corr += 2
            t = end + 10.0
        doc = {'schemaVersion': 1, 'deviceProperties': A100,
               'distributedInfo': {'backend': 'nccl', 'rank': r, 'world_size': a.ranks},
               'traceEvents': ev}
        json.dump(doc, open(os.path.join(a.dir, 'trace_rank_%d.json' % r), 'w'))
    least = min(comm.values())
    json.dump({'straggler': a.straggler, 'comm_us': comm,
               'wait_us': {r: c - least for r, c in comm.items()},
               'others_wait_us': a.iters * 100.0}, open(a.truth, 'w'), indent=1)


if __name__ == '__main__':
    main()
