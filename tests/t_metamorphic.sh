#!/usr/bin/env bash
# Same trace, same answers (issue 57): every shared trace with passes,
# rewritten as its writer might have written it (tests/metamorphic/
# rewrite.py), says the same: compact, pretty, every event's keys
# reversed, timestamps with trailing zeros: the whole JSON report but the
# input's own bytes; timestamps shifted, CPU events grouped before the
# GPU's: the same passes, layers, stages, kernels, kernel time, per-token
# time and replayed step; deviceProperties dropped, every annotation
# dropped, the CPU side dropped (a GPU-only capture): the same passes and
# layers; events sorted by time, or reversed: sorted back first, the same
# facts as grouped (and said; from a pipe, said not sorted; through a
# temporary file, the same report); the events twice, the copy later:
# twice the passes and kernels; two processes in one file: two ranks. The rewrites of
# ../shared/traces/metamorphic/ give their originals' answers. (Traces
# over 20 MB of JSON: make test-long.)
# (Cut passes: tests/t_cut_pass.sh.)
# sanitizers: release only (rewrites of the shared traces: their parse paths run under the sanitizers in t_input_forms, t_readsizes and t_robust)
T=metamorphic
. "$(dirname "$0")/lib.sh"
need_shared
python3 - "$SHARED" "$TS" "$tmp" "$here/metamorphic/rewrite.py" <<'PY'
import json, os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
shared, ts, tmp, rw = sys.argv[1:5]

def run(path):
    r = subprocess.run([ts, '--no-progress', '-T', '1', '-f', 'json', path], capture_output=True, text=True)
    return json.loads(r.stdout) if r.stdout.strip() else None

def strip(d):
    d = json.loads(json.dumps(d))
    for k in ('path', 'input_bytes', 'bytes', 'compressed'):
        d['trace'].pop(k, None)
    d.pop('patterns', None)
    return d

def unsorted(d):
    """The report but the input's bytes and the words on its order."""
    d = strip(d)
    d['trace'].pop('event_order', None)
    d['warnings'] = [w for w in d.get('warnings', []) if 'time order' not in w]
    return d

def facts(d, level):
    ps = [(p['stage'], p['layers'], p['complete']) for p in d['passes']]
    if level == 'layers':
        return [(l, c) for _, l, c in ps]
    if level == 'twice':
        return ps, d['trace'].get('kernels')
    st = {s: (v.get('steps') or {}).get('per_output_token_us') for s, v in (d.get('stages') or {}).items()}
    wi = [(w['stage'], w['steps'], w['step_mean_us']) for w in d.get('whatif', [])]
    return ps, d['trace'].get('kernels'), d['trace'].get('kernel_time_us'), st, wi, d['model'].get('family')

traces = [f for f in sorted(os.listdir(shared)) if f.endswith(('.json', '.json.gz'))]
base = {f: run(os.path.join(shared, f)) for f in traces}
traces = [f for f in traces if base[f] and base[f]['passes']]
# a trace of more than 8 MB of JSON (the GB10 decode, 61 MB; the MI300X
# capture, 24 MB) takes most of the time in Python's rewrites: make
# test-long (TS_LONG=1) has them
if os.environ.get('TS_LONG') != '1':
    traces = [f for f in traces if base[f]['trace']['bytes'] <= 8000000]
hows = ('compact', 'pretty', 'keys', 'zeros', 'shift', 'grouped', 'nodevices', 'noannot', 'gpuonly',
        'sorted', 'reversed', 'twice')
if '/san/' in ts:
    # under the sanitizers the paths matter, not the matrix: the rewrites
    # that move keys and events, on the smaller traces
    traces = sorted(traces, key=lambda f: os.path.getsize(os.path.join(shared, f)))[:4]
    hows = ('keys', 'grouped', 'noannot', 'reversed')
jobs = [(f, how) for f in traces for how in hows]
level = {'compact': 'all', 'pretty': 'all', 'keys': 'all', 'zeros': 'all', 'shift': 'facts',
         'grouped': 'facts', 'nodevices': 'layers', 'noannot': 'layers', 'gpuonly': 'layers',
         'sorted': 'facts', 'reversed': 'facts', 'twice': 'twice'}

