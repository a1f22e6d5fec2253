#!/usr/bin/env python3
"""Hostile traces, written to stdout as a stream (the big ones are never on
disk): python3 mkhostile.py KIND [N]

  nest N      a kernel whose args nest N arrays and maps deep
  longname N  a kernel whose name is N MB (then a short kernel)
  names N     N kernels, each with a name of its own
  ids N       N cpu_ops with distinct External ids 1..N, then 1000 kernels
              of ops spread over them
  spread N    the same with External ids spread over 2^62
  nulnames    names with NUL bytes, invalid UTF-8, surrogates, controls
  bomb N      N MB of whitespace inside a valid trace (gzip it: a bomb)
  badbomb N   N MB of whitespace, then a byte that is not JSON

Every kernel lasts 2 us; the truth each test checks is stated where the
trace is made (the counts follow from N).
"""
import sys

out = sys.stdout.buffer
HEAD = b'{"traceEvents": [\n'


def kernel(name, ts, ext=None):
    c = b'' if ext is None else b', "External id": %d' % ext
    return (b'{"ph": "X", "cat": "kernel", "name": "%s", "pid": 0, "tid": 7, '
            b'"ts": %d, "dur": 2, "args": {"device": 0, "stream": 7%s}}' % (name, ts, c))


def chunks(gen, per=20000):
    buf = []
    for item in gen:
        buf.append(item)
        if len(buf) == per:
            out.write(b',\n'.join(buf) + b',\n')
            buf = []
    return buf


def main():
    kind = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    out.write(HEAD)
    if kind == 'nest':
        half = n // 2
        deep = b'{"a": [' * half + b'1' + b']}' * half
        out.write(b'{"ph": "X", "cat": "kernel", "name": "deep", "pid": 0, "tid": 7, '
                  b'"ts": 10, "dur": 2, "args": {"device": 0, "x": ' + deep + b'}},\n')
        out.write(kernel(b'after', 20))
    elif kind == 'longname':
        out.write(b'{"ph": "X", "cat": "kernel", "name": "')
        block = b'k' * (1 << 20)
        for _ in range(n):
            out.write(block)
        out.write(b'", "pid": 0, "tid": 7, "ts": 10, "dur": 2, "args": {"device": 0}},\n')
        out.write(kernel(b'after', 20))
    elif kind == 'names':
        rest = chunks(kernel(b'kernel_%07d' % i, 10 * i) for i in range(n))
        out.write(b',\n'.join(rest + [kernel(b'last', 10 * n)]))
    elif kind in ('ids', 'spread'):
        step = 1 if kind == 'ids' else (1 << 62) // max(n, 1)

        # every kernel comes after all CPU events, as in real files; a
        # kernel carries its op's External id, as Kineto writes it
        def events():
            for i in range(n):
                yield (b'{"ph":"X","cat":"cpu_op","name":"aten::op","pid":1,"tid":1,'
                       b'"ts":%d,"dur":1,"args":{"External id":%d}}' % (10 * i, 1 + i * step))
            for i in range(0, n, max(n // 1000, 1)):
                yield kernel(b'k', 10 * i + 5, 1 + i * step)
        rest = chunks(events())
        out.write(b',\n'.join(rest + [kernel(b'last', 10 * n + 5)]))
    elif kind == 'nulnames':
        names = [b'nul\\u0000inside', b'raw\xff\xfebytes', b'sur\xed\xa0\x80ogate',
                 b'ctl\\u0001\\u001f', b'esc\\ud800lone', b'over\xc0\xaflong', b'trail\xe2\x82']
        out.write(b',\n'.join(kernel(nm, 10 * i) for i, nm in enumerate(names)))
    elif kind in ('bomb', 'badbomb'):
        out.write(kernel(b'before', 10) + b',')
        block = b' ' * (1 << 20)
        for _ in range(n):
            out.write(block)
        if kind == 'badbomb':
            out.write(b'@')
        out.write(kernel(b'after', 20))
    else:
        sys.exit('mkhostile: unknown kind ' + kind)
    out.write(b'\n]}\n')


main()
