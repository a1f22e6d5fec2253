#!/usr/bin/env python3
"""Rewrite a Kineto trace in a shape that must not change what tracestream
says about it, or must change it in a known way (tests/t_metamorphic.sh).

    rewrite.py HOW IN OUT
    rewrite.py HOW,HOW... IN PREFIX     each to PREFIX.HOW.json, one load

HOW:
  compact       no whitespace between tokens
  pretty        indented one key a line
  keys          every event's keys in reverse order ("args" before "cat")
  zeros         every float timestamp and duration written with trailing zeros
  shift         every timestamp 1,000,000 us later
  grouped       CPU events first, then the GPU's (as long captures write them)
  nodevices     deviceProperties removed
  noannot       every user_annotation and gpu_user_annotation removed
  gpuonly       the CPU side removed (a GPU-only capture)
  sorted        the events stably sorted by ts (as some tools re-save)
  reversed      the events in reverse order
  twice         the events, then all of them again 1 s after the last
                ends, their ids (correlation, External id, flow id) moved
                past the first copy's (a capture of two runs in one file)
The numbers keep their text where the rewrite does not touch them (read
and written through json with floats kept as their repr).
"""
import gzip
import json
import marshal
import sys


def load(path):
    f = gzip.open(path, 'rt') if path.endswith('.gz') else open(path)
    return json.load(f)


def events(d):
    return d['traceEvents'] if isinstance(d, dict) else d


def rev_keys(e):
    return {k: (rev_keys(v) if isinstance(v, dict) else v) for k, v in reversed(list(e.items()))}


GPU = {'kernel', 'gpu_memcpy', 'gpu_memset', 'gpu_user_annotation', 'Kernel', 'Memcpy', 'Memset'}


def main():
    how, src, out = sys.argv[1:4]
    if ',' not in how:
        rewrite(how, load(src), out)
        return
    # several rewrites of one trace: loaded once, each from its own copy
    # (marshal copies the parsed document exactly, floats and all)
    frozen = marshal.dumps(load(src))
    for h in how.split(','):
        rewrite(h, marshal.loads(frozen), '%s.%s.json' % (out, h))


def rewrite(how, d, out):
    ev = events(d)
    indent, seps = None, (',', ': ')
    if how == 'compact':
        seps = (',', ':')
    elif how == 'pretty':
        indent = 2
    elif how == 'keys':
        ev[:] = [rev_keys(e) if isinstance(e, dict) else e for e in ev]
    elif how == 'zeros':
        for e in ev:
            for k in ('ts', 'dur'):
                if isinstance(e, dict) and isinstance(e.get(k), float):
                    e[k] = ZeroFloat(e[k])
    elif how == 'shift':
        for e in ev:
            if isinstance(e, dict) and isinstance(e.get('ts'), (int, float)):
                e['ts'] = e['ts'] + 1000000
    elif how == 'grouped':
        cpu = [e for e in ev if not (isinstance(e, dict) and e.get('cat') in GPU)]
        gpu = [e for e in ev if isinstance(e, dict) and e.get('cat') in GPU]
        ev[:] = cpu + gpu
    elif how == 'nodevices':
        if isinstance(d, dict):
            d.pop('deviceProperties', None)
    elif how == 'noannot':
        ev[:] = [e for e in ev if not (isinstance(e, dict) and
                                       e.get('cat') in ('user_annotation', 'gpu_user_annotation'))]
    elif how == 'gpuonly':
        ev[:] = [e for e in ev if isinstance(e, dict) and (e.get('cat') in GPU or e.get('ph') == 'M')]
    elif how == 'sorted':
        ev.sort(key=lambda e: e['ts'] if isinstance(e, dict) and isinstance(e.get('ts'), (int, float))
                else float('-inf'))
    elif how == 'reversed':
        ev.reverse()
    elif how == 'twice':
        ev.extend(again(ev))
    else:
        raise SystemExit('unknown rewrite ' + how)
    text = json.dumps(d, indent=indent, separators=seps)
    if how == 'zeros':
        text = text.replace('"__Z__', '').replace('__Z__"', '')
    open(out, 'w').write(text)


def again(ev):
    """A copy of the events 1 s after the last one ends, ids moved past
    the first copy's."""
    ends = [e['ts'] + (e.get('dur') or 0) for e in ev
            if isinstance(e, dict) and isinstance(e.get('ts'), (int, float))
            and isinstance(e.get('dur') or 0, (int, float))]
    shift = (max(ends) - min(ends) + 1000000) if ends else 0
    ids = ('correlation', 'External id', 'Python id', 'Python parent id', 'Ev Idx')
    top = 1 + max([abs(e['args'][k]) for e in ev if isinstance(e, dict) and isinstance(e.get('args'), dict)
                   for k in ids if isinstance(e['args'].get(k), int)] +
                  [abs(e['id']) for e in ev if isinstance(e, dict) and isinstance(e.get('id'), int)] + [0])
    out = []
    for e in ev:
        if not isinstance(e, dict) or e.get('ph') == 'M':
            continue
        c = json.loads(json.dumps(e))
        if isinstance(c.get('ts'), (int, float)):
            c['ts'] = c['ts'] + shift
        if isinstance(c.get('id'), int):
            c['id'] += top
        a = c.get('args')
        if isinstance(a, dict):
            for k in ids:
                if isinstance(a.get(k), int) and a[k] >= 0:
                    a[k] += top
        out.append(c)
    return out


class ZeroFloat(str):
    """A float written with two more trailing zeros (as a marked string
    the writer unwraps)."""
    def __new__(cls, v):
        r = repr(v)
        if 'e' in r or 'E' in r or 'inf' in r or 'nan' in r:
            return str.__new__(cls, '__Z__' + r + '__Z__')
        return str.__new__(cls, '__Z__' + (r if '.' in r else r + '.') + '00__Z__')


if __name__ == '__main__':
    main()
