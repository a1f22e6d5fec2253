#!/usr/bin/env python3
"""Rewrite a Kineto trace so that no kernel name says anything.

Usage: opaque.py TS IN OUT [SEED]

IN is a .json or gzip'ed .json trace (gzip is detected by its magic bytes),
OUT is written gzip'ed. Every kernel event (cat "kernel", or "Kernel" in
PyTorch 1.8/1.9 traces) gets a random string for its name, one string per
distinct name (the same name, the same string), drawn from SEED (default 1).
Every other event and field (CPU ops, annotations, memory operations, flows,
metadata) is left as it is, so what the tool can still use is the identity
of each kernel, its timing and what launched it.

No string may be typed by the tables: `TS patterns explain -` is asked
about every string drawn, and one that a rule would type (a random string
can hold "rope" or "gemm") is drawn again.

Prints one summary line on stdout:
  kernels K names D renamed R
(launch counts checked before and after the rewrite). Exits 1 on any error.
"""
import gzip
import json
import random
import string
import subprocess
import sys

KERNEL_CATS = ('kernel', 'Kernel')


def die(msg):
    sys.stderr.write('opaque.py: %s\n' % msg)
    sys.exit(1)


def kernel_names(events):
    return [e['name'] for e in events
            if isinstance(e, dict) and e.get('cat') in KERNEL_CATS and isinstance(e.get('name'), str)]


def untyped(ts, tokens):
    """The tokens the tables leave as type `other`."""
    p = subprocess.run([ts, 'patterns', 'explain', '-'], input='\n'.join(tokens) + '\n',
                       capture_output=True, text=True)
    if p.returncode != 0:
        die('%s patterns explain - exited %d: %s' % (ts, p.returncode, p.stderr[:300]))
    lines = p.stdout.split('\n')
    if len(lines) < len(tokens):
        die('patterns explain: %d names sent, %d lines back' % (len(tokens), len(lines)))
    out = set()
    for t, line in zip(tokens, lines):
        cols = line.split('\t')
        if len(cols) != 6 or cols[5] != t:
            die('patterns explain: unexpected line for %r: %r' % (t, line[:200]))
        if cols[0] == 'other':
            out.add(t)
    return out


def main():
    if len(sys.argv) not in (4, 5):
        die('usage: opaque.py TS IN OUT [SEED]')
    ts, src, dst = sys.argv[1:4]
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) == 5 else 1)
    try:
        with open(src, 'rb') as f:
            raw = f.read()
    except OSError as e:
        die('%s: %s' % (src, e))
    if raw[:2] == b'\x1f\x8b':
        raw = gzip.decompress(raw)
    try:
        doc = json.loads(raw)
    except ValueError as e:
        die('%s: not JSON: %s' % (src, e))
    del raw
    events = doc.get('traceEvents') if isinstance(doc, dict) else doc
    if not isinstance(events, list):
        die('%s: no traceEvents list' % src)

    before = kernel_names(events)
    names = list(dict.fromkeys(before))          # distinct, in order of first appearance
    token_of, used = {}, set(names)
    alphabet = string.ascii_lowercase + string.digits
    pending = list(names)
    for _ in range(20):
        if not pending:
            break
        drawn = {}
        for n in pending:
            while True:
                t = 'k' + ''.join(rng.choice(alphabet) for _ in range(rng.randint(8, 24)))
                if t not in used:
                    used.add(t)
                    drawn[n] = t
                    break
        ok = untyped(ts, list(drawn.values()))
        pending = [n for n, t in drawn.items() if t not in ok]
        token_of.update((n, t) for n, t in drawn.items() if t in ok)
    if pending:
        die('%d names got no untyped string' % len(pending))

    for e in events:
        if isinstance(e, dict) and e.get('cat') in KERNEL_CATS and isinstance(e.get('name'), str):
            e['name'] = token_of[e['name']]

    after = kernel_names(events)
    ok = (len(after) == len(before) and all(a == token_of[b] for a, b in zip(after, before))
          and len(set(after)) == len(names))
    if not ok:
        die('%s: the rewrite does not keep the kernel counts' % src)

    out = json.dumps(doc, ensure_ascii=False, separators=(',', ':'))
    try:
        with gzip.open(dst, 'wb', compresslevel=1) as f:
            f.write(out.encode('utf-8', 'surrogatepass'))
    except OSError as e:
        die('%s: %s' % (dst, e))
    print('kernels %d names %d renamed %d' % (len(before), len(names), len(after)))


if __name__ == '__main__':
    main()
