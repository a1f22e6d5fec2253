#!/usr/bin/env bash
# Several traces, the ranks of one job: the rank table and the skew against
# tests/ranks/oracle.py on ranks made by tests/ranks/mkranks.py (a known
# straggler, known collective waits, files given out of rank order); the
# same numbers whatever -j; four copies of a shared trace; errors of one
# rank.
T=ranks
. "$(dirname "$0")/lib.sh"

python3 "$here/ranks/mkranks.py" "$tmp/job" "$tmp/truth.json"
order=$(python3 -c 'import json,sys; print(" ".join("%s/trace_rank_%d.json" % (sys.argv[2], r) for r in json.load(open(sys.argv[1]))["order"]))' "$tmp/truth.json" "$tmp/job")
# shellcheck disable=SC2086
python3 "$here/ranks/oracle.py" "$tmp/truth.json" $order > "$tmp/oracle.json"
for j in 1 3; do
	# shellcheck disable=SC2086
	"$TS" --no-progress -j $j -f json $order > "$tmp/j$j.json" 2> "$tmp/err"
	rc=$?
	[ $rc -eq 0 ] || bad "-j $j: rc $rc: $(head -c 300 "$tmp/err")"
done
cmp -s "$tmp/j1.json" "$tmp/j3.json" && ok "-j 1 and -j 3 write the same report" || bad "-j 1 and -j 3 differ"
python3 - "$tmp/j3.json" "$tmp/oracle.json" "$tmp/truth.json" <<'PY' && ok "4 ranks given out of order: numbered by distributedInfo; kernel, collective and wait times, the kernel-time spread and every layer position's min/median/max/slowest equal the oracle's; rank 2 is the straggler" || bad "ranks against the oracle"
import json, sys
d = json.load(open(sys.argv[1])); o = json.load(open(sys.argv[2])); t = json.load(open(sys.argv[3]))
us = lambda ns: round(ns / 1000.0, 3)
assert d['skew']['rank_source'] == 'trace', d['skew']['rank_source']
got = {r['rank']: r for r in d['ranks']}
assert [r['rank'] for r in d['ranks']] == t['order'], [r['rank'] for r in d['ranks']]
for r in o['ranks']:
    g = got[r['rank']]
    assert g['status'] == 'ok' and g['trace_rank'] == r['rank'] and g['world_size'] == t['ranks'], g
    assert g['kernel_time_us'] == us(r['kernel_ns']), (g['kernel_time_us'], r)
    assert g['comm_us'] == us(r['comm_ns']), (g['comm_us'], r)
    assert g['wait_us'] == us(r['wait_ns']), (g['wait_us'], r)
def same(sp, want, what):
    assert sp['min_us'] == us(want['min']) and sp['median_us'] == us(want['median']) and \
        sp['max_us'] == us(want['max']) and sp['slowest_rank'] == want['slowest'], (what, sp, want)
same(d['skew']['kernel_time'], o['kernel'], 'kernel time')
assert set(d['skew']['layers']) == set(o['layers']), (list(d['skew']['layers']), list(o['layers']))
n = 0
for st, pos in o['layers'].items():
    got_pos = d['skew']['layers'][st]
    assert len(got_pos) == len(pos), (st, len(got_pos), len(pos))
    for i, want in enumerate(pos):
        same(got_pos[i]['spread'], want, '%s layer %d' % (st, i))
        n += 1
assert n >= 12, n
s = d['skew']['straggler']
assert s and s['rank'] == t['straggler'] and s['slowest_at'] == s['positions'] == n, s
assert d['skew']['notes'] == [], d['skew']['notes']
w = {x['rank']: x for x in d['skew']['collective_wait']}
assert w[t['straggler']]['wait_us'] == 0, w
PY
"$TS" --no-progress "$tmp/job" > "$tmp/text" 2>&1
grep -q "^straggler: rank 2 is the slowest at 12 of 12 layer positions" "$tmp/text" &&
	grep -q "ranks from their distributedInfo" "$tmp/text" &&
	ok "a directory of ranks: text report with the straggler line" || bad "text: $(head -c 600 "$tmp/text")"

