#!/usr/bin/env bash
# The HTML report in a real browser: headless Chromium loads each page with
# no console error; the charts are in the DOM with one bar per stage and one
# bar per layer of each stage's typical pass (as the JSON report counts
# them); the page loads nothing from anywhere; its size does not grow with
# the number of events. Screenshots go to $TEST_OUT/html (default
# build/test-out) for a person to look at. Skips with a message without
# Chromium (scripts/deps.sh --test installs it as root).
T=html
. "$(dirname "$0")/lib.sh"
out="${TEST_OUT:-$here/../build/test-out}/html"

# the page itself, without a browser: self-contained, bounded
"$TS" --no-progress -q -f html -o "$tmp/s.html" "$here/data/sample_trace.json.gz" 2> "$tmp/err" ||
	bad "sample: exit $?: $(cat "$tmp/err")"
if grep -Eiq '<script[^>]+src=|<link|<img|<iframe|@import|url\(|https?://' "$tmp/s.html"; then
	bad "the page refers to something outside it: $(grep -Eio '.{20}(<script[^>]+src=|<link|<img|https?://).{30}' "$tmp/s.html" | head -3)"
else
	ok "the page loads nothing from outside it (no src, link, url() or http address)"
fi
python3 - "$tmp/s.html" <<'PY' && ok "tables lead with the short kernel name (the full one on hover and in the last column)" || bad "short names first"
import re, sys
h = open(sys.argv[1]).read()
t = h[h.index('data-table="kernels"'):]
t = t[:t.index('</table>')]
heads = re.findall(r'<th>([^<]*)</th>', t)
assert heads[0] == 'short' and heads[-1] == 'name', heads
row = re.search(r'<tr><td title="([^"]*)">([^<]*)</td>', t)
assert row and len(row.group(1)) >= len(row.group(2)), row
PY
python3 - "$tmp/s.html" <<'PY' && ok "the page is well-formed: tags balance, text is valid UTF-8" || bad "page structure"
import sys
from html.parser import HTMLParser
raw = open(sys.argv[1], 'rb').read()
raw.decode('utf-8')
void = {'meta', 'br', 'hr', 'img', 'input', 'link', 'rect', 'line', 'circle', 'polyline', 'path'}
class P(HTMLParser):
    def __init__(self):
        super().__init__(); self.stack = []
    def handle_starttag(self, t, a):
        if t not in void: self.stack.append(t)
    def handle_startendtag(self, t, a): pass
    def handle_endtag(self, t):
        if t in void: return
        assert self.stack and self.stack[-1] == t, (t, self.stack[-5:])
        self.stack.pop()
p = P(); p.feed(raw.decode('utf-8')); p.close()
assert p.stack == [], p.stack
PY
# past the caps (200 passes drawn, 300 rows a table), more events add nothing
case "$TS" in
*/san/*) ;;
*)
	cc -O2 -o "$tmp/gen" "$here/../bench/gen_trace.c" 2>/dev/null
	if [ -x "$tmp/gen" ]; then
		"$tmp/gen" --steps 400 --layers 1 > "$tmp/g1.json" 2>/dev/null
		"$tmp/gen" --steps 1200 --layers 1 > "$tmp/g3.json" 2>/dev/null
		"$TS" --no-progress -q -f html -o "$tmp/g1.html" "$tmp/g1.json"
		"$TS" --no-progress -q -f html -o "$tmp/g3.html" "$tmp/g3.json"
		a=$(stat -c %s "$tmp/g1.html") b=$(stat -c %s "$tmp/g3.html")
		ea=$(stat -c %s "$tmp/g1.json") eb=$(stat -c %s "$tmp/g3.json")
		if [ "$b" -le $((a + a / 50)) ] && grep -q 'more rows: <code>--format csv --table passes' "$tmp/g3.html"; then
			ok "the page does not grow with the events: $ea -> $eb bytes of trace, $a -> $b bytes of page"
		else
			bad "page size grows: $ea -> $eb bytes of trace give $a -> $b bytes of page"
		fi
		rm -f "$tmp"/g*.json
	fi
	;;
esac

chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$chrome" ]; then
	echo "ok - html: browser checks # SKIP no chromium (sh scripts/deps.sh --test installs it as root)"
	exit $fail
fi
mkdir -p "$out"
# load: DOM after scripts into $w/dom, console messages into $w/console,
# a screenshot when a png is named; false on a console message
load() { # workdir html [png]
	local w=$1
	timeout 60 "$chrome" --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
		--user-data-dir="$w/profile" --enable-logging=stderr --v=0 --window-size=1200,2400 \
		--dump-dom "file://$2" > "$w/dom" 2> "$w/console" || return 1
	if [ -n "${3:-}" ]; then
		timeout 60 "$chrome" --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
			--user-data-dir="$w/profile" --hide-scrollbars --window-size=1200,2400 \
			--screenshot="$3" "file://$2" > /dev/null 2>&1 || return 1
	fi
	! grep -q 'CONSOLE' "$w/console"
}

# one page: made, loaded, its charts counted against the JSON report
page() { # label trace
	local n=$1 f=$2 base w png=
	base=$(basename "$f" | sed 's/\.json.*//; s/\.trace$//; s/\.pt$//')
	w="$tmp/w-$base"
	mkdir -p "$w"
	"$TS" --no-progress -q -f html -o "$w/p.html" "$f" 2>/dev/null
	"$TS" --no-progress -q -f json -o "$w/p.json" "$f" 2>/dev/null
	# screenshots of a few pages (each costs a browser start)
	case "$base" in sample_trace|sglang_qwen3-8b_mi300x_prefill*) png="$out/$base.png" ;; esac
	if ! load "$w" "$w/p.html" "$png"; then
		bad "$n: Chromium: $(grep CONSOLE "$w/console" | head -3)"
		return
	fi
	python3 - "$w/dom" "$w/p.json" <<'PY' && ok "$n: renders in Chromium with no console error; one bar per stage, per layer of each stage's typical pass, top kernels coloured by type with a legend, legends on every keyed chart${png:+; screenshot $base.png}" || bad "$n: DOM charts"
