#!/usr/bin/env bash
# Every real trace in $SHARED against the independent oracle (tests/oracle.py)
# and the facts in MANIFEST.md.  One line per trace per aspect group.
. "$(dirname "$0")/lib.sh"

if [ ! -d "$SHARED" ]; then
    echo "skip - shared traces: ../shared/traces not found"
    exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "skip - shared traces: python3 not found"
    exit 0
fi
if [ ! -x "$TS" ]; then
    echo "not ok - shared traces: binary $TS not found or not executable"
    exit 0
fi


# The oracle is slow (Python, whole file in memory): cache its answer per
# (oracle version, file, size, mtime) so the second build's run is fast.
cache=${TMPDIR:-/tmp}/tracestream-oracle-cache-$(id -u)
mkdir -p "$cache" 2>/dev/null || cache=$tmp
ohash=$(sha1sum "$here/oracle.py" | cut -c1-12)

shopt -s nullglob
files=("$SHARED"/*.json "$SHARED"/*.json.gz)
if [ ${#files[@]} -eq 0 ]; then
    echo "skip - shared traces: no *.json or *.json.gz in $SHARED"
    exit 0
fi

for f in "${files[@]}"; do
    name=$(basename "$f")
    key=$(printf '%s %s %s %s' "$ohash" "$(cd "$(dirname "$f")" && pwd)/$name" \
          "$(stat -c %s "$f")" "$(stat -c %Y "$f")" | sha1sum | cut -c1-20)
    ofile=$cache/$key.json
    opid=
    if [ ! -s "$ofile" ]; then
        ( python3 "$here/oracle.py" "$f" > "$ofile.$$" 2> "$tmp/oracle.err" &&
          mv -f "$ofile.$$" "$ofile" ) &
        opid=$!
    fi
    "$TS" --format json --no-progress "$f" > "$tmp/out.json" 2> "$tmp/err"
    rc=$?
    [ -n "$opid" ] && wait "$opid"
    if [ ! -s "$ofile" ]; then
        echo "not ok - $name: oracle failed: $(head -c 300 "$tmp/oracle.err" | tr '\n' ' ')"
        continue
    fi
    python3 "$here/compare_oracle.py" "$ofile" "$tmp/out.json" "$rc" "$f" "$tmp/err"
done
exit 0
