#!/usr/bin/env python3
"""Run tracestream on the zoo's architectures and check every pass and layer.

    check.py TS FIRST LAST [--names-min PCT] [--random-min PCT] [--jobs N] [-v]

For each seed in FIRST..LAST-1, zoo.py writes the trace twice (realistic
kernel names, then every name a random string) with its truth, `TS annotate`
writes the trace back with a slice per pass and per layer, and each layer
slice is held against the truth: every pass of the truth found (by its
first kernel's start), complete, with the right number of layers, and each
layer starting at its first kernel, ending at its last kernel's end and
holding its kernels. A seed passes when every pass and layer does.

Prints a line per seed that fails ("# seed ...: the first difference"; with
-v every seed), then one TAP line per name mode with its rate, `not ok`
when the rate is below its minimum (default 0), and exits 1 then.
"""
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import zoo  # noqa: E402

EPS = 0.0015   # us: both sides are the trace's own three-decimal figures


def slices(path):
    with open(path) as f:
        doc = json.load(f)
    passes, layers = [], []
    for e in doc['traceEvents']:
        if not isinstance(e, dict) or e.get('cat') != 'tracestream' or e.get('ph') != 'X':
            continue
        if e.get('tid') == 1:
            passes.append(e)
        elif e.get('tid') == 2:
            layers.append(e)
    return passes, layers


def judge(truth, passes, layers):
    """None when every pass and layer is right, else the first difference."""
    by_pass = {}
    for s in layers:
        by_pass.setdefault(s['args']['pass'], []).append(s)
    for tp, want in enumerate(truth['passes']):
        first = min(L['first_ts'] for L in want['layers'])
        got = [p for p in passes if p['ts'] - EPS <= first <= p['ts'] + p['dur'] + EPS]
        if not got:
            return 'pass %d (%s): no pass slice holds its first layer' % (tp, want['stage'])
        p = got[0]['args']
        n = len(want['layers'])
        if not p['complete'] or p['layers'] != n:
            return 'pass %d (%s): %s with %d layers, want complete with %d' % (
                tp, want['stage'], 'complete' if p['complete'] else 'partial', p['layers'], n)
        ls = sorted(by_pass.get(p['index'], []), key=lambda s: s['args']['layer'])
        if len(ls) != n:
            return 'pass %d: %d layer slices, want %d' % (tp, len(ls), n)
        for i, (s, L) in enumerate(zip(ls, want['layers'])):
            end = s['ts'] + s['dur']
            if abs(s['ts'] - L['first_ts']) > EPS or abs(end - L['last_end']) > EPS or \
                    s['args']['kernels'] != L['kernels']:
                return 'pass %d layer %d: %.3f..%.3f, %d kernels; want %.3f..%.3f, %d' % (
                    tp, i, s['ts'], end, s['args']['kernels'], L['first_ts'], L['last_end'], L['kernels'])
    return None


def one(ts, seed, random_names, tmp):
    tag = '%d%s' % (seed, 'r' if random_names else 'n')
    trace, ann = os.path.join(tmp, tag + '.json'), os.path.join(tmp, tag + '.ann.json')
    doc, truth = zoo.build(zoo.Arch(seed), random_names)
    with open(trace, 'w') as f:
        zoo.write_trace(doc, f)
    p = subprocess.run([ts, 'annotate', '--no-progress', '-q', trace, '-o', ann],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return 'exit status %d: %s' % (p.returncode, p.stderr.strip()[:200]), truth
    try:
        why = judge(truth, *slices(ann))
    finally:
        for x in (trace, ann):
            if os.path.exists(x):
                os.remove(x)
    return why, truth


def main(argv):
    if len(argv) < 3 or argv[0] in ('-h', '--help'):
        sys.stdout.write(__doc__)
        return 2
    ts, lo, hi = argv[0], int(argv[1]), int(argv[2])
    opt = {'--names-min': 0.0, '--random-min': 0.0, '--jobs': 2}
    verbose = '-v' in argv
    for k in opt:
        if k in argv:
            opt[k] = type(opt[k])(argv[argv.index(k) + 1])
    seeds = range(lo, hi)
    res = {False: [], True: []}
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(opt['--jobs']) as ex:
        futs = [(s, rn, ex.submit(one, ts, s, rn, tmp)) for s in seeds for rn in (False, True)]
        for s, rn, f in futs:
            why, truth = f.result()
            res[rn].append((s, why))
            a = truth['arch']
            what = 'zoo seed %d, %s names (%s, %d layers, %s)' % (
                s, 'random' if rn else 'real', a['stack'], a['depth'], '/'.join(a['layer_types']))
            if why is None:
                if verbose:
                    print('# exact: ' + what)
            else:
                print('# fails: %s: %s' % (what, why))
    fail = False
    for rn, key in ((False, '--names-min'), (True, '--random-min')):
        n = len(res[rn])
        good = sum(1 for _, w in res[rn] if w is None)
        pct = 100.0 * good / n if n else 100.0
        low = pct < opt[key]
        fail |= low
        print('%s - zoo %s names: %d of %d seeds exact (%.1f%%, at least %.1f%% wanted)' % (
            'not ok' if low else 'ok', 'random' if rn else 'real', good, n, pct, opt[key]))
    return 1 if fail else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
