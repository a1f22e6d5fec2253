#!/usr/bin/env python3
"""Make one layer of a mkgeneric.py trace slower, the way a straggling layer
(or a misplaced boundary) looks: its kernels last FACTOR times as long and
every later kernel moves by the time added.

    slowlayer.py TRACE TRUTH PASS LAYER FACTOR > OUT

TRUTH is mkgeneric.py's --truth-file; PASS and LAYER count from 0 (PASS 1
is the first decode pass of a trace with a prefill). Kernel k of pass 1
starts after pass 0's kernels and the 2 kernels that open every decode
pass; see mkgeneric.py.
"""
import json
import sys

trace, truth, npass, layer, factor = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
    int(sys.argv[4]), float(sys.argv[5])
d, t = json.load(open(trace)), json.load(open(truth))
if npass != 1:
    sys.exit('slowlayer.py: only pass 1 (the first decode pass) is supported')
kern = sorted((e for e in d['traceEvents'] if e.get('cat') == 'kernel'), key=lambda e: e['ts'])
lo = t['kernels_per_pass'][0] + 2 + sum(t['layer_kernels'][1][:layer])
hi = lo + t['layer_kernels'][1][layer]
add = 0.0
for i, e in enumerate(kern):
    e['ts'] = round(e['ts'] + add, 3)
    if lo <= i < hi:
        add += (factor - 1) * e['dur']
        e['dur'] = round(factor * e['dur'], 3)
json.dump(d, sys.stdout)
