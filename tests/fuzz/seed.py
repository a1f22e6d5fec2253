#!/usr/bin/env python3
"""Write the seed corpora of the fuzz targets from the project's own
fixtures and tables, plus the hostile inputs of issue 15 (each defect's
input is kept, as is every input a fuzzer ever found a bug with: those are
added by hand as crash-* or slow-*). Small inputs go to
tests/fuzz/corpus/TARGET (libFuzzer mutates them); inputs that expand to
megabytes (gzip bombs, long names) go to tests/fuzz/regress/TARGET, which
`make test` replays with the corpus but libFuzzer does not start from (each
run of one takes milliseconds, and mutating them would slow the search
a hundredfold). Files are named by content: re-running adds nothing twice.

    python3 tests/fuzz/seed.py
"""
import glob
import gzip
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
os.chdir(root)
out = 'tests/fuzz/corpus'


def put(target, name, data, heavy=False):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join('tests/fuzz/regress' if heavy else out, target)
    os.makedirs(d, exist_ok=True)
    h = hashlib.sha1(data).hexdigest()[:12]
    with open(os.path.join(d, '%s-%s' % (name, h)), 'wb') as f:
        f.write(data)


def gz(b):
    return gzip.compress(b, compresslevel=9, mtime=0)


def ev(name, ts, extra=''):
    return ('{"ph": "X", "cat": "kernel", "name": "%s", "pid": 0, "tid": 7, "ts": %d, '
            '"dur": 2, "args": {"device": 0, "stream": 7%s}}' % (name, ts, extra))


# --- trace: fixtures, then the hostile inputs
for f in sorted(glob.glob('tests/fixtures/*.json') + glob.glob('tests/attrib/*.json') +
                ['tests/cli/tiny.json']):
    if f.endswith('.expect.json'):
        continue
    data = open(f, 'rb').read()
    if len(data) <= 64 * 1024:
        put('trace', os.path.basename(f).replace('.json', ''), data)
put('trace', 'tiny-gz', gz(open('tests/cli/tiny.json', 'rb').read()))
nums = subprocess.run([sys.executable, 'tests/hostile/mknums.py', '/dev/stdout'],
                      capture_output=True, check=True).stdout
put('trace', 'defect1-numbers', nums)
for t in ['1234.', '1e', '-', 'tru', '"ab']:
    put('trace', 'defect7-cut', '{"traceEvents": [{"ph": "X", "ts": %s' % t)
put('trace', 'defect6-surrogates',
    b'{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "sur\xed\xa0\x80ogate \xf4\x90\x80\x80 \xc0\xaf", "ts": 1, "dur": 2}]}')
head = '{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "'
tail = '", "ts": 1, "dur": 2}, ' + ev('after', 5) + ']}'
put('trace', 'defect2-longname-gz', gz((head + 'k' * (3 << 20) + tail).encode()), heavy=True)
put('trace', 'defect2-longname-escapes-gz',
    gz((head + ('k\\u0041\\n' * (1 << 18)) + tail).encode()), heavy=True)
put('trace', 'defect2-dropped-ctrl-gz',
    gz((head + 'k' * (1 << 20) + '\x01' + 'k' * 10 + tail).encode()), heavy=True)
put('trace', 'defect2-dropped-escape-gz',
    gz((head + 'k' * (1 << 20) + '\\q' + tail).encode()), heavy=True)
put('trace', 'long-number-gz',
    gz(('{"traceEvents": [{"ph": "X", "ts": ' + '7' * (2 << 20) + '}]}').encode()), heavy=True)
for kind, n in [('nest', 3000), ('nulnames', None), ('names', 50), ('ids', 200), ('bomb', 4)]:
    cmd = [sys.executable, 'tests/hostile/mkhostile.py', kind] + ([str(n)] if n else [])
    data = subprocess.run(cmd, capture_output=True, check=True).stdout
    big = len(data) > 32768
    put('trace', 'hostile-' + kind + ('-gz' if big else ''), gz(data) if big else data, heavy=big)
put('trace', 'empty', b'')
put('trace', 'whitespace', b' \n\t\r\n')

