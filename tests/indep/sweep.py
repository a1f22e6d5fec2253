#!/usr/bin/env python3
"""Measure tracestream on fresh seeds of the second-hand generator.

    sweep.py TS FIRST LAST [--jobs N] [--real-min PCT] [--random-min PCT]
             [--classes] [-v]
    sweep.py TS --seeds FILE [--jobs N]

For each seed in FIRST..LAST-1 and both name modes, tests/indep/gen/gen.py
(written apart from tracestream's sources, see its README) builds a trace
with its truth, and score.py's judge holds tracestream's complete passes,
stages and layer counts against it. Prints a line per trace that fails
(with -v every trace), the rate per name mode as a TAP line (`not ok` below
its minimum), and with --classes the rate per class tag of the truth.
With --seeds, each line "real 26 why" or "random 26 why" of FILE names a
seed that must stay exact: one TAP line each (a class once fixed).
"""
import os
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, 'gen'))
import gen     # noqa: E402
import score   # noqa: E402


def one(args):
    ts, seed, names, tmp = args
    gen.write(seed, names, tmp, level=1)
    path = os.path.join(tmp, '%s_%d.json.gz' % (names, seed))
    why = score.judge(ts, path)
    truth = score.truth_of(path)
    for p in (path, path[:-len('.json.gz')] + '.truth.json'):
        os.remove(p)
    return seed, names, why, truth.get('classes', [])


def listed(ts, path, jobs):
    """Every seed the file lists must be exact."""
    want = []
    with open(path) as f:
        for ln in f:
            if ln.strip() and not ln.startswith('#'):
                names, seed, why = (ln.split(None, 2) + [''])[:3]
                want.append((names, int(seed), why.strip()))
    bad = False
    with tempfile.TemporaryDirectory() as tmp, ProcessPoolExecutor(jobs) as ex:
        work = [(ts, seed, names, tmp) for names, seed, _ in want]
        for (seed, names, why, _), (_, _, what) in zip(ex.map(one, work), want):
            bad |= why is not None
            print('%s - second-hand generator, %s_%d exact (%s)%s' % (
                'not ok' if why else 'ok', names, seed, what, ': ' + why if why else ''))
    return 1 if bad else 0


def main(argv):
    opt = {'--jobs': 2, '--real-min': 0.0, '--random-min': 0.0}
    for k in opt:
        if k in argv:
            i = argv.index(k)
            opt[k] = type(opt[k])(argv[i + 1])
            del argv[i:i + 2]
    seeds = None
    if '--seeds' in argv:
        i = argv.index('--seeds')
        seeds = argv[i + 1]
        del argv[i:i + 2]
    verbose = '-v' in argv
    classes = '--classes' in argv
    args = [a for a in argv if not a.startswith('-')]
    if seeds is not None and len(args) == 1:
        return listed(os.path.abspath(args[0]), seeds, opt['--jobs'])
    if len(args) != 3:
        sys.stdout.write(__doc__)
        return 2
    ts, lo, hi = os.path.abspath(args[0]), int(args[1]), int(args[2])
    res = []
    with tempfile.TemporaryDirectory() as tmp, ProcessPoolExecutor(opt['--jobs']) as ex:
        work = [(ts, s, n, tmp) for s in range(lo, hi) for n in ('real', 'random')]
        for seed, names, why, cls in ex.map(one, work):
            res.append((seed, names, why, cls))
            if why is not None or verbose:
                print('# %s %s_%d [%s]: %s' % ('fails' if why else 'exact', names, seed,
                                              ' '.join(c for c in cls if not c.startswith(('gpu-', 'depth-', 'stages-')))[:160],
                                              why or ''))
    bad = False
    for names, key in (('real', '--real-min'), ('random', '--random-min')):
        mine = [r for r in res if r[1] == names]
        good = sum(1 for r in mine if r[2] is None)
        pct = 100.0 * good / len(mine) if mine else 100.0
        low = pct < opt[key]
        bad |= low
        print('%s - second-hand generator, %s names: %d of %d seeds exact (%.1f%%, at least %.1f%% wanted)'
              % ('not ok' if low else 'ok', names, good, len(mine), pct, opt[key]))
    if classes:
        tags = {}
        for _, names, why, cls in res:
            for c in cls:
                t = tags.setdefault((names, c), [0, 0])
                t[0] += why is None
                t[1] += 1
        for (names, c), (g, n) in sorted(tags.items(), key=lambda x: (x[0][0], x[1][0] / x[1][1])):
            print('#   %-6s %-28s %3d / %3d  %5.1f%%' % (names, c, g, n, 100.0 * g / n))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
