#!/usr/bin/env bash
# tracestream annotate: the trace written back with tracks for Perfetto.
# Checked independently of the tool: the output is the original bytes with
# one block inserted (common prefix + common suffix cover the whole input),
# every original event parses equal, the added slices are the JSON report's
# passes (index, stage, start, span) and each complete pass has one layer
# slice per layer; gzip in and out; a trace cut at many places still gives
# valid JSON marked partial with every whole event of the cut input; a pipe
# is refused; the shared traces are annotated with nothing changed.
T=annotate
. "$(dirname "$0")/lib.sh"

gen_out python3 "$here/layers/mkgeneric.py" --layers 4 --prefill 512 --decode 3 --batch 8 --seed 3 > "$tmp/pd.json"
"$TS" --no-progress annotate "$tmp/pd.json" -o "$tmp/pd.ann.json" 2> "$tmp/err"; rc=$?
"$TS" --no-progress -f json "$tmp/pd.json" > "$tmp/pd.rep.json" 2>/dev/null
gzip -c "$tmp/pd.json" > "$tmp/pd.json.gz"
"$TS" --no-progress annotate "$tmp/pd.json.gz" -o "$tmp/pd.ann.json.gz" 2>> "$tmp/err"; rcz=$?
check "exit 0 on a whole trace, plain and gzip" "$rc $rcz" "0 0"

python3 - "$tmp/pd.json" "$tmp/pd.ann.json" "$tmp/pd.rep.json" "$tmp/pd.ann.json.gz" <<'PY' && ok "the original bytes with one block inserted; every original event unchanged; pass slices are the report's passes; a layer slice per layer of each complete pass; gzip out equals plain out" || bad "annotated trace"
import gzip, json, sys
orig = open(sys.argv[1], 'rb').read(); out = open(sys.argv[2], 'rb').read()
rep = json.load(open(sys.argv[3]))
assert gzip.open(sys.argv[4]).read() == out
p = 0
while p < min(len(orig), len(out)) and orig[p] == out[p]:
    p += 1
q = 0
while q < min(len(orig), len(out)) - p and orig[-1 - q] == out[-1 - q]:
    q += 1
assert p + q >= len(orig), (p, q, len(orig))
a, b = json.loads(orig), json.loads(out)
n = len(a['traceEvents'])
assert b['traceEvents'][:n] == a['traceEvents'] and {k: v for k, v in b.items() if k != 'traceEvents'} == \
    {k: v for k, v in a.items() if k != 'traceEvents'}
new = b['traceEvents'][n:]
assert all(e['pid'] == new[0]['pid'] and e['cat'] == 'tracestream' for e in new)
passes = [e for e in new if e['ph'] == 'X' and e['tid'] == 1]
assert [(e['args']['index'], e['args']['stage']) for e in passes] == \
       [(x['index'], x['stage']) for x in rep['passes']], passes
for e, x in zip(passes, rep['passes']):
    assert abs(e['dur'] - x['idle']['span_us']) < 0.002, (e, x['idle'])
    assert abs(e['ts'] - x['idle']['largest_gap']['at_us']) < e['dur'] + 1 if x['idle']['largest_gap'] else True
layers = [e for e in new if e['ph'] == 'X' and e['tid'] == 2]
for x in rep['passes']:
    mine = [e for e in layers if e['args']['pass'] == x['index']]
    if x['complete']:
        assert sorted(e['args']['layer'] for e in mine) == list(range(x['layers'])), (x['index'], mine)
        pe = [e for e in passes if e['args']['index'] == x['index']][0]
        for e in mine:       # inside their pass
            assert pe['ts'] - 0.002 <= e['ts'] and e['ts'] + e['dur'] <= pe['ts'] + pe['dur'] + 0.002, (e, pe)
assert not [e for e in new if e.get('name') == 'tracestream_partial']
# idle gaps: inside their pass, 5 us or more, no more time nor launch-bound
# gaps than the report counts for the pass
gaps = [e for e in new if e['ph'] == 'X' and e['tid'] == 3]
for x in rep['passes']:
    mine = [e for e in gaps if e['args']['pass'] == x['index']]
    pe = [e for e in passes if e['args']['index'] == x['index']][0]
    assert all(e['dur'] >= 5 and pe['ts'] - 0.002 <= e['ts'] and e['ts'] + e['dur'] <= pe['ts'] + pe['dur'] + 0.002 for e in mine), mine[:2]
    assert sum(e['dur'] for e in mine) <= x['idle']['idle_us'] + 0.01, (x['index'], x['idle'])
    assert sum(e['args']['launch_bound'] for e in mine) <= x['idle']['launch_bound']['gaps']
    assert all((e['name'] == 'idle (launch-bound)') == e['args']['launch_bound'] for e in mine)
PY

# a cut trace: valid JSON at every cut, marked partial, every whole event kept
size=$(stat -c %s "$tmp/pd.json")
python3 - "$TS" "$tmp/pd.json" "$tmp" <<'PY' && ok "a trace cut at 40 places: valid JSON each time, marked partial, every whole event of the cut input kept unchanged" || bad "cut traces"
import json, subprocess, sys
ts, path, d = sys.argv[1], sys.argv[2], sys.argv[3]
orig = open(path, 'rb').read()
whole = json.loads(orig)['traceEvents']

def complete(prefix):
    # the events of traceEvents a prefix holds whole, decoded one by one
    text = prefix.decode('utf-8', 'replace')
    i = text.index('[', text.index('"traceEvents"')) + 1
    dec, n = json.JSONDecoder(), 0
    while True:
        while i < len(text) and text[i] in ' \t\r\n,':
            i += 1
        try:
            _, i = dec.raw_decode(text, i)
        except ValueError:
            return n
        n += 1
