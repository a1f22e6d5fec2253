#!/usr/bin/env python3
"""Independent attribution oracle (stdlib only; loads the whole trace).

    oracle.py [--workloads] TRACE REPORT.json

Every timed kernel goes to one bucket: 'op' when its External id is the
External id of a cpu_op; else 'graph' when its correlation is that of a
runtime or driver call named *GraphLaunch*; else 'launch' when it is that
of any runtime or driver call; else 'unlinked'. Per op name: calls
(distinct External ids that launched kernels), kernels and kernel time; an
op with a "Collective name" argument is named NAME(COLLECTIVE).
Compares with tracestream's JSON report and prints TAP-ish lines. With
--workloads, then workload_oracle.py's lines on the same events (the trace
loaded once for both).
"""
import gzip
import json
import sys
from decimal import Decimal


def load(path):
    with open(path, 'rb') as f:
        head = f.read(2)
    op = gzip.open if head == b'\x1f\x8b' else open
    with op(path, 'rb') as f:
        return json.loads(f.read(), parse_float=Decimal)


# PyTorch 1.8 / 1.9 spell the categories and one id differently
OLD_CAT = {'Kernel': 'kernel', 'Operator': 'cpu_op', 'operator': 'cpu_op',
           'Runtime': 'cuda_runtime', 'runtime': 'cuda_runtime',
           'Memcpy': 'gpu_memcpy', 'Memset': 'gpu_memset'}


def modern(e):
    e = dict(e)
    e['cat'] = OLD_CAT.get(e.get('cat'), e.get('cat'))
    a = e.get('args')
    if isinstance(a, dict) and 'External id' not in a and 'external id' in a:
        e['args'] = dict(a, **{'External id': a['external id']})
    return e


def ns(v):
    return int(Decimal(v) * 1000)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    workloads = '--workloads' in argv
    trace, report = [a for a in argv if a != '--workloads'][:2]
    d = load(trace)
    ev = d['traceEvents'] if isinstance(d, dict) else d
    ev = [modern(e) for e in ev if isinstance(e, dict)]
    check(trace, report, ev)
    if workloads:
        import workload_oracle
        workload_oracle.main(trace, report, ev)


def check(trace, report, ev):
    ops, rt = {}, {}
    for e in ev:
        a = e.get('args') if isinstance(e.get('args'), dict) else {}
        if e.get('cat') == 'cpu_op' and isinstance(a.get('External id'), int):
            name = e.get('name', '')
            # an op that names its collective in an argument (record_param_comms)
            # is known by both: record_param_comms(allreduce)
            if isinstance(a.get('Collective name'), str) and a['Collective name']:
                name = '%s(%s)' % (name, a['Collective name'])
            ops[a['External id']] = name
        if e.get('cat') in ('cuda_runtime', 'cuda_driver') and isinstance(a.get('correlation'), int):
            rt[a['correlation']] = 'graph' if 'GraphLaunch' in e.get('name', '') else 'launch'
    buckets = {b: [0, 0] for b in ('op', 'graph', 'launch', 'unlinked')}
    per_op = {}
    for e in ev:
        if e.get('cat') != 'kernel' or e.get('ts') is None or e.get('dur') is None:
            continue
        a = e.get('args') if isinstance(e.get('args'), dict) else {}
        x, c, dur = a.get('External id'), a.get('correlation'), ns(e['dur'])
        if isinstance(x, int) and x in ops:
            b = 'op'
            r = per_op.setdefault(ops[x], [set(), 0, 0])
            r[0].add(x)
            r[1] += 1
            r[2] += dur
        elif isinstance(c, int) and c in rt:
            b = rt[c]
        else:
            b = 'unlinked'
        buckets[b][0] += 1
        buckets[b][1] += dur
    r = json.load(open(report), parse_float=Decimal)
    at = r['attribution']
    name = trace.rsplit('/', 1)[-1]
    ok = all(at['kernels'][b] == buckets[b][0] and ns(at['time'][b + '_us']) == buckets[b][1]
             for b in buckets)
    print('%s - %s: kernels and time per bucket %s' % (
        'ok' if ok else 'not ok', name,
        {b: v[0] for b, v in buckets.items()} if ok else
        '(want %s, got %s / %s)' % (buckets, at['kernels'], at['time'])))
    total = sum(v[1] for v in buckets.values())
    pct = sum(Decimal(str(at[b + '_pct'])) for b in buckets)
    print('%s - %s: bucket shares sum to 100 (got %s)' % (
        'ok' if abs(pct - 100) < Decimal('0.05') or total == 0 else 'not ok', name, pct))
    got = {o['name']: (o['calls'], o['kernels'], ns(o['total_us']))
           for o in r['ops'] if o['via'] == 'op' and o['kernels']}
    # rows of kernels that reached no op: one per runtime call name, and
    # one for the unlinked; per bucket they add up to the bucket
    for b in ('graph', 'launch', 'unlinked'):
        rows = [o for o in r['ops'] if o['via'] == b]
        k, t = sum(o['kernels'] for o in rows), sum(ns(o['total_us']) for o in rows)
        print('%s - %s: ops[] rows via %s add up to the bucket (%d kernels, %d rows)' % (
            'ok' if (k, t) == tuple(buckets[b]) else 'not ok', name, b, k, len(rows)))
    want = {k: (len(v[0]), v[1], v[2]) for k, v in per_op.items()}
    bad = [k for k in set(got) | set(want) if got.get(k) != want.get(k)]
    print('%s - %s: ops[] calls, kernels and time of %d op names%s' % (
        'ok' if not bad else 'not ok', name, len(want),
        '' if not bad else ' (differ: %s)' % [(k, want.get(k), got.get(k)) for k in bad[:3]]))
    # memcpy / memset operations belong to the op whose External id they carry
    mem = {}
    for e in ev:
        a = e.get('args') if isinstance(e.get('args'), dict) else {}
        x = a.get('External id')
        if (e.get('cat') in ('gpu_memcpy', 'gpu_memset') and e.get('ts') is not None and
                e.get('dur') is not None and isinstance(x, int) and x in ops):
            m = mem.setdefault(ops[x], [0, 0])
            m[0] += 1
            m[1] += ns(e['dur'])
    want = {k: tuple(v) for k, v in mem.items()}
    got = {o['name']: (o['memops'], ns(o['memops_us'])) for o in r['ops'] if o['memops']}
    bad = [k for k in set(got) | set(want) if got.get(k) != want.get(k)]
    print('%s - %s: ops[] memcpy / memset count and time of %d op names%s' % (
        'ok' if not bad else 'not ok', name, len(want),
        '' if not bad else ' (differ: %s)' % [(k, want.get(k), got.get(k)) for k in bad[:3]]))


if __name__ == '__main__':
    main()
