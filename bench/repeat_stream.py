#!/usr/bin/env python3
"""Write a trace K times over, as one longer capture - streaming.

    repeat_stream.py TRACE[.gz] K > OUT.json
    repeat_stream.py --info TRACE[.gz]

The same events as tests/layers/repeat.py (same key order, same
separators, the same values), made for large K and real-shaped: every
number keeps the text the trace wrote (Kineto's "1234.500", not Python's
"1234.5"; a shifted ts keeps its decimals, exact), so a benchmark parses
the digits real captures have.  Instead of
building K copies of every event in memory and one huge json.dumps, each
timed event is serialized once as a template with slots for the fields that
move between copies, and copy c only formats those:

  ts                      ts + c * span_shift   (span of the trace + 10 ms,
                                                 whole microseconds)
  id  (ph s, f, t)        id + c * id_shift     (past every id of the trace)
  args: External id, correlation, Python id, Python parent id, Ev Idx
                          v + c * id_shift      (integers >= 0 only)

As Kineto writes a longer capture, the CPU's side of every copy (ops,
Python frames, annotations) comes first, then the rest of every copy
(runtime calls with the GPU's operations), each in the trace's own order.
Metadata ("M") and events without ts are written once, after the copies.
Memory stays at the loaded trace plus one copy's text; output goes out a
copy at a time.

--info prints, as one JSON line, the input's uncompressed bytes (raw_bytes),
the bytes of the first copy of its timed events as written here (compact
JSON: copy_bytes), the bytes written once (fixed_bytes) and the event
counts.  Later copies are a little longer (shifted ts and ids have more
digits), so K copies take at least fixed_bytes + K * copy_bytes + K - 1
bytes.  Stdlib only.
"""
import gzip
import json
import math
import sys
from decimal import Decimal

ID_KEYS = ('External id', 'correlation', 'Python id', 'Python parent id', 'Ev Idx')
CPU_SIDE = ('cpu_op', 'python_function', 'user_annotation', 'cpu_instant_event', 'Operator')
_dumps = json.JSONEncoder(separators=(',', ':')).encode


def load(path):
    with open(path, 'rb') as f:
        head = f.read(2)
    opener = gzip.open if head == b'\x1f\x8b' else open
    raw = 0
    with opener(path, 'rb') as f:
        while True:
            b = f.read(1 << 20)
            if not b:
                break
            raw += len(b)
    with opener(path, 'rt', encoding='utf-8', errors='surrogateescape') as f:
        # a fraction as a Decimal: its text, digit for digit
        return json.load(f, parse_float=Decimal), raw


def is_timed(e):
    return (isinstance(e, dict) and e.get('ph') != 'M'
            and isinstance(e.get('ts'), (int, float, Decimal))
            and not isinstance(e.get('ts'), bool))


def dumps(v):
    """Compact JSON of v, a number in the text it was read with."""
    if isinstance(v, Decimal):
        return str(v)
    if isinstance(v, dict):
        return '{' + ','.join(_dumps(k) + ':' + dumps(x) for k, x in v.items()) + '}'
    if isinstance(v, list):
        return '[' + ','.join(dumps(x) for x in v) + ']'
    return _dumps(v)


def fmt_num(x):
    if isinstance(x, Decimal):
        return str(x)
    # json.dumps formats finite floats with float.__repr__
    if isinstance(x, float) and (x != x or x in (math.inf, -math.inf)):
        return _dumps(x)
    return repr(x)


# Slot kinds: the value a copy writes is original + c * shift, formatted.
TS, ID = 0, 1


def template(e):
    """(literal pieces, slots): pieces[0] slot0 pieces[1] slot1 ... pieces[n];
    each slot is (kind, original value). Mirrors repeat.py's rules."""
    pieces, slots = [], []
    cur = ['{']
    first = True
    shift_id = isinstance(e.get('id'), int) and e.get('ph') in ('s', 'f', 't')
    for key, val in e.items():
        if not first:
            cur.append(',')
        first = False
        cur.append(_dumps(key) + ':')
        if key == 'ts':
            pieces.append(''.join(cur)); cur = []
            slots.append((TS, val))
        elif key == 'id' and shift_id:
            pieces.append(''.join(cur)); cur = []
            slots.append((ID, val))
        elif key == 'args' and isinstance(val, dict):
            cur.append('{')
            afirst = True
            for ak, av in val.items():
                if not afirst:
                    cur.append(',')
                afirst = False
                cur.append(_dumps(ak) + ':')
                if ak in ID_KEYS and isinstance(av, int) and av >= 0:
                    pieces.append(''.join(cur)); cur = []
                    slots.append((ID, av))
                else:
                    cur.append(dumps(av))
            cur.append('}')
        else:
            cur.append(dumps(val))
    cur.append('}')
    pieces.append(''.join(cur))
    return pieces, slots


