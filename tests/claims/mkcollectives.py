#!/usr/bin/env python3
"""A TP rank's collectives through RCCL's generic kernel, with their truth.

    mkcollectives.py OUT.json

Kineto's nesting for a c10d collective: the c10d op > record_param_comms
(its "Collective name") > c10d's profiling title ("nccl:_all_gather_base", a
user annotation open across the launch) > hipLaunchKernel > the kernel,
ncclDevKernel_Generic_4 whatever the collective; and vLLM's all-reduce op
launching the same kernel (pynccl, no c10d). Twice over: per repeat 3
all-gathers (three spellings), 2 reduce-scatters, 1 all-to-all, 1
broadcast and 3 all-reduces, 10 us each (the all-reduces 12 us).
"""
import json, sys
# an MI300X TP rank: RCCL's generic kernel under c10d ops, Kineto's nesting:
# c10d::OP > record_param_comms (Collective name) > nccl:TITLE (user
# annotation, open across the launch) > hipLaunchKernel; and vLLM's custom
# all-reduce op launching the same kernel through pynccl.
ev = []
ts = 1000.0
ext = [100]
corr = [1]
def op(name, t, d, cat='cpu_op', args=None):
    ext[0] += 1
    a = {'External id': ext[0]}
    a.update(args or {})
    ev.append({'ph': 'X', 'cat': cat, 'name': name, 'pid': 1, 'tid': 1, 'ts': t, 'dur': d, 'args': a})
    return ext[0]
def launch(x, t, kname, kd):
    corr[0] += 1
    ev.append({'ph': 'X', 'cat': 'cuda_runtime', 'name': 'hipLaunchKernel', 'pid': 1, 'tid': 1,
               'ts': t, 'dur': 2.0, 'args': {'External id': x, 'correlation': corr[0]}})
    ev.append({'ph': 'X', 'cat': 'kernel', 'name': kname, 'pid': 0, 'tid': 9, 'ts': t + 5,
               'dur': kd, 'args': {'External id': x, 'correlation': corr[0], 'device': 0, 'stream': 9}})
GEN = 'ncclDevKernel_Generic_4(ncclDevKernelArgsStorage<4096ul>)'
spell = [('c10d::_allgather_base_', '_allgather_base', 'nccl:_all_gather_base'),
         ('c10d::allgather_', 'allgather', 'nccl:all_gather'),
         ('_c10d_functional::all_gather_into_tensor', 'all_gather_into_tensor', 'nccl:_all_gather_base'),
         ('c10d::reduce_scatter_tensor', 'reduce_scatter_tensor', 'nccl:_reduce_scatter_base'),
         ('c10d::_reduce_scatter_base_', '_reduce_scatter_base', 'nccl:_reduce_scatter_base'),
         ('c10d::alltoall_base_', 'all_to_all', 'nccl:all_to_all'),
         ('c10d::broadcast_', 'broadcast', 'nccl:broadcast')]
for rep in range(2):
    for top, coll, title in spell:
        op(top, ts, 40)
        op('record_param_comms', ts + 1, 38, args={'Collective name': coll})
        x = op(title, ts + 2, 30, cat='user_annotation')
        launch(x, ts + 3, GEN, 10.0)
        ts += 100
    for i in range(3):
        x = op('vllm::all_reduce', ts, 20)
        launch(x, ts + 1, GEN, 12.0)
        ts += 100
json.dump({'traceEvents': ev}, open(sys.argv[1], 'w'))
