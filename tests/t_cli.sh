#!/usr/bin/env bash
# CLI contract: options, exit codes and the one error message shape
# (tracestream: FILE: byte N: reason), partial reports on bad input.
T=
. "$(dirname "$0")/lib.sh"
tiny=tests/cli/tiny.json

bad() { echo "not ok - $1: $2"; }

# expect DESC RC STDERR_REGEX -- command...   (stdout -> $tmp/out, stderr -> $tmp/err)
expect() {
	local desc=$1 want_rc=$2 re=$3
	shift 4
	"$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc -ne "$want_rc" ]; then
		bad "$desc" "exit $rc, want $want_rc; stderr: $(head -c 300 "$tmp/err")"
	elif [ -n "$re" ] && ! grep -Eq -- "$re" "$tmp/err"; then
		bad "$desc" "stderr does not match /$re/: $(head -c 300 "$tmp/err")"
	else
		ok "$desc"
	fi
}


# --- usage ---
expect "--help prints usage to stdout, exit 0" 0 "" -- "$TS" --help
grep -q '^Usage: tracestream' "$tmp/out" && ok "--help text starts with Usage" || bad "--help text" "$(head -2 "$tmp/out")"
expect "--version exits 0" 0 "" -- "$TS" --version
grep -Eq '^tracestream [0-9]+\.[0-9]+\.[0-9]+$' "$tmp/out" && ok "--version prints the version" || bad "--version" "$(cat "$tmp/out")"
expect "no TRACE is a usage error (exit 2, hint)" 2 "^hint: tracestream --help" -- "$TS"
expect "unknown option: exit 2" 2 "unknown option '--bogus'" -- "$TS" --bogus "$tiny"
expect "option without its value: exit 2" 2 "needs a value" -- "$TS" "$tiny" --top
expect "bad --format value: exit 2" 2 "--format: 'xml' is not text, json, html, md, csv or xlsx" -- "$TS" --format xml "$tiny"
expect "non-numeric --top: exit 2" 2 "--top: '12abc' is not a number" -- "$TS" --top 12abc "$tiny"
expect "two traces are the ranks of one job: exit 0" 0 "" -- "$TS" "$tiny" "$tiny"
expect "-j 0: exit 2" 2 "--jobs: '0'" -- "$TS" -j 0 "$tiny" "$tiny"

# --- input errors (exit 2) ---
expect "missing file: exit 2 with the file name" 2 "^tracestream: $tmp/nope.json: cannot open: No such file or directory" -- "$TS" "$tmp/nope.json"
expect "a directory without traces: exit 2, which directory" 2 "^tracestream: $tmp: no trace files in the directory" -- "$TS" "$tmp"
if [ "$(id -u)" -ne 0 ]; then
	cp "$tiny" "$tmp/noread.json" && chmod 000 "$tmp/noread.json"
	expect "unreadable file: exit 2" 2 "Permission denied" -- "$TS" "$tmp/noread.json"
else
	echo "skip - unreadable file: running as root, permissions do not stop reads"
fi
if command -v script >/dev/null 2>&1; then
	script -qec "$TS -" /dev/null >"$tmp/tty" 2>&1 </dev/null
	rc=$?
	if [ $rc -eq 2 ] && grep -q "refusing to read a trace from a terminal" "$tmp/tty"; then
		ok "stdin on a terminal is refused (exit 2)"
	else
		bad "stdin on a terminal is refused" "exit $rc: $(head -c 200 "$tmp/tty")"
	fi
	# annotate writes a whole trace: on a terminal it wants -o
	script -qec "$TS annotate $tiny" /dev/null >"$tmp/tty" 2>&1 </dev/null
	rc=$?
	if [ $rc -eq 2 ] && grep -q "annotate writes the whole trace back as JSON: name the file with -o OUT" "$tmp/tty" &&
	   [ "$(wc -c <"$tmp/tty")" -lt 400 ]; then
		ok "annotate without -o on a terminal is refused (exit 2), the trace not printed"
	else
		bad "annotate without -o on a terminal" "exit $rc: $(head -c 200 "$tmp/tty")"
	fi
	script -qec "$TS annotate -o - $tiny" /dev/null >"$tmp/tty" 2>&1 </dev/null
	[ $? -eq 0 ] && grep -q traceEvents "$tmp/tty" && ok "annotate -o - on a terminal prints the trace, as asked" ||
		bad "annotate -o - on a terminal" "$(head -c 200 "$tmp/tty")"
