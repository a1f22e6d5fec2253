#!/usr/bin/env python3
"""The fewest names whose features hold every feature any name has,
taken greedily (the name adding most of those still missing, the first
by name on a tie): the inputs a make test run keeps of a sweep whose
every input make test-long runs.

    cover.py < LINES      each line "NAME FEATURE..."; prints the names kept, sorted
"""
import sys

feat = {}
for line in sys.stdin:
    name, *fs = line.split()
    feat[name] = set(fs)
left, out = set().union(*feat.values()) if feat else set(), []
while left:
    f = max(sorted(feat), key=lambda f: len(feat[f] & left))
    out.append(f)
    left -= feat[f]
print('\n'.join(sorted(out)))
