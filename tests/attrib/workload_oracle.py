#!/usr/bin/env python3
"""Independent GEMM-workload oracle (stdlib only; loads the whole trace).

    workload_oracle.py TRACE REPORT.json

A GEMM call is a cpu_op whose External id some kernel carries (the
innermost op: outer aten::linear / aten::matmul wrappers launch nothing).
Its definition is gemm_n{N}_k{K} with M the token rows:
  aten::mm     [M,K] x [K,N]             aten::addmm  bias, [M,K] x [K,N]
  aten::linear [..,K] x weight [N,K]     aten::matmul [..,K] x [K,N]
  aten::bmm    [B,M,K] x [B,K,N] (M is B*M)
Per definition and dtype: calls, kernels, kernel time, M min and max.
Compares with the report's workloads[] of kind gemm; prints TAP-ish lines.
"""
import gzip
import json
import sys
from decimal import Decimal

from oracle import modern   # PyTorch 1.8 / 1.9 spellings, read as today's

NOT_VALUE = {'', 'Scalar', 'ScalarList', 'TensorList', 'GenericList', 'long int', 'int',
             'short int', 'signed char', 'unsigned char', 'bool', 'c10::Device'}


def load(path):
    with open(path, 'rb') as f:
        head = f.read(2)
    op = gzip.open if head == b'\x1f\x8b' else open
    with op(path, 'rb') as f:
        return json.loads(f.read(), parse_float=Decimal)


def gemm(name, dims):
    r = [len(d) if isinstance(d, list) and all(isinstance(x, int) for x in d) else -1
         for d in dims]
    if name == 'aten::mm' and r[:2] == [2, 2]:
        return dims[1][1], dims[1][0], dims[0][0]
    if name == 'aten::addmm' and len(r) >= 3 and r[1:3] == [2, 2]:
        return dims[2][1], dims[2][0], dims[1][0]
    if name == 'aten::linear' and len(r) >= 2 and r[1] == 2 and r[0] >= 2:
        m = 1
        for x in dims[0][:-1]:
            m *= x
        return dims[1][0], dims[1][1], m
    if name == 'aten::matmul' and len(r) >= 2 and r[1] == 2 and r[0] >= 2:
        m = 1
        for x in dims[0][:-1]:
            m *= x
        return dims[1][1], dims[1][0], m
    if name == 'aten::bmm' and r[:2] == [3, 3]:
        return dims[1][2], dims[1][1], dims[0][0] * dims[0][1]
    return None


def main(trace=None, report=None, ev=None):
    """ev: the trace's events as oracle.py read them (modern spellings)."""
    if trace is None:
        trace, report = sys.argv[1], sys.argv[2]
    if ev is None:
        d = load(trace)
        ev = d['traceEvents'] if isinstance(d, dict) else d
        ev = [modern(e) for e in ev if isinstance(e, dict)]
    ops = {}
    for e in ev:
        a = e.get('args') if isinstance(e.get('args'), dict) else {}
        if e.get('cat') == 'cpu_op' and isinstance(a.get('External id'), int):
            ops[a['External id']] = e
    want, seen = {}, set()
    for e in ev:
        a = e.get('args') if isinstance(e.get('args'), dict) else {}
        x = a.get('External id')
        if e.get('cat') != 'kernel' or e.get('dur') is None or e.get('ts') is None or x not in ops:
            continue
        op = ops[x]
        oa = op.get('args', {})
        g = gemm(op.get('name'), oa.get('Input Dims') or [])
        if not g or min(g) <= 0:
            continue
        n, k, m = g
        types = oa.get('Input type') or []
        dtype = next((t for t in types if t not in NOT_VALUE), types[0] if types else '')
        w = want.setdefault(('gemm_n%d_k%d' % (n, k), dtype), [0, 0, 0, None, None])
        if x not in seen:
            seen.add(x)
            w[0] += 1
            w[3] = m if w[3] is None else min(w[3], m)
            w[4] = m if w[4] is None else max(w[4], m)
        w[1] += 1
        w[2] += int(Decimal(e['dur']) * 1000)
    r = json.load(open(report), parse_float=Decimal)
    got = {}
    for w in r['workloads']:
        if w['kind'] == 'gemm':
            t = w['tokens'] or {}
            got[(w['name'], w['dtype'])] = [w['calls'], w['kernels'],
                                            int(Decimal(w['total_us']) * 1000),
                                            t.get('min'), t.get('max')]
    name = trace.rsplit('/', 1)[-1]
    bad = [k for k in set(got) | set(want) if got.get(k) != want.get(k)]
    print('%s - %s: GEMM workloads (%d definitions, %d calls) match the oracle%s' % (
        'ok' if not bad else 'not ok', name, len(want), sum(v[0] for v in want.values()),
        '' if not bad else ' (differ: %s)' % [(k, want.get(k), got.get(k)) for k in bad[:3]]))


if __name__ == '__main__':
    main()
