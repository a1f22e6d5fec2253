#!/usr/bin/env bash
# A pass the capture cut is partial, never a complete pass of fewer layers
# (issue 57): each shared trace kept only up to the middle of its last
# complete pass (every event that begins before it, as a profiler stopped
# there writes it) reads that pass as partial, with the passes before it
# as they were. Where the profiler drew the step's GPU window, the window
# running on past the trace's last kernel says so whatever the layers look
# like (the SGLang B300 and MI300X decodes: one pass, no history of layer
# counts); where a launch of the step on the CPU never reached the GPU,
# that says so (the vLLM MI300X mixed batch, piecewise graphs); the others
# by their layers: a pass whose last layer ran its mixer and not its MLP
# where the others ran both was cut inside it (the SGLang Qwen3-8B MI300X
# graph decode and prefill, one pass each, their step windows on the CPU
# only). The uncut traces keep every pass.
T=cut
. "$(dirname "$0")/lib.sh"
need_shared
python3 - "$SHARED" "$TS" "$tmp" <<'PY'
import gzip, json, os, subprocess, sys
sys.path.append(os.environ['TS_TESTS'])
import tscache
shared, ts, tmp = sys.argv[1:4]
def run(path):
    if not path.startswith(tmp):      # the same report other scripts ask for
        return json.loads(tscache.out(ts, '--no-progress', '-f', 'json', path))
    out = subprocess.run([ts, '--no-progress', '-f', 'json', path], capture_output=True, text=True)
    return json.loads(out.stdout)
def passes(d):
    return [(p['stage'], p['layers'], p['complete']) for p in d['passes']]
for f in ('sglang_qwen3-30b-a3b_b300_decode_bs16.trace.json.gz',
          'sglang_qwen3-30b-a3b_mi300x_decode_bs16.trace.json.gz',
          'vllm_gptoss120b_b200_tp8_eager_prefill.json.gz',
          'vllm_qwen3.5-27b-nvfp4_gb10_decode_bs4_piecewise_10steps.pt.trace.json.gz',
          'hf_qwen1.5-0.5b-chat_h100.json.gz',
          'vllm_mi300x_mixed_prefilldecode_piecewise_graph.json.gz',
          'sglang_qwen3-8b_mi300x_decode_bs32_cudagraph.json.gz',
          'sglang_qwen3-8b_mi300x_prefill_then_decode.json.gz'):
    path = os.path.join(shared, f)
    if not os.path.exists(path):
        print('ok - cut: %s # SKIP not in the shared traces' % f)
        continue
    full = run(path)
    whole = [i for i, p in enumerate(full['passes']) if p['complete']]
    last = full['passes'][whole[-1]]
    d = json.load(gzip.open(path) if f.endswith('.gz') else open(path))
    ev = d['traceEvents']
    k = sorted((e for e in ev if e.get('cat') == 'kernel'), key=lambda e: e['ts'])
    # the last complete pass's kernels are the last ones of the trace but
    # those after it (the sampler's, outside any pass)
    mine = [e for e in k if e['ts'] * 1000 >= last['first_ts_ns']] if 'first_ts_ns' in last else k[-last['kernels']:]
    mid = mine[len(mine) // 2]['ts']
    d['traceEvents'] = [e for e in ev if e.get('ts', 0) < mid]
    cut = os.path.join(tmp, 'cut.json')
    open(cut, 'w').write(json.dumps(d))     # json.dump is the slow encoder
    got = run(cut)
    before = passes(full)[:whole[-1]]
    ok = passes(got)[:len(before)] == before and got['passes'] and not got['passes'][len(before)]['complete'] \
        and len(got['passes']) == len(before) + 1
    print('%s - cut: %s kept to the middle of its last pass: that pass partial, the ones before it as they were%s'
          % ('ok' if ok else 'not ok', f, '' if ok else ' (%s -> %s)' % (passes(full), passes(got))))
PY
finish
