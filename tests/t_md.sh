#!/usr/bin/env bash
# -f md, the report for agents (issue 60): on the bundled sample, the
# captures in tests/data and every shared trace, the first screen is
# --brief's, byte for byte; every figure cites a JSON field that holds
# exactly the value shown (-f json of the same run); every row of the
# opportunity, kernel and category tables is its JSON row; the report
# stays short enough for a prompt (200 lines at most); a cut trace says
# it is partial; compare refuses md with a usage error.
T=md
. "$(dirname "$0")/lib.sh"
traces="tests/data/sample_trace.json.gz $(ls tests/data/torch_*_h200.json.gz 2>/dev/null)"
# under the sanitizers (several times slower) the bundled traces run the
# same code; the release build takes every shared trace
case "$TS" in */san/*) ;; *) [ -d "$SHARED" ] && traces="$traces $(ls "$SHARED"/*.json* 2>/dev/null)" ;; esac
for t in $traces; do
	b=$(basename "$t")
	ts_out -f md "$t" >"$tmp/r.md"
	ts_out -f json "$t" >"$tmp/r.json"
	ts_out --brief "$t" >"$tmp/brief.txt"
	if out=$(python3 - "$tmp/r.md" "$tmp/r.json" "$tmp/brief.txt" 2>&1 <<'PY'
import json, re, sys
md = open(sys.argv[1]).read()
doc = json.load(open(sys.argv[2]))
brief = open(sys.argv[3]).read()
m = re.search(r'```text\n(.*?)```\n', md, re.S)
assert m, 'no first screen block'
assert m.group(1) == brief, 'the first screen differs from --brief'
assert md.count('\n') <= 200, '%d lines' % md.count('\n')
def at(path):
    v = doc
    for seg in path.split('.'):
        v = v[int(seg)] if isinstance(v, list) else v[seg]
    return v
def same(shown, v):
    shown = shown.replace('\\|', '|')
    if isinstance(v, bool):
        return shown == ('true' if v else 'false')
    if isinstance(v, (int, float)):
        return float(shown) == float(v)
    v = v.replace('\n', ' ')
    return shown == v or (shown.endswith('...') and v.startswith(shown[:-3]))
cells = lambda line: [c.strip() for c in re.split(r'(?<!\\)\|', line)[1:-1]]
figures = rows = 0
for line in md.splitlines():
    if not line.startswith('| ') or '`' not in line:
        continue
    c = cells(line)
    path = c[-1].strip('`')
    if len(c) == 4:            # Figure | Value | Unit | JSON field
        assert same(c[1], at(path)), (path, c[1], at(path))
        figures += 1
    elif path.startswith('opportunities.'):
        o = at(path)
        for shown, key in ((c[1], 'stage'), (c[2], 'saves_us'), (c[3], 'at_stake_us'), (c[4], 'text')):
            assert (shown == '-' and o.get(key) is None) or same(shown, o[key]), (path, key, shown)
        rows += 1
    else:                      # kernels, categories
        k = at(path)
        name = k.get('short', k.get('category'))
        assert same(c[1], name) and same(c[4], k['total_us']) and same(c[5], k['pct']), (path, c)
        rows += 1
assert figures >= 5, 'only %d figures' % figures
print('%d figures, %d rows' % (figures, rows))
PY
	); then
		ok "$b: the first screen is --brief's; $out each equal to its JSON field"
	else
		bad "$b: $(echo "$out" | tail -3)"
	fi
done
# a cut trace: partial, said so
head -c 100000 tests/data/sample_trace.json.gz | gzip -dc 2>/dev/null >"$tmp/cut.json"
"$TS" --no-progress -f md "$tmp/cut.json" >"$tmp/cut.md" 2>/dev/null
grep -q '^| read partially (cut or bad) | true |' "$tmp/cut.md" &&
	ok "a cut trace says it was read partially" || bad "cut trace: $(grep partially "$tmp/cut.md")"
"$TS" compare -f md tests/data/sample_trace.json.gz tests/data/sample_trace.json.gz >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "format md applies to one trace" "$tmp/err" &&
	ok "compare refuses md (usage error, exit 2)" || bad "compare -f md: $(cat "$tmp/err")"
finish
