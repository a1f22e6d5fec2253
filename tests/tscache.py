"""The stdout of a tracestream run, made once a run of the tests.

    import os, sys
    sys.path.append(os.environ['TS_TESTS'])
    import tscache
    text = tscache.out(ts, '-f', 'json', path)      # str: the run's stdout
    rep = tscache.report(ts, path)                  # the JSON report, parsed

The same as ts_out in tests/lib.sh, with the same keys, so a report one
script made in shell is read back by another in Python: for inputs that do
not change during a run (the shared traces, tests/data); stderr dropped;
-q and --no-progress are not part of the key; a run naming standard input
or writing a file is not kept, nor one whose exit status is over 98 (a
sanitizer's report, a signal), nor one naming a folder (ranks, patterns:
their files are not in the key). The folder is $TS_CACHE (tests/run.sh sets
one for every script; lib.sh one a script); without it, nothing is kept.
"""
import hashlib
import os
import subprocess

QUIET = ('-q', '--quiet', '--no-progress')
NOKEEP = ('-', '-o', '--output', '--save-state', '--csv-dir')


def run(ts, *args):
    """(stdout, exit status) of ts ARGS."""
    args = [str(a) for a in args]
    cache = os.environ.get('TS_CACHE')
    if not cache or any(a in NOKEEP or a.startswith('--output=') or os.path.isdir(a) for a in args):
        p = subprocess.run([ts] + args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        return p.stdout.decode('utf-8', 'replace'), p.returncode
    key = []
    for a in args:
        if a in QUIET:
            continue
        key.append(a)
        if os.path.isfile(a):
            st = os.stat(a)
            key.append('%s %d %d' % (os.path.realpath(a), st.st_size, int(st.st_mtime)))
    lines = [ts, os.environ.get('TRACESTREAM_PATTERNS', '')] + key
    c = os.path.join(cache, hashlib.md5(('\n'.join(lines) + '\n').encode()).hexdigest())
    if not os.path.exists(c + '.rc'):
        os.makedirs(cache, exist_ok=True)
        tmp = '%s.%d' % (c, os.getpid())
        with open(tmp, 'wb') as f:
            rc = subprocess.run([ts, '-q', '--no-progress'] + args, stdout=f,
                                stderr=subprocess.DEVNULL).returncode
        if rc > 98 or rc < 0:
            with open(tmp, 'rb') as f:
                text = f.read()
            os.unlink(tmp)
            return text.decode('utf-8', 'replace'), rc
        os.replace(tmp, c + '.out')
        with open(tmp, 'w') as f:
            f.write('%d\n' % rc)
        os.replace(tmp, c + '.rc')
    with open(c + '.out', 'rb') as f:
        text = f.read()
    with open(c + '.rc') as f:
        rc = int(f.read())
    return text.decode('utf-8', 'replace'), rc


def out(ts, *args):
    """The stdout of ts ARGS (as subprocess.run(...).stdout with text=True)."""
    return run(ts, *args)[0]


def report(ts, path, *args):
    """The JSON report of PATH (None where there is none)."""
    import json
    text = out(ts, *(list(args) + ['-f', 'json', path]))
    return json.loads(text) if text.strip() else None
