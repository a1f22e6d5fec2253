#!/usr/bin/env python3
"""What the ranks of tests/ranks/mkranks.py show, computed from the trace
files alone (and the generator's layer truth: which kernels make a layer):

    oracle.py TRUTH TRACE...     (the traces in the order given to the tool)

prints JSON: per rank (by distributedInfo rank) kernel time, all-reduce
time and its wait (time beyond the least any rank spent in the same
collective), per stage and layer position the mean layer time, and the
spreads (min / median (the mean of the middle two, in whole ns, for an
even count) / max / slowest rank, ties to the first
given) of kernel time and of every layer position. Times in ns.
"""
import json
import sys

AR = 'cross_device_reduce'


def spread(vals):
    """vals: [(rank, v)] in the order given; None when empty."""
    if not vals:
        return None
    s = sorted(v for _, v in vals)
    slow = vals[0]
    for rv in vals:
        if rv[1] > slow[1]:
            slow = rv
    n = len(s)
    med = s[n // 2] if n % 2 else s[n // 2 - 1] + (s[n // 2] - s[n // 2 - 1]) // 2
    return {'min': s[0], 'median': med, 'max': s[-1], 'slowest': slow[0]}


def rank_view(path, gen):
    d = json.load(open(path))
    rank = d['distributedInfo']['rank']
    ks = sorted((e for e in d['traceEvents'] if e.get('cat') == 'kernel'), key=lambda e: e['ts'])
    ns = [round(e['dur'] * 1000) for e in ks]
    out = {'rank': rank, 'kernel_ns': sum(ns), 'comm': {}}
    for e, n in zip(ks, ns):
        if AR in e['name']:
            out['comm'][e['name']] = out['comm'].get(e['name'], 0) + n
    # layers: each pass is kernels_per_pass kernels in launch order, two
    # preamble kernels, then layer_kernels[p][i] kernels per layer
    at = 0
    sums = {}
    for p, total in enumerate(gen['kernels_per_pass']):
        stage = gen['stages'][p]
        k = at + 2
        for i, n in enumerate(gen['layer_kernels'][p]):
            t = sum(ns[k:k + n])
            sums.setdefault(stage, {}).setdefault(i, []).append(t)
            k += n
        at += total
    out['layers'] = {st: {i: sum(v) // len(v) for i, v in pos.items()} for st, pos in sums.items()}
    return out


def main():
    truth, paths = sys.argv[1], sys.argv[2:]
    gen = json.load(open(truth))['generator']
    views = [rank_view(p, gen) for p in paths]
    names = set()
    for v in views:
        names |= set(v['comm'])
    least = {n: min(v['comm'][n] for v in views if n in v['comm']) for n in names}
    ranks = []
    for v in views:
        comm = sum(v['comm'].values())
        wait = sum(t - least[n] for n, t in v['comm'].items())
        ranks.append({'rank': v['rank'], 'kernel_ns': v['kernel_ns'], 'comm_ns': comm, 'wait_ns': wait})
    res = {'ranks': ranks, 'kernel': spread([(v['rank'], v['kernel_ns']) for v in views]), 'layers': {}}
    for st in sorted({st for v in views for st in v['layers']}):
        npos = max(len(v['layers'].get(st, {})) for v in views)
        res['layers'][st] = [spread([(v['rank'], v['layers'][st][i]) for v in views
                                     if i in v['layers'].get(st, {})]) for i in range(npos)]
    print(json.dumps(res))


main()