else
	echo "skip - stdin on a terminal: script(1) not installed"
fi
"$TS" annotate "$tiny" 2>/dev/null | grep -q traceEvents && ok "annotate without -o on a pipe writes the trace to it" ||
	bad "annotate to a pipe"
"$TS" help >"$tmp/help" 2>&1 && cmp -s "$tmp/help" <("$TS" --help) && ok "tracestream help prints the usage, as --help (exit 0)" ||
	bad "tracestream help" "$(head -c 200 "$tmp/help")"

# --- a good run ---
expect "tiny trace: exit 0" 0 "" -- "$TS" --format json "$tiny"
if [ "$(json_get "$tmp/out" "d['trace']['kernels'], d['trace']['kernel_time_us'], d['trace']['busy_time_us'], d['trace']['span_us'], d['trace']['partial']")" = "3 35.5 30.0 62.0 False" ]; then
	ok "tiny trace: 3 kernels, 35.5 us kernel time, 30 us busy, 62 us span"
else
	bad "tiny trace figures" "$(json_get "$tmp/out" "d['trace']")"
fi
"$TS" "$tiny" </dev/null >"$tmp/text" 2>&1
grep -q "PARTIAL" "$tmp/text" && bad "text report of a good trace" "says PARTIAL" || ok "text report of a good trace is not marked partial"
cat "$tiny" | "$TS" --format json - >"$tmp/stdin.json" 2>/dev/null
"$TS" --format json "$tiny" >"$tmp/file.json" 2>/dev/null
if diff <(grep -v '"path"\|"input_bytes"' "$tmp/stdin.json") <(grep -v '"path"\|"input_bytes"' "$tmp/file.json") >/dev/null; then
	ok "a trace on stdin (-) gives the same report as the file"
else
	bad "stdin report" "differs from the file report"
fi

# --- malformed JSON: exit 1, byte offset, partial report ---
printf '{"traceEvents": [\n{"ph": "X", "cat": "kernel", "name": "k1", "ts": 1, "dur": 2},\n{"ph": "X", "cat": "kernel", "name": "k2", "ts": 5, "dur": 2}\n{"ph": "X"}]}\n' >"$tmp/malformed.json"
# the missing comma: yajl stops at the 3rd line's "{", byte 144 (1-based).
expect "malformed JSON: exit 1, file, byte and reason" 1 "^tracestream: $tmp/malformed.json: byte 144: malformed JSON: after array element, I expect ',' or ']'" -- "$TS" --format json "$tmp/malformed.json"
if [ "$(json_get "$tmp/out" "d['trace']['partial'], d['trace']['kernels'], d['trace']['error'] is not None")" = "True 2 True" ]; then
	ok "malformed JSON: JSON report holds the 2 kernels read before the error, marked partial"
else
	bad "malformed JSON partial report" "$(head -c 400 "$tmp/out")"
fi
"$TS" "$tmp/malformed.json" >"$tmp/out" 2>/dev/null
grep -q "^PARTIAL REPORT: malformed JSON" "$tmp/out" && ok "malformed JSON: text report marked PARTIAL" || bad "text partial" "$(head -3 "$tmp/out")"

# --- a lexical error is named at the bad token's first byte, at any place
# and any read size (the token may straddle two reads) ---
# (under the sanitizers, where each run starts slowly, three read sizes:
# the token split at every byte, in two, and whole; make test-long five)
python3 - "$TS" "$tmp" <<'PY'
import os, subprocess, sys
ts, tmp = sys.argv[1], sys.argv[2]
ev = '{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 2}, '
bad = []
n = 0
sizes = (1, 2, 3, 5, 64)
if '/san/' in ts and os.environ.get('TS_LONG', '0') != '1':
    sizes = (1, 2, 64)
