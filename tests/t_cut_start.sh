#!/usr/bin/env bash
# A capture that began inside a pass (issue 55, 57): the profiler records
# what runs after it starts, so the kernels launched before it (a graph
# launch, the queued eager kernels) run in the trace without their
# runtime calls or ops. Each shared trace of several passes is kept from
# the CPU launch of the middle kernel of one pass on (every event that
# begins after it, as a profiler started there writes it): the passes
# that ran after it read as they did, and the remainder of the pass the
# GPU was running is one pass of its own, partial, never merged into the
# next.
# sanitizers: release only (cut copies of traces t_shared_traces and t_cut_pass run under the sanitizers)
T=cutstart
. "$(dirname "$0")/lib.sh"
need_shared
python3 - "$SHARED" "$TS" "$tmp" "$(dirname "$0")/data" <<'PY'
import glob, gzip, json, os, subprocess, sys
sys.path.append(os.environ['TS_TESTS'])
import tscache
shared, ts, tmp, data = sys.argv[1:5]
def run(path):
    if not path.startswith(tmp):      # the same report other scripts ask for
        return json.loads(tscache.out(ts, '--no-progress', '-f', 'json', path))
    out = subprocess.run([ts, '--no-progress', '-f', 'json', path], capture_output=True, text=True)
    return json.loads(out.stdout)
def passes(d):
    return [(p['stage'], p['layers'], p['complete']) for p in d['passes']]
names = ['sglang_qwen3-8b_mi300x_prefill_then_decode.json.gz',
         'vllm_qwen3.5-27b-nvfp4_gb10_decode_bs4_piecewise_10steps.pt.trace.json.gz',
         'vllm_mi300x_mixed_prefilldecode_piecewise_graph.json.gz',
         'hf_qwen1.5-0.5b-chat_h100.json.gz']
paths = [os.path.join(shared, f) for f in names] + sorted(glob.glob(os.path.join(data, 'torch_*_h200.json.gz')))
for path in paths:
    f = os.path.basename(path)
    if not os.path.exists(path):
        print('ok - cut start: %s # SKIP not in the shared traces' % f)
        continue
    d = json.load(gzip.open(path) if path.endswith('.gz') else open(path))
    ev = d['traceEvents']
    full = run(path)
    whole = [i for i, p in enumerate(full['passes']) if p['complete']]
    # a pass with a complete pass after it
    pick = [i for i in whole if any(j > i for j in whole)]
    if not pick:
        print('ok - cut start: %s # SKIP fewer than two complete passes' % f)
        continue
    i = pick[len(pick) // 2]
    p = full['passes'][i]
    launch = {e['args']['correlation']: e['ts'] for e in ev
              if e.get('cat') in ('cuda_runtime', 'cuda_driver') and 'correlation' in e.get('args', {})}
    mine = sorted((e for e in ev if e.get('cat') == 'kernel' and
                   p['span']['start_us'] <= e['ts'] <= p['span']['end_us'] and
                   e.get('args', {}).get('correlation') in launch), key=lambda e: e['ts'])
    if not mine:
        print('ok - cut start: %s # SKIP no launch of the pass in the trace' % f)
        continue
    cut_at = launch[mine[len(mine) // 2]['args']['correlation']] + 0.001
    d['traceEvents'] = [e for e in ev if 'ts' not in e or e.get('ph') == 'M' or float(e['ts']) >= cut_at]
    cut = os.path.join(tmp, 'cut.json')
    open(cut, 'w').write(json.dumps(d))     # json.dump is the slow encoder
    got = passes(run(cut))
    # the passes whose kernels all ran after the cut (the GPU may run a
    # pass or more behind the CPU's launches)
    late = [(q['stage'], q['layers'], q['complete']) for q in full['passes']
            if q['span']['start_us'] >= cut_at]
    head = got[:len(got) - len(late)]
    ok = got[len(got) - len(late):] == late and len(head) <= 1 and \
        all(not c or n == p['layers'] for _, n, c in head)
    print('%s - cut start: %s from the launch of pass %d\'s middle kernel: the passes after it as they were, its remainder one pass%s'
          % ('ok' if ok else 'not ok', f, i, '' if ok else ' (%s -> %s)' % (passes(full), got)))
PY
finish
