#!/usr/bin/env bash
# Everything the first screen says is on the workbook's summary sheet and
# the page, in the same words (issue 60): for the sample, the captures in
# tests/data and every shared trace, the summary sheet's "first_screen"
# rows are --brief's lines and the page's first block is --brief's text
# (read with the standard library: the workbook's XML, the page's HTML);
# the sheet names the model as the JSON describes it.
# sanitizers: release only (the workbook, page and first screen run under the sanitizers in t_tables, t_html and t_outputs)
T=summary
. "$(dirname "$0")/lib.sh"
traces="tests/data/sample_trace.json.gz $(ls tests/data/torch_*_h200.json.gz)"
[ -d "$SHARED" ] && traces="$traces $(ls "$SHARED"/*.json* 2>/dev/null)"
for t in $traces; do
	b=$(basename "$t")
	ts_out --brief "$t" >"$tmp/brief.txt"
	"$TS" --no-progress -f xlsx -o "$tmp/r.xlsx" "$t" 2>/dev/null
	"$TS" --no-progress -f html -o "$tmp/r.html" "$t" 2>/dev/null
	ts_out -f json "$t" >"$tmp/r.json"
	if out=$(python3 - "$tmp" <<'PY' 2>&1
import html, json, re, sys, zipfile, xml.etree.ElementTree as ET
d = sys.argv[1]
brief = open(d + '/brief.txt').read()
ns = {'m': 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'}
z = zipfile.ZipFile(d + '/r.xlsx')
strings = []
if 'xl/sharedStrings.xml' in z.namelist():
    for si in ET.fromstring(z.read('xl/sharedStrings.xml')).findall('m:si', ns):
        strings.append(''.join(t.text or '' for t in si.iter('{%s}t' % ns['m'])))
rows = []
for row in ET.fromstring(z.read('xl/worksheets/sheet1.xml')).iter('{%s}row' % ns['m']):
    cells = []
    for c in row.findall('m:c', ns):
        v = c.find('m:v', ns)
        if c.get('t') == 's' and v is not None:
            cells.append(strings[int(v.text)])
        elif c.get('t') == 'inlineStr':
            cells.append(''.join(t.text or '' for t in c.iter('{%s}t' % ns['m'])))
        else:
            cells.append(v.text if v is not None else '')
    rows.append(cells)
first = [r[1] if len(r) > 1 else '' for r in rows if r and r[0] == 'first_screen']
assert first == brief.rstrip('\n').split('\n'), 'the sheet\'s first screen differs from --brief'
model = json.load(open(d + '/r.json'))['model']['described']
got = [r[1] if len(r) > 1 else '' for r in rows if r and r[0] == 'model']
assert got == [model or ''], (got, model)
page = open(d + '/r.html').read()
m = re.search(r'<pre class="first">(.*?)</pre>', page, re.S)
assert m and html.unescape(m.group(1)) == brief, 'the page\'s first screen differs from --brief'
print('%d lines' % len(first))
PY
	); then
		ok "$b: the workbook's summary sheet and the page carry the first screen's $out, word for word; the sheet names the model"
	else
		bad "$b: $(echo "$out" | tail -2)"
	fi
done
finish
