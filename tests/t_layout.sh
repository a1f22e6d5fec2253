#!/usr/bin/env bash
# The pipeline points downstream only: src/input < src/tables < src/analysis
# < src/report < the command (src/*.c: main, pipeline, multi, partial,
# progress); inside src/analysis, by concern: the per-event aggregators
# (analysis/) < attribution and the joins (analysis/attrib) < the layer
# machine and what it decides (analysis/layers) < the views computed after
# the run (analysis/views): a view reads the machines, never the reverse. Every project include is written with its folder ("analysis/
# agg.h", one -Isrc), so this reads each #include and fails on one that
# points up a stage, or on a bare name that hides where it points; and on a
# source file over 1,200 lines or a main.c over 600.
set -u
cd "$(dirname "$0")/.."
python3 - <<'PY'
import glob, os, re
rank = {'input': 0, 'tables': 1, 'analysis': 2, 'analysis/attrib': 2.1, 'analysis/layers': 2.2,
        'analysis/views': 2.3, 'report': 3, '': 4}
up, bare = [], []
files = sorted(glob.glob('src/*.[ch]') + glob.glob('src/*/*.[ch]') + glob.glob('src/*/*/*.[ch]'))
floors = sorted(set(os.path.dirname(os.path.relpath(f, 'src')) for f in files) - set(rank))
for f in files:
    d = os.path.dirname(os.path.relpath(f, 'src'))
    for m in re.finditer(r'#include "([^"]+)"', open(f).read()):
        inc = m.group(1)
        if not os.path.exists(os.path.join('src', inc)):
            bare.append('%s: "%s"' % (f, inc))
            continue
        if rank.get(os.path.dirname(inc), 99) > rank.get(d, -1):
            up.append('%s -> %s' % (f, inc))
print('%s - every project include names its folder (%d files)%s' %
      ('not ok' if bare else 'ok', len(files), ': ' + '; '.join(bare[:5]) if bare else ''))
print('%s - no include points up the pipeline (input < tables < analysis: aggregators < attrib < layers < views; < report < command)%s' %
      ('not ok' if up else 'ok', ': ' + '; '.join(up[:5]) if up else ''))
print('%s - every folder of src/ has its place in that order%s' %
      ('not ok' if floors else 'ok', ': ' + ', '.join(floors) if floors else ''))
# rooms of a size one can read: a file splits along its own seams first
big = ['%s (%d)' % (f, n) for f in files if f.endswith('.c')
       for n in [sum(1 for _ in open(f))] if n > 1200]
print('%s - no source file over 1,200 lines%s' %
      ('not ok' if big else 'ok', ': ' + ', '.join(big) if big else ''))
n = sum(1 for _ in open('src/main.c'))
print('%s - main.c is the front door only (%d lines, at most 600)' % ('ok' if n <= 600 else 'not ok', n))
PY
