#!/usr/bin/env bash
# Device memory over the step (issue 60): on every shared trace and
# capture recorded with profile_memory=True, the report's figures equal an independent
# count of the allocator's "[memory]" events (a Python oracle): per GPU
# the peak allocated and reserved (with totals) or the peak of the bytes'
# running sum (PyTorch 1.8: no totals), the allocations, frees and
# bytes; per pass, its window as the JSON's passes[] give it (the step's
# CPU window, else its launches, else its GPU span), the events in it and
# their peak. A trace without the events prints no memory line and has
# "device_memory": null.
T=memory
. "$(dirname "$0")/lib.sh"
need_shared
# under the sanitizers (several times slower) the traces with the events
# under 2 MB and one without; the release build takes every one
# A process running its model over two GPUs (HF device_map): the HF H100
# trace with a second GPU's allocator, its events beside the first's (an
# event in three on the first GPU, twice its bytes, a second later), so
# each pass has a row of the first GPU and one of the second where it had
# events in the pass's window
python3 - "$SHARED/hf_qwen1.5-0.5b-chat_h100.json.gz" "$tmp/two_gpus.json" <<'PY'
import gzip, json, sys
d = json.load(gzip.open(sys.argv[1]))
more, seen = [], 0
for e in d['traceEvents']:
    if e.get('name') == '[memory]' and e.get('args', {}).get('Device Type') != 0 and 'ts' in e:
        seen += 1
        if seen % 3:
            continue
        x = json.loads(json.dumps(e))
        x['args']['Device Id'] = 1
        for k in ('Total Allocated', 'Total Reserved', 'Bytes'):
            if k in x['args']:
                x['args'][k] *= 2
        if 'Addr' in x['args']:
            x['args']['Addr'] += 1 << 40
        more.append(x)
