#!/usr/bin/env python3
"""Compare tracestream's classification with the hand-labeled table.

usage: check.py TRACESTREAM names.tsv [shorts.tsv]

shorts.tsv rows: expected short name<TAB>a prefix of exactly one full name.

Every row of names.tsv (labeled by hand from the name, independently of the
rules) must get the same type, category and stage hint. Every short name must
be non-empty and at most 48 bytes; rows of shorts.tsv (name -> expected short
name) must match exactly. Prints one ok/not ok line per check group.
"""
import subprocess
import sys


def main():
    ts, table = sys.argv[1], sys.argv[2]
    rows = []
    with open(table, encoding='utf-8') as f:
        header = f.readline().rstrip('\n').split('\t')
        assert header == ['source', 'event_cat', 'type', 'category', 'stage', 'name'], header
        for line in f:
            src, ev, typ, cat, stage, name = line.rstrip('\n').split('\t', 5)
            rows.append((src, ev, typ, cat, 'none' if stage == '-' else stage, name))
    feed = ''.join('%s\t%s\n' % (r[1], r[5]) for r in rows)
    p = subprocess.run([ts, 'patterns', 'explain', '-'], input=feed.encode(),
                       capture_output=True)
    if p.returncode != 0:
        print('not ok - patterns explain - exited %d: %s' % (p.returncode, p.stderr[:300]))
        return
    out = p.stdout.decode().split('\n')[:-1]
    if len(out) != len(rows):
        print('not ok - patterns explain -: %d lines for %d names' % (len(out), len(rows)))
        return
    got = [o.split('\t', 5) for o in out]
    for what, idx_want, idx_got in (('type', 2, 0), ('category', 3, 1), ('stage hint', 4, 2)):
        bad = [(r, g) for r, g in zip(rows, got) if r[idx_want] != g[idx_got]]
        if bad:
            print('not ok - %s of %d hand-labeled kernel names: %d differ' % (what, len(rows), len(bad)))
            for r, g in bad[:40]:
                print('#   want %-28s got %-28s rule %-22s %s' % (r[idx_want], g[idx_got], g[3], r[5][:110]))
        else:
            print('ok - %s of %d hand-labeled kernel names (%d distinct) matches' %
                  (what, len(rows), len(set(r[5] for r in rows))))
    long_or_empty = [g for g in got if not g[4] or len(g[4].encode()) > 48]
    if long_or_empty:
        print('not ok - short names: %d empty or longer than 48 bytes, e.g. %r' %
              (len(long_or_empty), long_or_empty[0][4]))
    else:
        print('ok - every short name is 1..48 bytes')
    if len(sys.argv) > 3:
        # shorts.tsv: expected short<TAB>a prefix of one full name in names.tsv
        want = []
        with open(sys.argv[3], encoding='utf-8') as f:
            for line in f:
                if line.startswith('#') or not line.strip():
                    continue
                short, prefix = line.rstrip('\n').split('\t', 1)
                want.append((short, prefix))
        by_name = {g[5]: g[4] for g in got}
        problems = []
        for short, prefix in want:
            hits = sorted(n for n in by_name if n.startswith(prefix))
            if len(hits) != 1:
                problems.append('prefix matches %d names: %s' % (len(hits), prefix[:80]))
            elif by_name[hits[0]] != short:
                problems.append('want %r got %r for %s' % (short, by_name[hits[0]], prefix[:80]))
        if problems:
            print('not ok - %d of %d expected short names differ' % (len(problems), len(want)))
            for pr in problems[:20]:
                print('#   ' + pr)
        else:
            print('ok - %d expected short names match exactly' % len(want))

if __name__ == '__main__':
    main()
