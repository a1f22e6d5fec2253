#!/usr/bin/env bash
# Hand-made fixtures (tests/fixtures/NAME.json) against hand-computed answers
# (tests/fixtures/NAME.expect.json; the arithmetic is in tests/fixtures/README.md).
# Per fixture: the JSON report matches the answer, the text report exits 0.
# Then: *_us values have 3 decimals, the answers agree with tests/oracle.py,
# and --top does not cut the JSON kernel list.
. "$(dirname "$0")/lib.sh"
fx=$here/fixtures

if ! command -v python3 >/dev/null 2>&1; then
    echo "skip - fixtures: python3 not found"
    exit 0
fi
if [ ! -x "$TS" ]; then
    echo "not ok - fixtures: binary $TS not found or not executable"
    exit 0
fi


: > "$tmp/list"
for exp in "$fx"/*.expect.json; do
    name=$(basename "$exp" .expect.json)
    f=$fx/$name.json
    if [ ! -f "$f" ]; then
        echo "not ok - fixture $name: $f missing"
        continue
    fi
    "$TS" --format json --no-progress "$f" > "$tmp/$name.json" 2> "$tmp/$name.jerr"
    jrc=$?
    "$TS" --no-progress "$f" > "$tmp/$name.txt" 2> "$tmp/$name.terr"
    trc=$?
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$f" "$exp" \
        "$tmp/$name.json" "$jrc" "$tmp/$name.jerr" "$tmp/$name.txt" "$trc" "$tmp/$name.terr" \
        >> "$tmp/list"
done
python3 "$here/expect.py" --batch "$tmp/list"

# Contract: "-n/--top N rows in the kernel table; JSON always has all".
"$TS" --format json --no-progress --top 1 "$fx/hf_layout_indent4.json" > "$tmp/top1.json" 2>/dev/null
if cmp -s "$tmp/top1.json" "$tmp/hf_layout_indent4.json"; then
    echo "ok - fixtures: --top 1 does not change the JSON report"
else
    echo "not ok - fixtures: --top 1 changes the JSON report (JSON must list every kernel)"
fi
exit 0
