#!/usr/bin/env bash
# The notebook package (python/tracestream): every table of analyze() and
# compare() equals what the command writes on its own (its JSON report, and
# the CSV tables for the job's skew and compare's alignment), for one trace,
# a job of 4 ranks and a compare; failures raise TracestreamError with the
# command's exit code, a cut trace with its partial report; the package
# installs with pip from the repository without network and runs from
# anywhere; and with pandas (Debian python3-pandas) the tables are
# DataFrames with the same rows. Each Python found (python3, and the
# system's /usr/bin/python3 when it is another) is tried.
# sanitizers: release only (the notebook package reads the JSON report that t_outputs makes under the sanitizers)
T=python
. "$(dirname "$0")/lib.sh"

pkg="$here/../python"
sample="$here/data/sample_trace.json.gz"
python3 "$here/ranks/mkranks.py" "$tmp/job" "$tmp/job-truth.json" > /dev/null
gen_out python3 "$here/layers/mkgeneric.py" --layers 4 --decode 3 --batch 8 --seed 1 > "$tmp/d3.json"
gen_out python3 "$here/layers/mkgeneric.py" --layers 4 --decode 6 --batch 8 --seed 2 > "$tmp/d6.json"
"$TS" --no-progress -f json "$sample" > "$tmp/s.json" 2>/dev/null
"$TS" --no-progress -f json "$tmp/job" > "$tmp/job.json" 2>/dev/null
"$TS" --no-progress -f csv --table skew "$tmp/job" > "$tmp/skew.csv" 2>/dev/null
"$TS" --no-progress -f json compare "$tmp/d3.json" "$tmp/d6.json" > "$tmp/c.json" 2>/dev/null
"$TS" --no-progress -f csv --table alignment compare "$tmp/d3.json" "$tmp/d6.json" > "$tmp/al.csv" 2>/dev/null
head -c 3000 "$tmp/d3.json" > "$tmp/cut.json"
# device memory: a trace with allocator events, and its memory tables
python3 - "$tmp/mem.json" <<'EOF2'
import json, sys
op = lambda name, ts, dur: {"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1, "ts": ts,
                            "dur": dur, "args": {}}
mem = lambda ts, addr, b, total: {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]",
                                  "pid": 1, "tid": 1, "ts": ts,
                                  "args": {"Total Reserved": 4096, "Total Allocated": total, "Bytes": b,
                                           "Addr": addr, "Device Id": 0, "Device Type": 1}}
ev = [op("aten::linear", 0.0, 100.0), op("aten::add", 200.0, 50.0),
      {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 20.0, "dur": 5.0,
       "args": {"device": 0, "stream": 7, "correlation": 1}},
      mem(10.0, 1, 512, 1536), mem(150.0, 2, 256, 1792), mem(210.0, 3, 128, 1920), mem(260.0, 1, -512, 1408)]
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
EOF2
for m in device_memory memory_passes memory_owners; do
	"$TS" --no-progress -f csv --table $m "$tmp/mem.json" > "$tmp/$m.csv" 2>/dev/null
done

