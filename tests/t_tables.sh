#!/usr/bin/env bash
# Tables as CSV and report files: --format csv --table NAME and --csv-dir
# write RFC 4180 CSV (checked by Python's csv module) whose rows and totals
# are the JSON report's; -o FILE appears whole or not at all (a failing
# write leaves the old file and no temporary file). Runs on the bundled
# sample trace and a hand-made one; on every shared trace when
# ../shared/traces is there.
T=tables
. "$(dirname "$0")/lib.sh"

# the CSV tables of a trace against its JSON report: rows, keys, totals
check() { # label trace
	local n=$1 f=$2
	rm -rf "$tmp/csv"
	"$TS" --no-progress -q --csv-dir "$tmp/csv" -f json -o "$tmp/r.json" "$f" 2> "$tmp/err"
	local rc=$?
	if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
		bad "$n: --csv-dir exit $rc: $(head -c 300 "$tmp/err")"
		return
	fi
	python3 - "$tmp/csv" "$tmp/r.json" <<'PY' && ok "$n: every table parses as CSV with the JSON report's rows, and kernel total_us adds up to kernel_time_us exactly" || bad "$n: CSV tables"
import csv, io, json, os, sys
from decimal import Decimal
d, j = sys.argv[1], json.load(open(sys.argv[2]))
def rows(name):
    with open(os.path.join(d, name + '.csv'), newline='') as f:
        raw = f.read()
    assert raw == '' or raw.endswith('\r\n'), name
    r = list(csv.reader(io.StringIO(raw, newline='')))
    return r[0], r[1:]
want = {'kernels': j['kernels'], 'types': j['types'], 'categories': j['categories'],
        'unclassified': j['unclassified'], 'ops': j.get('ops', []),
        'workloads': j.get('workloads', []), 'layers': j.get('layer_table', []),
        'passes': j.get('passes', []), 'memory': j.get('memory', [])}
for name, jrows in want.items():
    head, body = rows(name)
    assert len(body) == len(jrows), (name, len(body), len(jrows))
    for r in body:
        assert len(r) == len(head), (name, r)
    key = {'kernels': 'name', 'types': 'type', 'categories': 'category', 'unclassified': 'name',
           'ops': 'op', 'workloads': 'name', 'passes': 'index', 'memory': 'kind', 'layers': 'layer'}[name]
    jkey = {'ops': 'name'}.get(name, key)
    got = [r[head.index(key)] for r in body]
    exp = [str(x[jkey]) for x in jrows]
    assert got == exp, (name, got[:3], exp[:3])
    if 'total_us' in head:
        for r, x in zip(body, jrows):
            assert Decimal(r[head.index('total_us')]) == Decimal(str(x['total_us'])), (name, r, x)
head, body = rows('kernels')
tot = sum(Decimal(r[head.index('total_us')]) for r in body)
assert tot == Decimal(str(j['trace']['kernel_time_us'])), (tot, j['trace']['kernel_time_us'])
head, body = rows('stages')
assert [r[0] for r in body] == list(j['stages']), body
for r in body:
    s = j['stages'][r[0]]
    assert Decimal(r[head.index('gpu_time_us')]) == Decimal(str(s['gpu_time_us'])), (r, s)
PY
}

