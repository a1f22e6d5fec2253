#!/usr/bin/env bash
# The documentation a user reads stays true to the program: every long
# option --help lists is in the manual page (docs/tracestream.1), which
# groff renders without a warning; --help prints no printf escapes; every
# relative link of README.md and docs/*.md names a file that exists;
# `make install` puts the manual page where man finds it.
# sanitizers: release only (reads the documentation against --help and the tables)
. "$(dirname "$0")/lib.sh"
"$TS" --help >"$tmp/help" 2>&1
missing=""
for opt in $(grep -o -- '--[a-z][a-z-]*' "$tmp/help" | sort -u); do
	esc=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
	grep -q -- "$esc" docs/tracestream.1 || missing="$missing $opt"
done
[ -z "$missing" ] && echo "ok - every option of --help is in docs/tracestream.1" ||
	echo "not ok - options of --help missing from docs/tracestream.1:$missing"
if grep -q '%%' "$tmp/help"; then
	echo "not ok - --help prints a printf escape: $(grep '%%' "$tmp/help" | head -2)"
else
	echo "ok - --help prints no printf escape"
fi
if command -v groff >/dev/null 2>&1; then
	w=$(groff -man -ww -z docs/tracestream.1 2>&1)
	[ -z "$w" ] && echo "ok - docs/tracestream.1 renders without a warning" ||
		echo "not ok - docs/tracestream.1: $(printf '%s' "$w" | head -3)"
else
	echo "skip - groff is not installed: the manual page is not rendered"
fi
python3 - <<'PY'
import glob, os, re
bad = []
for f in ['README.md'] + sorted(glob.glob('docs/*.md')):
    for m in re.finditer(r'\]\(([^)#\s]+)\)', open(f).read()):
        target = m.group(1)
        if '://' in target:
            continue
        if not os.path.exists(os.path.join(os.path.dirname(f), target)):
            bad.append('%s: %s' % (f, target))
print('%s - every relative link of README.md and docs/ names a file that exists%s'
      % ('not ok' if bad else 'ok', ': ' + '; '.join(bad[:5]) if bad else ''))
PY
# NEWS.md's first version is the one the binary reports
v=$("$TS" --version 2>/dev/null | awk '{print $2}')
n=$(grep -m1 -Eo '^## [0-9]+\.[0-9]+\.[0-9]+' NEWS.md | cut -c4-)
[ -n "$v" ] && [ "$v" = "$n" ] && echo "ok - NEWS.md's newest version is the one --version reports ($v)" ||
	echo "not ok - NEWS.md's newest version '$n' is not --version's '$v'"
# the contributor's map: every source file of src/ has its room in
# docs/internals.md's table (by its name, or a name with * standing for
# several: `tables/patterns*.c`), and every room it names exists
python3 - <<'PY'
import fnmatch, glob, os, re
doc = open('docs/internals.md').read()
rooms = doc[doc.index('## The rooms'):doc.index('## Where to add')]
names = set()
for cell in re.findall(r'^\| ([^|]+) \|', rooms, re.M):
    folder = ''
    for n in re.findall(r'`([^`]+)`', cell):
        if '/' in n:
            folder = os.path.dirname(n)
        names.add(n if '/' in n else os.path.join(folder, n))
srcs = [os.path.relpath(f, 'src') for f in glob.glob('src/**/*.c', recursive=True)]
missing = [f for f in sorted(srcs)
           if not any(fnmatch.fnmatch(f, n) or fnmatch.fnmatch(f, n.replace('.h', '.c')) for n in names)]
gone = sorted(n for n in names if n.endswith('.c') and '*' not in n and n not in srcs)
print('%s - every file of src/ has its room in docs/internals.md%s' %
      ('not ok' if missing or gone else 'ok',
       (': missing ' + ', '.join(missing[:6]) if missing else '') + (': no such file ' + ', '.join(gone[:6]) if gone else '')))
PY
make -s install DESTDIR="$tmp/root" PREFIX=/usr >/dev/null 2>&1 &&
	[ -f "$tmp/root/usr/share/man/man1/tracestream.1" ] &&
	echo "ok - make install puts the manual page in share/man/man1" ||
	echo "not ok - make install puts the manual page in share/man/man1"
