#!/usr/bin/env bash
# The pipeline points downstream only, on a ground floor of mechanisms
# every stage shares (src/input/base, the first stage's cellar: the error
# type, grower, hash, interning, warnings, the partial's bytes, saturating
# sums, how an input is named; it includes nothing of the project above
# it): src/input/base < src/input < src/tables < src/analysis
# < src/report < the command (src/*.c: main, pipeline, multi, partial,
# progress); inside src/analysis, by concern: the per-event aggregators
# (analysis/) < attribution and the joins (analysis/attrib) < the parts the
# layer machine is made of, each answering one question from what it is
# given (analysis/structure: steps, the repeating unit) < the layer
# machine and what it decides (analysis/layers) < the views computed after
# the run (analysis/views) < the report's tables as a view
# (analysis/views/tables, which reads the other views): a view reads the
# machines, never the reverse. Every project include is written with its
# folder ("analysis/agg.h", one -Isrc), so this reads each #include and
# fails on one that points up a stage, or on a bare name that hides where
# it points; and on a source file over 1,200 lines or a main.c over 600,
# a folder of more than 15 .c files, a function over 120 lines (its body, from the opening brace
# in column 0 to the closing one), or an error passed as a char buffer and
# its length (errlen) instead of a ts_error. Reporters read views only:
# a file of src/report/ that includes an analysis header outside
# analysis/views/, or calls a function a machine's header declares (a
# ts_agg_, ts_api_, ts_busy_, ts_idle_, ts_comm_, ts_attrib_, ts_layers_,
# ts_steps_, ... name: the list is MACHINE below), fails; view functions
# (declared under analysis/views/) are the only ones allowed.
# sanitizers: release only (reads the sources' includes)
set -u
cd "$(dirname "$0")/.."
python3 - <<'PY'
import glob, os, re
rank = {'input/base': -1, 'input': 0, 'tables': 1, 'analysis': 2, 'analysis/attrib': 2.1, 'analysis/structure': 2.15, 'analysis/layers': 2.2,
        'analysis/views': 2.3, 'analysis/views/tables': 2.35, 'report': 3, 'report/compare': 3.1, '': 4}
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
print('%s - no include points up the pipeline (input/base < input < tables < analysis: aggregators < attrib < structure < layers < views < views/tables; < report < report/compare < command)%s' %
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
cs = [f for f in files if f.endswith('.c')]
dirs = {}
for f in cs:
    dirs.setdefault(os.path.dirname(f), []).append(f)
full = ['%s (%d)' % (d, len(v)) for d, v in sorted(dirs.items()) if len(v) > 15]
print('%s - no folder of src/ holds more than 15 .c files%s' %
      ('not ok' if full else 'ok', ': ' + ', '.join(full) if full else ''))
# a function: a line in column 0 that names one, its body from the next
# "{" in column 0 to the "}" in column 0 that closes it
long_fns, longest = [], 0
for f in cs:
    lines = open(f).read().split('\n')
    i = 0
    while i < len(lines):
        if re.match(r'^[A-Za-z_].*\(', lines[i]) and not lines[i].rstrip().endswith(';'):
            j = i
            while j < len(lines) and not lines[j].startswith('{') and not lines[j].rstrip().endswith(';'):
                j += 1
            if j < len(lines) and lines[j].startswith('{'):
                k = j
                while k < len(lines) and not lines[k].startswith('}'):
                    k += 1
                n = k - j + 1
                longest = max(longest, n)
                if n > 120:
                    name = re.search(r'(\w+)\s*\(', lines[i])
                    long_fns.append('%s %s (%d)' % (f, name.group(1) if name else '?', n))
                i = k
        i += 1
print('%s - no function over 120 lines (the longest %d)%s' %
      ('not ok' if long_fns else 'ok', longest, ': ' + ', '.join(long_fns) if long_fns else ''))
errlen = [f for f in files if re.search(r'\berrlen\b', open(f).read())]
print('%s - errors travel as ts_error, no (char *err, size_t errlen) pair%s' %
      ('not ok' if errlen else 'ok', ': ' + ', '.join(errlen) if errlen else ''))
# no circle inside a folder: file A calls a function file B defines (a
# ts_ name, comments and strings aside) and B, or a file it calls, calls
# back into A. The two the layer machine still has (its hub and the parts
# that call back into it, issue 61) are named here and must not grow;
# any other circle fails.
KNOWN = [
    {'analysis/layers/layers.c', 'analysis/layers/layers_check.c', 'analysis/layers/layers_launch.c',
     'analysis/layers/layers_stages.c', 'analysis/layers/layers_steps.c', 'analysis/layers/layers_unit.c'},
    {'analysis/structure/unit.c', 'analysis/structure/unit_fold.c', 'analysis/structure/unit_memo.c',
     'analysis/structure/unit_named.c', 'analysis/structure/unit_phase.c'},
]
def code(f):
    t = re.sub(r'/\*.*?\*/', ' ', open(f).read(), flags=re.S)
    return re.sub(r'"(\\.|[^"\\])*"', '""', t)
text = {f: code(f) for f in cs}
owner = {}
for f in cs:
    for m in re.finditer(r'^(?!static)[A-Za-z_][\w \*]*?\b(ts_\w+)\s*\([^;{]*\)\s*\{', text[f], re.M):
        owner.setdefault(m.group(1), f)
edges = {f: set() for f in cs}
for f in cs:
    for n in set(re.findall(r'\b(ts_\w+)\s*\(', text[f])):
        o = owner.get(n)
        if o and o != f and os.path.dirname(o) == os.path.dirname(f):
            edges[f].add(o)
def reach(a):
    seen, todo = set(), [a]
    while todo:
        for w in edges[todo.pop()]:
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return seen
reached = {f: reach(f) for f in cs}
circles = []
for f in cs:
    comp = {g for g in reached[f] if f in reached[g]} | {f}
    comp = {os.path.relpath(g, 'src') for g in comp}
    if len(comp) > 1 and comp not in circles:
        circles.append(comp)
# what a category means is YAML (its mixer:, collective:, ...), so no
# category name (or a part of one: "-ByOp", "AllReduce") is compared in C
# outside the tables' loader
cats = set(re.findall(r'^\s*-\s*\{name:\s*([^,}]+?)\s*,\s*type:', open('patterns/kernels.yaml').read(), re.M))
parts = cats | {p for c in cats for p in re.split(r'(?=-)', c) + c.split('-') if len(p) > 3}
lits = []
for f in files:
    if f.startswith('src/tables/'):
        continue
    t = re.sub(r'/\*.*?\*/', ' ', open(f).read(), flags=re.S)
    for m in re.finditer(r'\b(?:strn?cmp|strstr|ts_has|ts_begins|memcmp)\s*\(([^;]*?)"((?:\\.|[^"\\])*)"', t):
        if m.group(2) in parts and re.search(r'\bcat\w*\b', m.group(1)):
            lits.append('%s: "%s"' % (f, m.group(2)))
print('%s - no category name is compared in C outside the tables (%d categories)%s' %
      ('not ok' if lits or len(cats) < 20 else 'ok', len(cats), ': ' + ', '.join(lits[:5]) if lits else ''))
# reporters read views (analysis/views), never the machines: no file of
# report/ includes an analysis header outside views/ (what the views
# carry of the machines' types still reaches them through result.h)
reads = ['%s -> %s' % (f, m.group(1)) for f in files if f.startswith('src/report/')
         for m in re.finditer(r'#include "(analysis/[^"]+)"', open(f).read())
         if not m.group(1).startswith('analysis/views/')]
print('%s - reporters include views only, of analysis/%s' %
      ('not ok' if reads else 'ok', ': ' + '; '.join(reads[:5]) if reads else ''))
# and reporters call no machine: no file of report/ calls a function that
# an analysis header outside views/ declares under a machine's prefix (the
# kernel table, runtime calls, busy and idle time, collectives, contexts,
# the timeline, the attribution and its joins, graph capture and replay,
# the layer machine and its parts); what they show of a machine they read
# from a view (analysis/views/, its tables/ included: ts_kview_*,
# ts_lview_*, ts_aview_*, ts_tview_*, ts_insight_*, ts_sview_of, ...).
# Records and words stay open to them: a statistic's quantile (ts_stat_),
# a histogram, the names of a stage, a layer type, a bucket, a signal, a
# collective's kind (ts_comm_kind_name). The layer anatomy's and the
# graph replays' figures reach them through the layer view's and the
# attribution view's records (ts_lview's anat, ts_aview's rp).
MACHINE = ('ts_agg_', 'ts_api_', 'ts_att_', 'ts_attrib_', 'ts_busy_', 'ts_callsite_',
           'ts_callsites_', 'ts_capture_', 'ts_comm_', 'ts_ctx_', 'ts_drafts_', 'ts_idle_',
           'ts_lay_', 'ts_layers_', 'ts_model_', 'ts_opindex_', 'ts_pack_', 'ts_pass_',
           'ts_platform_', 'ts_position_', 'ts_pos_', 'ts_steps_', 'ts_timeline_', 'ts_tl_',
           'ts_unit_', 'ts_vote_', 'ts_anatomy_', 'ts_anat_', 'ts_capmap_', 'ts_replay_')
WORDS = {'ts_comm_kind_name'}
machine_fns = set()
for h in files:
    if h.endswith('.h') and h.startswith('src/analysis/') and not h.startswith('src/analysis/views/'):
        t = re.sub(r'/\*.*?\*/', ' ', open(h).read(), flags=re.S)
        machine_fns |= {n for n in re.findall(r'\b(ts_\w+)\s*\(', t) if n.startswith(MACHINE)}
machine_fns -= WORDS
for f in files:
    if f.startswith('src/analysis/views/') and f.endswith('.h'):
        t = re.sub(r'/\*.*?\*/', ' ', open(f).read(), flags=re.S)
        machine_fns -= set(re.findall(r'\b(ts_\w+)\s*\(', t))
calls = ['%s: %s' % (os.path.relpath(f, 'src'), n) for f in cs if f.startswith('src/report/')
         for n in sorted(set(re.findall(r'\b(ts_\w+)\s*\(', text[f])) & machine_fns)]
print('%s - reporters call views, never a machine (%d machine functions)%s' %
      ('not ok' if calls or len(machine_fns) < 100 else 'ok', len(machine_fns),
       ': ' + '; '.join(calls[:5]) if calls else ''))
new = [c for c in circles if not any(c <= k for k in KNOWN)]
print('%s - no circle of calls inside a folder but the layer machine\'s two (named, not to grow)%s' %
      ('not ok' if new else 'ok', ': ' + '; '.join(' <-> '.join(sorted(c)) for c in new) if new else ''))
PY