for tok in ['12x', 'tru', 'nulx', '-}', '1.}', '1.5e]', 'bogus', 'x']:
    for pad in (0, 1, 7, 40):
        head = '{"traceEvents": [' + ev * (pad % 3) + ' ' * pad + '{"ph": '
        doc = head + tok + '}]}'
        want = len(head) + 1                    # 1-based first byte of tok
        open(tmp + '/tok.json', 'w').write(doc)
        for rs in sizes:
            p = subprocess.run([ts, '--no-progress', '--read-size', str(rs), tmp + '/tok.json'],
                               capture_output=True, text=True)
            n += 1
            line = p.stderr.splitlines()[0] if p.stderr else ''
            if p.returncode != 1 or (': byte %d: malformed JSON' % want) not in line:
                bad.append('%r pad %d read %d: want byte %d: %s' % (tok, pad, rs, want, line))
for b in bad[:3]:
    print('# ' + b)
print('%s - a lexical error names the bad token\'s first byte (%d runs: 8 tokens, 4 places, %d read sizes)%s'
      % ('not ok' if bad else 'ok', n, len(sizes), '' if not bad else ': %d wrong' % len(bad)))
PY

# --- --debug-layers: of --stage, or of --pass N; a text listing only ---
gen_out python3 "$here/layers/mkgeneric.py" --layers 4 --prefill 512 --decode 3 --batch 8 --seed 3 > "$tmp/pd.json"
"$TS" --no-progress --debug-layers 0 --stage decode "$tmp/pd.json" > "$tmp/dbg1" 2>/dev/null
"$TS" --no-progress --debug-layers 1 --pass 3 "$tmp/pd.json" > "$tmp/dbg2" 2>/dev/null
"$TS" --no-progress --debug-layers 1 --pass 9 "$tmp/pd.json" > "$tmp/dbg3" 2>/dev/null
if grep -q '^Kernels of the requested layers (pass 1, decode)$' "$tmp/dbg1" &&
   grep -q '^Kernels of the requested layers (pass 3, decode)$' "$tmp/dbg2" &&
   grep -q 'none: the trace has no pass 9' "$tmp/dbg3" &&
   [ "$(awk '/^Kernels of the requested/{f=1;next} f&&/^$/{f=0} f&&/^ +[0-9]+ /{print $1}' "$tmp/dbg2" | sort -u)" = 1 ]; then
	ok "--debug-layers lists the first decode pass under --stage decode, pass N under --pass N (its layer only), none for a pass not there"
else
	bad "--debug-layers and --pass" "$(grep -A2 'Kernels of the requested' "$tmp/dbg1" "$tmp/dbg2" "$tmp/dbg3")"
fi
expect "--debug-layers with -f json is a usage error, not dropped" 2 "debug-layers prints a text listing" -- "$TS" -f json --debug-layers 1 "$tmp/pd.json"
expect "--pass without --debug-layers is a usage error" 2 "give --debug-layers too" -- "$TS" --pass 1 "$tmp/pd.json"