def one(job):
    f, how = job
    out = os.path.join(tmp, '%s.%s.json' % (f, how))
    got = run(out)
    os.unlink(out)
    want = base[f]
    if got is None:
        return job, False, 'no report'
    if how == 'reversed' and got['trace'].get('event_order') != 'sorted':
        return job, False, 'event order %s, not sorted' % got['trace'].get('event_order')
    if level[how] == 'twice':
        if not any(p['complete'] for p in want['passes']):
            return job, True, ''   # a fragment's kernels join across the copies
        a, b = facts(want, 'twice'), facts(got, 'twice')
        return job, b == (a[0] + a[0], 2 * a[1]), '' if b == (a[0] + a[0], 2 * a[1]) else '%s -> %s' % (
            str(a)[:120], str(b)[:160])
    if level[how] == 'all':
        a, b = strip(want), strip(got)
        if a != b:
            diff = [k for k in a if a.get(k) != b.get(k)]
            return job, False, 'differs in %s' % diff[:4]
        return job, True, ''
    a, b = facts(want, level[how]), facts(got, level[how])
    return job, a == b, '' if a == b else '%s -> %s' % (str(a)[:160], str(b)[:160])

def per_trace(f):
    """every rewrite of F from one load of it (rewrite.py HOW,HOW...), then each checked"""
    subprocess.run([sys.executable, rw, ','.join(hows), os.path.join(shared, f), os.path.join(tmp, f)],
                   check=True)
    return [one((f, how)) for how in hows]

with ThreadPoolExecutor(max_workers=2) as ex:
    results = [r for rs in ex.map(per_trace, traces) for r in rs]
for how in hows:
    bad = [(f, why) for (f, h), ok, why in results if h == how and not ok]
    n = sum(1 for (f, h), ok, why in results if h == how)
    print('%s - metamorphic: %s on %d traces: %s%s' % ('not ok' if bad else 'ok', how, n,
          {'all': 'the same report', 'facts': 'the same passes, stages, kernels, per token, replay',
           'layers': 'the same passes and layers', 'twice': 'twice the passes and kernels'}[level[how]],
          '' if not bad else ' (%s)' % '; '.join('%s: %s' % x for x in bad[:3])))
# two processes merged into one file (as users merge ranks to view them):
# given as a file, each read as its own rank (its pid, its GPU, its pass);
# through a pipe (read once), told apart in a warning, never read silently
# as one
pair = [os.path.join(shared, f) for f in ('sglang_qwen3-30b-a3b_b300_decode_bs16.trace.json.gz',
                                          'sglang_qwen3-30b-a3b_mi300x_decode_bs16.trace.json.gz')]
if all(os.path.exists(p) for p in pair):
    import gzip
    docs = [json.load(gzip.open(p)) for p in pair]
    docs[0]['traceEvents'] += docs[1]['traceEvents']
    out = os.path.join(tmp, 'merged.json')
    json.dump(docs[0], open(out, 'w'))
    r = subprocess.run([ts, '--no-progress', '-f', 'json', out], capture_output=True, text=True)
    got = json.loads(r.stdout)
    alone = [run(p) for p in pair]
    ranks = [(x['path'].rsplit(' ', 2)[-1], x.get('gpu'), x.get('passes'), x.get('layers_per_pass'))
             for x in got.get('ranks', [])]
    spans = [x['span_us'] for x in got.get('ranks', [])]
    kernels = [(x['kernels'], x['busy_us']) for x in got.get('ranks', [])]
    want_kernels = [(a['trace']['kernels'], a['trace']['busy_time_us']) for a in alone]
    want = [('267)', 'NVIDIA B300 SXM6 AC', 1, 48), ('278)', None, 1, 48)]
    said = 'holds 2 processes (pids 267 on GPU 0, 278 on GPU 5)' in r.stderr
    ok = ranks == want and said and [len(a['passes']) for a in alone] == [1, 1] and kernels == want_kernels and \
        all(s < 1e6 for s in spans)
    print('%s - metamorphic: two SGLang decode traces merged into one file: each process read as its '
          'own rank (pid, GPU, 1 decode pass of 48 layers each, its kernels and busy time alone, its '
          'own clock), and said%s' % (
              'ok' if ok else 'not ok', '' if ok else ' (%s, kernels %s of %s, spans %s, said %s)' % (
              ranks, kernels, want_kernels, spans, said)))
    r = subprocess.run([ts, '--no-progress', '-f', 'json', '-'], stdin=open(out), capture_output=True, text=True)
    piped = json.loads(r.stdout)
    w = [x for x in piped['warnings'] if 'processes' in x]
    txt = subprocess.run([ts, '--no-progress', '-'], stdin=open(out), capture_output=True, text=True).stdout
    ok = len(w) == 1 and 'pids 267, 278' in w[0] and 'on 2 GPUs' in w[0] and 'summed over 2 GPUs' in txt
    one = [x for x in base[os.path.basename(pair[0])]['warnings'] if 'processes' in x]
    print('%s - metamorphic: the same through a pipe (read once): the two processes told apart '
          '(pids, GPUs; busy summed over 2 GPUs, no share of one span), none in either alone%s' % (
              'ok' if ok and not one else 'not ok', '' if ok and not one else ' (%s)' % (w or one)))
