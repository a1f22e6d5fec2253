#!/usr/bin/env python3
"""Hand-made capture and replay traces with known answers (tests/t_capture.sh).

  capture_hip.json    two graphs captured (HIP: launches name their kernel
                      and grid): capture_16_DECODE and capture_32_DECODE, each
                      gemm_kernel (aten::mm), silu_k (aten::silu), add_k (aten::add)
  capture_diff.json   size 16, but its third kernel is other_k
  capture_ops.json    size 16, the same kernels, launched by other ops
                      (aten::matmul, aten::gelu, aten::sub)
  replay_hip.json     replays of size 16 (twice), 32, and 64 (4 kernels),
                      launches before kernels (AMD order), one eager kernel
  capture_cuda.json   the two graphs as CUDA writes them: cudaLaunchKernel
                      with no kernel name or grid
  replay_cuda.json    the replays as CUDA writes them: kernels first, their
                      cudaGraphLaunch after
  replay_pad_hip.json, replay_pad_cuda.json
                      replays whose step size was not captured: bs=20 and
                      bs=24 running the size-32 graph (padded up), bs=10 the
                      size-16 graph, bs=40 the size-32 graph (no size above),
                      and bs=24 running the size-16 graph (HIP's grids tell)
  replay_order_hip.json
                      the size-16 graph on two streams: its kernels finish
                      in another order than they were launched (silu_k on
                      stream 8 first), then a size-32 replay in order

Usage: mkcapture.py DIR
"""
import json
import os
import sys

SITES = {'aten::mm': 'layers/linear.py(20): forward', 'aten::silu': 'layers/act.py(5): forward',
         'aten::add': 'model.py(10): forward', 'aten::matmul': 'other/mm.py(3): forward',
         'aten::gelu': 'other/act.py(4): forward', 'aten::sub': 'other/model.py(5): forward'}


def shapes(op, m):
    if op in ('aten::mm', 'aten::matmul'):
        return [[m, 64], [64, 128]], ['c10::BFloat16'] * 2
    if op in ('aten::silu', 'aten::gelu'):
        return [[m, 256]], ['c10::BFloat16']
    return [[m, 128], [m, 128], []], ['c10::BFloat16', 'c10::BFloat16', 'Scalar']


def capture(graphs, hip=True):
    """graphs: [(size, [(op, kernel, grid)])]"""
    ev, t, ext, corr = [], 100, 1, 1
    launch = 'hipLaunchKernel' if hip else 'cudaLaunchKernel'
    begin = 'hipStreamBeginCapture' if hip else 'cudaStreamBeginCapture'
    end = 'hipStreamEndCapture' if hip else 'cudaStreamEndCapture'
    for size, nodes in graphs:
        t0 = t
        ev.append({'ph': 'X', 'cat': 'cuda_runtime', 'name': begin, 'pid': 1, 'tid': 1,
                   'ts': t, 'dur': 1, 'args': {'correlation': corr}})
        corr += 1
        t += 10
        for op, kernel, grid in nodes:
            dims, types = shapes(op, size)
            ev.append({'ph': 'X', 'cat': 'python_function', 'name': SITES[op], 'pid': 1, 'tid': 1,
                       'ts': t - 2, 'dur': 8, 'args': {}})
            ev.append({'ph': 'X', 'cat': 'python_function', 'name': 'torch/nn/modules/module.py(1): _call_impl',
                       'pid': 1, 'tid': 1, 'ts': t - 1, 'dur': 6, 'args': {}})
            ev.append({'ph': 'X', 'cat': 'cpu_op', 'name': op, 'pid': 1, 'tid': 1, 'ts': t, 'dur': 4,
                       'args': {'External id': ext, 'Input Dims': dims, 'Input type': types}})
            args = {'External id': ext, 'correlation': corr}
            if hip:
                args.update({'kernel': kernel, 'grid': grid, 'block': [256, 1, 1]})
            ev.append({'ph': 'X', 'cat': 'cuda_runtime', 'name': launch, 'pid': 1, 'tid': 1,
                       'ts': t + 1, 'dur': 2, 'args': args})
            ext += 1
            corr += 1
            t += 10
        ev.append({'ph': 'X', 'cat': 'cuda_runtime', 'name': end, 'pid': 1, 'tid': 1,
                   'ts': t, 'dur': 1, 'args': {'correlation': corr}})
        ev.append({'ph': 'X', 'cat': 'user_annotation', 'name': 'capture_%d_DECODE' % size, 'pid': 1,
                   'tid': 1, 'ts': t0 - 5, 'dur': t - t0 + 10, 'args': {}})
        corr += 1
        t += 100
    ev.sort(key=lambda e: e['ts'])
    return {'traceEvents': ev}


STD = [('aten::mm', 'gemm_kernel', None), ('aten::silu', 'silu_k', None), ('aten::add', 'add_k', None)]