# the workbook of a trace, read back without the writer's code, against
# the JSON report
xcheck() { # label trace
	local n=$1 f=$2
	"$TS" --no-progress -q -f xlsx -o "$tmp/r.xlsx" "$f" 2> "$tmp/err"
	local rc=$?
	"$TS" --no-progress -q -f json -o "$tmp/x.json" "$f" 2>/dev/null
	if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
		bad "$n: xlsx exit $rc: $(head -c 300 "$tmp/err")"
		return
	fi
	python3 "$here/report/xlsx_read.py" "$tmp/r.xlsx" > "$tmp/x.read" &&
	python3 - "$tmp/x.read" "$tmp/x.json" <<'PY' && ok "$n: the workbook has a summary sheet then every table (opportunities and the longest idle gaps too), header frozen and filtered, numbers as numbers, rows and kernel time as in the JSON report" || bad "$n: xlsx"
import json, sys
x = json.load(open(sys.argv[1])); j = json.load(open(sys.argv[2]))
sheets = {s['name']: s for s in x['sheets']}
names = [s['name'] for s in x['sheets']]
assert names[0] == 'summary', names
for t in ('kernels', 'types', 'categories', 'unclassified', 'ops', 'workloads', 'layers',
          'passes', 'stages', 'memory', 'api', 'opportunities', 'gaps'):
    assert t in sheets, (t, names)
for s in x['sheets']:
    assert s['frozen'] and s['autofilter'], s['name']
want = {'kernels': j['kernels'], 'types': j['types'], 'categories': j['categories'],
        'ops': j.get('ops', []), 'workloads': j.get('workloads', []),
        'layers': j.get('layer_table', []), 'passes': j.get('passes', []),
        'memory': j.get('memory', []), 'opportunities': j.get('opportunities', []),
        'api': j.get('api', [])}
for t, rows in want.items():
    assert len(sheets[t]['rows']) - 1 == len(rows), (t, len(sheets[t]['rows']), len(rows))
k = sheets['kernels']['rows']
col = k[0].index('total_us')
assert all(isinstance(r[col], float) for r in k[1:]), 'total_us stored as numbers'
tot = sum(r[col] for r in k[1:])
want_t = j['trace']['kernel_time_us']
assert abs(tot - want_t) <= 1e-9 * max(1.0, want_t), (tot, want_t)
summ = {r[0]: (r[1] if len(r) > 1 else None) for r in sheets['summary']['rows'][1:]}
assert abs(summ['kernel_time_us'] - want_t) <= 1e-9 * max(1.0, want_t), summ
o = sheets['opportunities']['rows']
for r, w in zip(o[1:], j.get('opportunities', [])):
    assert r[o[0].index('kind')] == w['kind'] and r[o[0].index('at_stake_us')] == w['at_stake_us'], (r, w)
g = sheets['gaps']['rows']
lens = [r[g[0].index('len_us')] for r in g[1:]]
assert lens == sorted(lens, reverse=True) and all(v >= 5.0 for v in lens), lens[:5]
for p in j.get('passes', []):
    mine = [r for r in g[1:] if r[g[0].index('pass')] == p['index']]
    if p['idle']['largest_gap'] and p['idle']['largest_gap']['us'] >= 5 and len(g) - 1 < 256:
        assert max(r[g[0].index('len_us')] for r in mine) == p['idle']['largest_gap']['us'], p['index']
for st in j['stages']:
    if 'ops_' + st in sheets:
        assert all(r[0] == st for r in sheets['ops_' + st]['rows'][1:]), st
PY
}

check "sample trace" "$here/data/sample_trace.json.gz"
xcheck "sample trace" "$here/data/sample_trace.json.gz"
if /usr/bin/python3 -c 'import openpyxl' 2>/dev/null; then
	/usr/bin/python3 - "$tmp/r.xlsx" "$tmp/x.json" <<'PY' && ok "openpyxl reads the sample workbook: kernel total_us adds up to the JSON kernel time" || bad "openpyxl read"
import json, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1], read_only=True)
assert wb.sheetnames[0] == 'summary', wb.sheetnames
rows = list(wb['kernels'].iter_rows(values_only=True))
col = rows[0].index('total_us')
tot = sum(r[col] for r in rows[1:])
want = json.load(open(sys.argv[2]))['trace']['kernel_time_us']
assert abs(tot - want) <= 1e-9 * max(1.0, want), (tot, want)
PY
else
	echo "ok - tables: openpyxl # SKIP Debian's python3-openpyxl is not installed (scripts/deps.sh installs it as root)"