# --- truncated JSON ---
head -c 120 "$tiny" >"$tmp/cut0.json"
expect "cut before its first event: exit 1, cut short" 1 "^tracestream: $tmp/cut0.json: byte 120: trace cut short: the JSON ends inside" -- "$TS" --format json "$tmp/cut0.json"
[ -s "$tmp/out" ] && bad "cut before the first event" "a report of nothing on stdout: $(head -c 200 "$tmp/out")" || ok "cut before the first event: nothing on stdout (no event to report)"
grep -q "covers only what was read" "$tmp/err" && bad "cut before the first event" "stderr speaks of a report" || ok "cut before the first event: stderr does not speak of a partial report"
head -c 300 "$tiny" >"$tmp/cut.json"
expect "truncated JSON: exit 1, says it was cut short" 1 "^tracestream: $tmp/cut.json: byte 300: trace cut short: the JSON ends inside" -- "$TS" --format json "$tmp/cut.json"
json_get "$tmp/out" "d['trace']['partial']" | grep -q True && ok "truncated JSON: report marked partial" || bad "truncated JSON partial" "$(head -c 300 "$tmp/out")"
size=$(wc -c <"$tiny")
mkdir -p "$tmp/cuts"
# every 7th byte; under the sanitizers every 28th (each run starts slowly)
step=7 gstep=5
case "$TS" in */san/*) step=28 gstep=20 ;; esac
for ((n = 0; n < size - 2; n += step)); do
	head -c $n "$tiny" >"$tmp/cutn.json"
	"$TS" --format json "$tmp/cutn.json" >"$tmp/cuts/$n.out" 2>"$tmp/cuts/$n.err"
	echo $? >"$tmp/cuts/$n.rc"
done
# One Python run checks them all: exit 1, the message shape, a valid partial report.
check_cuts() { # dir, message-regex
	python3 - "$1" "$2" "$tiny" "$3" <<'PY'
import glob, json, os, re, sys
d, pat, tiny, gz = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == 'gz'
# where the first event of traceEvents ends: a cut before it leaves no event
# read, and then nothing is reported (the error alone)
t = open(tiny, 'rb').read()
i = t.index(b'{', t.index(b'"traceEvents"'))
depth, instr, esc = 0, False, False
for k in range(i, len(t)):
    c = t[k:k + 1]
    if instr:
        esc, instr = (not esc and c == b'\\'), instr and (esc or c != b'"')
    elif c == b'"':
        instr = True
    elif c == b'{':
        depth += 1
    elif c == b'}':
        depth -= 1
        if depth == 0:
            first_end = k + 1
            break
bad = []
for rc_file in sorted(glob.glob(os.path.join(d, '*.rc'))):
    base = rc_file[:-3]
    rc = int(open(rc_file).read())
    err = open(base + '.err').read()
    out = open(base + '.out').read()
    if gz:
        m = re.search(r'JSON read so far: (\d+)', err)
        read = int(m.group(1)) if m else None
    else:
        read = int(os.path.basename(base))
    if out == '':
        partial = True if read is not None and read < first_end else 'empty after %s bytes' % read
    else:
        try:
            partial = json.load(open(base + '.out'))['trace']['partial']
            if read is not None and read < first_end:
                partial = 'a report of no event'
        except Exception as e:
            partial = 'invalid JSON: %s' % e
    if rc != 1 or not re.search(pat, err, re.M) or partial is not True:
        bad.append('%s: rc %d partial %s: %s' % (os.path.basename(base), rc, partial, err[:150]))
for b in bad[:3]:
    print('# ' + b)
sys.exit(1 if bad else 0)
PY
}
check_cuts "$tmp/cuts" "^tracestream: $tmp/cutn.json: byte [0-9]+: " json && ok "JSON cut at every ${step}th byte: exit 1, message, a valid partial JSON report, or nothing before the first event" || bad "JSON cut at many offsets" "see above"

# --- gzip: truncated and corrupt ---
gzip -c "$tiny" >"$tmp/t.json.gz"
gsize=$(wc -c <"$tmp/t.json.gz")
head -c $((gsize - 4)) "$tmp/t.json.gz" >"$tmp/cut.json.gz"
expect "gzip without its trailer: exit 1, gzip stream cut short" 1 "^tracestream: $tmp/cut.json.gz: byte [0-9]+ \(compressed\): gzip stream cut short" -- "$TS" --format json "$tmp/cut.json.gz"
json_get "$tmp/out" "d['trace']['partial'], d['trace']['kernels']" | grep -q "True 3" && ok "gzip without trailer: partial report with all 3 kernels" || bad "gzip trailer partial" "$(head -c 300 "$tmp/out")"
mkdir -p "$tmp/gcuts"
for ((n = 2; n < gsize; n += gstep)); do
	head -c $n "$tmp/t.json.gz" >"$tmp/cutn.gz"
	"$TS" --format json "$tmp/cutn.gz" >"$tmp/gcuts/$n.out" 2>"$tmp/gcuts/$n.err"
	echo $? >"$tmp/gcuts/$n.rc"
done
check_cuts "$tmp/gcuts" "cut short" gz && ok "gzip cut at every ${gstep}th byte: exit 1, cut short, partial report" || bad "gzip cut at many offsets" "see above"
python3 - "$tmp/t.json.gz" "$tmp/corrupt.gz" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
for i in range(12, len(b) - 8, 3):
    b[i] ^= 0x55
open(sys.argv[2], 'wb').write(b)
PY
expect "corrupt gzip: exit 1, corrupt gzip data" 1 "^tracestream: $tmp/corrupt.gz: byte [0-9]+ \(compressed\): corrupt gzip data" -- "$TS" "$tmp/corrupt.gz"

# --- valid JSON that is not a trace ---
printf '{"schemaVersion": 1}' >"$tmp/nt1.json"
expect "object without traceEvents: exit 1" 1 "^tracestream: $tmp/nt1.json: byte 20: not a trace: no traceEvents array" -- "$TS" "$tmp/nt1.json"
printf '[1, 2]' >"$tmp/nt2.json"
expect "top-level array: exit 1" 1 "not a trace: the JSON value is an array" -- "$TS" "$tmp/nt2.json"
printf '{"traceEvents": 5}' >"$tmp/nt3.json"
expect "traceEvents not an array: exit 1" 1 "not a trace: traceEvents is not an array" -- "$TS" "$tmp/nt3.json"
printf '{"traceEvents": {"a": 1}}' >"$tmp/nt4.json"
expect "traceEvents an object: exit 1" 1 "not a trace: traceEvents is not an array" -- "$TS" "$tmp/nt4.json"
: >"$tmp/empty.json"
expect "empty input: exit 1" 1 "not a trace: the input is empty" -- "$TS" "$tmp/empty.json"
printf '"hello"' >"$tmp/nt5.json"
expect "a JSON string: exit 1" 1 "not a trace: the JSON value is not an object" -- "$TS" "$tmp/nt5.json"
printf '{"traceEvents": []} {"x": 1}' >"$tmp/trail.json"
expect "trailing garbage after the trace: exit 1" 1 "malformed JSON: trailing garbage" -- "$TS" "$tmp/trail.json"

# --- output failures: exit 2 ---
if [ -w /dev/full ]; then
	expect "stdout on a full disk (/dev/full): exit 2" 2 "^tracestream: <stdout>: write error: No space left on device" -- sh -c "\"$TS\" \"$tiny\" >/dev/full"
else
	echo "skip - /dev/full not available"
fi
python3 - "$TS" "$tiny" >"$tmp/pipe" 2>&1 <<'PY'
import os, signal, subprocess, sys
r, w = os.pipe()
os.close(r)                      # nobody will ever read: writes fail with EPIPE
p = subprocess.run([sys.argv[1], "--format", "json", sys.argv[2]], stdout=w,
                   stderr=subprocess.PIPE,
                   preexec_fn=lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN))
os.close(w)
print(p.returncode)
print(p.stderr.decode())
PY
if head -1 "$tmp/pipe" | grep -qx -- -13 && [ "$(sed -n 2p "$tmp/pipe")" = "" ] && [ "$(wc -l < "$tmp/pipe")" -le 2 ]; then
	ok "stdout to a closed pipe: ended by SIGPIPE, no message (as cat, jq)"
else
	bad "closed pipe" "$(cat "$tmp/pipe")"
fi

# --- -v reports throughput and peak memory ---
expect "-v prints peak RSS" 0 "peak RSS [0-9.]+ MB" -- "$TS" -v "$tiny"

# help and version to a stdout that cannot take them: exit 2 with the reason
if [ -w /dev/full ]; then
	"$TS" --help > /dev/full 2> "$tmp/full.err"
	rc=$?
	[ $rc -eq 2 ] && grep -q '<stdout>: write error' "$tmp/full.err" &&
		ok "--help to a full disk: exit 2, 'write error' said" || bad "--help > /dev/full: rc $rc: $(cat "$tmp/full.err")"
fi


# ways writers break JSON, named where the read stops
for case in 'NaN|"ts": NaN|NaN is no JSON number' 'Infinity|"dur": -Infinity|-Infinity is no JSON number' 'escape|"name": "a\qb"|an escape "\\q" JSON has not'; do
	label=${case%%|*}; rest=${case#*|}; body=${rest%%|*}; re=${rest#*|}
	printf '{"traceEvents": [{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1,"dur":2,"args":{"device":0,"stream":7}}, {"ph":"X","cat":"cpu_op","pid":0,"tid":1,"ts":5,"dur":1, %s}]}' "$body" > "$tmp/nj.json"
	expect "$label: the read stops at its byte and says what the writer put there" 1 "$re" -- "$TS" --no-progress -q "$tmp/nj.json"
done

exit 0
