#!/usr/bin/env python3
"""Read an .xlsx workbook with the standard library only (an oracle that
does not share code with the writer): sheets in order, each as rows of
cells (str, float or None), plus whether its header row is frozen and it
has an autofilter.

    xlsx_read.py FILE      prints JSON {"sheets": [{"name", "rows",
                           "frozen", "autofilter"}]}
"""
import json
import re
import sys
import zipfile
import xml.etree.ElementTree as ET

NS = {'m': 'http://schemas.openxmlformats.org/spreadsheetml/2006/main',
      'r': 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'}


def col_index(ref):
    letters = re.match(r'[A-Z]+', ref).group(0)
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n - 1


def main():
    z = zipfile.ZipFile(sys.argv[1])
    shared = []
    if 'xl/sharedStrings.xml' in z.namelist():
        for si in ET.fromstring(z.read('xl/sharedStrings.xml')).findall('m:si', NS):
            shared.append(''.join(t.text or '' for t in si.iter('{%s}t' % NS['m'])))
    wb = ET.fromstring(z.read('xl/workbook.xml'))
    rels = ET.fromstring(z.read('xl/_rels/workbook.xml.rels'))
    target = {r.get('Id'): r.get('Target') for r in rels}
    out = []
    for sh in wb.find('m:sheets', NS):
        rid = sh.get('{%s}id' % NS['r'])
        ws = ET.fromstring(z.read('xl/' + target[rid]))
        rows = []
        for row in ws.find('m:sheetData', NS):
            cells = {}
            for c in row:
                v = c.find('m:v', NS)
                t = c.get('t')
                if t == 's':
                    val = shared[int(v.text)]
                elif t == 'inlineStr':
                    val = ''.join(x.text or '' for x in c.iter('{%s}t' % NS['m']))
                elif v is not None:
                    val = float(v.text)
                else:
                    val = None
                cells[col_index(c.get('r'))] = val
            width = max(cells) + 1 if cells else 0
            rows.append([cells.get(i) for i in range(width)])
        pane = ws.find('.//m:pane', NS)
        out.append({'name': sh.get('name'), 'rows': rows,
                    'frozen': pane is not None and pane.get('state') == 'frozen' and pane.get('ySplit') == '1',
                    'autofilter': ws.find('m:autoFilter', NS) is not None})
    print(json.dumps({'sheets': out}))


main()
