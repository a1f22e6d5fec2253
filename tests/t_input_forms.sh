#!/usr/bin/env bash
# The same trace given as plain JSON, .json.gz, plain or gzip on stdin (a pipe),
# concatenated gzip members, gzip named .json and plain JSON named .json.gz
# must give the same report: the JSON document equal once trace.path,
# trace.input_bytes and trace.compressed are removed (those three checked
# separately), and the text report equal once its first line
# ("tracestream VERSION: NAME") and the " (N KB gzip)" size are removed.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1 || ! command -v gzip >/dev/null 2>&1; then
    echo "skip - input forms: python3 or gzip not found"
    exit 0
fi
if [ ! -x "$TS" ]; then
    echo "not ok - input forms: binary $TS not found or not executable"
    exit 0
fi


size() { stat -c %s "$1"; }

# form DIR LABEL PATH COMPRESSED INPUT_BYTES [STDIN_FILE]: run both formats on
# PATH (for PATH '-', STDIN_FILE arrives through a pipe); record the run.
form() {
    local d=$1 label=$2 path=$3 comp=$4 nbytes=$5 in=${6:-/dev/null} i
    i=$(wc -l < "$d/list")
    # a pipe on purpose ('< file' would give a seekable regular file)
    # shellcheck disable=SC2002
    cat "$in" | "$TS" --format json --no-progress "$path" > "$d/$i.json" 2> "$d/$i.jerr"
    local rc1=$?
    # shellcheck disable=SC2002
    cat "$in" | "$TS" --no-progress "$path" > "$d/$i.txt" 2> "$d/$i.terr"
    local rc2=$?
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$path" "$comp" "$nbytes" "$d/$i" "$rc1" "$rc2" >> "$d/list"
}

# check_trace TAG PLAIN_JSON DIRNAME
check_trace() {
    local tag=$1 plain=$2 d=$tmp/$3 n half third
    mkdir -p "$d"
    : > "$d/list"
    n=$(size "$plain")
    form "$d" "$tag: plain file" "$plain" false "$n"

    gzip -n -c "$plain" > "$d/x.json.gz"
    form "$d" "$tag: .json.gz file" "$d/x.json.gz" true "$(size "$d/x.json.gz")"
    form "$d" "$tag: zcat x.json.gz | tracestream -" - false "$n" "$plain"
    form "$d" "$tag: gzip on stdin (cat x.json.gz | tracestream -)" - true "$(size "$d/x.json.gz")" "$d/x.json.gz"
    cp "$d/x.json.gz" "$d/gz_named.json"
    form "$d" "$tag: gzip file named .json" "$d/gz_named.json" true "$(size "$d/gz_named.json")"
    cp "$plain" "$d/plain_named.json.gz"
    form "$d" "$tag: plain JSON named .json.gz" "$d/plain_named.json.gz" false "$n"

    # the JSON text split in two, each half gzip'ed, the members concatenated
    half=$((n / 2))
    head -c "$half" "$plain" | gzip -n -c > "$d/a.gz"
    tail -c +$((half + 1)) "$plain" | gzip -n -c > "$d/b.gz"
    cat "$d/a.gz" "$d/b.gz" > "$d/two.json.gz"
    form "$d" "$tag: two concatenated gzip members" "$d/two.json.gz" true "$(size "$d/two.json.gz")"
    form "$d" "$tag: two concatenated gzip members on stdin" - true "$(size "$d/two.json.gz")" "$d/two.json.gz"

    third=$((n / 3))
    head -c 1 "$plain" | gzip -n -c > "$d/m1.gz"
    tail -c +2 "$plain" | head -c $((third - 1)) | gzip -n -c > "$d/m2.gz"
    tail -c +$((third + 1)) "$plain" | gzip -n -c > "$d/m3.gz"
    cat "$d/m1.gz" "$d/m2.gz" "$d/m3.gz" > "$d/three.json.gz"
    form "$d" "$tag: three gzip members (the first holds 1 byte)" "$d/three.json.gz" true "$(size "$d/three.json.gz")"

    printf '' | gzip -n -c > "$d/empty.gz"
    cat "$d/a.gz" "$d/empty.gz" "$d/b.gz" > "$d/withempty.json.gz"
    form "$d" "$tag: an empty gzip member between two members" "$d/withempty.json.gz" true "$(size "$d/withempty.json.gz")"

    python3 - "$d/list" <<'PY'
import json, re, sys

def load_json(p):
    with open(p, "rb") as f:
        return json.loads(f.read().decode("utf-8"))

def text(p):
    with open(p, "rb") as f:
        lines = f.read().decode("utf-8", "replace").split("\n")
    if lines and lines[0].startswith("tracestream "):
        lines = lines[1:]
    return [re.sub(r" \([^()]*gzip\)", "", l) for l in lines]

def first(p, n=200):
    try:
        with open(p, "rb") as f:
            return f.read(n).decode("utf-8", "replace").replace("\n", " ").strip()
    except OSError:
        return ""

def diff(x, y, p):
    if isinstance(x, dict) and isinstance(y, dict):
        for k in list(x) + [k for k in y if k not in x]:
            if k not in x or k not in y:
                return "%s.%s present in one report only" % (p, k)
            r = diff(x[k], y[k], "%s.%s" % (p, k))
            if r:
                return r
        return None
    if isinstance(x, list) and isinstance(y, list):
        if len(x) != len(y):
            return "%s: %d vs %d items" % (p, len(x), len(y))
        for i, (u, v) in enumerate(zip(x, y)):
            r = diff(u, v, "%s[%d]" % (p, i))
            if r:
                return r
        return None
    if x != y or type(x) is not type(y):
        return "%s: %s vs %s" % (p, json.dumps(x)[:80], json.dumps(y)[:80])
    return None

with open(sys.argv[1], encoding="utf-8") as f:
    rows = [l.rstrip("\n").split("\t") for l in f if l.strip()]
ref_json = ref_text = None
for n, (label, path, comp, nbytes, base, rc1, rc2) in enumerate(rows):
    bad = []
    if rc1 != "0":
        bad.append("json exit %s (%s)" % (rc1, first(base + ".jerr")))
    if rc2 != "0":
        bad.append("text exit %s (%s)" % (rc2, first(base + ".terr")))
    try:
        doc = load_json(base + ".json")
        tr = doc.get("trace", {})
        if tr.get("path") != path:
            bad.append("trace.path=%r, want %r" % (tr.get("path"), path))
        if tr.get("compressed") is not (comp == "true"):
            bad.append("trace.compressed=%r, want %s" % (tr.get("compressed"), comp))
        if tr.get("input_bytes") != int(nbytes):
            bad.append("trace.input_bytes=%r, want %s" % (tr.get("input_bytes"), nbytes))
        for k in ("path", "input_bytes", "compressed"):
            tr.pop(k, None)
    except (ValueError, OSError, AttributeError) as e:
        bad.append("JSON report unreadable: %s" % e)
        doc = None
    txt = text(base + ".txt")
    if n == 0:
        ref_json, ref_text = doc, txt
    else:
        if doc is not None and ref_json is not None:
            r = diff(ref_json, doc, "")
            if r:
                bad.append("JSON differs from the plain file's at " + r)
        if txt != ref_text:
            for i, (x, y) in enumerate(zip(ref_text + [""] * len(txt), txt + [""] * len(ref_text))):
                if x != y:
                    bad.append("text differs from the plain file's at line %d: %r vs %r"
                               % (i + 2, x[:70], y[:70]))
                    break
    if bad:
        print("not ok - %s: %s" % (label, "; ".join(bad)))
    else:
        print("ok - %s" % label)
PY
}

