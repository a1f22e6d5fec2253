#!/usr/bin/env python3
"""The ranks of one tensor-parallel job, by construction: one synthetic
decoder trace (tests/layers/mkgeneric.py, same seed for every rank) written
once per rank with its own speed.

    mkranks.py DIR TRUTH [--ranks N] [--straggler R] [--layers L] [--decode K]

Rank r's compute kernels (everything but the all-reduce) take compute[r]
of the generated time and its all-reduce kernels allreduce[r] of theirs
(every factor at most 1, so kernels never overlap). The straggler computes
at full time and waits least in the all-reduces; the others compute faster
and wait more. Files are DIR/trace_rank_R.json with distributedInfo
{rank: R, world_size: N}; TRUTH (a file outside DIR) holds the
construction (factors, the generator's truth, and "order": a shuffled
order of the ranks to pass the files in, so that a tool numbering ranks
by file order gets them wrong). What the ranks must show is computed from
the files by tests/ranks/oracle.py, not from here.
"""
import argparse
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
AR = 'cross_device_reduce'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('dir')
    ap.add_argument('truth')
    ap.add_argument('--ranks', type=int, default=4)
    ap.add_argument('--straggler', type=int, default=2)
    ap.add_argument('--layers', type=int, default=6)
    ap.add_argument('--decode', type=int, default=3)
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    gen = [sys.executable, os.path.join(here, '..', 'layers', 'mkgeneric.py'), '--layers',
           str(a.layers), '--tp', '4', '--prefill', '64', '--decode', str(a.decode), '--seed', '7']
    base = json.loads(subprocess.run(gen + ['--truth-file', a.truth], check=True,
                                     capture_output=True).stdout)
    gtruth = json.load(open(a.truth))
    compute, allreduce = [], []
    for r in range(a.ranks):
        if r == a.straggler:
            compute.append(1.0)
            allreduce.append(0.4)
        else:
            compute.append(0.70 + 0.05 * (r % 3))
            allreduce.append(1.0 - 0.1 * (r % 3))
    for r in range(a.ranks):
        d = json.loads(json.dumps(base))
        d['distributedInfo'] = {'backend': 'nccl', 'rank': r, 'world_size': a.ranks}
        for e in d['traceEvents']:
            if e.get('cat') != 'kernel':
                continue
            f = allreduce[r] if AR in e['name'] else compute[r]
            ns = round(e['dur'] * 1000)
            e['dur'] = round(ns * f) / 1000.0
        with open(os.path.join(a.dir, 'trace_rank_%d.json' % r), 'w') as out:
            json.dump(d, out)
    order = [(r * 3 + 1) % a.ranks for r in range(a.ranks)]
    if sorted(order) != list(range(a.ranks)):
        order = list(reversed(range(a.ranks)))
    json.dump({'ranks': a.ranks, 'straggler': a.straggler, 'compute': compute,
               'allreduce': allreduce, 'order': order,
               'generator': gtruth}, open(a.truth, 'w'), indent=1)


main()