"$TS" --no-progress "$tmp/job/trace_rank_0.json" "$tmp/job/trace_rank_3.json" > "$tmp/text" 2>&1
grep -q "^note: 2 of the job's 4 ranks are given" "$tmp/text" && ok "two of four ranks: a note says so" ||
	bad "two of four: $(head -c 300 "$tmp/text")"

# four copies of one trace: four rows, each the single run's figures
f=$here/data/sample_trace.json.gz
"$TS" --no-progress -f json "$f" > "$tmp/one.json" 2>/dev/null
"$TS" --no-progress -f json "$f" "$f" "$f" "$f" > "$tmp/four.json" 2>/dev/null
rc=$?
python3 - "$tmp/one.json" "$tmp/four.json" <<'PY' && [ $rc -eq 0 ] && ok "four copies of $(basename "$f"): four rank rows numbered 0-3 (their own ranks repeat), each with the single run's kernel time, busy time, passes and layers; no spread, no straggler; a note names the duplicate" || bad "four copies (rc $rc)"
import json, sys
one = json.load(open(sys.argv[1])); d = json.load(open(sys.argv[2]))
t = one['trace']
assert [r['rank'] for r in d['ranks']] == [0, 1, 2, 3] and d['skew']['rank_source'] == 'order'
for r in d['ranks']:
    assert r['kernel_time_us'] == t['kernel_time_us'] and r['busy_us'] == t['busy_time_us'], (r, t)
    assert r['kernels'] == t['kernels'], r
assert round(sum(r['kernel_time_us'] for r in d['ranks']), 3) == round(4 * t['kernel_time_us'], 3)
k = d['skew']['kernel_time']
assert k['min_us'] == k['max_us'] == t['kernel_time_us'] and d['skew']['straggler'] is None, k
# the same file four times is named so, not taken for four ranks of a job
notes = ' '.join(d['skew']['notes'])
assert 'ranks 0 and 1 are the same trace' in notes and 'of the job' not in notes.replace('a job of', ''), notes
PY

# errors of one rank: the others are reported, the exit code is the worst
head -c 3000 "$tmp/job/trace_rank_1.json" > "$tmp/cut.json"
"$TS" --no-progress -f json "$tmp/job/trace_rank_0.json" "$tmp/cut.json" > "$tmp/out.json" 2> "$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q "^tracestream: cut.json: byte [0-9]*: trace cut short" "$tmp/err" &&
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
a, b = d["ranks"]
assert a["status"] == "ok" and a["kernels"] == 326, a
assert b["partial"] and b["status"] != "ok" and "cut short" in b["error"], b' "$tmp/out.json" &&
	ok "a rank cut short: exit 1, its error on stderr and in its row (partial), the other rank whole" ||
	bad "cut rank: rc $rc: $(cat "$tmp/err")"
"$TS" --no-progress "$tmp/job/trace_rank_0.json" "$tmp/missing.json" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "missing.json: cannot open: No such file" "$tmp/err" &&
	ok "a missing rank file: exit 2, which file" || bad "missing rank: rc $rc: $(cat "$tmp/err")"
mkdir -p "$tmp/empty"
"$TS" --no-progress "$tmp/empty" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "no trace files in the directory" "$tmp/err" &&
	ok "a directory without traces: exit 2" || bad "empty dir: rc $rc: $(cat "$tmp/err")"
"$TS" --no-progress - - < /dev/null > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "standard input ('-') can be given once" "$tmp/err" &&
	ok "'-' twice: exit 2" || bad "stdin twice: rc $rc: $(cat "$tmp/err")"
"$TS" --no-progress -f csv "$tmp/job" > "$tmp/job.csv" 2> "$tmp/err"
rc=$?
"$TS" --no-progress -f csv --table kernels "$tmp/job" > "$tmp/jobk.csv" 2> /dev/null
[ $rc -eq 0 ] && cmp -s "$tmp/job.csv" "$tmp/jobk.csv" &&
	ok "several traces with --format csv and no --table: the job's kernels table" || bad "csv ranks: rc $rc"