check_trace "input forms (fixture nvidia_pretty2)" "$here/fixtures/nvidia_pretty2.json" fixture

# a plain regular file is mapped, not read: every format the same as the
# read() path (--no-mmap), whole, cut inside an event and malformed
gen_out python3 "$here/layers/mkgeneric.py" --layers 4 --prefill 512 --decode 3 --batch 8 --seed 5 > "$tmp/m.json"
head -c $(( $(size "$tmp/m.json") * 2 / 3 )) "$tmp/m.json" > "$tmp/mcut.json"
sed '0,/"dur": /s/"dur": /"dur": x/' "$tmp/m.json" > "$tmp/mbad.json"
same=1
for f in "$tmp/m.json" "$tmp/mcut.json" "$tmp/mbad.json"; do
    for fmt in text json; do
        "$TS" --no-progress -f $fmt "$f" > "$tmp/a.out" 2> "$tmp/a.err"; ra=$?
        "$TS" --no-progress --no-mmap -f $fmt "$f" > "$tmp/b.out" 2> "$tmp/b.err"; rb=$?
        if [ $ra -ne $rb ] || ! cmp -s "$tmp/a.out" "$tmp/b.out" || ! cmp -s "$tmp/a.err" "$tmp/b.err"; then
            same=0
            echo "# $(basename "$f") $fmt: rc $ra vs $rb; $(diff "$tmp/a.err" "$tmp/b.err" | head -3)"
        fi
    done
done
[ $same = 1 ] && echo "ok - input forms: a mapped plain file gives what the read() path gives (report, errors, offsets), whole, cut and malformed" ||
    echo "not ok - input forms: the mapped file and the read() path differ"

