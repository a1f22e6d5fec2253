#!/usr/bin/env bash
# Attribution: a hand-made fixture with hand-computed buckets (kernels
# written before and after their launches, a graph replay of two kernels
# under one correlation, an op with two kernels counted as one call, an
# External id with no op), the --join-mem cap (a counted loss, never
# silent), and, when ../shared/traces is present, every shared trace against
# an independent Python oracle (tests/attrib/oracle.py).
set -u
TS=${TS:-./tracestream}
SHARED=${SHARED:-../shared/traces}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$TS" --format json tests/attrib/fixture.json >"$tmp/f.json" 2>"$tmp/err" ||
	echo "not ok - attribution fixture: exit status $?: $(head -c 200 "$tmp/err")"
python3 - "$tmp/f.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
a = r['attribution']
def line(ok, msg):
    print('%s - attribution fixture: %s' % ('ok' if ok else 'not ok', msg))
want_k = {'op': 3, 'graph': 2, 'launch': 1, 'unlinked': 2}
want_t = {'op_us': 10.0, 'graph_us': 11.0, 'launch_us': 1.0, 'unlinked_us': 8.0}
line(a['kernels'] == want_k, 'kernels per bucket %s (got %s)' % (want_k, a['kernels']))
line(a['time'] == want_t, 'time per bucket %s (got %s)' % (want_t, a['time']))
want_pct = {'op_pct': 33.33, 'graph_pct': 36.67, 'launch_pct': 3.33, 'unlinked_pct': 26.67}
line(all(abs(a[k] - v) < 0.006 for k, v in want_pct.items()), 'shares %s' % want_pct)
ops = {o['name']: (o['calls'], o['kernels'], o['total_us']) for o in r['ops'] if o['via'] == 'op'}
line(ops == {'aten::mm': (1, 2, 8.0), 'aten::add': (1, 1, 2.0)},
     'ops: aten::mm 1 call of 2 kernels, 8 us; aten::add 1 call, 2 us (got %s)' % ops)
rest = {(o['via'], o['name']): (o['calls'], o['kernels'], o['total_us']) for o in r['ops'] if o['via'] != 'op'}
want = {('graph', 'cudaGraphLaunch'): (1, 2, 11.0), ('launch', 'cudaLaunchKernel'): (1, 1, 1.0),
        ('unlinked', '(unlinked)'): (0, 2, 8.0)}
line(rest == want, 'ops rows with no op: one graph launch of 2 kernels, one launch, 2 unlinked (got %s)' % rest)
par = {k['name']: k['parent_op'] for k in r['kernels']}
line(par.get('gemm_a') == 'aten::mm' and par.get('graph_k1') is None,
     'kernel parent_op: gemm_a -> aten::mm, graph_k1 -> none')
line(a['ops_indexed'] == 2 and a['ops_dropped'] == 0, '2 ops indexed, none dropped')
PY

# --join-mem: one 20-byte entry holds aten::mm only; aten::add is lost,
# counted and warned, and its kernel falls back to its launch (none here:
# unlinked).
"$TS" --format json --join-mem 20 tests/attrib/fixture.json >"$tmp/j.json" 2>"$tmp/err"
python3 - "$tmp/j.json" "$tmp/err" <<'PY'
import json, sys
r, err = json.load(open(sys.argv[1])), open(sys.argv[2]).read()
a = r['attribution']
ok = (a['ops_indexed'] == 1 and a['ops_dropped'] == 1 and a['kernels']['op'] == 2
      and a['kernels']['unlinked'] == 3 and 'past --join-mem' in err)
print('%s - --join-mem 20: 1 op indexed, 1 dropped and warned, its kernel unlinked (got %s %s)' %
      ('ok' if ok else 'not ok', a['kernels'], err.strip()[:120]))
PY
"$TS" --join-mem 1X tests/attrib/fixture.json >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--join-mem: '1X' is not a size" "$tmp/err" &&
	echo "ok - --join-mem 1X is a usage error (exit 2)" ||
	echo "not ok - --join-mem 1X is a usage error (exit 2): $(cat "$tmp/err")"

if [ ! -d "$SHARED" ]; then
	echo "skip - attribution on shared traces: $SHARED not found"
	exit 0
fi
for f in "$SHARED"/*.json "$SHARED"/*.json.gz; do
	[ -e "$f" ] || continue
	if ! "$TS" --format json "$f" >"$tmp/r.json" 2>/dev/null; then
		echo "not ok - $(basename "$f"): tracestream failed"
		continue
	fi
	python3 tests/attrib/oracle.py "$f" "$tmp/r.json"
done

# The GEMM-M stage signal: the HF trace's full pass runs aten::mm on 8944 =
# 16 x 559 token rows (its flash attention q is [16, 559, 16, 64]), so it is
# a prefill with no annotation or kernel hint saying so; a threshold above
# 8944 turns the signal to decode.
f=$(ls "$SHARED"/hf_qwen1.5-0.5b-chat_h100.json* 2>/dev/null | head -1)
if [ -n "$f" ]; then
	"$TS" --format json "$f" >"$tmp/h1.json" 2>/dev/null
	"$TS" --format json --decode-threshold 10000 "$f" >"$tmp/h2.json" 2>/dev/null
	python3 - "$tmp/h1.json" "$tmp/h2.json" <<'PY'
import json, sys
a, b = (json.load(open(x)) for x in sys.argv[1:3])
pa = [p for p in a['passes'] if p['complete']][0]
pb = [p for p in b['passes'] if p['complete']][0]
ok = (pa['signals'] == {'annotation': None, 'kernel_hints': None, 'gemm_m': 'prefill'}
      and pa['stage'] == 'prefill' and pa['gemm_m']['max'] == 8944
      and pb['signals']['gemm_m'] == 'decode' and pb['stage'] == 'decode')
print('%s - hf: the GEMM-M signal makes the full pass prefill (M up to 8944); --decode-threshold 10000 makes it decode (got %s %s / %s %s)' %
      ('ok' if ok else 'not ok', pa['stage'], pa['signals'], pb['stage'], pb['signals']))
PY
fi
exit 0
