#!/usr/bin/env bash
# Generic names typed by what launched them (tests/layers/mkgeneric.py
# --rccl: RCCL names every collective ncclDevKernel_Generic_*): a generic
# collective launched by record_param_comms with "Collective name":
# "allreduce" is an all-reduce, by c10d::allgather_ an all-gather; the
# kernel row keeps its own name category beside it; compare against the same
# run with named all-reduce kernels pairs the all-reduces (no "A has none",
# no Comm-Generic row), and Inductor's mul_silu fusion is the activation on
# both sides.
. "$(dirname "$0")/lib.sh"
PY=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
[ -x "$PY" ] || PY=python3

g=(--layers 7 --tp 4 --prefill 300 --decode 2)
"$PY" tests/layers/mkgeneric.py "${g[@]}" --rccl --truth-file "$tmp/r.truth" >"$tmp/r.json"
"$PY" tests/layers/mkgeneric.py "${g[@]}" >"$tmp/n.json"
# the same, its collective op an all-gather by name (no Collective name)
sed 's/"record_param_comms"/"c10d::allgather_"/g; s/, "Collective name": "allreduce"//g' "$tmp/r.json" >"$tmp/g.json"
# an all-to-all NCCL runs as send/receive pairs: the kernel's transport
# name is point-to-point, record_param_comms(all_to_all) says what it is
sed 's/ncclDevKernel_Generic_[A-Za-z0-9_]*/ncclKernel_SendRecv/g; s/"Collective name": "allreduce"/"Collective name": "all_to_all"/g' "$tmp/r.json" >"$tmp/a.json"
for f in r n g a; do
	"$TS" --format json "$tmp/$f.json" >"$tmp/$f.out" 2>"$tmp/$f.err" ||
		echo "not ok - $f: exit status $?: $(head -c 300 "$tmp/$f.err")"
done
"$TS" compare --format json "$tmp/n.json" "$tmp/r.json" >"$tmp/c.out" 2>"$tmp/c.err" ||
	echo "not ok - compare: exit status $?: $(head -c 300 "$tmp/c.err")"
"$TS" compare "$tmp/n.json" "$tmp/r.json" >"$tmp/c.txt" 2>/dev/null
"$PY" - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
r, g, n = (json.load(open('%s/%s.out' % (d, x))) for x in 'rgn')
t = json.load(open(d + '/r.truth'))
want = 2 * t['layers'] * t['passes']     # an all-reduce after attention and after the MLP
def cats(doc):
    return {c['category']: c['count'] for c in doc['categories'] if c['category'].startswith('Comm')}
def line(ok, what, got):
    print('%s - %s%s' % ('ok' if ok else 'not ok', what, '' if ok else ' (got %s)' % (got,)))
line(cats(r) == {'Comm-AllReduce': want}, 'RCCL Generic under record_param_comms(allreduce): %d all-reduces' % want, cats(r))
line(cats(g) == {'Comm-AllGather': want}, 'RCCL Generic under c10d::allgather_: all-gathers', cats(g))
a = json.load(open(d + '/a.out'))
line(cats(a) == {'Comm-AllToAll': want}, 'ncclKernel_SendRecv under record_param_comms(all_to_all): all-to-alls, not point-to-point', cats(a))
row = [k for k in r['kernels'] if 'Generic' in k['name']]
line(len(row) == 1 and row[0]['category'] == 'Comm-AllReduce' and row[0].get('name_category') == 'Comm-Generic',
     'the kernel row: Comm-AllReduce in its context, its name Comm-Generic beside it',
     [(k['category'], k.get('name_category')) for k in row])
types = {x['type']: x['count'] for x in r['types']}
line(types.get('communication') == want, 'type communication counts them', types)
act = {c['category']: c['count'] for c in n['categories'] if c['category'].startswith('Activation')}
line(act == {'Activation-SiLU-Gated': t['layers'] * t['passes']},
     "Inductor's mul_silu fusion is the MLP's gated SiLU", act)
c = json.load(open(d + '/c.out'))
txt = open(d + '/c.txt').read()
line('has none' not in txt and 'Comm-Generic' not in txt and 'Comm-AllReduce' in txt,
     'compare pairs the all-reduces: no "has none", no Comm-Generic row', [l for l in txt.splitlines() if 'Comm' in l or 'none' in l][:4])
PY
# Graph-replayed: the op captured for the kernel's graph node says it
# (tests/capture/mkcapture.py, its add_k as an RCCL Generic kernel launched
# by vllm::all_reduce in the capture): the three replays that match a
# captured graph (sizes 16, 16, 32) give three all-reduces; without
# --capture, or in the unmatched size-64 replay, the kernel stays generic.
mkdir "$tmp/cap"
"$PY" tests/capture/mkcapture.py "$tmp/cap" >/dev/null
for f in capture_hip replay_hip; do
	sed 's/"add_k"/"ncclDevKernel_Generic_1"/g; s/"aten::add"/"vllm::all_reduce"/g' \
		"$tmp/cap/$f.json" >"$tmp/cap/g_$f.json"
done
"$TS" --format json "$tmp/cap/g_replay_hip.json" >"$tmp/cap/a.out" 2>/dev/null
"$TS" --format json --capture "$tmp/cap/g_capture_hip.json" "$tmp/cap/g_replay_hip.json" >"$tmp/cap/b.out" 2>/dev/null
"$PY" - "$tmp/cap/a.out" "$tmp/cap/b.out" <<'PY'
import json, sys
a, b = (json.load(open(x)) for x in sys.argv[1:3])
ca = {c['category']: c['count'] for c in a['categories'] if c['category'].startswith('Comm')}
cb = {c['category']: c['count'] for c in b['categories'] if c['category'].startswith('Comm')}
ok = 'Comm-AllReduce' not in ca and cb.get('Comm-AllReduce') == 3 and sum(cb.values()) == sum(ca.values())
print('%s - --capture: a generic collective replayed from a graph takes its captured op: 3 all-reduces (without: %s; with: %s)'
      % ('ok' if ok else 'not ok', ca, cb))
PY
