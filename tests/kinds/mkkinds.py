#!/usr/bin/env python3
"""One small trace of each kind of file PyTorch's profiler writes, with what
tracestream must say about it (the truth is this file's construction).

    mkkinds.py DIR      writes DIR/KIND.json and prints KIND<TAB>WORDS lines:
                        the passes note must hold WORDS

Kinds: old (PyTorch 1.8 / 1.9 spellings: Kernel, Memcpy, Memset, Runtime,
Operator, async flows, "external id"), cpu_only (cpu_op and
user_annotation, a training step's backward ops, no launch), other_device
(an MTIA trace: mtia_runtime, mtia_ccp_events), frontend (python_function
events of an API server, no cpu_op), capture (a graph capture: launches
into a capture, no kernel), empty (traceEvents []), launches_only (kernels
launched, no GPU activity recorded).
"""
import json
import os
import sys


def x(cat, name, ts, dur, pid=1, tid=1, **args):
    return {'ph': 'X', 'cat': cat, 'name': name, 'pid': pid, 'tid': tid, 'ts': ts,
            'dur': dur, 'args': args}


def old():
    ev = []
    for i in range(40):
        t = 1000 + 50 * i
        ev.append(x('Operator', 'aten::conv2d', t, 20, **{'External id': i + 1}))
        ev.append(x('Runtime', 'cudaLaunchKernel', t + 2, 5, correlation=100 + i,
                    **{'external id': i + 1}))
        ev.append({'ph': 's', 'id': 100 + i, 'pid': 1, 'tid': 1, 'ts': t + 2, 'cat': 'async',
                   'name': 'launch'})
        ev.append({'ph': 'f', 'id': 100 + i, 'pid': 0, 'tid': 'stream 7', 'ts': t + 10,
                   'cat': 'async', 'name': 'launch', 'bp': 'e'})
        ev.append(x('Kernel', 'void implicit_convolve_sgemm<float, float, 1024, 6, 7, 3, 3, 5, 1, '
                    'false, true, true>(int, int, int, float const*, int, float*)', t + 10, 7,
                    pid=0, tid='stream 7', device=0, stream=7, correlation=100 + i,
                    **{'external id': i + 1}))
    ev.append(x('Memcpy', 'Memcpy HtoD (Pageable -> Device)', 900, 4, pid=0, tid='stream 7',
                device=0, stream=7, bytes=4096))
    ev.append(x('Memset', 'Memset (Device)', 905, 1, pid=0, tid='stream 7', device=0, stream=7,
                bytes=128))
    return ev


def cpu_only():
    ev = [x('user_annotation', 'ProfilerStep#3', 1000, 900)]
    for i in range(30):
        ev.append(x('cpu_op', 'aten::addmm', 1000 + 20 * i, 10, **{'External id': i + 1}))
        ev.append(x('cpu_op', 'autograd::engine::evaluate_function: AddmmBackward0',
                    1600 + 10 * i, 8, **{'External id': 100 + i}))
    return ev


def other_device():
    ev = []
    for i in range(25):
        ev.append(x('mtia_runtime', 'mtiaLaunchKernel', 1000 + 20 * i, 3))
        ev.append(x('mtia_ccp_events', 'fused_linear_%d' % i, 1005 + 20 * i, 10, pid=0, tid=3))
    return ev


def frontend():
    names = ['prometheus_client/metrics.py(67): _is_observable', 'uvicorn/server.py(214): main_loop',
             'asyncio/base_events.py(1909): _run_once', 'vllm/entrypoints/openai/api_server.py(80): generate',
             '<built-in function isinstance>']
    return [x('python_function', names[i % len(names)], 1000 + 5 * i, 3) for i in range(200)]


def capture():
    ev = [x('cuda_runtime', 'cudaStreamBeginCapture', 990, 2)]
    for i in range(30):
        ev.append(x('cpu_op', 'aten::mm', 1000 + 20 * i, 10, **{'External id': i + 1}))
        ev.append(x('cuda_runtime', 'cudaLaunchKernel', 1002 + 20 * i, 3, correlation=i + 1,
                    **{'External id': i + 1}))
    ev.append(x('cuda_runtime', 'cudaStreamEndCapture', 1700, 2))
    return ev


def launches_only():
    ev = []
    for i in range(30):
        ev.append(x('cpu_op', 'aten::mm', 1000 + 20 * i, 10, **{'External id': i + 1}))
        ev.append(x('cuda_runtime', 'cudaLaunchKernel', 1002 + 20 * i, 3, correlation=i + 1,
                    **{'External id': i + 1}))
    return ev


KINDS = {
    'old': (old, 'no attention kernel among 40 kernels'),   # a convolution net's kernels
    'cpu_only': (cpu_only, 'a CPU-only profile of a training step (30 autograd backward ops)'),
    'other_device': (other_device, 'a trace of another accelerator (50 MTIA events, mtia_*)'),
    'frontend': (frontend, 'a front-end process, such as an API server'),
    'capture': (capture, 'a CUDA/HIP graph capture with no kernel run (1 capture begun, 30 launches)'),
    'empty': (lambda: [], 'traceEvents is empty'),
    'launches_only': (launches_only, 'no GPU kernels, though the CPU launched 30'),
}

if __name__ == '__main__':
    out = sys.argv[1]
    for k, (fn, words) in KINDS.items():
        with open(os.path.join(out, k + '.json'), 'w') as f:
            json.dump({'traceEvents': fn()}, f)
        print('%s\t%s' % (k, words))
