#!/usr/bin/env python3
"""The passes and layers of a captured trace, from its Python stack alone.

    module_truth.py [--counts] TRACE.json.gz TRUTH.json ANNOTATED.json

An oracle independent of tracestream: with `with_stack` the profiler
records every module call as a python_function event ("nn.Module:
Decoder_0", "nn.Module: Layer_3"), so each kernel launched eagerly belongs
to the pass (Decoder call) and the layer (Layer call) whose time holds its
launch (the runtime call with the kernel's correlation id, on the same
thread). A decode step replayed from a CUDA graph has no module call: its
pass is the replay's window and only its layer count is known (the truth
file's layers_per_pass).

ANNOTATED is `tracestream annotate` output of TRACE: its pass slices (tid
1) and layer slices (tid 2) are held against the oracle with the zoo's
judge (tests/zoo/check.py): every pass found, complete, with the truth's
layer count, and for every eagerly launched pass each layer starting at
its first kernel, ending at its last kernel's end, holding its kernels.
With --counts only the passes and their layer counts are checked (a trace
whose kernel names were made random: the phase inside the period may
differ by a kernel). Prints `ok` / the first difference; exits 1 on one.
Stdlib only.
"""
import bisect
import gzip
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'zoo'))
import check  # noqa: E402  (the zoo's judge and slice reader)


def load(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt') as f:
        doc = json.load(f)
    return doc['traceEvents'] if isinstance(doc, dict) else doc


class Spans:
    """Non-overlapping [ts, end) spans of one thread, with a label."""

    def __init__(self, evs):
        evs = sorted(evs, key=lambda e: e['ts'])
        self.ts = [e['ts'] for e in evs]
        self.ev = evs

    def at(self, t):
        i = bisect.bisect_right(self.ts, t) - 1
        if i >= 0 and t <= self.ev[i]['ts'] + self.ev[i]['dur']:
            return self.ev[i]
        return None


def oracle(events, truth):
    mods = {}
    for e in events:
        if e.get('cat') == 'python_function' and e.get('ph') == 'X':
            n = e['name']
            if n.startswith('nn.Module: Decoder_') or n.startswith('nn.Module: Layer_'):
                mods.setdefault((n.split(':')[1].strip().split('_')[0], e['tid']), []).append(e)
    launch = {}
    for e in events:
        if e.get('cat') in ('cuda_runtime', 'cuda_driver') and 'correlation' in e.get('args', {}):
            launch[e['args']['correlation']] = e
    dec = {tid: Spans(v) for (k, tid), v in mods.items() if k == 'Decoder'}
    lay = {tid: Spans(v) for (k, tid), v in mods.items() if k == 'Layer'}
    kernels = sorted((e for e in events if e.get('cat') == 'kernel'), key=lambda e: e['ts'])
    passes = {}
    for k in kernels:
        r = launch.get(k['args'].get('correlation'))
        if r is None or r['tid'] not in dec or r['tid'] not in lay:
            continue
        d = dec[r['tid']].at(r['ts'])
        if d is None:
            continue
        p = passes.setdefault(d['ts'], {'layers': {}})
        lm = lay[r['tid']].at(r['ts'])
        if lm is None:
            continue
        idx = int(lm['name'].rsplit('_', 1)[1])
        L = p['layers'].setdefault(idx, {'first_ts': k['ts'], 'last_end': k['ts'] + k['dur'],
                                         'kernels': 0})
        L['last_end'] = max(L['last_end'], k['ts'] + k['dur'])
        L['kernels'] += 1
    out = []
    for i, t in enumerate(sorted(passes)):
        ls = passes[t]['layers']
        out.append({'stage': 'prefill' if i == 0 else 'decode',
                    'layers': [ls[j] for j in sorted(ls)]})
    return out


def main(argv):
    counts_only = bool(argv) and argv[0] == '--counts'
    if counts_only:
        argv = argv[1:]
    if len(argv) != 3:
        sys.stdout.write(__doc__)
        return 2
    events = load(argv[0])
    with open(argv[1]) as f:
        truth = json.load(f)
    # compiled code runs its own graphs inside the modules: no oracle
    eager = [] if truth['compiled'] or counts_only else oracle(events, truth)
    passes, layers = check.slices(argv[2])
    bad = 0
    want_layers = truth['layers_per_pass']
    for i, p in enumerate(eager):
        if len(p['layers']) != want_layers:
            print('not ok - oracle: pass %d has %d layer modules, the truth says %d' % (
                i, len(p['layers']), want_layers))
            return 1
    if eager:
        why = check.judge({'passes': eager}, passes, layers)
        print('%s - %d eagerly launched passes, every layer against its module call%s' % (
            'ok' if why is None else 'not ok', len(eager), '' if why is None else ': ' + why))
        bad += why is not None
    complete = [p for p in passes if p['args']['complete']]
    counts = sorted({p['args']['layers'] for p in complete})
    good = len(complete) == truth['passes'] and counts == [want_layers]
    print('%s - %d complete passes of %s layers (truth: %d of %d)' % (
        'ok' if good else 'not ok', len(complete), counts, truth['passes'], want_layers))
    bad += not good
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
