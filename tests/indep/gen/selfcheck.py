#!/usr/bin/env python3
"""Self-check of gen.py: for seeds 0..N-1 in both name modes, build each
trace and check that it is valid JSON in Kineto shape and consistent with
its truth; then print the distribution of classes.

    python3 selfcheck.py [--seeds N] [-v]

Exits 1 on any failure.  Checks:
  * JSON round trip; top-level keys; AMD/NVIDIA platform keys
  * every X event has numeric ts and dur >= 0; ph and cat are Kineto's
  * every kernel/memcpy/memset has a correlation carried by a runtime
    (cuda_runtime / cuda_driver) event, except the kernels of a capture
    that starts inside a pass (counted, must match the generator's count)
  * a kernel starts after its launch; graph replays: many kernels share the
    launch's correlation and carry no External id; eager kernels' External
    id names a cpu_op that appears earlier in the file
  * file order: NVIDIA kernel written before its launch, AMD after
  * kernels on one stream never overlap
  * flows: every 's' has an 'f' with the same id
  * each step annotation's CPU window contains its forward passes' launches
  * gpu_user_annotation ids name a user_annotation
  * truth: counts, stages, layers, kinds, draft/cut fields consistent
  * names=random: no real kernel name survives; same number of distinct
    kernel names as names=real
  * determinism (same JSON twice) for a few seeds
"""
import argparse
import collections
import json
import os
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

CATS = {'kernel', 'gpu_memcpy', 'gpu_memset', 'cpu_op', 'cuda_runtime', 'cuda_driver', 'user_annotation',
        'gpu_user_annotation', 'python_function', 'overhead', 'Trace'}
GPU = ('kernel', 'gpu_memcpy', 'gpu_memset')
RT = ('cuda_runtime', 'cuda_driver')
REAL_MARKERS = ('nvjet', 'Cijk_', 'flash', 'at::native', 'vllm::', 'triton_', 'nccl', 'cutlass', 'fmha', 'aiter')