bad = []
for i in range(1, 41):
    c = len(orig) * i // 41
    open(d + '/cut.json', 'wb').write(orig[:c])
    p = subprocess.run([ts, '--no-progress', 'annotate', d + '/cut.json', '-o', d + '/cut.ann.json'],
                       capture_output=True)
    if p.returncode == 1 and b'nothing in traceEvents' in p.stderr:
        continue                              # cut before its first event
    try:
        b = json.load(open(d + '/cut.ann.json'))
    except Exception as e:
        bad.append((c, p.returncode, 'invalid JSON: %s' % e)); continue
    ev = b['traceEvents']
    mine = [e for e in ev if e.get('cat') != 'tracestream']
    marked = any(e.get('name') == 'tracestream_partial' for e in ev)
    if p.returncode != 1 or not marked or mine != whole[:len(mine)] or len(mine) != complete(orig[:c]):
        bad.append((c, p.returncode, marked, len(mine), complete(orig[:c])))
for x in bad[:3]:
    print('#', x)
sys.exit(1 if bad else 0)
PY

"$TS" annotate - -o "$tmp/x.json" < "$tmp/pd.json" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -q "give a file, not standard input" "$tmp/err" &&
	ok "a pipe is refused with a usage error (the trace is read twice)" || bad "annotate -: $(cat "$tmp/err")"
"$TS" annotate "$tmp/missing.json" -o "$tmp/x.json" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -q "cannot open" "$tmp/err" && [ ! -e "$tmp/x.json" ] &&
	ok "a missing trace: exit 2, no output file" || bad "annotate missing: $(cat "$tmp/err")"

# the ranks of a job: each into -o DIR under its own name; never over itself
python3 "$here/ranks/mkranks.py" "$tmp/job" "$tmp/job-truth.json" > /dev/null
"$TS" --no-progress annotate "$tmp"/job/*.json -o "$tmp/jobann" 2>/dev/null; rc=$?
python3 - "$tmp/job" "$tmp/jobann" <<'PY' && [ $rc -eq 0 ] && ok "4 ranks annotated into -o DIR, each rank's events unchanged and its passes added" || bad "annotate a job (rc $rc)"
import json, os, sys
src, dst = sys.argv[1], sys.argv[2]
names = sorted(os.listdir(src))
assert sorted(os.listdir(dst)) == names, os.listdir(dst)
for n in names:
    a = json.load(open(os.path.join(src, n))); b = json.load(open(os.path.join(dst, n)))
    k = len(a['traceEvents'])
    assert b['traceEvents'][:k] == a['traceEvents'] and any(e.get('tid') == 1 and e.get('cat') == 'tracestream' for e in b['traceEvents'][k:])
PY
cp "$tmp/pd.json" "$tmp/self.json"
"$TS" annotate "$tmp/self.json" -o "$tmp/self.json" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -q "would write over the trace" "$tmp/err" && cmp -s "$tmp/self.json" "$tmp/pd.json" &&
	ok "annotate never writes over the trace it reads" || bad "annotate over itself: $(cat "$tmp/err")"

if [ -d "$SHARED" ]; then
	for f in "$SHARED"/*.json "$SHARED"/*.json.gz; do
		[ -f "$f" ] || continue
		whole_run "$f" || continue
		# written plain (gzip out is held on the fixture above)
		"$TS" --no-progress annotate "$f" -o "$tmp/s.ann.json" 2>/dev/null
		ts_out -f json "$f" > "$tmp/s.rep.json"
		python3 - "$f" "$tmp/s.ann.json" "$tmp/s.rep.json" <<'PY' && ok "$(basename "$f"): every original event unchanged, a slice per listed pass" || bad "$(basename "$f")"
import gzip, json, sys
# every original byte kept, one block inserted (as on the fixture above,
# which parses both): the original events are unchanged, and the events
# after them are the block's (one parse of the annotated trace, not two)
op = gzip.open if sys.argv[1].endswith('.gz') else open
orig = op(sys.argv[1], 'rb').read(); out = open(sys.argv[2], 'rb').read()
def common(x, y, back):         # the length of the common prefix (suffix)
    x, y = memoryview(x), memoryview(y)
    lo, hi = 0, min(len(x), len(y))
    while lo < hi:              # x and y agree on lo bytes, not on hi + 1
        mid = (lo + hi + 1) // 2
        if back:
            agree = x[len(x) - mid:len(x) - lo] == y[len(y) - mid:len(y) - lo]
        else:
            agree = x[lo:mid] == y[lo:mid]
        if agree:
            lo = mid
        else:
            hi = mid - 1
    return lo
p = common(orig, out, False)
q = common(orig, out, True)
assert len(out) > len(orig) and p + q >= len(orig), (p, q, len(orig), len(out))
b = json.loads(out); r = json.load(open(sys.argv[3]))
ev = b['traceEvents']
k = len(ev)
while k and isinstance(ev[k - 1], dict) and ev[k - 1].get('cat') == 'tracestream':
    k -= 1
new = ev[k:]
assert len([e for e in new if e['ph'] == 'X' and e['tid'] == 1]) == len(r['passes'])
# launch-bound gaps of 5 us or more: at most the report's launch-bound gaps
lb = sum(1 for e in new if e['ph'] == 'X' and e['tid'] == 3 and e['args']['launch_bound'])
assert lb <= sum(p['idle']['launch_bound']['gaps'] for p in r['passes']), lb
PY
	done
else
	echo "skip - annotate: the shared traces are not here"
fi
finish
