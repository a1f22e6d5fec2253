#!/usr/bin/env bash
# One layer of each shared LLM trace, kernel by kernel, against a listing
# written by hand from the model's architecture (tests/layers/listings/:
# the category and a part of the short name of each kernel, in order):
# `--debug-layers` of the first complete pass must list exactly these
# kernels, no more, no fewer. A listing holds one layer, or several after
# `layer N` lines.
. "$(dirname "$0")/lib.sh"
need_shared
for l in "$here"/layers/listings/*.txt; do
	stem=$(basename "$l" .txt)
	f=$(ls "$SHARED/$stem".* 2>/dev/null | head -1)
	if [ -z "$f" ]; then
		echo "skip - $stem: not in $SHARED"
		continue
	fi
	python3 - "$TS" "$f" "$l" "$stem" <<'PY'
import re, subprocess, sys
ts, trace, listing, stem = sys.argv[1:]
text = open(listing).read()
m = re.search(r'layer (\d+)', text)            # the layer the heading names
want, cur = {}, int(m.group(1)) if m else 0
for line in text.split('\n'):
    line = line.rstrip('\n')
    if not line.strip() or line.startswith('#'):
        continue
    m = re.match(r'layer (\d+)$', line)
    if m:
        cur = int(m.group(1))
        continue
    cat, name = re.split(r'\s{2,}', line.strip())[:2]
    want.setdefault(cur, []).append((cat, name))
out = subprocess.run([ts, '--no-progress', '-q', '--debug-layers', ','.join(map(str, want)), trace],
                     capture_output=True, text=True).stdout
sect = out.split('Kernels of the requested layers', 1)
got = {}
if len(sect) == 2:
    for row in sect[1].split('\n')[2:]:
        if not row.strip():
            break
        m = re.match(r'\s*(\d+)\s+\S+\s+\S+\s+\S+\s+(\S+)\s+(.*\S)', row)
        if m:
            got.setdefault(int(m.group(1)), []).append((m.group(2), m.group(3)))
for layer, ks in sorted(want.items()):
    g = got.get(layer, [])
    bad = [i for i in range(max(len(ks), len(g)))
           if i >= len(ks) or i >= len(g) or g[i][0] != ks[i][0] or ks[i][1] not in g[i][1]]
    what = '%s: layer %d holds the %d kernels of the listing' % (stem, layer, len(ks))
    if not bad:
        print('ok - ' + what)
    else:
        i = bad[0]
        print('not ok - %s (got %d kernels; first difference at %d: want %s, got %s)' % (
            what, len(g), i, ks[i] if i < len(ks) else 'none', g[i] if i < len(g) else 'none'))
PY
done
exit 0