fi
# names that are not valid UTF-8 or hold control characters
python3 - "$tmp/bad.json" <<'PY'
import sys
ev = '{"ph": "X", "cat": "kernel", "name": "%s", "pid": 0, "tid": 7, "ts": %d, "dur": 2, "args": {"device": 0}}'
body = ',\n'.join([ev % ('bad_\xff\xfe_name', 10), ev % ('ctl_\\u0001_\\u001f_name', 20),
                    ev % ('surrogate_\xed\xa0\x80_x', 30)])
open(sys.argv[1], 'wb').write(('{"traceEvents": [' + body + ']}').encode('latin-1'))
PY
"$TS" --no-progress -q -f xlsx -o "$tmp/bad.xlsx" "$tmp/bad.json" 2> "$tmp/err"
rc=$?
if [ $rc -le 1 ] && python3 "$here/report/xlsx_read.py" "$tmp/bad.xlsx" > "$tmp/bad.read" &&
	python3 -c '
import json, sys
x = json.load(open(sys.argv[1]))
k = [s for s in x["sheets"] if s["name"] == "kernels"][0]["rows"]
names = sorted(r[0] for r in k[1:])
assert len(names) == 3 and all("\ufffd" in n or "ctl_ _ _name" == n for n in names), names
' "$tmp/bad.read"; then
	ok "invalid UTF-8 and control characters in names still make a valid workbook"
else
	bad "xlsx with bad names: rc $rc: $(cat "$tmp/err")"
fi

# quoting: a kernel name with a comma, a quote and a line break
python3 - "$tmp/q.json" <<'PY'
import json, sys
k = lambda name, ts, dur: {'ph': 'X', 'cat': 'kernel', 'name': name, 'pid': 0, 'tid': 7,
                          'ts': ts, 'dur': dur, 'args': {'device': 0, 'stream': 7}}
ev = [k('void f<1, "two">(int,\nchar)', 10, 5), k('plain', 20, 2.5), k('void f<1, "two">(int,\nchar)', 30, 5)]
json.dump({'traceEvents': ev}, open(sys.argv[1], 'w'))
PY
"$TS" --no-progress -q -f csv --table kernels "$tmp/q.json" > "$tmp/q.csv" 2> "$tmp/err"
python3 - "$tmp/q.csv" <<'PY' && ok "a name with a comma, quotes and a line break round-trips through the CSV quoting" || bad "CSV quoting: $(cat "$tmp/q.csv")"
import csv, sys
r = list(csv.reader(open(sys.argv[1], newline='')))
assert r[0][:2] == ['name', 'short'], r[0]
assert r[1][0] == 'void f<1, "two">(int,\nchar)' and r[1][4] == '2' and r[1][5] == '10.000', r[1]
assert r[2][0] == 'plain' and r[2][5] == '2.500', r[2]
PY
"$TS" --no-progress -q -f csv --table workloads "$tmp/q.json" > "$tmp/w.csv" 2>&1
[ "$(cat "$tmp/w.csv")" = "$(printf 'stage,name,kind,dtype,calls,kernels,total_us,tokens_min,tokens_p50,tokens_max,heads_min,heads_max,flops,bytes,tflops,tbps,intensity_flop_per_byte,pct_of_peak,bound,over_peak_tflops,over_peak_tbps,rated_calls\r')" ] &&
	ok "a table with no rows is its header" || bad "empty table: $(od -c "$tmp/w.csv" | head -3)"

# -o: whole or nothing
s="$here/data/sample_trace.json.gz"
"$TS" --no-progress -q -o "$tmp/out.txt" "$s" > "$tmp/stdout" 2> "$tmp/err"
rc=$?
"$TS" --no-progress -q "$s" > "$tmp/direct.txt" 2>/dev/null
[ $rc -eq 0 ] && [ ! -s "$tmp/stdout" ] && cmp -s "$tmp/out.txt" "$tmp/direct.txt" &&
	ok "-o FILE holds what standard output would (and nothing goes to stdout)" || bad "-o: rc $rc"