check_with() { # PYTHON LABEL
	local py=$1 label=$2
	PYTHONPATH="$pkg" TRACESTREAM="$TS" "$py" - "$tmp" "$sample" "$label" <<'PY'
import csv, json, os, sys
import tracestream as t
d, sample, LABEL = sys.argv[1], sys.argv[2], sys.argv[3]
pandas = t._pd is not None

def rows(table):
    """A table as a list of dicts, whatever its kind."""
    if pandas:
        assert isinstance(table, t._pd.DataFrame), type(table)
        return [{k: (None if (isinstance(v, float) and v != v) else v) for k, v in r.items()}
                for r in table.to_dict('records')]
    assert isinstance(table, list), type(table)
    return table

def same(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and abs(float(a) - float(b)) <= 1e-9 * max(1, abs(float(b)))
    return a == b

def nested(row, key):
    """The value behind a flattened key, in the JSON row (a_b_c: a.b.c or a_b.c ...)."""
    if key in row:
        return row[key]
    for k, v in row.items():
        if isinstance(v, dict) and key.startswith(k + '_'):
            return nested(v, key[len(k) + 1:])
    raise KeyError(key)

def equal(name, got, want):
    got = rows(got)
    assert len(got) == len(want), (name, len(got), len(want))
    for g, w in zip(got, want):
        for k, v in g.items():
            if k in w or any(isinstance(x, dict) for x in w.values()):
                try:
                    ref = nested(w, k)
                except KeyError:
                    assert v is None, (name, k, v)   # a key some rows leave out
                    continue
                if isinstance(ref, list):
                    continue
                if isinstance(ref, dict):           # a column other rows made, null in their
                    assert v is None, (name, k, v)  # flat form; this row has its parts
                    continue
                assert same(v, ref), (name, k, v, ref)
    return len(got)

ok = lambda m: print('ok - python: %s' % m)
j = json.load(open(os.path.join(d, 's.json')))
r = t.analyze(sample)
n = 0
for name, key in [('kernels', 'kernels'), ('types', 'types'), ('categories', 'categories'),
                  ('unclassified', 'unclassified'), ('passes', 'passes'), ('layers', 'layer_table'),
                  ('ops', 'ops'), ('workloads', 'workloads'), ('memory', 'memory'),
                  ('collectives', 'collectives'), ('api', 'api'),
                  ('opportunities', 'opportunities')]:
    n += equal(name, getattr(r, name), j[key])
st = [dict(stage=s, **v) for s, v in j['stages'].items()]
n += equal('stages', r.stages, st)
assert r.raw['trace']['kernels'] == j['trace']['kernels'] and not r.partial
ok('%s: analyze(sample): kernels, types, categories, unclassified, passes, layers, ops, workloads, '
   'stages, memory, collectives, api, opportunities equal the JSON report (%d rows)' % (LABEL, n))
assert len(r.api) > 0, 'the sample has runtime calls'
# launches, streamed in chunks: every kernel once, as the command's CSV
chunks = list(r.launches(chunksize=500))
flat = [x for c in chunks for x in rows(c)]
assert len(flat) == j['trace']['kernels'] and all(len(rows(c)) <= 500 for c in chunks), len(flat)
assert len(chunks) == -(-len(flat) // 500), len(chunks)
assert all(isinstance(x['start_us'], float) and x['name'] for x in flat)
it = r.launches(chunksize=10)
next(it)
it.close()                               # stopping early ends the command
ok('%s: Report.launches(chunksize): every kernel once, in chunks of the size asked' % LABEL)

job = json.load(open(os.path.join(d, 'job.json')))
rj = t.analyze(os.path.join(d, 'job'))
equal('ranks', rj.ranks, job['ranks'])
sk = list(csv.DictReader(open(os.path.join(d, 'skew.csv'), newline='')))
got = rows(rj.skew)
assert len(got) == len(sk), (len(got), len(sk))
for g, c in zip(got, sk):
    assert g['figure'] == c['figure'] and (g['stage'] or '') == c['stage'], (g, c)
    assert ('' if g['layer'] is None else str(int(g['layer']))) == c['layer'], (g, c)
    for k in ('min_us', 'median_us', 'max_us'):
        assert '%.3f' % g[k] == c[k], (k, g, c)
    assert int(g['slowest_rank']) == int(c['slowest_rank']), (g, c)
ok('%s: analyze(a job of 4 ranks): ranks equal its JSON, skew equals --table skew' % LABEL)

rm = t.analyze(os.path.join(d, 'mem.json'))
for name in ('device_memory', 'memory_passes', 'memory_owners'):
    want = list(csv.DictReader(open(os.path.join(d, name + '.csv'), newline='')))
    got = rows(getattr(rm, name))
    assert len(got) == len(want) and (want or name == 'memory_passes'), (name, len(got), len(want))
    for g, w in zip(got, want):
        for k, v in w.items():
            x = g[k]
            assert (v == '' and x is None) or str(x).lower() == v or \
                   (v != '' and x is not None and not isinstance(x, (bool, str)) and float(x) == float(v)), (name, k, x, v)
assert rows(rm.memory_owners)[1]['op'] == 'aten::linear', rows(rm.memory_owners)
ok('%s: device_memory, memory_passes and memory_owners equal the command\'s CSV tables' % LABEL)

cj = json.load(open(os.path.join(d, 'c.json')))
c = t.compare(os.path.join(d, 'd3.json'), os.path.join(d, 'd6.json'))
equal('compare ops', c.ops, cj['ops'])
equal('compare layers', c.layers, cj['layers'])
al = list(csv.DictReader(open(os.path.join(d, 'al.csv'), newline='')))
got = rows(c.alignment)
assert len(got) == len(al) and len(al) > 0, (len(got), len(al))
for g, w in zip(got, al):
    assert (g['stage'], str(int(g['pair'])), g['kind'], g['a_kernels'] or '', g['b_kernels'] or '') == \
           (w['stage'], w['pair'], w['kind'], w['a_kernels'], w['b_kernels']), (g, w)
assert c.total == cj['total']
ok('%s: compare(): ops and layers equal its JSON, alignment equals --table alignment' % LABEL)

try:
    t.analyze(os.path.join(d, 'missing.json'))
    raise AssertionError('no error')
except t.TracestreamError as e:
    assert e.exit_code == 2 and 'cannot open' in e.message and e.report is None, (e.exit_code, e.message)
try:
    t.analyze(os.path.join(d, 'cut.json'))
    raise AssertionError('no error')
except t.TracestreamError as e:
    assert e.exit_code == 1 and 'cut short' in e.message, (e.exit_code, e.message)
    assert e.report is not None and e.report.partial, e.report
try:
    t.analyze(sample, stage='lunch')
    raise AssertionError('no error')
except t.TracestreamError as e:
    assert e.exit_code == 2 and 'stage' in e.message, e.message
r2 = t.analyze(sample, stage='decode', top=0, progress=True)
assert r2.raw['stage_filter'] == 'decode'
ok('%s: errors raise TracestreamError with the exit code and message (2 missing, 1 cut with the '
   'partial report, 2 bad option); options map to the command\'s (stage, top, progress)' % LABEL)
print('PANDAS' if pandas else 'NOPANDAS')
PY
}

tried=""
for py in python3 /usr/bin/python3; do
	command -v "$py" >/dev/null 2>&1 || continue
	real=$(command -v "$py" | xargs realpath)
	case " $tried " in *" $real "*) continue ;; esac
	tried="$tried $real"
	label="$(basename "$real") $("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
	out=$(check_with "$py" "$label" 2>&1)
	echo "$out" | grep -v '^PANDAS$\|^NOPANDAS$'
	echo "$out" | grep -q '^ok - python: .*compare()' || bad "$label: the package run failed"
	if echo "$out" | grep -q '^PANDAS$'; then
		ok "$label: with pandas every table is a DataFrame holding the same rows"
		saw_pandas=1
	fi
done
[ -n "${saw_pandas:-}" ] || echo "skip - python: pandas is not installed (sh scripts/deps.sh --test): the DataFrame form is not checked"

# installed with pip from the repository, no network, run from elsewhere:
# into a fresh venv of each Python that can make one (Debian: python3-venv),
# without setuptools (the package's backend, python/_build, is the standard
# library's), with pip's build isolation and no index; then editable (-e);
# and the backend's pyproject reader for Pythons without tomllib gives the
# metadata tomllib gives
installed=""
for real in $tried; do
	rm -rf "$tmp/venv"
	"$real" -m venv "$tmp/venv" >"$tmp/pip.log" 2>&1 || continue
	"$tmp/venv/bin/python" -m pip uninstall -q -y setuptools wheel >/dev/null 2>&1
	# from a copy of what a clone holds (the package and the engine's
	# sources, nothing built): first editable (-e: the sources imported,
	# the clone's engine built in place), then the wheel (the engine
	# inside it), run with the clone gone; nothing left beside python/
	# (make test gives the copy this build's objects, times kept, so make
	# finds the engine up to date; make test-long builds it from nothing)
	rm -rf "$tmp/repo" && mkdir -p "$tmp/repo" &&
		cp -rp "$pkg" Makefile src patterns scripts "$tmp/repo/" && rm -rf "$tmp/repo/python/build" &&
		mkdir -p "$tmp/repo/docs" && cp -p docs/report.schema.json "$tmp/repo/docs/"
	if [ "${TS_LONG:-0}" != 1 ] && [ -d build/release ] && [ -x tracestream ]; then
		mkdir -p "$tmp/repo/build" && cp -rp build/release "$tmp/repo/build/" && cp -p tracestream "$tmp/repo/"
		[ -d build/gen ] && cp -rp build/gen "$tmp/repo/build/"
	fi
	PIP_NO_INDEX=1 "$tmp/venv/bin/pip" install -q --no-index -e "$tmp/repo/python" >"$tmp/pip.log" 2>&1 &&
		(cd "$tmp" && env -u TRACESTREAM "$tmp/venv/bin/python" -c '
import tracestream, sys
assert tracestream.__file__.startswith(sys.argv[1]), tracestream.__file__
assert tracestream.find_binary() == sys.argv[2], tracestream.find_binary()' "$tmp/repo/python" "$tmp/repo/tracestream") &&
		ok "pip install -e ./python offline: the sources themselves are imported, the clone's engine built in place" ||
		bad "editable install: $(tail -3 "$tmp/pip.log")"
	"$tmp/venv/bin/pip" uninstall -q -y tracestream >/dev/null 2>&1
	PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
		"$tmp/venv/bin/pip" install -q --no-index "$tmp/repo/python" >"$tmp/pip.log" 2>&1 ||
		{ bad "pip install ./python offline ($(basename "$real")): $(tail -3 "$tmp/pip.log")"; installed=1; break; }
	[ -z "$(cd "$tmp/repo/python" && ls -d build *.egg-info 2>/dev/null)" ] &&
		ok "the build leaves nothing beside the sources" || bad "the build left files in python/"
	# the install alone: no $TRACESTREAM, no binary on PATH, the clone gone
	rm -rf "$tmp/repo"
	(cd "$tmp" && env -u TRACESTREAM -u TRACESTREAM_PATTERNS PATH="$tmp/venv/bin:/usr/bin:/bin" \
		"$tmp/venv/bin/python" -c '
import importlib.util, tracestream, sys
assert importlib.util.find_spec("setuptools") is None, "setuptools in the venv"
b = tracestream.find_binary()
assert "site-packages" in tracestream.__file__ and "site-packages" in b, (tracestream.__file__, b)
r = tracestream.analyze(sys.argv[1])
assert r.raw["trace"]["kernels"] > 0
assert r.first_screen.startswith("tracestream "), r.first_screen[:200]
assert "Per pass" in r.first_screen and "Top kernels" in r.first_screen, r.first_screen
page = r._repr_html_()
assert page.startswith("<iframe srcdoc=") and "&lt;html" in page, page[:200]' "$sample" &&
		env -u TRACESTREAM PATH="$tmp/venv/bin:/usr/bin:/bin" "$tmp/venv/bin/python" -m tracestream --version | grep -q "^tracestream " &&
		env -u TRACESTREAM PATH="$tmp/venv/bin:/usr/bin:/bin" tracestream --brief "$sample" | grep -q "^Per pass") &&
		ok "pip install ./python in a fresh venv without setuptools, no index ($(basename "$real")): the engine built and installed with it; analyze(), .first_screen, the notebook page, python -m tracestream and the tracestream command work from anywhere with nothing else" ||
		bad "the package pip installed ($(basename "$real")) failed: $(tail -3 "$tmp/pip.log")"
	"$real" - "$pkg" <<'PY' && ok "the backend's own pyproject reader (Python < 3.11) gives tomllib's metadata" || bad "backend pyproject reader"
import builtins, sys
sys.path.insert(0, sys.argv[1] + '/_build')
import backend
want = backend._metadata()
real_import = builtins.__import__
def no_toml(name, *a, **k):
    if name == 'tomllib':
        raise ImportError(name)
    return real_import(name, *a, **k)
builtins.__import__ = no_toml
try:
    got = backend._metadata()
finally:
    builtins.__import__ = real_import
assert got == want, (got[2][:300], want[2][:300])
assert 'Provides-Extra: pandas' in got[2] and 'Requires-Python: >=3.8' in got[2], got[2][:400]
PY
	installed=1
	break
done
[ -n "$installed" ] || echo "skip - python: no Python here can make a venv (Debian: python3-venv; sh scripts/deps.sh --test): $(tail -1 "$tmp/pip.log" 2>/dev/null)"
finish
