#!/usr/bin/env bash
# Layers on synthetic traces whose structure is known by construction
# (tests/layers/mkfixture.py): tensor parallel with NCCL all-reduces and a
# separate norm, tensor parallel with the norm fused into the all-reduce,
# and a dual-residual-norm model (N full layers by default, 2N half-layers
# with --split-half-layers). Then a trace written K times over
# (tests/layers/repeat.py) gives exactly K times the passes, layers and
# orphan kernels, on the bundled sample and, when present, the shared traces.
. "$(dirname "$0")/lib.sh"

check() { # shape layers passes stage [options...]
	local shape=$1 n=$2 p=$3 stage=$4
	shift 4
	gen_out python3 tests/layers/mkfixture.py "$shape" --layers "$n" --passes "$p" --stage "$stage" >"$tmp/t.json"
	gen_out python3 tests/layers/mkfixture.py "$shape" --layers "$n" --passes "$p" --stage "$stage" --truth >"$tmp/truth.json"
	if ! "$TS" --format json --expect-layers "$n" "$@" "$tmp/t.json" >"$tmp/r.json" 2>"$tmp/err"; then
		echo "not ok - $shape $*: exit status $?: $(head -c 200 "$tmp/err")"
		return
	fi
	python3 - "$tmp/r.json" "$tmp/truth.json" "$tmp/err" "$shape $n layers x $p $stage $*" "$*" <<'PY'
import json, sys
r, t = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
err, what, opts = open(sys.argv[3]).read(), sys.argv[4], sys.argv[5]
split = '--split-half-layers' in opts
per = t['halves'] if split else t['layers']
def line(ok, msg):
    print('%s - %s: %s' % ('ok' if ok else 'not ok', what, msg))
P = r['passes']
line(len(P) == t['passes'] and all(p['complete'] for p in P),
     '%d complete passes (got %d, complete %s)' % (t['passes'], len(P), [p['complete'] for p in P]))
line([p['layers'] for p in P] == [per] * t['passes'] and r['layers']['per_pass'] == per
     and r['layers']['total'] == per * t['passes'],
     '%d layers per pass, %d in all (got %s, total %d)' % (per, per * t['passes'], [p['layers'] for p in P], r['layers']['total']))
line([p['kernels'] for p in P] == t['kernels_per_pass'],
     'kernels per pass %s (got %s)' % (t['kernels_per_pass'], [p['kernels'] for p in P]))
line(r['layers']['orphan_kernels'] == t['orphans_per_pass'] * t['passes'],
     '%d orphan kernels (got %d)' % (t['orphans_per_pass'] * t['passes'], r['layers']['orphan_kernels']))
line([p['stage'] for p in P] == t['stages'], 'pass stages follow their annotations')
mlp = 'MoE' if 'dual' in what else 'FC'
want_types = ({'Attn-only': t['layers'] * t['passes'], mlp + '-only': t['layers'] * t['passes']} if split
              else {'Attn+' + mlp: t['layers'] * t['passes']})
line(r['layers']['types'] == want_types, 'layer types %s (got %s)' % (want_types, r['layers']['types']))
line('layer count other than' not in err, 'no layer-count warning with --expect-layers %d' % t['layers'])
PY
}

for shape in tp-dense tp-fused dual-norm; do
	check "$shape" 6 3 decode
	check "$shape" 6 3 decode --split-half-layers
	check "$shape" 40 2 prefill
done
# More step annotations than are held at once (4096: the oldest half is
# dropped as the trace goes on): every pass still gets its own step.
check tp-dense 1 5000 alternate

# The layer-count warning: a wrong --expect-layers is reported, in halves
# when split.
gen_out python3 tests/layers/mkfixture.py dual-norm --layers 5 --passes 2 >"$tmp/d.json"
"$TS" --expect-layers 4 "$tmp/d.json" >/dev/null 2>"$tmp/err"
grep -q '2 complete passes have a layer count other than 4 (e.g. 5)' "$tmp/err" &&
	echo "ok - dual-norm: --expect-layers 4 on 5 layers warns" ||
	echo "not ok - dual-norm: --expect-layers 4 on 5 layers warns: $(cat "$tmp/err")"
"$TS" --expect-layers 4 --split-half-layers "$tmp/d.json" >/dev/null 2>"$tmp/err"
grep -q 'other than 8 (e.g. 10).*two half-layers' "$tmp/err" &&
	echo "ok - dual-norm split: the warning counts half-layers" ||
	echo "not ok - dual-norm split: the warning counts half-layers: $(cat "$tmp/err")"

# --- --stage: every table keeps only the stage's kernels, passes, layers --
gen_out python3 tests/layers/mkfixture.py tp-dense --layers 3 --passes 12 --stage alternate >"$tmp/s.json"
gen_out python3 tests/layers/mkfixture.py tp-dense --layers 3 --passes 12 --stage alternate --truth >"$tmp/s.truth"
for st in all prefill decode mixed unknown; do
	"$TS" --format json --stage "$st" --expect-layers 3 "$tmp/s.json" >"$tmp/s.$st.json" 2>"$tmp/err" ||
		echo "not ok - --stage $st: exit status $?: $(head -c 200 "$tmp/err")"
