#!/usr/bin/env python3
"""A hand-made decode trace with one kernel far from its own median.

    mkspread.py trace.json truth.json

Three decode steps (step[DECODE bs=4]) of mkidle.py's four layers, each
layer with a MoE expert GEMM (fused_moe_kernel) after its up GEMM: 20 us in
ten of its twelve calls, 70 us in two (one expert got most of the tokens).
Every other kernel takes the same time in every call. The truth: the MoE
kernel's median and max, and its time above the median (2 x 50 us).
"""
import json
import sys

from mkidle import LAYER, NLAYERS, decode_steps, write_trace

MOE = 'fused_moe_kernel'
SLOW = {(0, 2), (2, 1)}          # (step, layer) where the expert GEMM is slow


def main():
    out, truth_path = sys.argv[1], sys.argv[2]
    def layer_kernels(step, layer):
        seq = []
        for name, dur, _ in LAYER:
            seq.append((name, dur))
            if name == LAYER[6][0] and dur == LAYER[6][1]:     # the up GEMM
                seq.append((MOE, 70 if (step, layer) in SLOW else 20))
        return seq

    ev = decode_steps(3, NLAYERS, layer_kernels)
    write_trace(out, ev)
    calls = 3 * NLAYERS
    json.dump({'kernel': MOE, 'calls': calls, 'p50_us': 20.0, 'max_us': 70.0,
               'excess_us': 2 * 50.0}, open(truth_path, 'w'))


if __name__ == '__main__':
    main()
