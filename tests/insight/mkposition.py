#!/usr/bin/env python3
"""Hand-made decode traces whose slow kernel calls follow the layer
position, or the kernel.

    mkposition.py block trace.json truth.json
    mkposition.py kernel trace.json truth.json

Four decode steps (step[DECODE bs=4]) of twelve layers of mkidle.py's
layer, the same kernels and times in every layer.

block: in each pass a block of four consecutive layers took a fixed 40 us
more, whichever kernel ran there: the attention kernel in the block's
first two layers, the first fused-add RMSNorm in its last two. The block
lies at layers 2-5 in the first two passes and 6-9 in the last two. Both
kernels' slowest calls take over twice their median (70 vs 30 us, 50 vs
10 us) and their time above it is over 1% of the stage: the old rule
called each one's calls spread; the excess is the position's. The truth:
the layers, the surcharge a layer, the passes and the cost a step.

kernel: a MoE expert GEMM (fused_moe_kernel, 20 us) after each up GEMM
took more in scattered layers, by uneven amounts (its experts' uneven
tokens), three of them consecutive in one pass, and the layer's second
expert GEMM (_fused_moe_kernel_a8w8, 10 us, after the down GEMM) half as
much more in the same layers; every other kernel the same in every call.
Their spread is their own (one type of kernel, the MoE layer's routing).
The truth: the first one's calls and its time above the median.
"""
import json
import sys

from mkidle import ATTN, ADD_RMS, LAYER, decode_steps, write_trace

NLAYERS = 12
PASSES = 4
SURCHARGE = 40
BLOCKS = [2, 2, 6, 6]                # each pass's block: its first layer
MOE = 'fused_moe_kernel'
MOE2 = '_fused_moe_kernel_a8w8'
UNEVEN = {(0, 1): 50, (0, 5): 45, (0, 6): 90, (0, 7): 60, (1, 4): 70, (2, 2): 55,
          (2, 9): 65, (3, 10): 80}   # (pass, layer): the MoE GEMM's extra us


def layer_kernels(kind, step, layer):
    """The (name, dur) of one layer."""
    out = []
    b = BLOCKS[step]
    for j, (name, dur, _) in enumerate(LAYER):
        if kind == 'block' and b <= layer < b + 4:
            if layer < b + 2 and name == ATTN:
                dur += SURCHARGE
            elif layer >= b + 2 and name == ADD_RMS and j == 0:
                dur += SURCHARGE
        out.append((name, dur))
        if kind == 'kernel' and j == 6:          # the up GEMM
            out.append((MOE, 20 + UNEVEN.get((step, layer), 0)))
        if kind == 'kernel' and j == 8:          # the down GEMM
            out.append((MOE2, 10 + UNEVEN.get((step, layer), 0) / 2))
    return out


def main():
    kind, out, truth_path = sys.argv[1:4]
    ev = decode_steps(PASSES, NLAYERS, lambda step, layer: layer_kernels(kind, step, layer))
    write_trace(out, ev)
    if kind == 'block':
        truth = {'layers_lo': min(BLOCKS), 'layers_hi': max(BLOCKS) + 3, 'surcharge_us': SURCHARGE,
                 'passes': PASSES, 'at_stake_us': SURCHARGE * 4 * PASSES,
                 'per_step_us': SURCHARGE * 4.0}
    else:
        calls = PASSES * NLAYERS
        truth = {'kernel': MOE, 'calls': calls, 'p50_us': 20.0,
                 'excess_us': float(sum(UNEVEN.values()))}
    json.dump(truth, open(truth_path, 'w'))


if __name__ == '__main__':
    main()