echo old > "$tmp/keep.json"
( trap '' XFSZ; ulimit -f 4; "$TS" --no-progress -q -f json -o "$tmp/keep.json" "$s" ) > /dev/null 2> "$tmp/err"
rc=$?
if [ $rc -eq 2 ] && [ "$(cat "$tmp/keep.json")" = old ] && grep -q "keep.json: cannot write" "$tmp/err" &&
	[ -z "$(ls -A "$tmp" | grep '^\.keep')" ]; then
	ok "a write that fails part way (file size limit) exits 2 naming the file; the old file stays, no temporary file is left"
else
	bad "failing -o: rc $rc, file $(head -c 40 "$tmp/keep.json"), err $(cat "$tmp/err"), $(ls -A "$tmp")"
fi
# --csv-dir: all the tables or none. Past the file size limit (the
# signal left at its default: tracestream takes it as a write error), the
# tables of the run before stay as they were, and no new or temporary file
# is left (robustness finding F11).
mkdir -p "$tmp/csvset"
"$TS" --no-progress -q --csv-dir "$tmp/csvset" "$s" > /dev/null 2>&1
before=$(cd "$tmp/csvset" && ls -A | sort | tr '\n' ' ')
sum_before=$(cat "$tmp/csvset"/*.csv | cksum)
printf 'x\n' > "$tmp/csvset/api.csv"
( ulimit -f 4; "$TS" --no-progress -q --csv-dir "$tmp/csvset" "$s" ) > /dev/null 2> "$tmp/err"
rc=$?
after=$(cd "$tmp/csvset" && ls -A | sort | tr '\n' ' ')
if [ $rc -eq 2 ] && [ "$before" = "$after" ] && [ "$(cat "$tmp/csvset/api.csv")" = x ] &&
	grep -q "csv: cannot write: File too large" "$tmp/err"; then
	ok "--csv-dir past the file size limit: exit 2 naming the table; no table replaced, no temporary file left ($(echo "$before" | wc -w) tables)"
else
	bad "--csv-dir all or none: rc $rc, before '$before', after '$after', err $(cat "$tmp/err")"
fi
[ -n "$sum_before" ] || bad "csv set"
"$TS" --no-progress -q -o "$tmp/out.txt/x" "$s" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "out.txt/x: cannot write: Not a directory" "$tmp/err" &&
	ok "-o under a file: exit 2, which file and why" || bad "-o ENOTDIR: rc $rc: $(cat "$tmp/err")"
"$TS" --no-progress -q --csv-dir "$tmp/out.txt" "$s" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "out.txt/kernels.csv: cannot write" "$tmp/err" &&
	ok "--csv-dir that is a file: exit 2, which file and why" || bad "--csv-dir on a file: rc $rc: $(cat "$tmp/err")"
"$TS" --no-progress -f csv "$s" > "$tmp/default.csv" 2> "$tmp/err"
rc=$?
"$TS" --no-progress -f csv --table kernels "$s" > "$tmp/kernels.csv" 2> /dev/null
[ $rc -eq 0 ] && cmp -s "$tmp/default.csv" "$tmp/kernels.csv" && ok "--format csv without --table writes the kernels table" ||
	bad "csv without --table: rc $rc $(cat "$tmp/err")"
"$TS" --no-progress -f csv --table nope "$s" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -q "'nope' is not kernels" "$tmp/err" && ok "an unknown --table is a usage error naming the tables" ||
	bad "--table nope: $(cat "$tmp/err")"
b="$here/data/sample_trace.json.gz"
"$TS" --no-progress -q -o "$tmp/cmp.json" -f json compare "$b" "$b" > /dev/null 2>&1 &&
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/cmp.json" &&
	ok "compare -o FILE writes its report to the file" || bad "compare -o"

# compare's tables: ops and layers, as CSV, rows as in its JSON
g="$here/data/sample_trace.json.gz"
rm -rf "$tmp/ccsv"
"$TS" --no-progress -q --csv-dir "$tmp/ccsv" -f json -o "$tmp/c.json" compare "$g" "$g" 2> "$tmp/err"
python3 - "$tmp/ccsv" "$tmp/c.json" <<'PY' && ok "compare --csv-dir: ops.csv, layers.csv, alignment.csv (and collectives.csv) hold compare's op groups, layers and kernel alignment, as its JSON" || bad "compare CSV: $(cat "$tmp/err")"
import csv, json, os, sys
d, j = sys.argv[1], json.load(open(sys.argv[2]))
assert sorted(os.listdir(d)) == ['alignment.csv', 'collectives.csv', 'layers.csv', 'ops.csv'], os.listdir(d)
assert open(os.path.join(d, 'collectives.csv')).read().startswith('kind,a_calls,'), 'collectives.csv'
al = list(csv.DictReader(open(os.path.join(d, 'alignment.csv'), newline='')))
pairs = [(a['stage'], p['kind']) for a in j['alignment'] for p in a['pairs']]
assert [(r['stage'], r['kind']) for r in al] == pairs, (al[:2], pairs[:2])
ops = list(csv.DictReader(open(os.path.join(d, 'ops.csv'), newline='')))
assert [r['op'] for r in ops] == [o['op'] for o in j['ops']], ops[:2]
for r, o in zip(ops, j['ops']):
    assert r['a_total_us'] == '%.3f' % o['a_total_us'] and r['status'] == o['status'], (r, o)
lay = list(csv.DictReader(open(os.path.join(d, 'layers.csv'), newline='')))
assert len(lay) == len(j['layers']) and all(r['status'] == 'similar' for r in lay), lay[:2]
PY
"$TS" --no-progress -q -f csv --table kernels compare "$g" "$g" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -q "compare's tables are ops, layers, alignment and collectives" "$tmp/err" &&
	ok "compare --table kernels is a usage error naming compare's tables" || bad "compare --table kernels: $(cat "$tmp/err")"

# --table launches: a row per kernel, streamed; against the trace itself
# (every kernel event's start, duration and name) and the JSON report's
# passes (kernels and layers per pass)
g="$here/data/torch_dense_eager_h200.json.gz"
"$TS" --no-progress -q -f csv --table launches "$g" > "$tmp/launches.csv" 2> "$tmp/err"
"$TS" --no-progress -q -f json "$g" > "$tmp/launches.json" 2>> "$tmp/err"
python3 - "$g" "$tmp/launches.csv" "$tmp/launches.json" <<'PY' && ok "--table launches: every kernel of the trace once (start, duration, name), its stage, pass and layer as the report's passes have them" || bad "launches: $(cat "$tmp/err")"
import collections, csv, gzip, json, sys
from decimal import Decimal
ev = json.load(gzip.open(sys.argv[1]), parse_float=Decimal)['traceEvents']
want = collections.Counter((Decimal(e['ts']).quantize(Decimal('0.001')), Decimal(e['dur']).quantize(Decimal('0.001')), e['name'])
                           for e in ev if e.get('ph') == 'X' and e.get('cat') == 'kernel')
rows = list(csv.DictReader(open(sys.argv[2], newline='')))
got = collections.Counter((Decimal(r['start_us']), Decimal(r['dur_us']), r['name']) for r in rows)
assert got == want, (len(got), len(want), list((got - want).items())[:2], list((want - got).items())[:2])
r = json.load(open(sys.argv[3]))
by = collections.Counter(x['pass'] for x in rows)
layers = collections.defaultdict(set)
for x in rows:
    if x['layer']:
        layers[x['pass']].add(int(x['layer']))
for p in r['passes']:
    assert by[str(p['index'])] == p['kernels'], (p['index'], by[str(p['index'])], p['kernels'])
    assert len(layers[str(p['index'])]) == p['layers'], p['index']
    assert {x['stage'] for x in rows if x['pass'] == str(p['index'])} == {p['stage']}, p['index']
assert all(x['type'] and x['category'] and x['short'] for x in rows)
assert sum(1 for x in rows if x['op']) > 0.9 * len(rows)
PY
"$TS" --no-progress -q -f csv --table launches "$g" "$g" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -q "table launches streams one trace" "$tmp/err" &&
	ok "--table launches with several traces: a usage error" || bad "launches over ranks: $(cat "$tmp/err")"

shared="$SHARED"
if [ ! -d "$shared" ]; then
	echo "ok - tables: shared traces # SKIP ../shared/traces is absent"
	exit $fail
fi
# compare's collectives table: the kinds either side ran, as its JSON
# (two training traces: NCCL all-reduce on A, none on B)
a="$shared/hta_a100_ddp_training_nccl.json.gz" b="$shared/switchtransformers_toy-moe_a100_train.json"
if [ -e "$a" ] && [ -e "$b" ]; then
	"$TS" --no-progress -q -f csv --table collectives compare "$a" "$b" >"$tmp/cc.csv" 2>"$tmp/err"
	"$TS" --no-progress -q -f json compare "$a" "$b" >"$tmp/cc.json" 2>>"$tmp/err"
	python3 - "$tmp/cc.csv" "$tmp/cc.json" <<'PY' && ok "compare --table collectives: each kind's calls, time, bytes and bus bandwidth, as compare's JSON" || bad "compare collectives: $(cat "$tmp/err")"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
j = json.load(open(sys.argv[2]))['collectives']
assert rows and len(rows) == len(j), (rows, j)
for r, c in zip(rows, j):
    for k in ('kind', 'a_calls', 'a_bytes', 'b_calls', 'b_bytes'):
        assert str(r[k]) == str(c[k]), (k, r, c)
    assert float(r['a_total_us']) == c['a_total_us'] and int(r['a_calls']) > 0, (r, c)
PY
fi

# Short names that several kernels share say what tells them apart (the
# words of their full names no other has), not a hash: every shared
# trace's short names are one per kernel, and the B300's two expert GEMMs
# read as their tile stages and loads (s6 ldgsts / s5 rgTma)
for f in "$shared"/*.json "$shared"/*.json.gz; do
	"$TS" --no-progress -q -f csv --table kernels --top 0 "$f" > "$tmp/k.csv" 2>/dev/null || continue
	python3 - "$tmp/k.csv" "$(basename "$f")" <<'PY' || bad "short names of $(basename "$f")"
import csv, re, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline='')) if r['name']]
short = [r['short'] for r in rows]
dup = {s for s in short if short.count(s) > 1}
assert not dup, sorted(dup)[:3]
hashed = [s for s in short if re.search(r' ~[0-9a-f]{4}$', s)]
if 'b300' in sys.argv[2]:
    assert 'bmm t128x8x128 s6 ldgsts' in short and 'bmm t128x8x128 s5 rgTma' in short, short[:4]
print('ok - tables: %s: %d short names, one per kernel; %d by a hash (no word of theirs differs)'
      % (sys.argv[2], len(short), len(hashed)))
PY
done

# every shared trace with the release build; two under the sanitizers
# (the same code paths, a third of the time)
for f in "$shared"/*.json "$shared"/*.json.gz; do
	[ -e "$f" ] || continue
	case "$TS:$(basename "$f")" in
	*/san/*:hf_*|*/san/*:sglang_qwen3-8b_mi300x_prefill*|*/release/*|./*) ;;
	*/san/*) continue ;;
	esac
	check "$(basename "$f")" "$f"
	xcheck "$(basename "$f")" "$f"
done
exit $fail