import json, re, sys
dom = open(sys.argv[1]).read(); j = json.load(open(sys.argv[2]))
def svg(id_):
    m = re.search(r'<svg id="%s"[^>]*>(.*?)</svg>' % re.escape(id_), dom, re.S)
    return m.group(1) if m else None
stages = [s for s, v in j['stages'].items() if v['kernels'] > 0]
# a stage is drawn when it has time to draw (a row would not read 0.0 ms)
drawn = [s for s in stages if float(j['stages'][s]['gpu_time_us']) >= 50]
st = svg('chart-stages')
assert st is not None and len(re.findall(r'class="bar stage"', st)) == len(drawn), (drawn,)
assert '>0.0 ms<' not in st, st
for s in stages:
    rows = [r for r in j['layer_table'] if r['stage'] == s]
    c = svg('chart-layers-' + s)
    if not rows:
        assert c is None, s
        continue
    want = max(r['layer'] for r in rows) + 1
    assert c is not None and len(re.findall(r'class="bar layer"', c)) == len(rows) <= want, (s, len(rows))
k = svg('chart-kernels')
assert k is not None and len(re.findall(r'class="bar kernel"', k)) == min(15, len(j['kernels']))
for t in ('kernels', 'types', 'categories', 'ops', 'workloads', 'layers', 'passes', 'api',
          'opportunities', 'gaps'):
    assert 'data-table="%s"' % t in dom, t
# one colour per kernel type in the top-kernels chart, with its legend:
# every bar's colour is the legend's for its kernel's type, no two types
# share one
leg = dict(re.findall(r'<rect[^>]*fill="(#[0-9A-Fa-f]{6})"[^>]*data-key="([^"]+)"', k))
leg = {v: c for c, v in leg.items()}
fills = re.findall(r'class="bar kernel"[^>]*fill="(#[0-9A-Fa-f]{6})"', k)
types = [r['type'] for r in j['kernels'][:15]]
assert len(fills) == len(types) and all(leg.get(t) == f for t, f in zip(types, fills)), (leg, types, fills)
assert len(set(leg.values())) == len(leg), leg
# every chart coloured by a key has its legend
for cid in ['chart-kernels', 'chart-categories', 'chart-timeline'] + \
           ['chart-layers-' + s for s in stages if svg('chart-layers-' + s) is not None]:
    c = svg(cid)
    if c is not None and '<rect' in c:
        assert 'class="legend"' in c, cid
PY
}

page "sample trace" "$here/data/sample_trace.json.gz"

