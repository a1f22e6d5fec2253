#!/usr/bin/env python3
"""Independent oracle for --capture: which CPU op and call site each
graph-replayed kernel of a replay trace had when its graph was captured.

Reads the capture trace and the replay trace whole (Python stdlib only) and
derives, without tracestream:
  - the captured graphs: per CPU thread, the kernel launches between
    *StreamBeginCapture and *StreamEndCapture; each launch's op is the cpu_op
    with its External id, its call site the innermost python_function frame
    on its thread around it that callsite_skip (patterns/operators.yaml) does
    not skip; a graph's size is the number in the capture annotation around it;
  - the replays: the kernels sharing a *GraphLaunch correlation, in time
    order, with the size of the step annotation (vLLM execute_<N>_..., SGLang
    step[... bs=N]) around the launch;
  - each replay's graph: one of that size with as many launches, the kernel
    names agreeing where both are known; the replay's kernels take its
    launches' ops and call sites (asserting that every graph that fits agrees).

Prints JSON: per op, the replayed kernels and their time, and call sites;
totals; and the replays that fit no graph.
Usage: oracle.py CAPTURE REPLAY [operators.yaml]
"""
import gzip
import json
import re
import sys
from collections import defaultdict


def load(path):
    op = gzip.open if path.endswith('.gz') else open
    with op(path, 'rt') as f:
        return json.load(f)['traceEvents']


def skip_rules(path):
    rules, inside = [], False
    for line in open(path):
        if line.startswith('callsite_skip:'):
            inside = True
            continue
        if inside and line and not line[0].isspace() and not line.startswith('#'):
            break
        m = re.search(r"match:\s*'((?:[^']|'')*)'", line) if inside else None
        if m:
            rules.append(re.compile(m.group(1).replace("''", "'")))
    return rules


def ns(v):
    return round(float(v) * 1000)


def thread(e):
    return (e.get('pid'), e.get('tid'))


def capture_size(name):
    i = name.lower().find('capture')
    if i < 0:
        return None
    rest = name[i + 7:]
    m = re.search(r'bs=(\d+)', rest) or re.search(r'(\d+)', rest)
    return int(m.group(1)) if m else None


def step_size(name):
    m = re.match(r'execute_(\d+)_', name)
    if m:
        return int(m.group(1))
    m = re.match(r'step\[\w+ .*?bs=(\d+)', name)
    if m:
        t = re.search(r'toks=(\d+)', name)
        return int(t.group(1)) if t else int(m.group(1))
    return None


def captured_graphs(events, skips):
    ops = {}
    frames = defaultdict(list)
    anns = []
    rt = defaultdict(list)
    for e in events:
        cat = e.get('cat')
        if cat == 'cpu_op' and 'External id' in e.get('args', {}):
            ops.setdefault(e['args']['External id'], e['name'])
        elif cat == 'python_function' and 'dur' in e:
            if not any(r.search(e['name']) for r in skips):
                frames[thread(e)].append((ns(e['ts']), ns(e['ts']) + ns(e['dur']), e['name']))
        elif cat == 'user_annotation' and capture_size(e['name']) is not None:
            anns.append((ns(e['ts']), ns(e['ts']) + ns(e.get('dur', 0)), capture_size(e['name'])))
        elif cat in ('cuda_runtime', 'cuda_driver'):
            rt[thread(e)].append(e)

    def site(th, t):
        best = None
        for s, end, name in frames.get(th, ()):
            if s <= t <= end and (best is None or s >= best[0]):
                best = (s, name)
        return best[1] if best else None

    graphs = []
    for th, evs in rt.items():
        evs.sort(key=lambda e: ns(e['ts']))
        cur = None
        for e in evs:
            n = e['name']
            if 'StreamBeginCapture' in n:
                cur = {'begin': ns(e['ts']), 'nodes': []}
            elif 'StreamEndCapture' in n and cur is not None:
                sizes = [a for a in anns if a[0] <= cur['begin'] <= a[1]]
                cur['size'] = max(sizes)[2] if sizes else None
                graphs.append(cur)
                cur = None
            elif cur is not None and 'Launch' in n and 'Kernel' in n and 'Graph' not in n:
                a = e.get('args', {})
                cur['nodes'].append({'kernel': a.get('kernel'), 'grid': a.get('grid'),
                                     'op': ops.get(a.get('External id')),
                                     'site': site(th, ns(e['ts']))})
    return graphs


def replays(events):
    launches, steps, kernels = {}, [], defaultdict(list)
    for e in events:
        cat = e.get('cat')
        if cat in ('cuda_runtime', 'cuda_driver') and 'GraphLaunch' in e['name']:
            launches[e['args']['correlation']] = ns(e['ts'])
        elif cat == 'user_annotation' and step_size(e['name']) is not None:
            steps.append((ns(e['ts']), ns(e['ts']) + ns(e.get('dur', 0)), step_size(e['name'])))
        elif cat == 'kernel' and 'correlation' in e.get('args', {}):
            kernels[e['args']['correlation']].append(e)
    out = []
    for corr, t in sorted(launches.items(), key=lambda x: x[1]):
        ks = sorted(kernels.get(corr, []), key=lambda k: ns(k['ts']))
        around = [s for s in steps if s[0] <= t <= s[1]]
        out.append({'size': max(around)[2] if around else None, 'kernels': ks})
    return out


def main():
    cap, rep = load(sys.argv[1]), load(sys.argv[2])
    skips = skip_rules(sys.argv[3] if len(sys.argv) > 3 else 'patterns/operators.yaml')
    graphs = captured_graphs(cap, skips)
    per_op = defaultdict(lambda: {'kernels': 0, 'ns': 0, 'sites': defaultdict(int)})
    total = {'kernels': 0, 'ns': 0}
    unmatched = []
    reps = replays(rep)
    for r in reps:
        ks = r['kernels']
        fits = []
        for g in graphs:
            if g['size'] != r['size'] or len(g['nodes']) != len(ks):
                continue
            if all(nd['kernel'] is None or nd['kernel'] == k['name'] for nd, k in zip(g['nodes'], ks)):
                fits.append(g)
        attrs = {tuple((nd['op'], nd['site']) for nd in g['nodes']) for g in fits}
        if len(attrs) != 1:
            unmatched.append({'size': r['size'], 'kernels': len(ks), 'fits': len(fits)})
            continue
        for nd, k in zip(fits[0]['nodes'], ks):
            if nd['op'] is None:
                continue
            o = per_op[nd['op']]
            o['kernels'] += 1
            o['ns'] += ns(k['dur'])
            o['sites'][nd['site']] += 1
            total['kernels'] += 1
            total['ns'] += ns(k['dur'])
    all_ns = sum(ns(e['dur']) for e in rep if e.get('cat') == 'kernel' and 'dur' in e)
    print(json.dumps({'graphs': len(graphs), 'replays': len(reps), 'unmatched': unmatched,
                      'graph_op': total, 'kernel_ns': all_ns,
                      'ops': {k: {'kernels': v['kernels'], 'ns': v['ns'], 'sites': dict(v['sites'])}
                              for k, v in per_op.items()}}, indent=1))


if __name__ == '__main__':
    main()
