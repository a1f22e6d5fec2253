#!/usr/bin/env python3
"""A trace whose numbers are hostile: 1e300, -5, 2^64, "NaN", 1e-400, 5e15,
INT64_MAX and INT64_MIN as ts, dur, ids, grids, bytes, shapes and scalar
arguments, and two kernels whose durations add up past 2^63 ns.

    mknums.py OUT
"""
import sys

VALS = ['1e300', '-5', '18446744073709551616', '"NaN"', '1e-400', '5e15',
        '9223372036854775807', '-9223372036854775808', '1e18']
ev = []
for i, v in enumerate(VALS):
    ev.append('{"ph": "X", "cat": "kernel", "name": "k%d", "pid": 0, "tid": 7, "ts": %s, "dur": %s, '
              '"args": {"device": 0, "stream": 7, "External id": %s, "correlation": %s, '
              '"grid": [%s, 1, 1]}}' % (i, v, v, v, v, v))
    ev.append('{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD", "pid": 0, "tid": 7, "ts": %d, '
              '"dur": 1, "args": {"device": 0, "bytes": %s}}' % (i * 10, v))
    ev.append('{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": %d, "dur": %s, '
              '"args": {"External id": %d, "Input Dims": [[%s, 4], [4, %s]], "Input type": ["float", "float"], '
              '"Concrete Inputs": ["%s", ""]}}' % (i * 10, v, i, v, v, v.strip('"')))
# durations at the largest accepted value, and copies whose bytes add past 2^63
for i in range(4):
    ev.append('{"ph": "X", "cat": "kernel", "name": "long", "pid": 0, "tid": 7, "ts": %d, '
              '"dur": 1099511627.776, "args": {"device": 0, "stream": 7}}' % (1000 + i))
    ev.append('{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH", "pid": 0, "tid": 7, "ts": %d, '
              '"dur": 1, "args": {"device": 0, "bytes": 9223372036854775807}}' % (2000 + i))
open(sys.argv[1], 'w').write('{"traceEvents": [' + ',\n'.join(ev) + ']}')
