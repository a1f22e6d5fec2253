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
traces="$SHARED/*.json* tests/data/torch_*_h200.json.gz"
case "$TS" in */san/*) traces="$SHARED/hf_qwen1.5-0.5b-chat_h100.json.gz $SHARED/nanovllm_qwen3-0.6b_rtx4080laptop_decode_*.json.gz tests/data/torch_dense_eager_h200.json.gz" ;; esac
for t in $traces; do
	[ -f "$t" ] || continue
	f=$(basename "$t")
	"$TS" --no-progress -f json "$t" >"$tmp/r.json" 2>/dev/null
	"$TS" --no-progress --brief "$t" >"$tmp/brief.txt" 2>/dev/null
	if out=$(python3 - "$t" "$tmp/r.json" "$tmp/brief.txt" <<'PY' 2>&1
import gzip, json, sys
path, rep, brief = sys.argv[1:4]
d = json.load(gzip.open(path) if path.endswith('.gz') else open(path))
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
assert len(dm['passes']) == len(passes)
checked = 0
for p, m in zip(passes, dm['passes']):
    w = p['step_window']
    if w and w.get('cpu'):
        kind, a, b = 'step', w['cpu']['start_us'], w['cpu']['end_us']
    elif w and w.get('launched'):
        kind, a, b = 'launches', w['launched']['start_us'], w['launched']['end_us']
    else:
        kind, a, b = 'gpu', p['span']['start_us'], p['span']['end_us']
    assert m['window'] == kind and ns(m['start_us']) == ns(a) and ns(m['end_us']) == ns(b), (m, kind, a, b)
    inside = [s for s in state[main] if ns(a) <= s[0] <= ns(b)]
    assert m['events'] == len(inside), (m['events'], len(inside))
    assert m['peak_allocated_bytes'] == (max(s[1] for s in inside) if inside else None), m
    checked += 1
has_line = any(l.strip().startswith('memory: GPU') for l in open(brief))
assert has_line, 'no memory line on the first screen'
print('%d GPU(s), %d events, %d passes: peaks, counts and each pass\'s window, events and peak equal the oracle\'s' % (len(devs), len(gpu), checked))
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
	python3 - "$tmp/j.json" "$tmp/csv" <<'PY' && ok "the device_memory and memory_passes tables (CSV, and so the workbook and page) hold the JSON's rows" || bad "memory tables differ from the JSON"
import csv, json, os, sys
dm = json.load(open(sys.argv[1]))['device_memory']
for name, rows in (('device_memory', dm['devices']), ('memory_passes', dm['passes'])):
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
	python3 - "$tmp/one.json" "$tmp/two.json" <<'PY' && ok "saved and merged: a device row per partial, the stage's passes added, its peaks kept" || bad "memory after merge"
import json, sys
a = json.load(open(sys.argv[1]))['device_memory']
b = json.load(open(sys.argv[2]))['device_memory']
assert b['devices'] == a['devices'] * 2, b['devices']
for s, x in a['stages'].items():
    y = b['stages'][s]
    assert y['passes'] == 2 * x['passes'] and y['peak_allocated_bytes'] == x['peak_allocated_bytes'], (x, y)
PY
fi
finish