def nodes(size, std=STD):
    return [(op, k, [size * (i + 1), 1, 1]) for i, (op, k, _) in enumerate(std)]


def run16(d=0):
    return [('gemm_kernel', 10 + d, 16), ('silu_k', 3 + d, 32), ('add_k', 1 + d, 48)]


def run32(d=0):
    return [('gemm_kernel', 20 + d, 32), ('silu_k', 6 + d, 64), ('add_k', 2 + d, 96)]


STD_REPLAYS = [(16, run16()), (32, run32()), (16, [('gemm_kernel', 11, 16), ('silu_k', 4, 32), ('add_k', 1, 48)]),
               (64, [('gemm_kernel', 5, 64), ('silu_k', 5, 128), ('add_k', 5, 192), ('add_k', 5, 192)])]
PAD_REPLAYS = [(20, run32()), (10, run16()), (40, run32(1)), (24, run32(2)), (24, run16(2))]
ORDER_REPLAYS = [(16, [('silu_k', 3, 32, 8), ('gemm_kernel', 10, 16), ('add_k', 1, 48)]), (32, run32())]


def replay(hip=True, reps=STD_REPLAYS):
    """Replays: (size, kernels [(name, dur, grid)])"""
    cpu, gpu, t, gt, corr = [], [], 1000, 50000, 500
    glaunch = 'hipGraphLaunch' if hip else 'cudaGraphLaunch'
    for size, ks in reps:
        cpu.append({'ph': 'X', 'cat': 'user_annotation', 'name': 'step[DECODE bs=%d]' % size,
                    'pid': 1, 'tid': 1, 'ts': t, 'dur': 50, 'args': {}})
        cpu.append({'ph': 'X', 'cat': 'python_function', 'name': 'runner.py(7): replay', 'pid': 1,
                    'tid': 1, 'ts': t + 5, 'dur': 20, 'args': {}})
        launch = {'ph': 'X', 'cat': 'cuda_runtime', 'name': glaunch, 'pid': 1, 'tid': 1,
                  'ts': t + 10, 'dur': 5, 'args': {'correlation': corr}}
        kern = []
        for name, dur, g, *stream in ks:
            st = stream[0] if stream else 7
            kern.append({'ph': 'X', 'cat': 'kernel', 'name': name, 'pid': 0, 'tid': st, 'ts': gt,
                         'dur': dur, 'args': {'correlation': corr, 'device': 0, 'stream': st,
                                              'grid': [g, 1, 1], 'block': [256, 1, 1]}})
            gt += dur + 1
        if hip:
            cpu.append(launch)
            gpu.extend(kern)
        else:
            gpu.extend(kern)
            gpu.append(launch)   # CUPTI writes the launch after the kernels
        corr += 1
        t += 100
        gt += 10
    # one eager kernel, linked to its op
    cpu.append({'ph': 'X', 'cat': 'cpu_op', 'name': 'aten::mul', 'pid': 1, 'tid': 1, 'ts': t,
                'dur': 4, 'args': {'External id': 9000}})
    cpu.append({'ph': 'X', 'cat': 'cuda_runtime', 'name': 'hipLaunchKernel' if hip else 'cudaLaunchKernel',
                'pid': 1, 'tid': 1, 'ts': t + 1, 'dur': 2, 'args': {'External id': 9000, 'correlation': corr}})
    gpu.append({'ph': 'X', 'cat': 'kernel', 'name': 'mul_k', 'pid': 0, 'tid': 7, 'ts': gt, 'dur': 2,
                'args': {'External id': 9000, 'correlation': corr, 'device': 0, 'stream': 7}})
    cpu.sort(key=lambda e: e['ts'])
    return {'traceEvents': cpu + gpu}


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    other = [('aten::matmul', 'gemm_kernel', None), ('aten::gelu', 'silu_k', None), ('aten::sub', 'add_k', None)]
    diff = [('aten::mm', 'gemm_kernel', None), ('aten::silu', 'silu_k', None), ('aten::add', 'other_k', None)]
    files = {
        'capture_hip.json': capture([(16, nodes(16)), (32, nodes(32))]),
        'capture_diff.json': capture([(16, nodes(16, diff))]),
        'capture_ops.json': capture([(16, nodes(16, other))]),
        'capture_cuda.json': capture([(16, nodes(16)), (32, nodes(32))], hip=False),
        'replay_hip.json': replay(),
        'replay_cuda.json': replay(hip=False),
        'replay_pad_hip.json': replay(reps=PAD_REPLAYS),
        'replay_pad_cuda.json': replay(hip=False, reps=PAD_REPLAYS),
        'replay_order_hip.json': replay(reps=ORDER_REPLAYS),
    }
    for name, tr in files.items():
        with open(os.path.join(d, name), 'w') as f:
            json.dump(tr, f, indent=0)


if __name__ == '__main__':
    main()
