#!/usr/bin/env bash
# The parse on several threads (--threads, src/input/pparse.c) gives what
# one thread gives: the same stdout, stderr and exit code, byte for byte,
# whatever the thread count, the piece size (hidden --piece-size, small so
# that a small trace is cut in hundreds of pieces) and the read size:
#  - on a trace made to fool the cut finder (tests/threads/mktricky.py:
#    "},{" in names, args, string items and a 200 KB name; metadata after
#    traceEvents), pretty and compact, from a file, a pipe and gzip;
#  - cut short at 24 places and with a bad byte at 24 places: the same
#    error at the same byte, and the same partial report;
#  - annotate: the same annotated trace, whole and cut short;
#  - on every shared trace, in text and JSON, where the pieces are also
#    checked to have been used (none parsed again in order).
T=threads
. "$(dirname "$0")/lib.sh"

# under ThreadSanitizer (make tsan; a run five to ten times slower) and
# AddressSanitizer (two to three) fewer piece sizes and places, and three
# threads only (the most pieces in flight): every path still runs, each
# race and each bad access is seen
tsan=0
case "$TS" in */tsan/* | */san/*) tsan=1 ;; esac

# same LABEL ARGS...: -T 1 against -T 2 and -T 3 (the threads of
# $THREADS) at the piece sizes of $PIECES (stdin is read from $tmp/in when
# the input is -); annotate_same: against the threads of $ATHREADS
PIECES="64 700 4096"
THREADS="2 3" ATHREADS="2 3"
[ $tsan = 1 ] && PIECES="64 700" THREADS=3
# ThreadSanitizer: the smallest pieces (the most handed between threads);
# AddressSanitizer keeps two sizes (where a piece ends moves what is read
# past it); make test-long both under each
case "${TS_LONG:-0}:$TS" in 0:*/tsan/*) PIECES=64 ;; esac
same() {
	local label=$1 bad_runs="" th ps rc1 rc2
	shift
	"$TS" --no-progress -T 1 "$@" < "$tmp/in" > "$tmp/ref.out" 2> "$tmp/ref.err"
	rc1=$?
	for th in $THREADS; do
		for ps in $PIECES; do
			"$TS" --no-progress -T $th --piece-size $ps "$@" < "$tmp/in" > "$tmp/t.out" 2> "$tmp/t.err"
			rc2=$?
			if [ $rc1 -ne $rc2 ] || ! cmp -s "$tmp/ref.out" "$tmp/t.out" ||
			   ! cmp -s "$tmp/ref.err" "$tmp/t.err"; then
				bad_runs="$bad_runs T$th/p$ps(exit $rc2, want $rc1)"
			fi
		done
	done
	if [ -z "$bad_runs" ]; then
		ok "$label: as one thread (exit $rc1)"
	else
		bad "$label: differs from one thread:$bad_runs"
	fi
}

mk="$here/threads/mktricky.py"
python3 "$mk" > "$tmp/pretty.json"
python3 "$mk" --compact > "$tmp/compact.json"
: > "$tmp/in"
same "tricky trace, pretty" "$tmp/pretty.json"
same "tricky trace, compact" "$tmp/compact.json"
same "tricky trace, JSON report" -f json "$tmp/compact.json"
same "tricky trace, read 7 bytes at a time" --read-size 7 "$tmp/compact.json"
same "tricky trace, read whole (--no-mmap)" --no-mmap "$tmp/pretty.json"
gzip -c "$tmp/pretty.json" > "$tmp/pretty.json.gz"
same "tricky trace, gzip" "$tmp/pretty.json.gz"
cp "$tmp/compact.json" "$tmp/in"
same "tricky trace, through a pipe" -
: > "$tmp/in"

# the pieces were used, and some were found to be bad cuts and parsed again
"$TS" --no-progress -v -T 2 --piece-size 700 "$tmp/compact.json" 2>&1 >/dev/null |
	grep "parsed on" > "$tmp/v"
python3 - "$tmp/v" <<'PY' && ok "tricky trace: pieces cut, bad cuts found and parsed again in order, the rest used" || bad "piece counts: $(cat "$tmp/v")"
import re, sys
m = re.search(r'parsed on (\d+) threads: (\d+) pieces, (\d+) of them again in order', open(sys.argv[1]).read())
assert m, 'no line'
th, pieces, again = map(int, m.groups())
assert th == 2 and pieces > 100 and 0 < again < pieces, (th, pieces, again)
PY

# cut short and corrupted: the same error, byte and partial report
size=$(wc -c < "$tmp/compact.json")
cuts_bad="" garbage_bad=""
places=24
[ $tsan = 1 ] && places=6
ats=""
for i in $(seq 1 $places); do
	ats="$ats $(( size * i / (places + 1) + i * 7 ))"
done
# each place's cut copy and copy with a bad byte, written by one Python run
# shellcheck disable=SC2086
python3 - "$tmp/compact.json" "$tmp" $ats <<'PY'
import sys
src, d = sys.argv[1], sys.argv[2]
whole = open(src, 'rb').read()
for at in map(int, sys.argv[3:]):
    open('%s/cut.%d.json' % (d, at), 'wb').write(whole[:at])
    b = bytearray(whole)
    b[at:at + 1] = b'\x01' if at % 3 == 0 else (b'}' if at % 3 == 1 else b'x')
    open('%s/bad.%d.json' % (d, at), 'wb').write(b)
PY
for at in $ats; do
	for kind in cut bad; do
		"$TS" --no-progress -T 1 "$tmp/$kind.$at.json" > "$tmp/r1" 2> "$tmp/e1"
		rc1=$?
		"$TS" --no-progress -T 3 --piece-size 512 "$tmp/$kind.$at.json" > "$tmp/r2" 2> "$tmp/e2"
		rc2=$?
		if [ $rc1 -ne $rc2 ] || ! cmp -s "$tmp/r1" "$tmp/r2" || ! cmp -s "$tmp/e1" "$tmp/e2"; then
			if [ $kind = cut ]; then cuts_bad="$cuts_bad $at"; else garbage_bad="$garbage_bad $at"; fi
		fi
	done
	mv -f "$tmp/cut.$at.json" "$tmp/cut.json"     # the last one stays
	rm -f "$tmp/bad.$at.json"
done
check "cut short at $places places: the same error, byte and partial report" "${cuts_bad:-none}" none
check "a bad byte at $places places: the same error, byte and report" "${garbage_bad:-none}" none
"$TS" --no-progress -T 3 --piece-size 512 "$tmp/cut.json" > /dev/null 2> "$tmp/e2"
grep -q "byte $at: trace cut short" "$tmp/e2" && ok "the last cut names its byte ($at)" ||
	bad "the cut's error: $(cat "$tmp/e2")"

# annotate on several threads: the same annotated trace, exit code and
# messages, whole and cut short (where the copy stops after the last whole
# event the pieces counted)
annotate_same() {
	local label=$1 in=$2 bad_runs="" th rc1 rc2
	"$TS" annotate --no-progress -T 1 "$in" -o "$tmp/a1.json" 2> "$tmp/a1.err"
	rc1=$?
	for th in $ATHREADS; do
		"$TS" annotate --no-progress -T $th --piece-size 700 "$in" -o "$tmp/a2.json" 2> "$tmp/a2.err"
		rc2=$?
		if [ $rc1 -ne $rc2 ] || ! cmp -s "$tmp/a1.json" "$tmp/a2.json" ||
		   ! cmp -s "$tmp/a1.err" "$tmp/a2.err"; then
			bad_runs="$bad_runs T$th(exit $rc2, want $rc1)"
		fi
	done
	if [ -z "$bad_runs" ]; then
		ok "annotate, $label: as one thread (exit $rc1)"
	else
		bad "annotate, $label: differs from one thread:$bad_runs"
	fi
}
annotate_same "tricky trace, pretty" "$tmp/pretty.json"
annotate_same "tricky trace, compact" "$tmp/compact.json"
head -c $(( $(wc -c < "$tmp/compact.json") * 2 / 3 )) "$tmp/compact.json" > "$tmp/cut.json"
annotate_same "tricky trace, cut short" "$tmp/cut.json"
"$TS" annotate --no-progress -v -T 2 --piece-size 700 "$tmp/compact.json" -o "$tmp/a2.json" 2>&1 |
	grep -q "parsed on 2 threads: [1-9][0-9]* pieces" && ok "annotate parses in pieces" ||
	bad "annotate did not parse in pieces"

# the shared traces, in text and JSON, with the pieces used; under a
# sanitizer (runs five to ten times slower) text at one piece size on the
# traces under 100 KB: the release build holds text to the same on every
# trace, JSON and annotate on those under 1 MB (every trace, and a second
# piece size, with TS_LONG=1, make test-long)
if [ -d "$SHARED" ]; then
	# three threads (the most pieces in flight) against one: the tricky
	# trace above holds two threads to one; make test-long both on each
	# shared trace, and a second piece size
	PIECES="4096" THREADS=3 ATHREADS=3
	[ "${TS_LONG:-0}" = 1 ] && PIECES="4096 65536" THREADS="2 3" ATHREADS="2 3"
	light=$tsan small=100000
	[ "${TS_LONG:-0}" = 1 ] && small=1000000
	case "$TS" in */san/*) light=1 ;; esac
	notused=""
	for f in "$SHARED"/*.json "$SHARED"/*.json.gz; do
		[ -f "$f" ] || continue
		# under a sanitizer the traces under 100 KB (1 MB with
		# TS_LONG=1): every threaded path runs on them (the release
		# build takes every trace)
		[ $light = 1 ] && [ "$(wc -c < "$f")" -gt "$small" ] && continue
		name=$(basename "$f")
		same "$name" "$f"
		# JSON and annotate on the traces under 1 MB (every one with
		# TS_LONG=1): the parse they share with text is held above
		big=0
		[ "${TS_LONG:-0}" = 1 ] || [ "$(wc -c < "$f")" -le 1000000 ] || big=1
		[ $light = 1 ] || [ $big = 1 ] || same "$name, JSON" -f json "$f"
		[ $light = 1 ] || [ $big = 1 ] || annotate_same "$name" "$f"
		"$TS" --no-progress -v -T 2 --piece-size 4096 "$f" 2>&1 >/dev/null | grep "parsed on" > "$tmp/v"
		grep -q "[1-9][0-9]* pieces, 0 of them again" "$tmp/v" || notused="$notused $name($(cat "$tmp/v"))"
	done
	check "every shared trace was cut into pieces, none parsed again in order" "${notused:-all}" all
else
	echo "skip - $T: the shared traces ($SHARED) are not here"
fi

finish
