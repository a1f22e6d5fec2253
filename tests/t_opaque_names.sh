#!/usr/bin/env bash
# Layers without kernel names: each shared inference trace is rewritten by
# tests/layers/opaque.py so that every kernel name is a random string (one
# per distinct name, none that a table types), and the layer machine must
# still find the MANIFEST's passes and layers: layers.per_pass equals it,
# and the passes (how many, which complete, their layers) are the original
# trace's, each with the original's stage where it had one (annotations,
# shapes and grids stay). A last line checks the rewrite itself: the same
# event counts, every kernel renamed, no kernel typed by its name (an
# attention op's kernels are typed by their op, patterns/context.yaml).
# sanitizers: release only (the same code as with names: t_independent's random-name seeds run it under the sanitizers)
. "$(dirname "$0")/lib.sh"
if [ ! -d "$SHARED" ]; then
	echo "skip - random kernel names on shared traces: $SHARED not found"
	exit 0
fi

# stem  layers-per-complete-pass (../shared/traces/MANIFEST.md)
list='vllm_gptoss120b_b200_tp8_eager_prefill.json 36
sglang_qwen3-30b-a3b_b300_decode_bs16.trace.json 48
sglang_qwen3-30b-a3b_mi300x_decode_bs16.trace.json 48
sglang_qwen3-8b_mi300x_prefill_then_decode.json 36
sglang_qwen3-8b_mi300x_decode_bs32_cudagraph.json 36
vllm_mi300x_mixed_prefilldecode_piecewise_graph.json 24
hf_qwen1.5-0.5b-chat_h100.json 24
vllm_qwen3.5-27b-nvfp4_gb10_decode_bs4_piecewise_10steps.pt.trace.json 64'

# Rewrite every trace at once (the rewrite is Python, the slow part).
i=0
while read -r stem want; do
	i=$((i + 1))
	f=$(ls "$SHARED/$stem".* 2>/dev/null | head -1)
	[ -n "$f" ] || continue
	printf '%s\n' "$f" >"$tmp/$i.path"
	(python3 "$here/layers/opaque.py" "$TS" "$f" "$tmp/$i.opaque.json.gz" >"$tmp/$i.sum" 2>"$tmp/$i.err"
		echo $? >"$tmp/$i.rc") &
done <<<"$list"
wait

i=0
while read -r stem want; do
	i=$((i + 1))
	if [ ! -f "$tmp/$i.path" ]; then
		echo "skip - $stem: not in $SHARED"
		continue
	fi
	f=$(cat "$tmp/$i.path")
	"$TS" --format json "$f" >"$tmp/$i.orig.out" 2>"$tmp/$i.orig.err"
	echo $? >"$tmp/$i.orig.rc"
	if [ "$(cat "$tmp/$i.rc")" = 0 ]; then
		"$TS" --format json "$tmp/$i.opaque.json.gz" >"$tmp/$i.opaque.out" 2>"$tmp/$i.opaque.err"
		echo $? >"$tmp/$i.opaque.rc"
	fi
done <<<"$list"

python3 - "$tmp" "$list" <<'PY'
import json, os, re, sys
tmp = sys.argv[1]
lst = [l.split() for l in sys.argv[2].splitlines()]

def line(ok, stem, what):
    print('%s - %s: %s' % ('ok' if ok else 'not ok', stem, what))

def report(i, kind):
    """The tool's JSON for variant kind (orig/opaque), or an error string."""
    rc = open('%s/%d.%s.rc' % (tmp, i, kind)).read().strip()
    if rc != '0':
        return None, 'exit status %s: %s' % (rc, open('%s/%d.%s.err' % (tmp, i, kind)).read()[:200].strip())
    try:
        return json.load(open('%s/%d.%s.out' % (tmp, i, kind))), None
    except ValueError as e:
        return None, 'output is not JSON: %s' % e

def passes(r):
    # a pass's edges may take in a kernel or two more without names (the
    # sampler a name says ends it): its completeness and layers must hold
    return [(p['complete'], p['layers']) for p in r['passes']]

def stages(r):
    return [p['stage'] for p in r['passes']]

def layers(stem, what, want, r, err):
    if r is None:
        line(False, stem, '%s: %s' % (what, err))
        return
    ps = r['passes']
    complete = [p['layers'] for p in ps if p['complete']]
    ok = r['layers']['per_pass'] == want and len(complete) >= 1 and all(n == want for n in complete)
    line(ok, stem, '%s: %d layers in every complete pass (per_pass %d, %d complete of %d passes, '
         'passes[].layers %s)' % (what, want, r['layers']['per_pass'], len(complete), len(ps),
                                  [p['layers'] if p['complete'] else '%d partial' % p['layers']
                                   for p in ps][:8]))

