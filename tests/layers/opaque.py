#!/usr/bin/env python3
"""Rewrite a Kineto trace so that kernel names carry no layer information.

Usage: opaque.py TS IN OUT

IN is a .json or gzip'ed .json trace (gzip is detected by its magic bytes),
OUT is written gzip'ed. Every event with cat "kernel" whose name is not an
attention kernel is renamed to an opaque token, one token per distinct name
(k0001, k0002, ... in order of first appearance). Attention kernels keep their
names. Every other event (gpu_memcpy, gpu_memset, cpu_op, annotations,
python_function, metadata, ...) and every other field is left as it is.

Which names are attention is asked of the tool itself, once, for all distinct
kernel names: `TS patterns explain -` reads one name per line and prints one
TSV line per name (type, category, stage hint, rule, short name, name). A name
is attention when its type is `attention` and its category is not
`Attention-Softmax`. The same call also explains the tokens, which must come
out as type `other`, so that no token is itself classified.

Prints one summary line on stdout:
  kernels K names D attention A names a renamed R names r
(launch counts checked before and after the rewrite). Exits 1 on any error.
"""
import gzip
import json
import subprocess
import sys


def die(msg):
    sys.stderr.write('opaque.py: %s\n' % msg)
    sys.exit(1)


def sanitize(name):
    # explain reads one name per line: no tab, newline or carriage return
    return name.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ')


def kernel_names(events):
    return [e['name'] for e in events
            if isinstance(e, dict) and e.get('cat') == 'kernel' and isinstance(e.get('name'), str)]


def main():
    if len(sys.argv) != 4:
        die('usage: opaque.py TS IN OUT')
    ts, src, dst = sys.argv[1:]
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
    names = list(dict.fromkeys(before))         # distinct, in order of first appearance
    width = max(4, len(str(len(names))))
    tokens = ['k%0*d' % (width, i + 1) for i in range(len(names))]
    taken = set(names).intersection(tokens)
    if taken:
        die('%s: kernel names already look like tokens: %s' % (src, sorted(taken)[:3]))

    # One call for the names and the candidate tokens together.
    query = [sanitize(n) for n in names] + tokens
    try:
        p = subprocess.run([ts, 'patterns', 'explain', '-'], input='\n'.join(query) + '\n',
                           capture_output=True, text=True, encoding='utf-8', errors='replace')
    except OSError as e:
        die('%s: %s' % (ts, e))
    if p.returncode != 0:
        die('%s patterns explain - exited %d: %s' % (ts, p.returncode, p.stderr[:300]))
    lines = p.stdout.split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    if len(lines) != len(query):
        die('patterns explain: %d names sent, %d lines back' % (len(query), len(lines)))
    cols = [l.split('\t', 5) for l in lines]
    for q, c in zip(query, cols):
        if len(c) != 6:
            die('patterns explain: not 6 TSV columns: %r' % '\t'.join(c)[:200])
        if c[5] != q:  # guards the column order and the line-by-line mapping
            die('patterns explain: line for %r names %r' % (q[:80], c[5][:80]))
    for t, c in zip(tokens, cols[len(names):]):
        if c[0] != 'other':
            die('token %s is classified as %s / %s: pick another token form' % (t, c[0], c[1]))

    attention = set(n for n, c in zip(names, cols)
                    if c[0] == 'attention' and c[1] != 'Attention-Softmax')
    token_of = {}
    for n in names:
        if n not in attention:
            token_of[n] = tokens[len(token_of)]

    for e in events:
        if (isinstance(e, dict) and e.get('cat') == 'kernel'
                and isinstance(e.get('name'), str) and e['name'] in token_of):
            e['name'] = token_of[e['name']]

    # Counts before and after: same launches, attention kept, the rest tokens.
    after = kernel_names(events)
    n_attn = sum(1 for n in before if n in attention)
    token_set = set(token_of.values())
    ok = (len(after) == len(before)
          and sum(1 for n in after if n in attention) == n_attn
          and sum(1 for n in after if n in token_set) == len(before) - n_attn
          and all((a == b) if b in attention else (a == token_of[b]) for a, b in zip(after, before))
          and len(set(after)) == len(names))
    if not ok:
        die('%s: the rewrite does not keep the kernel counts' % src)

    out = json.dumps(doc, ensure_ascii=False, separators=(',', ':'))
    try:
        with gzip.open(dst, 'wb', compresslevel=1) as f:
            f.write(out.encode('utf-8', 'surrogatepass'))
    except OSError as e:
        die('%s: %s' % (dst, e))
    print('kernels %d names %d attention %d names %d renamed %d names %d' %
          (len(before), len(names), n_attn, len(attention), len(before) - n_attn, len(token_of)))


if __name__ == '__main__':
    main()