# --- partial: saved partials of the fixtures (needs ./tracestream built)
if os.path.exists('./tracestream'):
    # made again each time (a partial holds its run's wall time, so its
    # name changes): the old ones go, and a stale format cannot stay
    for f in glob.glob(os.path.join(out, 'partial', '*')):
        os.unlink(f)
    for f in ['tests/cli/tiny.json', 'tests/attrib/calls.json', 'tests/fixtures/amd_single_line.json',
              'tests/fixtures/nvidia_pretty2.json']:
        tmp = os.path.join(out, 'partial.tmp')
        subprocess.run(['./tracestream', '-q', '--save-state', tmp, f], check=True,
                       stdout=subprocess.DEVNULL)
        data = open(tmp, 'rb').read()
        os.unlink(tmp)
        put('partial', os.path.basename(f).replace('.json', ''), data)
    # a partial with a capture map and replay table (--capture)
    cap = tempfile.mkdtemp()
    subprocess.run([sys.executable, 'tests/capture/mkcapture.py', cap], check=True)
    subprocess.run([os.path.abspath('tracestream'), '-q', '--save-state', 'p.tsp', '--capture',
                    'capture_hip.json', 'replay_hip.json'],
                   check=True, stdout=subprocess.DEVNULL, cwd=cap)
    put('partial', 'capture-hip', open(os.path.join(cap, 'p.tsp'), 'rb').read())
    shutil.rmtree(cap)
else:
    print('seed: ./tracestream is not built: no partial seeds', file=sys.stderr)

# --- capture: one input holds a capture and the replays of it
# (tests/fuzz/corpus/capture/{hip,cuda,diff}.json were written by hand)
import json  # noqa: E402
cap = tempfile.mkdtemp()
subprocess.run([sys.executable, 'tests/capture/mkcapture.py', cap], check=True)
for form in ('hip', 'cuda'):
    ev = []
    for f in ('capture_%s.json' % form, 'replay_pad_%s.json' % form):
        ev += json.load(open(os.path.join(cap, f)))['traceEvents']
    put('capture', 'pad-' + form, json.dumps({'traceEvents': ev}, separators=(',', ':')))
shutil.rmtree(cap)

# --- patterns: one byte (0: a top-level table, 1: a model family), the file
for f in sorted(glob.glob('patterns/*.yaml')):
    put('patterns', os.path.basename(f).replace('.yaml', ''), b'\0' + open(f, 'rb').read())
for f in sorted(glob.glob('patterns/models/*.yaml')):
    put('patterns', 'model-' + os.path.basename(f).replace('.yaml', ''), b'\1' + open(f, 'rb').read())
for f in sorted(glob.glob('tests/patterns/**/*.yaml', recursive=True)):
    data = open(f, 'rb').read()
    if len(data) <= 64 * 1024:
        fam = b'\1' if '/models/' in f else b'\0'
        put('patterns', 'test-' + os.path.basename(f).replace('.yaml', ''), fam + data)
put('patterns', 'defect3-backtracking',
    "\0rules:\n  - {name: evil, match: '(a+)+$', category: Elementwise-ATen}\n")
put('patterns', 'defect4-alias',
    '\0rules:\n  - {name: r0, match: &a "xxxxxxxx", category: Elementwise-ATen}\n'
    + ''.join('  - {name: r%d, match: *a, category: Elementwise-ATen}\n' % i for i in range(1, 50)))
put('patterns', 'defect5-many-rules',
    '\0rules:\n' + ''.join('  - {name: r%d, match: "k%d_", category: Elementwise-ATen}\n' % (i, i)
                           for i in range(300)))

# --- workload: template, condition, expression, then shape bytes
ops = open('patterns/operators.yaml').read()
tmpls = re.findall(r"workload: '([^']*)'", ops)
exprs = re.findall(r"(?:flops|bytes|tokens): '([^']*)'", ops)
conds = re.findall(r"where: '([^']*)'", ops) or ['a0[0] > 1']
for i, t in enumerate(tmpls):
    put('workload', 'ops', '%s\n%s\n%s\n%s' % (t, conds[i % len(conds)], exprs[i % len(exprs)],
                                              'x' * (i * 7 % 300)))
put('workload', 'overflow', 'n{a0.numel * a1.numel * a2.numel}\nT >= 9223372036854775807\n'
    'a0[0] * 9223372036854775807 + 1\n' + '\xff' * 400)
put('workload', 'dims-negative', 'x{a0[-7]}_{c15}\nc99 = 1\na9[9] / 0\n')