for i, (stem, want) in enumerate(lst, 1):
    if not os.path.exists('%s/%d.path' % (tmp, i)):
        continue
    want = int(want)
    orig, oerr = report(i, 'orig')
    layers(stem, 'original', want, orig, oerr)
    if open('%s/%d.rc' % (tmp, i)).read().strip() != '0':
        line(False, stem, 'random names: tests/layers/opaque.py failed: %s' %
             open('%s/%d.err' % (tmp, i)).read()[:300].strip())
        continue
    opq, perr = report(i, 'opaque')
    layers(stem, 'random names', want, opq, perr)
    if orig is not None and opq is not None:
        line(passes(orig) == passes(opq), stem,
             'random names: the same passes (complete, layers) as the original %s (got %s)' %
             (passes(orig)[:4], passes(opq)[:4]))
        # the stage rests on annotations, shapes and grids, which the
        # rewrite keeps: each pass the original staged keeps its stage
        so, sr = stages(orig), stages(opq)
        line(len(so) == len(sr) and all(a == 'unknown' or a == b for a, b in zip(so, sr)), stem,
             'random names: each staged pass keeps its stage %s (got %s)' % (so[:4], sr[:4]))
    # The rewrite: opaque.py's own before/after counts, and the tool agrees.
    s = open('%s/%d.sum' % (tmp, i)).read()
    m = re.match(r'kernels (\d+) names (\d+) renamed (\d+)', s)
    if not m:
        line(False, stem, 'rewrite: no summary from opaque.py: %r' % s[:200])
        continue
    k, kn, ren = map(int, m.groups())
    what = 'rewrite: %d kernels (%d names) renamed, none typed by its name' % (k, kn)
    if orig is None or opq is None:
        line(False, stem, what + '; no report to compare')
        continue
    # a kernel's own class is its name's (name_type); a context may still
    # type it by the op that launched it (an attention op's kernel)
    rows = opq['kernels']
    typed = sum(r['count'] for r in rows if r.get('name_type', r['type']) != 'other')
    by_op = sum(r['count'] for r in rows if r.get('name_type') == 'other' and r['type'] != 'other')
    what += ' (%d typed by their launching op)' % by_op
    ok = (ren == k and orig['events'] == opq['events'] and orig['events']['kernel'] == k
          and typed == 0)
    line(ok, stem, what + ('' if ok else '; the tool reads events %s -> %s, %d kernels typed' %
                           (orig['events'], opq['events'], typed)))
PY

# GPU-only and no names: the GB10 capture with its CPU side dropped (a
# GPU-only capture: no op, no launch, its step windows written after the
# kernels) and every kernel name random. Its ten decode steps run back to
# back (the GPU waits 5 us between them, longer inside them), so only the
# stream's cycle tells them apart: the kernel each step begins with, run
# once a step. Ten passes of 64 layers (the first step's eager start, cut
# off by a 1.5 ms wait, may stand apart), none called a prompt, no pass
# spanning two steps; the input copies inside each step's preparation
# do not cut it off as a 3-layer "draft" pass.
f=$(ls "$SHARED"/vllm_qwen3.5-27b-nvfp4_gb10_decode_bs4_piecewise_10steps.pt.trace.json* 2>/dev/null | head -1)
if [ -n "$f" ]; then
	python3 "$here/metamorphic/rewrite.py" gpuonly "$f" "$tmp/gb10.gpu.json" &&
		python3 "$here/layers/opaque.py" "$TS" "$tmp/gb10.gpu.json" "$tmp/gb10.gpu.opaque.json.gz" >/dev/null &&
		"$TS" -q -f json "$tmp/gb10.gpu.opaque.json.gz" >"$tmp/gb10.out" 2>/dev/null
	python3 - "$tmp/gb10.out" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except ValueError as e:
    print('not ok - gb10 GPU-only, random names: no report (%s)' % e)
    sys.exit(0)
ps = [p for p in d['passes'] if p['complete']]
n64 = [p for p in ps if p['layers'] == 64]
# each step's preparation (its inputs copied in, its metadata built:
# 36 small kernels, three alike) is no pass of its own, and no draft
ok = (len(n64) == 10 and d['layers']['per_pass'] == 64 and all(p['layers'] <= 64 for p in ps)
      and not any(p['stage'] == 'prefill' for p in ps) and len(ps) <= 11
      and not any(p['draft'] for p in d['passes']))
print('%s - gb10 GPU-only, random names: 10 passes of 64 layers by the stream\'s cycle, none a prompt, '
      'no step\'s preparation a pass or a draft (got %s)'
      % ('ok' if ok else 'not ok', [(p['stage'], p['layers'], p['draft']) for p in d['passes']]))
PY
fi
exit 0
