#!/usr/bin/env python3
"""Rewrite a trace in a way that must not change its passes and layers.

    vary.py KIND IN OUT

KIND:
  mixer-unnamed  every kernel whose name says it is an attention or state
                 space mixer (attention, fmha, mla, flash, paged, delta,
                 mamba, scan, ...) gets a random name of its own (the same
                 name keeps the same new one): a new attention kernel no
                 table knows.
  no-annotation  every user_annotation and gpu_user_annotation is removed.
  no-python      every python_function event is removed.

IN may be gzip'ed; OUT is plain JSON. Standard library only.
"""
import gzip
import json
import random
import re
import sys

MIXER = re.compile(r'(?i)attn|attention|fmha|mla(?!_kv)|flash_fwd|flashattn|BatchPrefill|BatchDecode|'
                   r'BatchMLA|paged_attention|delta_rule|mamba|selective_(?:scan|state)|chunk_scan|'
                   r'chunk_state|causal_conv|merge_?state|ForGen|fmhaSm')
NOT_MIXER = re.compile(r'(?i)cache|norm|rope|rotary')


def load(path):
    op = gzip.open if path.endswith('.gz') else open
    with op(path, 'rt') as f:
        return json.load(f)


def main(kind, src, dst):
    doc = load(src)
    ev = doc['traceEvents'] if isinstance(doc, dict) else doc
    rng = random.Random(7)
    if kind == 'mixer-unnamed':
        new = {}
        for e in ev:
            n = e.get('name', '') if isinstance(e, dict) else ''
            if e.get('cat') == 'kernel' and MIXER.search(n) and not NOT_MIXER.search(n):
                n = e['name']
                if n not in new:
                    new[n] = 'k' + ''.join(rng.choice('abcdefghijklmnopqrstuvwxyz0123456789')
                                           for _ in range(rng.randint(8, 20)))
                e['name'] = new[n]
    elif kind == 'no-annotation':
        ev[:] = [e for e in ev if not (isinstance(e, dict) and
                                       e.get('cat') in ('user_annotation', 'gpu_user_annotation'))]
    elif kind == 'no-python':
        ev[:] = [e for e in ev if not (isinstance(e, dict) and e.get('cat') == 'python_function')]
    else:
        sys.exit('vary.py: unknown kind ' + kind)
    with open(dst, 'w') as f:
        f.write(json.dumps(doc))        # json.dump: the slower pure-Python encoder


if __name__ == '__main__':
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