# a job over ranks (tests/ranks/mkranks.py: rank 2 the straggler) and a
# trace with --capture (tests/capture/mkcapture.py): their own sections
python3 "$here/ranks/mkranks.py" "$tmp/job" "$tmp/job-truth.json"
python3 "$here/capture/mkcapture.py" "$tmp/cap"
mkdir -p "$tmp/wj" "$tmp/wcap"
"$TS" --no-progress -q -f html -o "$tmp/job.html" "$tmp/job" 2>/dev/null
"$TS" --no-progress -q -f json -o "$tmp/job.json" "$tmp/job" 2>/dev/null
"$TS" --no-progress -q -f html -o "$tmp/cap.html" --capture "$tmp/cap/capture_hip.json" "$tmp/cap/replay_hip.json" 2>/dev/null
if load "$tmp/wj" "$tmp/job.html" && python3 - "$tmp/wj/dom" "$tmp/job.json" <<'PY'
import json, re, sys
dom = open(sys.argv[1]).read(); j = json.load(open(sys.argv[2]))
m = re.search(r'<svg id="chart-ranks"[^>]*>(.*?)</svg>', dom, re.S)
assert m and len(re.findall(r'class="bar rank"', m.group(1))) == len(j['ranks']) == 4
assert 'rank %d (straggler)' % j['skew']['straggler']['rank'] in m.group(1)
assert 'data-table="ranks"' in dom and 'data-table="skew"' in dom and '<b>Straggler:</b> rank 2 is the slowest' in dom
# the Job section is tables, not a preformatted block; each rank's file in full
job = dom[dom.index('<h2>Job</h2>'):dom.index('<h2>Charts</h2>')]
assert '<pre' not in job and 'data-table="ranks"' in job, job[:300]
for r in j['ranks']:
    assert '>%s<' % r['path'] in job, r['path']
assert dom.count('data-table="ranks"') == 1
PY
then
	ok "a job over 4 ranks renders with no console error: the Job section (tables, no preformatted block, each rank's file in full), a bar per rank with the straggler named"
else
	bad "job page: $(grep CONSOLE "$tmp/wj/console" | head -3)"
fi
if load "$tmp/wcap" "$tmp/cap.html" && grep -q 'data-table="replays"' "$tmp/wcap/dom" &&
	grep -q -- '--capture: 3 of 4 graph replays matched' "$tmp/wcap/dom"; then
	ok "a trace with --capture renders with no console error: the replays table and the first-screen line"
else
	bad "capture page: $(grep CONSOLE "$tmp/wcap/console" | head -3)"
fi
shared="$SHARED"
if [ ! -d "$shared" ]; then
	echo "ok - html: shared traces # SKIP ../shared/traces is absent"
	exit $fail
