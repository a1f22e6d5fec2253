#!/usr/bin/env bash
# Saved partials (--save-state) and `tracestream merge`: merging the
# partials of four copies of a trace gives the report of the four traces
# analysed in one run (kernel rows exactly 4x), merging merged partials
# gives the same (associative), the ranks of a job saved one by one and
# merged give the direct run's rank table and skew; a partial that is cut,
# corrupt, of another version or not a partial at all: which file, what is
# wrong, at which byte, exit 1.
T=partial
. "$(dirname "$0")/lib.sh"
strip() { grep -v '"path"\|"seconds"' "$1"; }

f=$here/data/sample_trace.json.gz
"$TS" --no-progress -q -f json --save-state "$tmp/a.tsp" "$f" > "$tmp/one.json"
rc=$?
[ $rc -eq 0 ] && [ -s "$tmp/a.tsp" ] && ok "--save-state writes a partial beside the report ($(stat -c %s "$tmp/a.tsp") bytes)" ||
	bad "--save-state: rc $rc"
"$TS" --no-progress -q -f json "$f" "$f" "$f" "$f" > "$tmp/direct.json"
"$TS" --no-progress -q -f json merge "$tmp/a.tsp" "$tmp/a.tsp" "$tmp/a.tsp" "$tmp/a.tsp" > "$tmp/merged.json"
rc=$?
[ $rc -eq 0 ] && diff <(strip "$tmp/direct.json") <(strip "$tmp/merged.json") > "$tmp/diff" &&
	ok "merging four partials of a trace gives the report of the four traces in one run (JSON equal but for path and seconds)" ||
	bad "merge vs direct (rc $rc): $(head -20 "$tmp/diff")"
python3 - "$tmp/one.json" "$tmp/merged.json" <<'PY' && ok "the merged report's kernel rows are 4x the trace's (count, total) with the same percentiles; four rank rows" || bad "merged kernel rows"
import json, sys
one = json.load(open(sys.argv[1])); m = json.load(open(sys.argv[2]))
k1 = {k['name']: k for k in one['kernels']}; k4 = {k['name']: k for k in m['kernels']}
assert set(k1) == set(k4), set(k1) ^ set(k4)
for n, k in k1.items():
    g = k4[n]
    assert g['count'] == 4 * k['count'] and abs(g['total_us'] - 4 * k['total_us']) < 1e-6, (n, k, g)
    assert g['p50_us'] == k['p50_us'] and g['p90_us'] == k['p90_us'] and g['min_us'] == k['min_us'], (n, k, g)
assert m['trace']['kernels'] == 4 * one['trace']['kernels']
assert len(m['ranks']) == 4 and all(r['kernel_time_us'] == one['trace']['kernel_time_us'] for r in m['ranks'])
PY
"$TS" --no-progress -q merge --save-state "$tmp/ab.tsp" "$tmp/a.tsp" "$tmp/a.tsp" > /dev/null &&
	"$TS" --no-progress -q -f json merge "$tmp/ab.tsp" "$tmp/ab.tsp" > "$tmp/abab.json"
diff <(strip "$tmp/merged.json") <(strip "$tmp/abab.json") > "$tmp/diff" &&
	ok "merging merged partials gives the same report (associative)" || bad "associativity: $(head -20 "$tmp/diff")"

# the ranks of a job, saved one by one (as on a cluster), then merged
python3 "$here/ranks/mkranks.py" "$tmp/job" "$tmp/truth.json"
for r in 0 1 2 3; do
	"$TS" --no-progress -q --save-state "$tmp/r$r.tsp" "$tmp/job/trace_rank_$r.json" > /dev/null || bad "save rank $r"
done
"$TS" --no-progress -q -f json "$tmp/job" > "$tmp/jd.json"
"$TS" --no-progress -q -f json merge "$tmp"/r3.tsp "$tmp"/r1.tsp "$tmp"/r0.tsp "$tmp"/r2.tsp > "$tmp/jm.json"
python3 - "$tmp/jd.json" "$tmp/jm.json" <<'PY' && ok "four ranks saved one by one and merged in another order: the direct run's rank table, skew and straggler" || bad "ranks via partials"
import json, sys
d = json.load(open(sys.argv[1])); m = json.load(open(sys.argv[2]))
key = lambda r: r['rank']
strip = lambda rs: sorted(({k: v for k, v in r.items() if k != 'path'} for r in rs), key=key)
assert strip(d['ranks']) == strip(m['ranks'])
assert d['skew']['layers'] == m['skew']['layers'] and d['skew']['straggler'] == m['skew']['straggler']
assert d['skew']['rank_source'] == m['skew']['rank_source'] == 'trace'
assert {k['name']: k['count'] for k in d['kernels']} == {k['name']: k['count'] for k in m['kernels']}
PY