shared=$SHARED/sglang_qwen3-8b_mi300x_decode_bs32_cudagraph.json.gz
if [ ! -d "$SHARED" ]; then
    echo "skip - input forms (shared trace): ../shared/traces not found"
elif [ ! -f "$shared" ]; then
    echo "skip - input forms (shared trace): $(basename "$shared") not in $SHARED"
else
    gzip -dc "$shared" > "$tmp/shared.json"
    check_trace "input forms (shared sglang_qwen3-8b decode)" "$tmp/shared.json" shared
fi
# Bytes that are no JSON a trace starts with are named for what they are
# (issue 58): compressed with another tool, archived, UTF-16, a byte
# order mark, a TOML file; each refused as not a trace (exit 1) at byte 1.
printf '\x28\xb5\x2f\xfd\x04\x00' > "$tmp/zstd.json.gz"
printf '\xfd7zXZ\x00\x00\x04' > "$tmp/xz.json.gz"
printf 'BZh91AY&SY' > "$tmp/bz2.json.gz"
printf 'PK\x03\x04\x14\x00' > "$tmp/zip.json.gz"
printf '\xef\xbb\xbf{"traceEvents": []}' > "$tmp/bom.json"
python3 -c 'import sys; open(sys.argv[1], "wb").write("{\"traceEvents\": []}".encode("utf-16-le"))' "$tmp/u16.json"
printf '[build-system]\nrequires = ["setuptools"]\n' > "$tmp/py.toml"
# and whole traces so compressed: their bytes hold what the threaded
# parse takes for a cut between items a few bytes in
python3 - "$tmp" <<'PY'
import bz2, gzip, lzma, sys, zipfile
t = gzip.open('tests/data/sample_trace.json.gz').read()
open(sys.argv[1] + '/real-bz2.json.gz', 'wb').write(bz2.compress(t))
open(sys.argv[1] + '/tiny-bz2.json.gz', 'wb').write(bz2.compress(b'{"traceEvents":[]}\n'))
open(sys.argv[1] + '/real-xz.json.gz', 'wb').write(lzma.compress(t))
with zipfile.ZipFile(sys.argv[1] + '/real-zip.json.gz', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('trace.json', t)
open(sys.argv[1] + '/real-u16.json', 'wb').write(t.decode().encode('utf-16'))
PY
for x in "zstd.json.gz:zstd-compressed" "xz.json.gz:xz-compressed" "bz2.json.gz:bzip2-compressed" \
	 "zip.json.gz:a zip archive" "bom.json:a UTF-8 byte order mark" "u16.json:UTF-16 text" \
	 "py.toml:text that begins like a TOML or INI section" \
	 "real-bz2.json.gz:bzip2-compressed" "real-xz.json.gz:xz-compressed" \
	 "real-zip.json.gz:a zip archive" "real-u16.json:UTF-16 text" "tiny-bz2.json.gz:bzip2-compressed"; do
	f=${x%%:*} what=${x#*:}
	"$TS" --no-progress "$tmp/$f" > /dev/null 2> "$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] && grep -q "$f: byte 1: not a trace: $what" "$tmp/err"; then
		echo "ok - input forms: $f: refused as $what, at byte 1, exit 1"
	else
		echo "not ok - input forms: $f: rc $rc, $(cat "$tmp/err")"
	fi
done

# Kernels as begin/end pairs (Chrome's ph B/E) or instants are no complete
# events: not counted as kernels or launches, said in one warning; the
# complete kernel beside them is read (robustness finding F8).
python3 - "$TS" <<'PY' && echo "ok - input forms: 50 kernel B/E pairs and an instant are not read as 101 kernels; the one complete kernel is, and a warning says why" || echo "not ok - input forms: B/E kernels"
import json, subprocess, sys
ev = [{"ph": "X", "cat": "kernel", "name": "gemm_x", "pid": 0, "tid": 7, "ts": 1, "dur": 5,
       "args": {"device": 0, "stream": 7, "correlation": 1}}]
for i in range(50):
    for ph, t in (("B", 10 + 10 * i), ("E", 15 + 10 * i)):
        ev.append({"ph": ph, "cat": "kernel", "name": "k%d" % i, "pid": 0, "tid": 7, "ts": t,
                   "args": {"device": 0, "stream": 7}})
ev.append({"ph": "i", "cat": "kernel", "name": "mark", "pid": 0, "tid": 7, "ts": 900, "s": "t"})
p = subprocess.run([sys.argv[1], '--no-progress', '-f', 'json', '-'], input=json.dumps({"traceEvents": ev}),
                   capture_output=True, text=True, timeout=60)
d = json.loads(p.stdout)
assert d['trace']['kernels'] == 1, d['trace']['kernels']
assert '101 kernel, copy or set events in begin/end or instant form' in p.stderr, p.stderr
PY

exit 0
