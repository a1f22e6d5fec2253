#!/usr/bin/env python3
"""An MI300X TP rank's collectives replayed from a graph, with their truth.

    mkgraphcoll.py DIR

RCCL runs every collective through one kernel, ncclDevKernel_Generic_4;
in eager mode its launching op says which collective it is
(mkcollectives.py), but a graph replays the kernels with no CPU op
(hipGraphLaunch). Two files in the shapes tests/capture/mkcapture.py
writes (HIP: launches name their kernel and grid, launches before the
kernels):

  graphcoll_capture.json  the server's warm-up: two graphs captured
                          (capture_8_DECODE, capture_16_DECODE), each
                          LAYERS layers of qkv GEMM, vllm::all_reduce
                          (pynccl: the op launches the kernel), o_proj
                          GEMM, up and down GEMMs, then c10d::allreduce_
                          > record_param_comms ("Collective name"
                          allreduce) launching the kernel; and after the
                          layers the logits' gather, c10d::_allgather_base_
                          > record_param_comms (_allgather_base) >
                          nccl:_all_gather_base (a user annotation open
                          across the launch, as Kineto nests c10d's)
  graphcoll_replay.json   REPLAYS decode steps, sizes 8 and 16 in turn,
                          each a hipGraphLaunch whose kernels run on the
                          GPU with no CPU op
  graphcoll_replay_msg.json
                          the same, each collective kernel with the
                          message Kineto writes on an eager one ("In msg
                          nelems", "Out msg nelems", "Group size" 8,
                          "dtype" BFloat16): all-reduces of size x 4096
                          elements, all-gathers of size x 4000 into
                          size x 32000 (what the collectives table sizes
                          them by has to survive the replay's hold)

Truth per replay: 2 x LAYERS all-reduces (12 us each), 1 all-gather
(9 us); every GEMM 20 us.
"""
import json
import os
import sys

LAYERS = 4
REPLAYS = 6
SIZES = (8, 16)
GEN = 'ncclDevKernel_Generic_4(ncclDevKernelArgsStorage<4096ul>)'
GEMM = 'Cijk_Alik_Bljk_BBS_BH_MT128x128x64_MI32x32x8x1_SN_1LDSB1_GRVW8_K1_WG32_8_1'
DUR = {GEN: 12, GEMM: 20}
AG_DUR = 9


def graph_nodes():
    """The captured sequence: (kind, kernel), kind 'gemm', 'ar_vllm',
    'ar_c10d' or 'ag'."""
    seq = []
    for _ in range(LAYERS):
        seq += [('gemm', GEMM), ('ar_vllm', GEN), ('gemm', GEMM), ('gemm', GEMM), ('gemm', GEMM),
                ('ar_c10d', GEN)]
    return seq + [('ag', GEN)]


def grid(kind, size):
    return [1, 1, 1] if kind != 'gemm' else [size * 4, 1, 1]


class Capture:
    def __init__(self):
        self.ev, self.t, self.ext, self.corr = [], 100.0, 1, 1

    def x(self, cat, name, ts, dur, args=None):
        self.ev.append({'ph': 'X', 'cat': cat, 'name': name, 'pid': 1, 'tid': 1, 'ts': ts,
                        'dur': dur, 'args': args or {}})

    def op(self, name, ts, dur, cat='cpu_op', args=None):
        self.ext += 1
        a = {'External id': self.ext}
        a.update(args or {})
        self.x(cat, name, ts, dur, a)
        return self.ext

    def launch(self, ext, ts, kernel, g):
        self.corr += 1
        self.x('cuda_runtime', 'hipLaunchKernel', ts, 2,
               {'External id': ext, 'correlation': self.corr, 'kernel': kernel, 'grid': g,
                'block': [256, 1, 1]})

    def node(self, kind, kernel, size):
        t, g = self.t, grid(kind, size)
        if kind == 'gemm':
            x = self.op('aten::mm', t, 4, args={'Input Dims': [[size, 4096], [4096, 1024]],
                                                'Input type': ['c10::BFloat16'] * 2})
            self.launch(x, t + 1, kernel, g)
        elif kind == 'ar_vllm':
            x = self.op('vllm::all_reduce', t, 6)
            self.launch(x, t + 1, kernel, g)
        elif kind == 'ar_c10d':
            self.op('c10d::allreduce_', t, 8)
            x = self.op('record_param_comms', t + 1, 6, args={'Collective name': 'allreduce'})
            self.launch(x, t + 2, kernel, g)
        else:
            self.op('c10d::_allgather_base_', t, 8)
            self.op('record_param_comms', t + 1, 6, args={'Collective name': '_allgather_base'})
            x = self.op('nccl:_all_gather_base', t + 2, 4, cat='user_annotation')
            self.launch(x, t + 3, kernel, g)
        self.t += 10

    def graph(self, size):
        t0 = self.t
        self.corr += 1
        self.x('cuda_runtime', 'hipStreamBeginCapture', self.t, 1, {'correlation': self.corr})
        self.t += 10
        for kind, kernel in graph_nodes():
            self.node(kind, kernel, size)
        self.corr += 1
        self.x('cuda_runtime', 'hipStreamEndCapture', self.t, 1, {'correlation': self.corr})
        self.corr += 1
        self.x('cuda_runtime', 'hipGraphInstantiateWithFlags', self.t + 2, 40, {'correlation': self.corr})
        self.x('user_annotation', 'capture_%d_DECODE' % size, t0 - 5, self.t - t0 + 50)
        self.t += 100

    def trace(self):
        for size in SIZES:
            self.graph(size)
        self.ev.sort(key=lambda e: e['ts'])
        return {'traceEvents': self.ev}


def message(kind, size):
    if kind in ('ar_vllm', 'ar_c10d'):
        return {'In msg nelems': size * 4096, 'Out msg nelems': size * 4096}
    return {'In msg nelems': size * 4000, 'Out msg nelems': size * 32000}


def replay(msg=False):
    cpu, gpu, t, gt, corr = [], [], 1000.0, 50000.0, 500
    for r in range(REPLAYS):
        size = SIZES[r % len(SIZES)]
        cpu.append({'ph': 'X', 'cat': 'user_annotation', 'name': 'step[DECODE bs=%d]' % size,
                    'pid': 1, 'tid': 1, 'ts': t, 'dur': 50, 'args': {}})
        cpu.append({'ph': 'X', 'cat': 'cuda_runtime', 'name': 'hipGraphLaunch', 'pid': 1, 'tid': 1,
                    'ts': t + 10, 'dur': 5, 'args': {'correlation': corr}})
        for kind, kernel in graph_nodes():
            dur = AG_DUR if kind == 'ag' else DUR[kernel]
            args = {'correlation': corr, 'device': 0, 'stream': 7, 'grid': grid(kind, size),
                    'block': [256, 1, 1]}
            if msg and kind != 'gemm':
                args.update(message(kind, size), **{'Group size': 8, 'dtype': 'BFloat16'})
            gpu.append({'ph': 'X', 'cat': 'kernel', 'name': kernel, 'pid': 0, 'tid': 7, 'ts': gt,
                        'dur': dur, 'args': args})
            gt += dur + 1
        corr += 1
        t += 1000
        gt += 50
    return {'traceEvents': cpu + gpu}


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    for name, tr in (('graphcoll_capture.json', Capture().trace()), ('graphcoll_replay.json', replay()),
                     ('graphcoll_replay_msg.json', replay(msg=True))):
        with open(os.path.join(d, name), 'w') as f:
            json.dump(tr, f, indent=0)


if __name__ == '__main__':
    main()