d['traceEvents'] += more
json.dump(d, open(sys.argv[2], 'w'))
PY
traces="$SHARED/*.json* tests/data/torch_*_h200.json.gz $tmp/two_gpus.json"
case "$TS" in */san/*) traces="$SHARED/hf_qwen1.5-0.5b-chat_h100.json.gz $SHARED/nanovllm_qwen3-0.6b_rtx4080laptop_decode_*.json.gz tests/data/torch_dense_eager_h200.json.gz $tmp/two_gpus.json" ;; esac
for t in $traces; do
	[ -f "$t" ] || continue
	f=$(basename "$t")
	ts_out -f json "$t" >"$tmp/r.json"
	ts_out --brief "$t" >"$tmp/brief.txt"
	if out=$(python3 - "$t" "$tmp/r.json" "$tmp/brief.txt" <<'PY' 2>&1
import gzip, json, sys
path, rep, brief = sys.argv[1:4]
raw = (gzip.open(path) if path.endswith('.gz') else open(path, 'rb')).read()
# a trace whose bytes never name [memory] has no allocator event: not parsed
# (most of the shared traces and the H200 captures, the GB10's 61 MB among them)
d = json.loads(raw) if b'[memory]' in raw else {'traceEvents': []}
del raw
r = json.load(open(rep))
dm = r['device_memory']
ns = lambda us: round(us * 1000)
ev = [e for e in d['traceEvents'] if e.get('name') == '[memory]' and 'ts' in e]
gpu = [e for e in ev if e['args'].get('Device Type') != 0 and e['args'].get('Device Id', -1) >= 0]
if not gpu:
    assert dm is None, 'device_memory without GPU allocator events'
    assert not any('memory: GPU' in l for l in open(brief)), 'a memory line without events'
    print('no GPU allocator events: device_memory null, no memory line')
    sys.exit(0)
gpu.sort(key=lambda e: e['ts'])
devs = sorted(set(e['args']['Device Id'] for e in gpu))
assert dm and [x['device'] for x in dm['devices']] == devs, (devs, dm and dm['devices'])
assert dm['cpu_events'] == len(ev) - len(gpu), (dm['cpu_events'], len(ev) - len(gpu))
state = {}
for dv in devs:
    mine = [e for e in gpu if e['args']['Device Id'] == dv]
    x = [y for y in dm['devices'] if y['device'] == dv][0]
    totals = all('Total Allocated' in e['args'] for e in mine)
    s, alloc = 0, []
    for e in mine:
        s += e['args']['Bytes']
        alloc.append(e['args']['Total Allocated'] if totals else s)
    state[dv] = [(ns(e['ts']), a, e['args'].get('Total Reserved') if totals else None, e['args']['Bytes'])
                 for e, a in zip(mine, alloc)]
    assert x['relative'] == (not totals)
    assert x['events'] == len(mine)
    assert x['allocs'] == sum(1 for e in mine if e['args']['Bytes'] > 0)
    assert x['frees'] == sum(1 for e in mine if e['args']['Bytes'] < 0)
    assert x['bytes_allocated'] == sum(e['args']['Bytes'] for e in mine if e['args']['Bytes'] > 0)
    assert x['peak_allocated_bytes'] == max(alloc), (x['peak_allocated_bytes'], max(alloc))
    if totals:
        assert x['peak_reserved_bytes'] == max(e['args']['Total Reserved'] for e in mine)
    else:
        assert x['peak_reserved_bytes'] is None
assert not any('more than the device' in w for w in r['warnings']), 'a peak over the device'
main = max(devs, key=lambda dv: len(state[dv]))
passes = r['passes']
# per pass a row of the main GPU (the most events), then one of each
# other GPU with events in the pass's window, in the devices' order
order = [main] + [dv for dv in devs if dv != main]
rows = iter(dm['passes'])
checked = 0
for p in passes:
    w = p['step_window']
    if w and w.get('cpu'):
        kind, a, b = 'step', w['cpu']['start_us'], w['cpu']['end_us']
    elif w and w.get('launched'):
        kind, a, b = 'launches', w['launched']['start_us'], w['launched']['end_us']
    else:
        kind, a, b = 'gpu', p['span']['start_us'], p['span']['end_us']
    for dv in order:
        inside = [s for s in state[dv] if ns(a) <= s[0] <= ns(b)]
        if dv != main and not inside:
            continue
        m = next(rows)
        assert m['pass'] == p['index'] and m['device'] == dv, (m, p['index'], dv)
        assert m['window'] == kind and ns(m['start_us']) == ns(a) and ns(m['end_us']) == ns(b), (m, kind, a, b)
        assert m['events'] == len(inside), (m['events'], len(inside))
        assert m['peak_allocated_bytes'] == (max(s[1] for s in inside) if inside else None), m
        checked += 1
assert next(rows, None) is None, 'a pass row more than the oracle\'s'
# who held the peak: each block allocated in the capture and not freed
# before the peak (by "Addr"), owned by the outermost CPU op of its
# thread covering its time (the first to start where two do)
ops = {}
for e in d['traceEvents']:
    if e.get('ph') == 'X' and e.get('cat') in ('cpu_op', 'Operator') and 'dur' in e:
        ops.setdefault(e['tid'], []).append((ns(e['ts']), ns(e['ts']) + ns(e['dur']), e['name']))
def owner(tid, t):
    cov = [o for o in ops.get(tid, []) if o[0] <= t <= o[1]]
    return min(cov, key=lambda c: (c[0], -c[1]))[2] if cov else None
held = 0
for dv in devs:
    x = [y for y in dm['devices'] if y['device'] == dv][0]
    mine = [e for e in gpu if e['args']['Device Id'] == dv]
    pk = x['at_peak']
    if not all('Addr' in e['args'] for e in mine):
        assert not pk['known'] and pk['unknown_because'] == 'the events carry no Addr', pk
        continue
    top = [s[1] for s in state[dv]].index(x['peak_allocated_bytes'])
    live = {}
    for e in mine[:top + 1]:
        b = e['args']['Bytes']
        if b > 0:
            live[e['args']['Addr']] = e
        elif b < 0:
            live.pop(e['args']['Addr'], None)
    groups = {}
    for e in live.values():
        k = owner(e['tid'], ns(e['ts']))
        g = groups.setdefault(k, [0, 0])
        g[0] += e['args']['Bytes']
        g[1] += 1
    capture = sum(g[0] for g in groups.values())
    assert pk['known'] and pk['capture_bytes'] == capture, (pk['capture_bytes'], capture)
    assert pk['capture_allocations'] == len(live)
    assert pk['before_capture_bytes'] == x['peak_allocated_bytes'] - capture
    want = sorted(((k, g[0], g[1]) for k, g in groups.items()), key=lambda r: -r[1])
    got = [(o['op'] if o['owner'] == 'op' else None, o['bytes'], o['allocations']) for o in pk['owners']]
    if len(want) > 8:
        rest = want[7:]
        want = want[:7] + [(None, sum(r[1] for r in rest), sum(r[2] for r in rest))]
        assert pk['owners'][-1]['owner'] == 'other_ops'
    assert sorted(got, key=lambda r: (-r[1], str(r[0]))) == sorted(want, key=lambda r: (-r[1], str(r[0]))), (got, want)
    held += 1
has_line = any(l.strip().startswith('memory: GPU') for l in open(brief))
assert has_line, 'no memory line on the first screen'
print('%d GPU(s), %d events, %d pass rows: peaks, counts, each pass\'s window, events and peak, and who held %d peak(s) equal the oracle\'s' % (len(devs), len(gpu), checked, held))
PY
	); then
		ok "$f: $out"
	else
		bad "$f: $(echo "$out" | tail -3)"
	fi
done
"$TS" --no-progress -f json tests/data/sample_trace.json.gz >"$tmp/s.json"
"$TS" --no-progress --brief tests/data/sample_trace.json.gz >"$tmp/s.txt"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["device_memory"] is None' "$tmp/s.json" &&
	! grep -q "memory: GPU" "$tmp/s.txt" &&
	ok "a trace without allocator events: device_memory null, no memory line" ||
	bad "a trace without allocator events shows memory"
# a figure no device of the trace's kind holds is said, and kept through
# a partial: an allocator reserving 2 GiB on a device of 1 GiB
python3 - "$tmp/over.json" <<'PY'
import json, sys
mem = lambda ts, alloc, b: {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]",
                            "pid": 1, "tid": 1, "ts": ts,
                            "args": {"Total Reserved": 2147483648, "Total Allocated": alloc, "Bytes": b,
                                     "Addr": 1, "Device Id": 0, "Device Type": 1}}
ev = [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 100.0, "dur": 5.0,
       "args": {"device": 0, "stream": 7, "correlation": 1}},
      mem(90.0, 2000000000, 2000000000), mem(95.0, 0, -2000000000)]
json.dump({"deviceProperties": [{"id": 0, "name": "GPU", "totalGlobalMem": 1073741824}],
           "traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$TS" --no-progress --save-state "$tmp/over.part" -f json "$tmp/over.json" >"$tmp/over.out" 2>/dev/null
"$TS" merge --no-progress -f json "$tmp/over.part" >"$tmp/over.merged" 2>/dev/null
python3 - "$tmp/over.out" "$tmp/over.merged" <<'PY' && ok "a peak over the device's memory (deviceProperties) is named in a warning, kept through a partial" || bad "memory over the device"
import json, sys
for f in sys.argv[1:3]:
    w = json.load(open(f))['warnings']
    assert any('2147483648 bytes, more than the device\'s 1073741824' in x for x in w), (f, w)
PY
# the tables: CSV rows as the JSON has them
t="$SHARED/hf_qwen1.5-0.5b-chat_h100.json.gz"
if [ -f "$t" ]; then
	"$TS" --no-progress -f json --csv-dir "$tmp/csv" "$t" >"$tmp/j.json" 2>/dev/null
	python3 - "$tmp/j.json" "$tmp/csv" <<'PY' && ok "the device_memory, memory_passes and memory_owners tables (CSV, and so the workbook and page) hold the JSON's rows" || bad "memory tables differ from the JSON"
import csv, json, os, sys
dm = json.load(open(sys.argv[1]))['device_memory']
owners = [r for d in dm['devices'] for r in
          [dict(device=d['device'], owner='before_capture', op=None,
                bytes=d['at_peak']['before_capture_bytes'], allocations=None)] +
          [dict(device=d['device'], **o) for o in d['at_peak']['owners']]]
for name, rows in (('device_memory', dm['devices']), ('memory_passes', dm['passes']), ('memory_owners', owners)):
    got = list(csv.DictReader(open(os.path.join(sys.argv[2], name + '.csv'), newline='')))
    assert len(got) == len(rows), (name, len(got), len(rows))
    for g, r in zip(got, rows):
        for k, v in g.items():
            want = r[k]
            if want is None:
                assert v == '', (name, k, v)
            elif isinstance(want, bool):
                assert v == str(want).lower(), (name, k, v)
            elif isinstance(want, (int, float)):
                assert float(v) == float(want), (name, k, v, want)
            else:
                assert v == want, (name, k, v, want)
PY
fi
# who held the peak, on a trace of known answers written three ways (as
# Kineto writes it: the ops, then the allocator's events; sorted by time;
# reversed): a block made inside a child op is its outermost op's, one
# made between ops is no op's, one freed before the peak is no one's,
# and a block allocated before the capture (freed in it) counts against
# what was held from before
python3 - "$tmp" <<'PY'
import json, sys
op = lambda name, ts, dur, tid=1: {"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": tid,
                                   "ts": ts, "dur": dur, "args": {}}
def mem(ts, addr, b, total, tid=1):
    return {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": tid,
            "ts": ts, "args": {"Total Reserved": 1 << 30, "Total Allocated": total, "Bytes": b,
                               "Addr": addr, "Device Id": 0, "Device Type": 1}}
ops = [op("aten::linear", 0.0, 100.0), op("aten::addmm", 10.0, 20.0), op("aten::empty", 12.0, 2.0),
       op("aten::add", 200.0, 50.0), op("aten::mul", 300.0, 10.0), op("aten::silu", 0.0, 400.0, tid=2)]
# 1000 held from before; +300 (in addmm's child, inside linear), +50
# (between ops), -100 (a block from before the capture), +20 (add), +7
# and -7 (mul: freed before the peak), +400 (silu, thread 2): the peak,
# 1670, held 900 from before and 770 by the capture; after it -300, +5
m = [mem(13.0, 0xa, 300, 1300), mem(150.0, 0xb, 50, 1350), mem(160.0, 0xf, -100, 1250),
     mem(220.0, 0xc, 20, 1270), mem(305.0, 0xd, 7, 1277), mem(306.0, 0xd, -7, 1270),
     mem(350.0, 0xe, 400, 1670, tid=2), mem(380.0, 0xa, -300, 1370), mem(390.0, 0x10, 5, 1375)]
k = {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 20.0, "dur": 5.0,
     "args": {"device": 0, "stream": 7, "correlation": 1}}
ways = {"kineto": ops + m + [k], "sorted": sorted(ops + m + [k], key=lambda e: e["ts"]),
        "reversed": list(reversed(ops + m + [k]))}
for w, ev in ways.items():
    json.dump({"traceEvents": ev}, open("%s/owners_%s.json" % (sys.argv[1], w), "w"))
PY
for w in kineto sorted reversed; do
	"$TS" --no-progress -f json "$tmp/owners_$w.json" 2>/dev/null >"$tmp/owners_$w.out"
done
python3 - "$tmp" <<'PY' && ok "who held the peak: outermost op, no op, freed and from before, the same in Kineto's order, sorted and reversed" || bad "who held the peak on a trace of known answers"
import json, sys
want = {"known": True, "unknown_because": None, "before_capture_bytes": 900, "capture_bytes": 770,
        "capture_allocations": 4,
        "owners": [{"owner": "op", "op": "aten::silu", "bytes": 400, "allocations": 1},
                   {"owner": "op", "op": "aten::linear", "bytes": 300, "allocations": 1},
                   {"owner": "no_op", "op": None, "bytes": 50, "allocations": 1},
                   {"owner": "op", "op": "aten::add", "bytes": 20, "allocations": 1}]}
for w in ("kineto", "sorted", "reversed"):
    d = json.load(open("%s/owners_%s.out" % (sys.argv[1], w)))["device_memory"]["devices"][0]
    assert d["peak_allocated_bytes"] == 1670 and d["at_peak"] == want, (w, d["at_peak"])
PY
# past the ops kept (the last 32,768 outermost ones), a block made while
# a dropped op ran is owned by "an op not kept", never by a wrong op
python3 - "$tmp/ring.json" <<'PY'
import json, sys
ev = [{"ph": "X", "cat": "cpu_op", "name": "aten::op%d" % (i % 7), "pid": 1, "tid": 1,
       "ts": 10.0 * i, "dur": 5.0, "args": {}} for i in range(40000)]
mem = lambda ts, addr, b, total: {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]",
                                  "pid": 1, "tid": 1, "ts": ts,
                                  "args": {"Total Reserved": 1 << 30, "Total Allocated": total, "Bytes": b,
                                           "Addr": addr, "Device Id": 0, "Device Type": 1}}
# in op 2 (dropped), between ops 100 and 101 (dropped: unknown too), in
# op 39998 (kept)
ev += [mem(21.0, 1, 64, 64), mem(1007.0, 2, 32, 96), mem(399981.0, 3, 16, 112)]
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$TS" --no-progress -f json "$tmp/ring.json" 2>/dev/null >"$tmp/ring.out"
python3 - "$tmp/ring.out" <<'PY' && ok "past the ops kept, a block's op is 'not kept', never a wrong one" || bad "memory owners past the ops kept"
import json, sys
pk = json.load(open(sys.argv[1]))["device_memory"]["devices"][0]["at_peak"]
got = [(o["owner"], o["op"], o["bytes"]) for o in pk["owners"]]
assert got == [("op_not_kept", None, 96), ("op", "aten::op0", 16)], got
PY
# events whose blocks exceed their own totals (a writer's bug, or events
# of another allocator): no owner figure is given, and the reason is
python3 - "$tmp/uneven.json" <<'PY'
import json, sys
mem = lambda ts, addr, b, total: {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]",
                                  "pid": 1, "tid": 1, "ts": ts,
                                  "args": {"Total Reserved": 4096, "Total Allocated": total, "Bytes": b,
                                           "Addr": addr, "Device Id": 0, "Device Type": 1}}
json.dump({"traceEvents": [mem(1.0, 1, 1000, 300), mem(2.0, 2, 500, 400)]}, open(sys.argv[1], "w"))
PY
"$TS" --no-progress -f json "$tmp/uneven.json" 2>/dev/null >"$tmp/uneven.out"
"$TS" --no-progress --brief "$tmp/uneven.json" 2>/dev/null >"$tmp/uneven.txt"
python3 - "$tmp/uneven.out" "$tmp/uneven.txt" <<'PY' && ok "blocks over their totals: no owner figure, the reason said" || bad "memory owners on events that do not add up"
import json, sys
pk = json.load(open(sys.argv[1]))["device_memory"]["devices"][0]["at_peak"]
assert not pk["known"] and pk["before_capture_bytes"] is None and pk["owners"] == [], pk
assert "exceed" in pk["unknown_because"], pk
assert "from before the capture" not in open(sys.argv[2]).read()
PY
# the page: a chart of the allocated bytes over the trace, whose highest
# point is the device's peak; none without the events
t="$SHARED/hf_qwen1.5-0.5b-chat_h100.json.gz"
if [ -f "$t" ]; then
	"$TS" --no-progress -f html -o "$tmp/m.html" "$t" 2>/dev/null
	"$TS" --no-progress -f html -o "$tmp/s.html" tests/data/sample_trace.json.gz 2>/dev/null
	python3 - "$tmp/m.html" "$tmp/s.html" "$tmp/j.json" <<'PY' && ok "the page draws device memory over the trace, its top at the peak; no chart without the events" || bad "memory chart"
import json, re, sys
m = open(sys.argv[1]).read()
pts = re.search(r'<svg id="chart-memory".*?<polyline class="mem"[^>]*points="([^"]*)"', m, re.S)
assert pts, 'no memory chart'
ys = [float(p.split(',')[1]) for p in pts.group(1).split()]
assert len(ys) >= 2 and abs(min(ys) - 20.0) < 0.06, (len(ys), min(ys))   # the peak at the top
peak = json.load(open(sys.argv[3]))['device_memory']['devices'][0]['peak_allocated_bytes']
assert re.search(r'>%.2f GiB<' % (peak / 2**30), m), 'the axis is not the peak'
assert 'chart-memory' not in open(sys.argv[2]).read()
PY
fi
# the annotated trace: a counter track of the allocated bytes, its
# highest point the device's peak
if [ -f "$t" ]; then
	"$TS" annotate --no-progress "$t" -o "$tmp/ann.json" 2>/dev/null
	python3 - "$tmp/ann.json" "$tmp/j.json" <<'PY' && ok "the annotated trace has a device memory counter track reaching the peak" || bad "memory counter track"
import json, sys
c = [e for e in json.load(open(sys.argv[1]))['traceEvents'] if e.get('ph') == 'C' and e.get('cat') == 'tracestream']
peak = json.load(open(sys.argv[2]))['device_memory']['devices'][0]['peak_allocated_bytes']
assert c and max(e['args']['bytes'] for e in c) == peak, (len(c), peak)
assert all(c[i]['ts'] <= c[i + 1]['ts'] for i in range(len(c) - 1))
PY
fi
# saved and merged: each partial's GPU its own row, the stages added
t="$SHARED/hf_qwen1.5-0.5b-chat_h100.json.gz"
if [ -f "$t" ]; then
	"$TS" --no-progress --save-state "$tmp/p.part" -f json "$t" >"$tmp/one.json" 2>/dev/null
	"$TS" merge --no-progress -f json "$tmp/p.part" "$tmp/p.part" >"$tmp/two.json" 2>/dev/null
	"$TS" --no-progress --save-state "$tmp/s.part" -f json tests/data/sample_trace.json.gz >"$tmp/s1.json" 2>/dev/null
	"$TS" merge --no-progress -f json "$tmp/s.part" "$tmp/p.part" >"$tmp/mixed.json" 2>/dev/null
	python3 - "$tmp/one.json" "$tmp/two.json" "$tmp/mixed.json" "$tmp/s1.json" <<'PY' && ok "saved and merged: a device row per partial, the stage's passes added, its peaks kept, each pass's row after the passes of the parts before it" || bad "memory after merge"
import json, sys
a = json.load(open(sys.argv[1]))['device_memory']
b = json.load(open(sys.argv[2]))['device_memory']
assert b['devices'] == a['devices'] * 2, b['devices']
# each pass's row, the second part's after the first's passes
n = len(json.load(open(sys.argv[1]))['passes'])
assert b['passes'] == a['passes'] + [dict(x, **{'pass': x['pass'] + n}) for x in a['passes']], b['passes']
# after a part with no allocator events, its passes counted all the same
c = json.load(open(sys.argv[3]))
k = len(json.load(open(sys.argv[4]))['passes'])
assert c['device_memory']['passes'] == [dict(x, **{'pass': x['pass'] + k}) for x in a['passes']], c['device_memory']['passes']
assert len(c['passes']) == k + n and all(c['passes'][x['pass']]['stage'] == 'prefill' for x in c['device_memory']['passes'])
for s, x in a['stages'].items():
    y = b['stages'][s]
    assert y['passes'] == 2 * x['passes'] and y['peak_allocated_bytes'] == x['peak_allocated_bytes'], (x, y)
PY
fi
finish