done
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
t = json.load(open(d + '/s.truth'))
r = {s: json.load(open('%s/s.%s.json' % (d, s))) for s in ('all', 'prefill', 'decode', 'mixed', 'unknown')}
def line(ok, msg):
    print('%s - --stage: %s' % ('ok' if ok else 'not ok', msg))
# truth: kernels of pass i are in its stage; the orphans of a pass (embedding,
# final norm, LM head, sampling) too, as they are inside the pass
want = {'prefill': 0, 'decode': 0, 'mixed': 0, 'unknown': 0}
for k, st in zip(t['kernels_per_pass'], t['stages']):
    want[st] += k
for st in want:
    got = sum(k['count'] for k in r[st]['kernels'])
    line(got == want[st], '%s: %d kernels in the kernel table (got %d)' % (st, want[st], got))
    line(r[st]['stage_filter'] == st, '%s: stage_filter says so' % st)
    line(all(p['stage'] == st for p in r[st]['passes']) and
         len(r[st]['passes']) == t['stages'].count(st),
         '%s: passes[] holds its %d passes only' % (st, t['stages'].count(st)))
    line(all(x['stage'] == st for x in r[st]['layer_table']), '%s: layer_table holds its stage only' % st)
    line(r['all']['stages'][st]['kernels'] == want[st], '%s: stages.%s.kernels = %d' % (st, st, want[st]))
# every kernel row is split across the stages without loss
rows = {}
for st in want:
    for k in r[st]['kernels']:
        c = rows.setdefault(k['name'], [0, 0.0])
        c[0] += k['count']; c[1] += k['total_us']
allrows = {k['name']: (k['count'], k['total_us']) for k in r['all']['kernels']}
line(set(rows) == set(allrows) and all(rows[n][0] == allrows[n][0] and abs(rows[n][1] - allrows[n][1]) < 1e-6
                                        for n in rows),
     'per-kernel counts and times of the four stages add up to the unfiltered table')
line(r['all']['stage_filter'] is None and 'memory' in r['all'] and 'memory' not in r['prefill'],
     'memory operations are reported unfiltered only')
PY

# --- a trace written K times over ------------------------------------------
repeat_check() { # name trace
	local name=$1 f=$2
	# a trace with no complete pass has no pass to delimit the copies:
	# known before the (slow) rewrite
	ts_out --format json "$f" | python3 -c '
import json, sys
sys.exit(0 if json.load(sys.stdin)["layers"]["complete_passes"] else 1)' || {
		echo "skip - $name written 3 times: no complete pass in one copy, so no pass delimits the copies"
		return
	}
	python3 tests/layers/repeat.py "$f" 1 "$tmp/rep1.json" 3 "$tmp/rep3.json" 2>"$tmp/err" || {
		echo "not ok - $name x1, x3: $(head -c 200 "$tmp/err")"
		return
	}
	for k in 1 3; do
		"$TS" --format json "$tmp/rep$k.json" >"$tmp/r$k.json" 2>/dev/null || {
			echo "not ok - $name x$k: $(head -c 200 "$tmp/err")"
			return
		}
	done
	python3 - "$tmp/r1.json" "$tmp/r3.json" "$name" <<'PY'
import json, sys
a, b, name = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
def facts(r):
    L = r['layers']
    return {'passes': len(r['passes']), 'complete': L['complete_passes'], 'layers': L['total'],
            'orphans': L['orphan_kernels'],
            'per pass': [(p['stage'], p['layers'], p['kernels'], p['complete']) for p in r['passes']]}
fa, fb = facts(a), facts(b)
if fa['passes'] and fa['complete'] == 0:
    # a fragment (no complete pass, nothing delimits one) written three
    # times is one longer fragment: the part of a layer that ends one copy
    # and the part that starts the next may make a whole layer
    print('skip - %s written 3 times: no complete pass in one copy, so no pass delimits the copies' % name)
    sys.exit(0)
want = {k: (v * 3 if isinstance(v, int) else v * 3) for k, v in fa.items()}
ok = fb == want
print('%s - %s written 3 times: 3x the passes, layers, orphans, per-pass figures%s' %
      ('ok' if ok else 'not ok', name, '' if ok else ' (once %s, 3 times %s)' % (fa, fb)))
PY
}

repeat_check "sample trace" tests/data/sample_trace.json.gz
gen_out python3 tests/layers/mkfixture.py tp-fused --layers 8 --passes 2 >"$tmp/f.json"
repeat_check "tp-fused fixture" "$tmp/f.json"
if [ ! -d "$SHARED" ]; then
	echo "skip - repeated shared traces: $SHARED not found"
	exit 0
fi
for f in "$SHARED"/*.json "$SHARED"/*.json.gz; do
	[ -e "$f" ] || continue
	# the shared traces up to 1 MB with the release build (every one with
	# TS_LONG=1, make test-long); under the sanitizers two (the same code,
	# and each repeat is a slow Python rewrite)
	case "$TS:$(basename "$f")" in
	*/san/*:hf_*|*/san/*:sglang_qwen3-8b_mi300x_prefill*) ;;
	*/san/*) continue ;;
	*) sweep_run "$f" || continue ;;
	esac
	repeat_check "$(basename "$f")" "$f"
done
exit 0