# the shared rewrites that must give their originals' answers
m = os.path.join(shared, 'metamorphic')
for f, orig, lv in (('gb10-decode__4_no-annotations.json.gz',
                     'vllm_qwen3.5-27b-nvfp4_gb10_decode_bs4_piecewise_10steps.pt.trace.json.gz', 'layers'),
                    ('gptoss120b-b200__1c_one-event-keys-reversed.json.gz',
                     'vllm_gptoss120b_b200_tp8_eager_prefill.json.gz', 'all'),
                    ('qwen3-30b-b300__2c_reversed.json.gz',
                     'sglang_qwen3-30b-a3b_b300_decode_bs16.trace.json.gz', 'order'),
                    ('hf-qwen-h100__2a_sorted-by-ts.json.gz', 'hf_qwen1.5-0.5b-chat_h100.json.gz', 'order')):
    p = os.path.join(m, f)
    if not os.path.exists(p):
        print('ok - metamorphic: %s # SKIP not there' % f)
        continue
    got, want = run(p), base.get(orig) or run(os.path.join(shared, orig))
    ok = strip(got) == strip(want) if lv == 'all' else unsorted(got) == unsorted(want) if lv == 'order' \
        else facts(got, lv) == facts(want, lv)
    print('%s - metamorphic: %s gives its original\'s %s' % ('ok' if ok else 'not ok', f,
          {'all': 'report', 'order': 'report (sorted first)', 'layers': 'passes and layers'}[lv]))
# out of order through a pipe: read once, said so; a sorter that spills
# to a temporary file gives the report it gives in memory
hf = os.path.join(shared, 'hf_qwen1.5-0.5b-chat_h100.json.gz')
if os.path.exists(hf):
    rev = os.path.join(tmp, 'reversed.json')
    subprocess.run([sys.executable, rw, 'reversed', hf, rev], check=True)
    r = subprocess.run([ts, '--no-progress', '-f', 'json', '-'], stdin=open(rev), capture_output=True, text=True)
    piped = json.loads(r.stdout)
    said = [w for w in piped['warnings'] if 'time order' in w and 'as they came' in w]
    print('%s - metamorphic: reversed through a pipe: read as it came, and said so%s' % (
        'ok' if piped['trace']['event_order'] == 'out_of_order' and said else 'not ok',
        '' if said else ' (%s)' % piped['trace']['event_order']))
    r = subprocess.run([ts, '--no-progress', '-T', '1', '-f', 'json', '--sort-mem', '1M', rev],
                       capture_output=True, text=True)
    small = json.loads(r.stdout)
    temp = [w for w in small['warnings'] if 'temporary file' in w]
    same = unsorted(small) == unsorted(run(rev))
    print('%s - metamorphic: reversed, sorted through a temporary file (--sort-mem 1M): the report '
          'sorted in memory gives%s' % ('ok' if same and temp else 'not ok',
                                        '' if same and temp else ' (%s)' % ('no temporary file' if not temp else 'differs')))
PY
finish