# bad partials
n=$(stat -c %s "$tmp/a.tsp")
for cut in 4 30 $((n / 2)) $((n - 1)); do
	head -c $cut "$tmp/a.tsp" > "$tmp/cut.tsp"
	"$TS" --no-progress merge "$tmp/cut.tsp" > /dev/null 2> "$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] && grep -q "^tracestream: $tmp/cut.tsp: byte [0-9]*: bad saved partial: " "$tmp/err"; then
		:
	else
		bad "a partial cut at $cut bytes: rc $rc: $(cat "$tmp/err")"
	fi
done
ok "a partial cut short (4 places): exit 1, which file, which byte"
python3 - "$tmp/a.tsp" "$tmp" <<'PY'
import sys, zlib
b = bytearray(open(sys.argv[1], 'rb').read()); d = sys.argv[2]
f = bytearray(b); f[len(f) // 2] ^= 0x40; open(d + '/flip.tsp', 'wb').write(f)
v = bytearray(b); v[8] = 1; v[-4:] = zlib.crc32(bytes(v[:-4])).to_bytes(4, 'little'); open(d + '/v2.tsp', 'wb').write(v)
e = bytearray(b); e[12:16] = (0x01020304).to_bytes(4, 'big'); open(d + '/endian.tsp', 'wb').write(e)
PY
check() { # file, message
	"$TS" --no-progress merge "$tmp/a.tsp" "$1" > /dev/null 2> "$tmp/err"
	local rc=$?
	[ $rc -eq 1 ] && grep -q "$2" "$tmp/err"
}
check "$tmp/flip.tsp" "flip.tsp: byte [0-9]*: bad saved partial: checksum mismatch" &&
	ok "a flipped byte: checksum mismatch, exit 1" || bad "flip: $(cat "$tmp/err")"
check "$tmp/v2.tsp" "v2.tsp: byte 8: bad saved partial: version 1; this build reads version [1-9][0-9]*" &&
	ok "another version: said, exit 1" || bad "version: $(cat "$tmp/err")"
check "$tmp/endian.tsp" "endian.tsp: byte 12: bad saved partial: written with another byte order" &&
	ok "another byte order: said, exit 1" || bad "endian: $(cat "$tmp/err")"
check "$f" "sample_trace.json.gz: byte 0: bad saved partial: not a tracestream partial" &&
	ok "a trace given to merge: not a partial, exit 1" || bad "not a partial: $(cat "$tmp/err")"
"$TS" --no-progress merge "$tmp/nope.tsp" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "nope.tsp: cannot open" "$tmp/err" && ok "a missing partial: exit 2" || bad "missing: rc $rc"
# The header is checked before anything past it is read, and no more than
# its length is read: a bounded read whatever follows (finding F3).
python3 - "$TS" "$tmp/a.tsp" "$tmp" <<'PY' && ok "merge reads a partial's header first: /dev/zero, a 1.5 GB hole after a valid header, a length of 2^64-1 and a folder refused in a few MB, each named" || bad "bounded merge"
import os, resource, struct, subprocess, sys
ts, part, tmp = sys.argv[1:4]
head = open(part, 'rb').read(24)
def run(args, want_rc, want):
    p = subprocess.run([ts, '--no-progress', 'merge'] + args, capture_output=True, text=True, timeout=60)
    assert p.returncode == want_rc and want in p.stderr, (args, p.returncode, p.stderr)
run(['/dev/zero'], 1, 'no magic number')
hole = os.path.join(tmp, 'hole.tsp')
with open(hole, 'wb') as f:
    f.write(head)
    f.truncate(1500 << 20)
run([hole], 1, 'the header says a payload of')
huge = os.path.join(tmp, 'huge.tsp')
with open(huge, 'wb') as f:
    f.write(head[:16] + struct.pack('<Q', (1 << 64) - 1) + b'\0' * 4)
run([huge], 1, 'a payload of 18446744073709551615 bytes')
run([tmp], 2, 'is a directory')
os.remove(hole)
peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
assert peak_kb < 200 * 1024, peak_kb
PY

# A partial whose report is marked partial but whose status says nothing
# stopped its read holds together no longer: refused (finding F6).
python3 - "$TS" "$tmp/a.tsp" "$tmp/flag.tsp" <<'PY' && ok "a partial flag with an ok status: refused, exit 1, named" || bad "partial flag without a reason"
import struct, subprocess, sys, zlib
ts, src, dst = sys.argv[1:4]
b = bytearray(open(src, 'rb').read())
at = 24 + 12                                  # the meta section's bytes
n = struct.unpack_from('<I', b, at)[0]        # its trace path
pos = at + 4 + n
assert struct.unpack_from('<I', b, pos)[0] == 0 and b[pos + 4] == 0
b[pos + 4] = 1
struct.pack_into('<I', b, len(b) - 4, zlib.crc32(bytes(b[:-4])) & 0xffffffff)
open(dst, 'wb').write(b)
p = subprocess.run([ts, '--no-progress', 'merge', dst], capture_output=True, text=True, timeout=60)
assert p.returncode == 1 and 'status says nothing stopped its read' in p.stderr, (p.returncode, p.stderr)
assert 'PARTIAL REPORT' not in p.stdout, p.stdout[:200]
PY

exit $fail