# The ranks table names each trace by the part of its file name that
# differs: the rank's word kept, what all names share cut
mkdir -p "$tmp/long"
for i in 0 1; do cp "$tmp/job/trace_rank_$i.json" "$tmp/long/vllm_tp8_rank$i.17761164911096550$i$i.pt.trace.json"; done
"$TS" --no-progress -q "$tmp/job" > "$tmp/short.txt" 2>/dev/null
"$TS" --no-progress -q "$tmp/long" > "$tmp/long.txt" 2>/dev/null
python3 - "$tmp/short.txt" "$tmp/long.txt" <<'PY' && ok "the ranks table shows what tells the file names apart (rank_0 .. rank_3; rank0.1776...00, rank1.1776...11)" || bad "rank names in the table"
import sys
def names(p):
    t = open(p).read().split('RANKS\n', 1)[1].split('\n\n', 1)[0].splitlines()[1:]
    return [l.split()[1] for l in t]
a, b = names(sys.argv[1]), names(sys.argv[2])
assert a == ['rank_%d' % i for i in range(len(a))] and len(a) >= 2, a
assert b == ['rank0.1776116491109655000', 'rank1.1776116491109655011'], b
PY

# Every real capture in tests/data survives its saved state: merge of its
# partial gives the report of the trace (the layer anatomy's rows are the
# last bytes of the layers section; their size was once overstated and the
# merge of a trace with many refused it, said as "out of memory")
mkdir -p "$tmp/rt"
for f in "$here"/data/torch_*_h200.json.gz; do
	b=rt/$(basename "$f" .json.gz)
	"$TS" --no-progress -q --save-state "$tmp/$b.tsp" -f json -o "$tmp/$b.direct.json" "$f" 2>/dev/null
	"$TS" --no-progress -q -f json merge "$tmp/$b.tsp" > "$tmp/$b.merged.json" 2> "$tmp/$b.err" ||
		{ bad "merge of $b's saved state: $(head -c 300 "$tmp/$b.err")"; continue; }
	python3 - "$tmp/$b.direct.json" "$tmp/$b.merged.json" <<'PY' && ok "${b#rt/}: merge of its saved state gives its passes, stages and layer anatomy" || bad "${b#rt/}: merged report differs"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert [(p['stage'], p['layers'], p['kernels']) for p in a['passes']] == \
       [(p['stage'], p['layers'], p['kernels']) for p in b['passes']]
assert a['stages'] == b['stages'], 'stages'
assert a['layer_anatomy'] == b['layer_anatomy'], 'anatomy'
PY
done
"$TS" --no-progress -q "$here/data/torch_dense_eager_h200.json.gz" "$here/data/torch_dense_compile_h200.json.gz" > "$tmp/two.txt" 2> "$tmp/err" &&
	grep -q "^tracestream .*: 2 traces" "$tmp/two.txt" && ok "two H200 captures as the ranks of a job: one report" ||
	bad "two captures as ranks: $(head -c 300 "$tmp/err")"