fi
# under the sanitizers the browser adds nothing: the sample page is enough
case "$TS" in */san/*) exit $fail ;; esac
# two pages at a time (a browser start is most of the cost), reported in
# order; the traces up to 1 MB (every one with TS_LONG=1, make test-long).
# Each page is the same code drawing other figures: make test loads in the
# browser the fewest of them that hold every chart and table any of them
# has, and one page with no layer chart (no pass to draw), taken greedily
# from the pages themselves; make test-long loads every one
cand=()
for f in "$shared"/*.json "$shared"/*.json.gz; do
	[ -e "$f" ] || continue
	sweep_run "$f" && cand+=("$f")
done
if [ "${TS_LONG:-0}" != 1 ] && [ ${#cand[@]} -gt 0 ]; then
	for f in "${cand[@]}"; do
		"$TS" --no-progress -q -f html -o "$tmp/sel.html" "$f" 2>/dev/null
		echo "$f $(grep -o 'id="chart-[a-z-]*"\|data-table="[a-z_]*"' "$tmp/sel.html" | sort -u | tr '\n' ' ')"
	done > "$tmp/features"
	# a page with no layer chart (no pass to draw) is a feature of its own
	mapfile -t cand < <(awk '{ print $0 (/chart-layers/ ? "" : " no-layer-chart") }' "$tmp/features" |
		python3 "$here/cover.py")
	echo "# $T: ${#cand[@]} shared traces' pages in the browser, every chart and table among them (make test-long: every page)"
fi
i=0
for f in "${cand[@]}"; do
	i=$((i + 1))
	page "$(basename "$f")" "$f" > "$tmp/out.$i" &
	[ $((i % 2)) -eq 0 ] && wait
done
wait
for k in $(seq 1 $i); do
	cat "$tmp/out.$k"
	grep -q '^not ok' "$tmp/out.$k" && fail=1
done
a="$shared/sglang_qwen3-30b-a3b_mi300x_decode_bs16.trace.json.gz"
b="$shared/sglang_qwen3-30b-a3b_b300_decode_bs16.trace.json.gz"
case "$TS" in */san/*) exit $fail ;; esac
if [ -e "$a" ] && [ -e "$b" ]; then
	mkdir -p "$tmp/wc"
	"$TS" --no-progress -q -f html -o "$tmp/c.html" compare "$a" "$b" 2>/dev/null
	"$TS" --no-progress -q -f json -o "$tmp/c.json" compare "$a" "$b" 2>/dev/null
	if load "$tmp/wc" "$tmp/c.html" "$out/compare_qwen3-30b_mi300x_b300.png" && python3 - "$tmp/wc/dom" "$tmp/c.json" <<'PY'
import json, re, sys
dom = open(sys.argv[1]).read(); j = json.load(open(sys.argv[2]))
def svg(id_):
    m = re.search(r'<svg id="%s"[^>]*>(.*?)</svg>' % re.escape(id_), dom, re.S)
    return m.group(1) if m else None
ops = svg('chart-cmp-ops')
n = min(15, len(j['ops']))
assert len(re.findall(r'class="bar cmp-op" data-side="a"', ops)) == n, n
assert len(re.findall(r'class="bar cmp-op" data-side="b"', ops)) == n, n
w = svg('chart-waterfall')
assert len(re.findall(r'class="bar wf"', w)) == n + 3, n
assert 'class="yaxis"' in w and 'class="legend"' in w, 'waterfall axis and legend'
for cid in ('chart-cmp-ops', 'chart-cmp-layers-decode'):
    assert 'class="legend"' in svg(cid), cid
L = svg('chart-cmp-layers-decode')
rows = [r for r in j['layers'] if r['stage'] == 'decode']
na = sum(1 for r in rows if r['a_us'] is not None)
assert len(re.findall(r'data-side="a" data-layer=', L)) == na, na
assert 'data-table="ops"' in dom and 'data-table="layers"' in dom
# everything the text compare shows: each op row's kernels, the alignment
assert 'data-table="alignment"' in dom
tab = dom[dom.index('data-table="alignment"'):]
tab = tab[:tab.index('</table>')]
pairs = [p for a in j['alignment'] for p in a['pairs']]
assert len(re.findall(r'<tr><td>', tab)) == len(pairs), (len(pairs),)
k0 = j['ops'][0]['a_kernels'][0]['short']
ops_tab = dom[dom.index('data-table="ops"'):]
assert k0 in ops_tab[:ops_tab.index('</table>')], k0
PY
	then
		ok "compare of the Qwen3-30B pair renders with no console error: op groups side by side with their kernels, the waterfall with its axis, layers side by side, legends, the kernel alignment"
	else
		bad "compare page: $(grep CONSOLE "$tmp/wc/console" | head -3)"
	fi
fi
# every chart's text lies inside its chart, as the browser lays it out,
# with room for fonts wider than this machine's (the labels measured at
# 15% over their size): a copy of each page measures its labels (getBBox)
# and writes what sticks out into the DOM it dumps (the compare page's
# left labels were cut on a user's machine: "ommunication...")
extent() { # label page.html
	local w="$tmp/ext-$1"
	mkdir -p "$w"
	sed 's|</body>|<style>svg.chart .lab{font-size:12.65px}</style><script>(function(){var bad=[];document.querySelectorAll("svg.chart").forEach(function(svg){var vb=svg.viewBox.baseVal;svg.querySelectorAll("text").forEach(function(t){if(t.closest("[transform]"))return;var b=t.getBBox();if(b.width>0\&\&(b.x<-0.5\|\|b.x+b.width>vb.width+0.5))bad.push(svg.id+": "+t.textContent+" at "+b.x.toFixed(1)+".."+(b.x+b.width).toFixed(1));});});document.body.setAttribute("data-outside",JSON.stringify(bad));})();</script></body>|' "$2" > "$w/m.html"
	load "$w" "$w/m.html" || return 1
	python3 - "$w/dom" <<'PY'
import html, json, re, sys
m = re.search(r'data-outside="([^"]*)"', open(sys.argv[1]).read())
assert m, 'no measure'
bad = json.loads(html.unescape(m.group(1)))
assert not bad, bad[:3]
PY
}
if [ -e "$tmp/c.html" ]; then
	extent compare "$tmp/c.html" && ok "the compare page's chart labels lie whole inside their charts in Chromium" ||
		bad "the compare page's chart labels stick out of their charts: $(grep -o 'data-outside="[^"]*' "$tmp/ext-compare/dom" | head -c 300)"
fi
"$TS" --no-progress -q -f html -o "$tmp/x.html" "$shared/sglang_qwen3-8b_mi300x_prefill_then_decode.json.gz" 2>/dev/null &&
	{ extent single "$tmp/x.html" && ok "a report page's chart labels lie whole inside their charts in Chromium" ||
		bad "a report page's chart labels stick out: $(grep -o 'data-outside="[^"]*' "$tmp/ext-single/dom" | head -c 300)"; }
exit $fail