def check(seed, names, verbose=False):
    errs = []
    t0 = time.time()
    doc, truth, dbg = gen._build_internal(seed, names)
    dt = time.time() - t0
    text = json.dumps(doc)
    doc = json.loads(text)
    size = len(text)
    for k in ('schemaVersion', 'deviceProperties', 'traceEvents', 'baseTimeNanoseconds', 'traceName'):
        if k not in doc:
            errs.append('missing top-level key %s' % k)
    if not isinstance(doc.get('baseTimeNanoseconds'), int) or doc['baseTimeNanoseconds'] < 2 ** 53:
        errs.append('baseTimeNanoseconds not a big int')
    amd = truth['config']['platform'] == 'amd'
    if amd and ('roctracer_version' not in doc or doc['deviceProperties'][0]['warpSize'] != 64):
        errs.append('AMD platform keys missing')
    if not amd and 'cupti_version' not in doc:
        errs.append('NVIDIA platform keys missing')
    ev = doc['traceEvents']
    int_ts = truth['config']['int_ts']
    tol = 1.01 if int_ts else 0.002
    rt_by_corr = {}
    pos = {}
    cpu_ids = {}
    ann_ids = set()
    flows = collections.defaultdict(lambda: [0, 0])
    for i, e in enumerate(ev):
        ph = e.get('ph')
        if ph not in ('X', 's', 'f', 'i', 'M'):
            errs.append('bad ph %r' % ph)
            continue
        if ph == 'X':
            if e.get('cat') not in CATS:
                errs.append('bad cat %r' % e.get('cat'))
            if not isinstance(e.get('ts'), (int, float)) or not isinstance(e.get('dur'), (int, float)) or e['dur'] < 0:
                errs.append('bad ts/dur in %s' % e.get('name'))
            c = e['cat']
            if c in RT:
                corr = e['args'].get('correlation')
                if corr in rt_by_corr:
                    errs.append('duplicate runtime correlation %s' % corr)
                rt_by_corr[corr] = (i, e)
            elif c in ('cpu_op', 'user_annotation'):
                x = e['args'].get('External id')
                if x is None:
                    errs.append('cpu event without External id: %s' % e['name'])
                if c == 'cpu_op':
                    cpu_ids[x] = i
                else:
                    ann_ids.add(x)
                    cpu_ids.setdefault(x, i)
        elif ph in ('s', 'f'):
            flows[e['id']][0 if ph == 's' else 1] += 1
            if ph == 'f' and e.get('bp') != 'e':
                errs.append('f flow without bp e')
    # kernels
    orphans = 0
    by_corr = collections.defaultdict(list)
    streams = collections.defaultdict(list)
    for i, e in enumerate(ev):
        if e.get('ph') != 'X' or e.get('cat') not in GPU:
            continue
        a = e['args']
        corr = a.get('correlation')
        if corr is None:
            errs.append('gpu event without correlation')
            continue
        by_corr[corr].append((i, e))
        streams[(e['pid'], e['tid'])].append(e)
        if corr not in rt_by_corr:
            orphans += 1
            if 'External id' in a:
                errs.append('orphan kernel with External id')
            continue
        ri, rt = rt_by_corr[corr]
        if e['ts'] + tol < rt['ts']:
            errs.append('kernel %s starts before its launch' % e['name'][:40])
        x = a.get('External id')
        if x is not None:
            if x not in cpu_ids:
                errs.append('kernel External id %s names no cpu op' % x)
            elif cpu_ids[x] > i:
                errs.append('cpu op after its kernel in file')
            if rt['args'].get('External id') != x:
                errs.append('kernel/runtime External id differ')
        if amd and ri > i:
            errs.append('AMD: runtime after kernel in file')
        if not amd and ri < i:
            errs.append('NVIDIA: runtime before kernel in file')
    for corr, lst in by_corr.items():
        if corr in rt_by_corr:
            nm = rt_by_corr[corr][1]['name']
            graph = nm in ('cudaGraphLaunch', 'hipGraphLaunch')
            if len(lst) > 1 and not graph:
                errs.append('several kernels on a non-graph launch %s' % nm)
            if graph and any('External id' in e['args'] for _, e in lst):
                errs.append('graph kernel with External id')
            if not graph and not amd and lst[0][0] < rt_by_corr[corr][0] - 4:
                errs.append('eager kernel far from its launch')
    if orphans != dbg['orphans']:
        errs.append('orphan kernels %d != generator %d' % (orphans, dbg['orphans']))
    if orphans and 'start' not in truth.get('cut_passes', {}):
        errs.append('orphan kernels without a start cut')
    for key, lst in streams.items():
        lst.sort(key=lambda e: e['ts'])
        for a, b in zip(lst, lst[1:]):
            if b['ts'] + tol < a['ts'] + a['dur']:
                errs.append('overlap on stream %s: %s / %s' % (key, a['name'][:30], b['name'][:30]))
                break
    for fid, (s, f) in flows.items():
        if s and not f:
            errs.append('flow s without f (%s)' % fid)
    for w in dbg['windows']:
        for t in w['launches']:
            if not (w['ts'] - tol <= t <= w['end'] + tol):
                errs.append('launch outside annotation %s' % w['name'][:40])
                break
    for e in ev:
        if e.get('cat') == 'gpu_user_annotation' and e['args'].get('External id') not in ann_ids:
            errs.append('gpu_user_annotation without user_annotation')
    # truth
    t = truth
    if t['complete_passes'] != len(t['passes']) or len(t['stages']) != len(t['passes']):
        errs.append('truth counts inconsistent')
    if t['complete_passes'] < 1:
        errs.append('no complete pass')
    for p in t['passes']:
        if p['layers'] != t['layers_per_pass'] or p['stage'] not in ('prefill', 'decode', 'mixed') or p['tokens'] < 1:
            errs.append('bad truth pass %r' % p)
    if len(t['layer_kinds']) != t['layers_per_pass']:
        errs.append('layer_kinds length')
    if t['v2']['spec_decode'] and ('draft' not in t or 'draft_passes' not in t):
        errs.append('spec decode without draft truth')
    if t['v2']['cut'] and 'cut_passes' not in t:
        errs.append('cut without cut_passes')
    for k in ('names', 'classes', 'config', 'stages', 'layers_per_pass', 'passes', 'layer_kinds'):
        if k not in t:
            errs.append('truth misses %s' % k)
    knames = set(e['name'] for e in ev if e.get('cat') == 'kernel')
    if names == 'random':
        for e in ev:
            a = e.get('args') or {}
            for key in ('kernel', 'kernel_name'):
                if key in a and a[key] not in knames:
                    errs.append('%s arg not renamed: %s' % (key, str(a[key])[:40]))
                    break
        bad = [n for n in knames if any(m in n for m in REAL_MARKERS)]
        if bad:
            errs.append('real names survive in random mode: %s' % bad[:2])
    return errs, truth, dt, size, len(knames)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--seeds', type=int, default=200)
    ap.add_argument('-v', action='store_true')
    a = ap.parse_args()
    fails = 0
    classes = collections.Counter()
    stats = collections.Counter()
    times, sizes, npass = [], [], []
    knames_real = {}
    for names in ('real', 'random'):
        for seed in range(a.seeds):
            errs, truth, dt, size, nk = check(seed, names, a.v)
            if names == 'real':
                knames_real[seed] = nk
                classes.update(truth['classes'])
                stats.update('stage:' + s for s in truth['stages'])
                npass.append(truth['complete_passes'])
            elif nk != knames_real.get(seed, nk):
                errs.append('distinct kernel names real %d != random %d' % (knames_real[seed], nk))
            times.append(dt)
            sizes.append(size)
            if errs:
                fails += 1
                print('FAIL %s_%d: %s' % (names, seed, '; '.join(sorted(set(errs))[:6])))
            elif a.v:
                print('ok %s_%d  %.2fs %d bytes' % (names, seed, dt, size))
    for seed in (0, 7, 123):
        d1, t1 = gen.build(seed, 'real')
        d2, t2 = gen.build(seed, 'real')
        if json.dumps(d1) != json.dumps(d2) or json.dumps(t1) != json.dumps(t2):
            fails += 1
            print('FAIL: seed %d not deterministic' % seed)
    n = a.seeds
    print('\nclasses over %d seeds (names=real):' % n)
    for k, v in sorted(classes.items(), key=lambda x: (-x[1], x[0])):
        print('  %-28s %4d  %5.1f%%' % (k, v, 100.0 * v / n))
    print('\npasses: %s' % ', '.join('%s %d' % (k, v) for k, v in sorted(stats.items())))
    print('complete passes per trace: min %d, median %d, max %d' % (min(npass), sorted(npass)[len(npass) // 2], max(npass)))
    ss = sorted(sizes)
    print('raw JSON bytes (compact): min %d, median %d, max %d' % (ss[0], ss[len(ss) // 2], ss[-1]))
    tt = sorted(times)
    print('build time per trace: mean %.3fs, median %.3fs, max %.3fs' % (sum(tt) / len(tt), tt[len(tt) // 2], tt[-1]))
    print('\n%s: %d of %d traces failed' % ('FAIL' if fails else 'PASS', fails, 2 * n))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