# The job in every format: the ranks and skew tables (CSV, --csv-dir, the
# workbook, the page) hold the JSON report's figures; merge writes them too.
"$TS" --no-progress -q -f csv --table ranks $order > "$tmp/ranks.csv" 2>/dev/null
"$TS" --no-progress -q -f csv --table skew $order > "$tmp/skew.csv" 2>/dev/null
"$TS" --no-progress -q --csv-dir "$tmp/csvdir" -f xlsx -o "$tmp/job.xlsx" $order 2>/dev/null
"$TS" --no-progress -q --csv-dir "$tmp/csv1" "$tmp/job/trace_rank_0.json" > /dev/null 2>&1
for r in $order; do "$TS" --no-progress -q --save-state "$tmp/$(basename "$r").tsp" "$r" > /dev/null 2>&1; done
"$TS" --no-progress -q -f csv --table ranks merge "$tmp"/*.tsp > "$tmp/mranks.csv" 2>/dev/null
"$TS" --no-progress -q -f html -o "$tmp/merge.html" merge "$tmp"/*.tsp 2>/dev/null
python3 - "$tmp" <<'PY' && ok "the job as tables: ranks and skew as CSV (--table, --csv-dir), workbook sheets and merge's, each equal to the JSON report; a single trace has neither" || bad "job tables"
import csv, json, os, sys, zipfile
d = sys.argv[1]
j = json.load(open(d + '/j3.json'))
rows = list(csv.DictReader(open(d + '/ranks.csv', newline='')))
assert [int(r['rank']) for r in rows] == [r['rank'] for r in j['ranks']]
for r, g in zip(rows, j['ranks']):
    assert float(r['kernel_time_us']) == g['kernel_time_us'] and float(r['comm_us']) == g['comm_us']
    assert float(r['wait_us']) == g['wait_us'] and int(r['passes']) == g['passes'], (r, g)
    for st, v in g['stages'].items():
        assert float(r[st + '_us']) == v['gpu_us'] and int(r[st + '_passes']) == v['passes']
    assert r['straggler'] == ('true' if g['rank'] == j['skew']['straggler']['rank'] else 'false')
    assert r['partial'] == ('true' if g['partial'] else 'false')
sk = list(csv.DictReader(open(d + '/skew.csv', newline='')))
def spread(r):
    return (float(r['min_us']), float(r['median_us']), float(r['max_us']), int(r['slowest_rank']))
def js(s):
    return (s['min_us'], s['median_us'], s['max_us'], s['slowest_rank'])
by = {(r['figure'], r['stage'], r['layer']): spread(r) for r in sk}
assert by[('kernel_time', '', '')] == js(j['skew']['kernel_time'])
assert by[('busy', '', '')] == js(j['skew']['busy'])
for st, s in j['skew']['stages'].items():
    assert by[('stage', st, '')] == js(s)
n = 0
for st, pos in j['skew']['layers'].items():
    for p in pos:
        assert by[('layer', st, str(p['index']))] == js(p['spread'])
        n += 1
assert len(sk) == 2 + len(j['skew']['stages']) + n
assert open(d + '/csvdir/ranks.csv').read() == open(d + '/ranks.csv').read()
assert open(d + '/csvdir/skew.csv').read() == open(d + '/skew.csv').read()
wb = zipfile.ZipFile(d + '/job.xlsx').read('xl/workbook.xml').decode()
assert 'name="ranks"' in wb and 'name="skew"' in wb
# booleans are booleans in the workbook (t="b" cells), not 0/1 numbers
sheets = [n for n in zipfile.ZipFile(d + '/job.xlsx').namelist() if n.startswith('xl/worksheets/sheet')]
assert any('t="b"' in zipfile.ZipFile(d + '/job.xlsx').read(n).decode() for n in sheets)
assert not {'ranks.csv', 'skew.csv'} & set(os.listdir(d + '/csv1'))
m = list(csv.DictReader(open(d + '/mranks.csv', newline='')))
key = lambda r: {k: v for k, v in r.items() if k != 'path'}
assert sorted(map(lambda r: tuple(key(r).items()), m)) == sorted(map(lambda r: tuple(key(r).items()), rows))
h = open(d + '/merge.html').read()
assert 'id="chart-ranks"' in h and 'data-table="ranks"' in h
PY
# --- a job over two GPUs on two clocks (the shared B300 and MI300X traces) ---
A=$SHARED/sglang_qwen3-30b-a3b_b300_decode_bs16.trace.json.gz
B=$SHARED/sglang_qwen3-30b-a3b_mi300x_decode_bs16.trace.json.gz
if [ -f "$A" ] && [ -f "$B" ]; then
	"$TS" --no-progress -w 200 "$A" "$B" > "$tmp/two.txt" 2>/dev/null
	"$TS" --no-progress -f json "$A" "$B" > "$tmp/two.json" 2>/dev/null
	python3 - "$tmp/two.txt" "$tmp/two.json" <<'PY' && ok "two GPUs on two clocks: not one job, said first; each GPU named with its rank, no span across clocks, the median of 2 ranks is their mean" || bad "a job over two GPUs"
import json, sys
txt = open(sys.argv[1]).read(); d = json.load(open(sys.argv[2]))
# two GPU kinds: not one run's ranks, said first; the GPUs on the next line
assert txt.splitlines()[1].startswith('NOT ONE JOB: 2 traces of other runs (2 GPU kinds)'), txt.splitlines()[1]
assert 'NVIDIA B300 SXM6 AC (rank 0), AMD Instinct MI300X (rank 1)' in txt.splitlines()[2], txt.splitlines()[2]
assert 'kernel span' not in txt and 'summed over 2 ranks' in txt, [l for l in txt.splitlines() if 'GPU busy' in l]
assert d['trace']['span_us'] is None and d['trace']['gpu_span_us'] is None, d['trace']
k = d['skew']['kernel_time']
want = float(k['min_us']) + (float(k['max_us']) - float(k['min_us'])) / 2
assert abs(float(k['median_us']) - want) <= 0.001, k
spans = [r['span_us'] for r in d['ranks']]
assert all(s > 0 and s < 1e6 for s in spans), spans     # each on its own clock, ms long
PY
else
	echo "skip - ranks: the shared B300 / MI300X traces are not here"
fi

# Many ranks times many threads: -j 1024 -T 256 over 500 small ranks is
# bounded (ranks at a time: 4 a core; parse threads in all: the larger of
# -T and the cores) and gives the report of -T 1, every time.
python3 - "$tmp/many" <<'PY'
import os, sys
d = sys.argv[1]
os.makedirs(d)
for r in range(500):
    with open('%s/rank%03d.json' % (d, r), 'w') as f:
        f.write('{"distributedInfo": {"rank": %d, "world_size": 500}, "traceEvents": [\n'
                '{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 5, "dur": 20, "args": {"External id": 1}},\n'
                '{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 6, "dur": 3, "args": {"correlation": 1, "External id": 1}},\n'
                '{"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0, "tid": 7, "ts": %d, "dur": 5, "args": {"device": 0, "stream": 7, "correlation": 1, "External id": 1}}\n]}\n' % (r, 30 + r))
PY
"$TS" --no-progress -T 1 -f json "$tmp/many" > "$tmp/many1.json" 2> "$tmp/err"
rc=$?
# the same run repeated, for an order the threads may make differ: four
# times (ten with TS_LONG=1, make test-long), twice under the sanitizers
runs=4
[ "${TS_LONG:-0}" = 1 ] && runs=10
case "$TS" in */san/*) runs=2 ;; esac
same=0
for i in $(seq 1 $runs); do
	timeout 300 "$TS" --no-progress -j 1024 -T 256 -f json "$tmp/many" > "$tmp/manyT.json" 2> "$tmp/err2"
	r=$?
	[ $r -eq 0 ] && cmp -s "$tmp/many1.json" "$tmp/manyT.json" && same=$((same + 1))
done
[ $rc -eq 0 ] && [ $same -eq $runs ] &&
	ok "-j 1024 -T 256 over 500 ranks: the report of -T 1, exit 0, $runs runs of $runs" ||
	bad "-j 1024 -T 256: $same of $runs runs the same as -T 1 (rc $rc, last: $(head -c 300 "$tmp/err2"))"
# threads that cannot start: each rank's thread asks for a 1 GB stack in
# 2.5 GB of address space, so only a few start; the others' ranks are
# analysed by those (release build: the sanitizers reserve more)
case "$TS" in
*/san/*) ;;
*)
	( ulimit -s 1000000 && ulimit -v 2500000 &&
		exec "$TS" --no-progress -j 16 -T 4 -f json "$tmp/many" ) > "$tmp/manyF.json" 2> "$tmp/err2"
	r=$?
	[ $r -eq 0 ] && cmp -s "$tmp/many1.json" "$tmp/manyF.json" &&
		ok "rank threads that cannot start (1 GB stacks in 2.5 GB): the report of -T 1, exit 0" ||
		bad "threads that cannot start: rc $r, $(head -c 300 "$tmp/err2")"
	;;
esac

# A training job with no layers (tests/ranks/mkwaits.py): every rank's
# kernel time the same, one rank's GEMMs slower, the others waiting for it
# in each all-reduce: the straggler is named by the collective waits.
python3 "$here/ranks/mkwaits.py" "$tmp/wjob" "$tmp/wtruth.json"
"$TS" --no-progress -f json "$tmp/wjob" > "$tmp/w.json" 2> "$tmp/err"
"$TS" --no-progress "$tmp/wjob" > "$tmp/w.txt" 2> "$tmp/err"
python3 - "$tmp/w.json" "$tmp/wtruth.json" "$tmp/w.txt" <<'PY' && ok "8 ranks, no layers, equal kernel time: rank 5 named the straggler by the collective waits (0 us against the others' 2000 us, as constructed)" || bad "straggler by waits: $(grep straggler "$tmp/w.txt")"
import json, sys
d = json.load(open(sys.argv[1])); t = json.load(open(sys.argv[2])); txt = open(sys.argv[3]).read()
s = d['skew']['straggler']
assert s['rank'] == t['straggler'] and s['by'] == 'collective_waits', s
assert abs(s['wait_us'] - t['wait_us'][str(t['straggler'])]) < 0.01, s
assert abs(s['others_wait_median_us'] - t['others_wait_us']) < 0.01, s
w = {r['rank']: r['wait_us'] for r in d['ranks']}
assert all(abs(w[int(r)] - v) < 0.01 for r, v in t['wait_us'].items()), (w, t['wait_us'])
assert 'straggler: rank 5, by the collective waits' in txt
PY
# A folder is said for what it is before any figure (issue 58): a job's
# ranks (the eight above) are one job; the shared traces, different GPUs
# and models, are "NOT ONE JOB" on the second line, and in JSON why.
"$TS" --no-progress "$tmp/wjob" 2>/dev/null | sed -n 2p > "$tmp/l2"
if grep -q "NOT ONE JOB" "$tmp/l2"; then bad "a job's ranks called not one job: $(cat "$tmp/l2")"; else ok "8 ranks of one job: no 'not one job' line"; fi
# (the whole folder: the release build's; sanitizers read it 5-10x slower)
case "$TS" in */san/*) san=1 ;; *) san=0 ;; esac
if [ -d "$SHARED" ] && [ $san = 0 ]; then
	"$TS" --no-progress "$SHARED" 2>/dev/null | sed -n 2p > "$tmp/l2"
	"$TS" --no-progress -f json "$SHARED" 2>/dev/null > "$tmp/s.json"
	python3 - "$tmp/l2" "$tmp/s.json" <<'PY' && ok "the shared folder: 'NOT ONE JOB' before any figure, its GPU kinds counted, and why in JSON" || bad "shared folder: $(cat "$tmp/l2")"
import json, re, sys
l2 = open(sys.argv[1]).read(); d = json.load(open(sys.argv[2]))
m = re.match(r'NOT ONE JOB: (\d+) traces of other runs \((\d+) GPU kinds', l2)
gpus = {r['gpu'] for r in d['ranks'] if r.get('gpu')}
assert m and int(m.group(1)) == len(d['ranks']) and int(m.group(2)) == len(gpus), (l2, gpus)
assert d['skew']['not_one_job'].startswith('%d GPU kinds' % len(gpus)), d['skew']['not_one_job']
PY
fi

# A rank folder whose *.json entries are a FIFO, a dangling link and a link
# loop: each named on stderr, the job says how many were not read, exit 2
# (as for an unreadable file); never a hang on the FIFO.
sp="$tmp/special"
mkdir -p "$sp"
cp "$here/data/sample_trace.json.gz" "$sp/rank0.json.gz"
mkfifo "$sp/rank1.json" && ln -s /nonexistent "$sp/rank2.json" && ln -s rank3.json "$sp/rank3.json"
timeout 60 "$TS" --no-progress "$sp" > "$tmp/sp.out" 2> "$tmp/sp.err"
rc=$?
check "a FIFO, a dangling link and a loop named as ranks: exit 2" "$rc" 2
n=$(grep -c -E 'rank[123]\.json: not read: (a FIFO|a symbolic link to nothing|a symbolic link loop)' "$tmp/sp.err")
check "each entry not read named with what it is" "$n" 3
grep -q '^tracestream [0-9.]*: 1 traces (3 more named so, not read)' "$tmp/sp.out" &&
	ok "the report says 3 named ranks were not read" || bad "the report's first line: $(head -1 "$tmp/sp.out")"
# the same in a --patterns folder: an error of the tables (exit 3)
pd="$tmp/special_patterns"
mkdir -p "$pd" && mkfifo "$pd/k.yaml" && ln -s nothing "$pd/m.yaml"
timeout 60 "$TS" -p "$pd" patterns check > /dev/null 2> "$tmp/pd.err"
rc=$?
n=$(grep -c -E '(k|m)\.yaml: (a FIFO \(named pipe\)|a symbolic link to nothing), no pattern file' "$tmp/pd.err")
check "a FIFO and a dangling link named as pattern files: exit 3, each named" "$rc/$n" 3/2

exit $fail
