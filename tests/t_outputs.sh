#!/usr/bin/env bash
# tests/t_outputs.sh - what every writer does with every kind of target
# (docs/robustness.md, "Where reports go"): a regular file is replaced whole
# or not at all, a symbolic link is followed and stays a link, a FIFO
# receives the report, a device is written in place and its errors are
# reported (a full one: "No space left on device", exit 2). Device nodes are
# made in this test's own temporary folder (as root, where the machine
# allows mknod), never the system's /dev.
T=outputs
. "$(dirname "$0")/lib.sh"

# a small trace whose every report (text, JSON, page, CSV, workbook, saved
# state, annotated copy, compare) is still over 1 KB, so that a write can
# fail part way (ulimit -f 1): the targets are the point here, not the
# trace (the bundled sample's annotated copy alone is 4 MB a run)
s="$here/fixtures/amd_single_line.json"
d="$tmp/targets"
mkdir -p "$d"

# devices: a private full (1,7) and null (1,3) when mknod is allowed and
# the nodes can be opened here (a container's device rules may refuse)
devices=0
if mknod "$d/probe_null" c 1 3 2>/dev/null && echo x > "$d/probe_null" 2>/dev/null; then
	devices=1
else
	echo "skip - $T: device nodes cannot be made or opened here (not root, or no CAP_MKNOD): the device cases are not run"
fi
rm -f "$d/probe_null"

# The writers: a name and a command with OUT where the target goes.
writers=(
	"text|-q -o OUT $s"
	"json|-q -f json -o OUT $s"
	"html|-q -f html -o OUT $s"
	"csv|-q -f csv --table kernels -o OUT $s"
	"xlsx|-q -f xlsx -o OUT $s"
	"save-state|-q --save-state OUT $s"
	"annotate|annotate $s -o OUT"
	"compare|-q -f json -o OUT compare $s $s"
)

