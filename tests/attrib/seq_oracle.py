#!/usr/bin/env python3
"""Independent count of HF-style unfused RMSNorm and RoPE calls in a trace.

    seq_oracle.py TRACE

Prints JSON {"rmsnorm": {"calls": N, "us": T}, "rope": {...}}: per CPU
thread, ops in start order; an op that starts before the end of the
previous kept op is inside it. A norm is pow, mean, add, rsqrt, mul, mul
with only casts (to, _to_copy, ...) between; a RoPE is mul, neg, cat, mul,
add with only slicing and views between. The time of a call is the kernel
time of all its ops, from the step-0 op to the last step, nested ones too.
"""
import gzip
import json
import re
import sys
from collections import defaultdict

SEQS = {
    'rmsnorm': (['aten::pow', 'aten::mean', 'aten::add', 'aten::rsqrt', 'aten::mul', 'aten::mul'],
                re.compile(r'^aten::(?:to|_to_copy|type_as|contiguous)$')),
    'rope': (['aten::mul', 'aten::neg', 'aten::cat', 'aten::mul', 'aten::add'],
             re.compile(r'^aten::(?:slice|narrow|select|chunk|split|view|unsqueeze|to)$')),
}


def main():
    path = sys.argv[1]
    f = gzip.open(path, 'rt') if path.endswith('.gz') else open(path)
    d = json.load(f)
    ops = defaultdict(list)
    kern = defaultdict(float)
    for e in d['traceEvents']:
        a = e.get('args') or {}
        if e.get('cat') == 'cpu_op':
            ops[e.get('tid')].append(e)
        elif e.get('cat') == 'kernel' and 'External id' in a:
            kern[a['External id']] += e.get('dur', 0)
    out = {}
    for name, (steps, skip) in SEQS.items():
        calls, us = 0, 0.0
        for tid, evs in ops.items():
            evs.sort(key=lambda e: e['ts'])
            # top-level units: an op and every op that starts inside it
            units = []
            for e in evs:
                if units and e['ts'] < units[-1]['end']:
                    units[-1]['ids'].append(e['args'].get('External id'))
                    continue
                units.append({'name': e['name'], 'end': e['ts'] + e.get('dur', 0),
                              'ids': [e['args'].get('External id')],
                              'dims': e['args'].get('Input Dims')})
            i = 0
            while i < len(units):
                if units[i]['name'] != steps[0]:
                    i += 1
                    continue
                if name == 'rope' and len((units[i]['dims'] or [[]])[0]) != 4:
                    i += 1
                    continue
                k, j, ids = 1, i + 1, list(units[i]['ids'])
                while j < len(units) and k < len(steps):
                    if units[j]['name'] == steps[k]:
                        k += 1
                    elif not skip.match(units[j]['name']):
                        break
                    ids += units[j]['ids']
                    j += 1
                if k == len(steps):
                    calls += 1
                    us += sum(kern.get(x, 0) for x in ids)
                    i = j
                else:
                    i += 1
        out[name] = {'calls': calls, 'us': round(us, 3)}
    print(json.dumps(out))


main()
