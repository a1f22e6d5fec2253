#!/usr/bin/env python3
"""Write a trace K times over, as one longer capture.

    repeat.py TRACE[.gz] K > OUT.json
    repeat.py TRACE[.gz] K OUT.json [K OUT.json]...   (one load, several K)

As Kineto writes a longer capture: the CPU's side of every copy first (ops,
Python frames, annotations), then the rest of every copy (runtime calls
with the GPU's operations), each in the trace's own order.

Copy k (0-based) of every timed event has its ts shifted by k times the
trace's span plus a gap, and its ids (External id, correlation, Python id,
Python parent id, flow id) shifted past every id of the copy before, so the
copies do not collide. Metadata ("M") and events without ts are written
once. Test helper: it loads the trace (stdlib json), which is fine for the
small shared traces.
"""
import gzip
import json
import sys

ID_KEYS = ('External id', 'correlation', 'Python id', 'Python parent id', 'Ev Idx')


def load(path):
    with open(path, 'rb') as f:
        head = f.read(2)
    opener = gzip.open if head == b'\x1f\x8b' else open
    with opener(path, 'rt', encoding='utf-8', errors='surrogateescape') as f:
        return json.load(f)


def main():
    path = sys.argv[1]
    if len(sys.argv) == 3:
        sys.stdout.write(repeat(load(path), int(sys.argv[2])))
        return
    doc = load(path)
    for k, out in zip(sys.argv[2::2], sys.argv[3::2]):
        with open(out, 'w') as f:
            f.write(repeat(doc, int(k)))


def repeat(doc, k):
    """The text of DOC written K times over (DOC is not changed)."""
    events = doc['traceEvents'] if isinstance(doc, dict) else doc
    def is_timed(e):
        return (isinstance(e, dict) and e.get('ph') != 'M'
                and isinstance(e.get('ts'), (int, float)))
    timed = [e for e in events if is_timed(e)]
    once = [e for e in events if not is_timed(e)]
    t0 = min(e['ts'] for e in timed)
    t1 = max(e['ts'] + (e.get('dur') or 0) for e in timed)
    shift_ts = (t1 - t0) + 10000.0
    max_id = 0
    for e in timed:
        for src in (e, e.get('args') or {}):
            for key in ID_KEYS + ('id',):
                v = src.get(key)
                if isinstance(v, int) and v > max_id:
                    max_id = v
    shift_id = max_id + 1
    copies = []
    for c in range(k):
        out = []
        copies.append(out)
        for e in timed:
            e2 = dict(e)
            e2['ts'] = e['ts'] + c * shift_ts
            if isinstance(e.get('id'), int) and e.get('ph') in ('s', 'f', 't'):
                e2['id'] = e['id'] + c * shift_id
            if isinstance(e.get('args'), dict):
                a = dict(e['args'])
                for key in ID_KEYS:
                    if isinstance(a.get(key), int) and a[key] >= 0:
                        a[key] += c * shift_id
                e2['args'] = a
            out.append(e2)
    cpu = ('cpu_op', 'python_function', 'user_annotation', 'cpu_instant_event', 'Operator')
    out = ([e for c in copies for e in c if e.get('cat') in cpu] +
           [e for c in copies for e in c if e.get('cat') not in cpu])
    if isinstance(doc, dict):
        doc = dict(doc)
        doc['traceEvents'] = out + once
    else:
        doc = out + once
    return json.dumps(doc, separators=(',', ':')) + '\n'


if __name__ == '__main__':
    main()