def prepare(doc):
    events = doc['traceEvents'] if isinstance(doc, dict) else doc
    timed = [e for e in events if is_timed(e)]
    once = [e for e in events if not is_timed(e)]
    if not timed:
        raise SystemExit('repeat_stream: no timed events')
    t0 = min(e['ts'] for e in timed)
    t1 = max(e['ts'] + (e.get('dur') if isinstance(e.get('dur'), (int, Decimal)) else 0)
             for e in timed)
    # whole microseconds: a shifted ts keeps the decimals it had
    shift_ts = int(math.ceil(t1 - t0)) + 10000
    max_id = 0
    for e in timed:
        for src in (e, e.get('args') or {}):
            for key in ID_KEYS + ('id',):
                v = src.get(key)
                if isinstance(v, int) and v > max_id:
                    max_id = v
    shift_id = max_id + 1
    # head + [copies] + once + tail
    once_text = ''.join(',' + dumps(e) for e in once)
    if isinstance(doc, dict):
        parts = []
        head = tail = None
        for key, val in doc.items():
            if key == 'traceEvents':
                head = '{' + ','.join(parts) + (',' if parts else '') + _dumps(key) + ':['
                parts = []
            else:
                parts.append(_dumps(key) + ':' + dumps(val))
        tail = ']' + ''.join(',' + p for p in parts) + '}'
    else:
        head, tail = '[', ']'
    cpu = [template(e) for e in timed if e.get('cat') in CPU_SIDE]
    rest = [template(e) for e in timed if e.get('cat') not in CPU_SIDE]
    return (cpu, rest), shift_ts, shift_id, head, once_text, tail, len(once)


def copy_text(templates, c, shift_ts, shift_id):
    dts = c * shift_ts
    did = c * shift_id
    out = []
    add = out.append
    for pieces, slots in templates:
        add(pieces[0])
        i = 1
        for kind, v in slots:
            if kind == TS:
                add(fmt_num(v + dts))
            else:
                add(str(v + did))
            add(pieces[i])
            i += 1
        add(',')
    out.pop()  # the comma after the copy's last event
    return ''.join(out)


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == '--info':
        doc, raw = load(args[1])
        parts, shift_ts, shift_id, head, once_text, tail, n_once = prepare(doc)
        templates = parts[0] + parts[1]
        one = copy_text(templates, 0, shift_ts, shift_id)
        print(json.dumps({'raw_bytes': raw, 'copy_bytes': len(one),
                          'fixed_bytes': len(head) + len(once_text) + len(tail) + 1,
                          'timed_events': len(templates), 'once_events': n_once,
                          'shift_ts': shift_ts, 'shift_id': shift_id}))
        return
    if len(args) != 2:
        sys.exit('usage: repeat_stream.py TRACE[.gz] K > OUT.json\n'
                 '       repeat_stream.py --info TRACE[.gz]')
    path, k = args[0], int(args[1])
    if k < 1:
        sys.exit('repeat_stream: K must be >= 1')
    doc, _ = load(path)
    parts, shift_ts, shift_id, head, once_text, tail, _ = prepare(doc)
    del doc
    out = sys.stdout.buffer
    # ensure_ascii (json's default) makes every piece ASCII
    out.write(head.encode('ascii'))
    first = True
    for templates in parts:
        if not templates:
            continue
        for c in range(k):
            if not first:
                out.write(b',')
            first = False
            out.write(copy_text(templates, c, shift_ts, shift_id).encode('ascii'))
    out.write((once_text + tail + '\n').encode('ascii'))
    out.flush()


if __name__ == '__main__':
    main()
