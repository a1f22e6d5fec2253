#!/usr/bin/env bash
# Every fixture read 1..31 bytes per read() (hidden --read-size N; 16 sizes
# of that range: 1 to 8, 16, and the primes to 31, so short tokens split
# at every offset; all 31 took 90 s under ASan, past the test budget) must give
# byte-identical stdout and stderr, and the same exit code, as the default read
# size, in text and in JSON; also one gzip'ed fixture, so that the inflater is
# fed 1..31 bytes at a time.  (yajl's test/parsing/run_tests.sh does the same.)
. "$(dirname "$0")/lib.sh"

if [ ! -x "$TS" ]; then
    echo "not ok - read sizes: binary $TS not found or not executable"
    exit 0
fi

SIZES="1 2 3 4 5 6 7 8 11 13 16 17 19 23 29 31"
# under the sanitizers five of them (each run starts slowly there): every
# split of a short token still happens (1, 2 and 3 bytes), and a long one
# straddles reads of a middling and of the largest size (7, 31); make
# test-long (TS_LONG=1) runs eight there: 1, 2, 3, 5, 7, 13, 16, 31
case "${TS_LONG:-0}:$TS" in
0:*/san/*) SIZES="1 2 3 7 31" ;;
*/san/*) SIZES="1 2 3 5 7 13 16 31" ;;
esac


# sizes FMT FILE RESULT: the read sizes whose run differs, written to RESULT
sizes() {
    local fmt=$1 f=$2 res=$3 n rc ref_rc bad=
    "$TS" --format "$fmt" --no-progress "$f" > "$res.ref" 2> "$res.referr"
    ref_rc=$?
    for n in $SIZES; do
        "$TS" --format "$fmt" --no-progress --read-size "$n" "$f" > "$res.out" 2> "$res.err"
        rc=$?
        if [ $rc -ne $ref_rc ]; then
            bad="$bad $fmt/$n:exit-$rc-not-$ref_rc"
        elif ! cmp -s "$res.ref" "$res.out"; then
            bad="$bad $fmt/$n:stdout-differs"
        elif ! cmp -s "$res.referr" "$res.err"; then
            bad="$bad $fmt/$n:stderr-differs"
        fi
    done
    echo "$bad" > "$res"
}

# check LABEL FILE: text and JSON side by side (two cores)
check() {
    local label=$1 f=$2 bad
    sizes text "$f" "$tmp/text" &
    local pid=$!
    sizes json "$f" "$tmp/json"
    wait "$pid"
    bad="$(cat "$tmp/text") $(cat "$tmp/json")"
    # shellcheck disable=SC2086 # split on purpose: one word per failing run
    set -- $bad
    if [ $# -eq 0 ]; then
        echo "ok - read sizes 1..31 ($(echo $SIZES | wc -w) of them): $label"
    else
        echo "not ok - read sizes 1..31: $label: $# runs differ from the default read size: ${*:1:6}"
    fi
}

for f in "$here"/fixtures/*.json; do
    case $f in *.expect.json) continue ;; esac
    check "fixture $(basename "$f" .json)" "$f"
done

if command -v gzip >/dev/null 2>&1; then
    gzip -n -c "$here/fixtures/nvidia_pretty2.json" > "$tmp/nvidia_pretty2.json.gz"
    check "fixture nvidia_pretty2.json.gz (gzip)" "$tmp/nvidia_pretty2.json.gz"
else
    echo "skip - read sizes 1..31: gzip'ed fixture: gzip not found"
fi
exit 0