run_w() { # spec target: run the writer with OUT=target; stdout to /dev/null
	local cmd=${1#*|}
	cmd=${cmd//OUT/$2}
	# shellcheck disable=SC2086
	"$TS" --no-progress $cmd > /dev/null 2> "$tmp/err"
}

# The same bytes as the reference? The workbook's zip holds the time it
# was made: compare its members, but for docProps/core.xml; a saved state
# holds the run's seconds: compare the reports merge makes of them.
same_out() { # name got want
	if [ "$1" = save-state ]; then
		"$TS" merge -q -f json "$2" > "$tmp/m1.json" 2>/dev/null &&
			"$TS" merge -q -f json "$3" > "$tmp/m2.json" 2>/dev/null &&
			cmp -s "$tmp/m1.json" "$tmp/m2.json"
	elif [ "$1" = xlsx ]; then
		python3 - "$2" "$3" <<'PY'
import sys, zipfile
a, b = (zipfile.ZipFile(p) for p in sys.argv[1:3])
na, nb = sorted(a.namelist()), sorted(b.namelist())
assert na == nb, (na, nb)
for n in na:
    if n != 'docProps/core.xml':
        assert a.read(n) == b.read(n), n
PY
	else
		cmp -s "$2" "$3"
	fi
}

for w in "${writers[@]}"; do
	name=${w%%|*}
	ref="$tmp/ref.$name"
	run_w "$w" "$ref"
	rc=$?
	if [ $rc -ne 0 ] || [ ! -s "$ref" ]; then
		bad "$name: to a new regular file: rc $rc: $(cat "$tmp/err")"
		continue
	fi

	# a regular file: replaced whole, its mode kept, no temporary file left
	f="$d/$name.reg"
	echo old > "$f"
	chmod 640 "$f"
	run_w "$w" "$f"
	rc=$?
	if [ $rc -eq 0 ] && same_out "$name" "$f" "$ref" && [ "$(stat -c %a "$f")" = 640 ] &&
		[ -z "$(ls -A "$d" | grep "^\.$name")" ]; then
		ok "$name: a regular file is replaced whole, its mode (640) kept"
	else
		bad "$name: regular file: rc $rc, mode $(stat -c %a "$f"), $(cat "$tmp/err")"
	fi

	# a regular file and a write that fails part way: the old file stays
	echo old > "$f"
	( trap '' XFSZ; ulimit -f 1; run_w "$w" "$f" )
	rc=$?
	if [ $rc -eq 2 ] && [ "$(cat "$f")" = old ] && head -1 "$tmp/err" | grep -q "$name.reg: cannot write" &&
		[ -z "$(ls -A "$d" | grep "^\.$name")" ]; then
		ok "$name: a write that fails part way leaves the old file, exit 2, one line naming it first (no library's line naming its temporary file), no temporary file"
	else
		bad "$name: failing write: rc $rc, file $(head -c 20 "$f"), $(cat "$tmp/err")"
	fi

	# a symbolic link (relative, through a second link): followed, kept
	echo old > "$d/$name.target"
	ln -sf "$name.target" "$d/$name.link1"
	ln -sf "$name.link1" "$d/$name.link2"
	run_w "$w" "$d/$name.link2"
	rc=$?
	if [ $rc -eq 0 ] && [ -L "$d/$name.link2" ] && [ -L "$d/$name.link1" ] &&
		[ "$(readlink "$d/$name.link2")" = "$name.link1" ] && same_out "$name" "$d/$name.target" "$ref"; then
		ok "$name: a link to a link stays a link; the file at its end gets the report"
	else
		bad "$name: symlink: rc $rc, $(ls -l "$d/$name.link2"), $(cat "$tmp/err")"
	fi

	# a dangling link: the file it names is made
	mkdir -p "$d/sub"
	ln -sf "sub/$name.new" "$d/$name.dangling"
	run_w "$w" "$d/$name.dangling"
	rc=$?
	if [ $rc -eq 0 ] && [ -L "$d/$name.dangling" ] && same_out "$name" "$d/sub/$name.new" "$ref"; then
		ok "$name: a dangling link stays a link; the file it names is made"
	else
		bad "$name: dangling link: rc $rc, $(ls -l "$d/$name.dangling"), $(cat "$tmp/err")"
	fi

	# a FIFO: receives the report, stays a FIFO
	mkfifo "$d/$name.fifo"
	timeout 60 cat "$d/$name.fifo" > "$tmp/fifo.out" &
	reader=$!
	timeout 60 bash -c "$(declare -f run_w); TS='$TS' tmp='$tmp'; run_w '$w' '$d/$name.fifo'"
	rc=$?
	wait $reader
	if [ $rc -eq 0 ] && [ -p "$d/$name.fifo" ] && same_out "$name" "$tmp/fifo.out" "$ref"; then
		ok "$name: a FIFO receives the report and stays a FIFO"
	else
		bad "$name: FIFO: rc $rc, $(ls -l "$d/$name.fifo"), $(cat "$tmp/err")"
	fi

	# a directory: refused before anything is written
	mkdir -p "$d/$name.dir"
	run_w "$w" "$d/$name.dir"
	rc=$?
	[ $rc -eq 2 ] && grep -q "$name.dir: cannot write: Is a directory" "$tmp/err" && [ -d "$d/$name.dir" ] &&
		ok "$name: a directory: exit 2, 'Is a directory'" ||
		bad "$name: directory: rc $rc, $(cat "$tmp/err")"

	[ $devices = 1 ] || continue
	mknod "$d/$name.full" c 1 7
	mknod "$d/$name.null" c 1 3
	run_w "$w" "$d/$name.full"
	rc=$?
	if [ $rc -eq 2 ] && [ -c "$d/$name.full" ] &&
		grep -q "$name.full: cannot write: No space left on device" "$tmp/err"; then
		ok "$name: a full device is written in place: 'No space left on device', exit 2, still a device"
	else
		bad "$name: full device: rc $rc, $(ls -l "$d/$name.full"), $(cat "$tmp/err")"
	fi
	run_w "$w" "$d/$name.null"
	rc=$?
	[ $rc -eq 0 ] && [ -c "$d/$name.null" ] && [ ! -s "$tmp/err" ] &&
		ok "$name: a null device takes the report and stays a device" ||
		bad "$name: null device: rc $rc, $(ls -l "$d/$name.null"), $(cat "$tmp/err")"
	# a link to a device: the device written, the link kept
	ln -sf "$name.full" "$d/$name.tofull"
	run_w "$w" "$d/$name.tofull"
	rc=$?
	[ $rc -eq 2 ] && [ -L "$d/$name.tofull" ] && [ -c "$d/$name.full" ] &&
		grep -q "No space left on device" "$tmp/err" &&
		ok "$name: a link to a full device: the device written, its error, the link kept" ||
		bad "$name: link to a device: rc $rc, $(cat "$tmp/err")"
done

# --csv-dir: each table through the same rules (a link, a FIFO, a device)
c="$d/csv"
mkdir -p "$c"
"$TS" --no-progress -q --csv-dir "$tmp/csvref" "$s" > /dev/null 2>&1
echo old > "$tmp/kernels.real"
ln -s "$tmp/kernels.real" "$c/kernels.csv"
mkfifo "$c/stages.csv"
timeout 60 cat "$c/stages.csv" > "$tmp/stages.out" &
reader=$!
[ $devices = 1 ] && mknod "$c/ops.csv" c 1 3
timeout 60 "$TS" --no-progress -q --csv-dir "$c" "$s" > /dev/null 2> "$tmp/err"
rc=$?
wait $reader
if [ $rc -eq 0 ] && [ -L "$c/kernels.csv" ] && cmp -s "$tmp/kernels.real" "$tmp/csvref/kernels.csv" &&
	[ -p "$c/stages.csv" ] && cmp -s "$tmp/stages.out" "$tmp/csvref/stages.csv" &&
	{ [ $devices = 0 ] || [ -c "$c/ops.csv" ]; } && cmp -s "$c/layers.csv" "$tmp/csvref/layers.csv"; then
	ok "--csv-dir: a table that is a link, a FIFO or a device gets its rows in place; the others are files"
else
	bad "--csv-dir: rc $rc, $(ls -l "$c"), $(cat "$tmp/err")"
fi
if [ $devices = 1 ]; then
	rm -rf "$c" && mkdir -p "$c" && mknod "$c/kernels.csv" c 1 7
	"$TS" --no-progress -q --csv-dir "$c" "$s" > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ -c "$c/kernels.csv" ] && grep -q "kernels.csv: cannot write: No space left on device" "$tmp/err" &&
		ok "--csv-dir: a table on a full device: its error, exit 2" ||
		bad "--csv-dir full device: rc $rc, $(cat "$tmp/err")"
fi

# -o naming the file standard output already is: written there (an append
# stays an append), not renamed over it
echo first > "$tmp/so.txt"
"$TS" --no-progress -q -o /dev/stdout "$s" >> "$tmp/so.txt" 2> "$tmp/err"
rc=$?
"$TS" --no-progress -q "$s" > "$tmp/direct.txt" 2> /dev/null
[ $rc -eq 0 ] && [ "$(head -1 "$tmp/so.txt")" = first ] && [ "$(tail -n +2 "$tmp/so.txt" | cmp - "$tmp/direct.txt" && echo same)" = same ] &&
	ok "-o /dev/stdout appended to by the shell: the report after what was there" ||
	bad "-o /dev/stdout: rc $rc, $(head -c 60 "$tmp/so.txt"), $(cat "$tmp/err")"

# a read-only file is not replaced by someone who could not write it
if [ "$(id -u)" != 0 ]; then
	echo old > "$tmp/ro.txt"
	chmod 444 "$tmp/ro.txt"
	"$TS" --no-progress -q -o "$tmp/ro.txt" "$s" > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(cat "$tmp/ro.txt")" = old ] && grep -q "Permission denied" "$tmp/err" &&
		ok "a read-only file is left as it was: 'Permission denied', exit 2" ||
		bad "read-only file: rc $rc, $(cat "$tmp/err")"
fi

finish
