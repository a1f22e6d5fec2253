#!/usr/bin/env bash
# The ranks of one job spread with GNU parallel: each trace analysed on its
# own (on this machine, or on others over ssh), saved as a partial, and the
# partials merged into one report. No scheduler of ours: GNU parallel runs
# the per-rank commands, `tracestream merge` reduces.
#
#   scripts/parallel-ranks.sh [-j N] [-S LOGINS] [-c CAPTURE]... [-o REPORT] PARTS_DIR TRACE...
#
#   -c CAPTURE graph-capture traces (a file, a directory of them, or a
#              partial saved with --capture) for every rank's --capture;
#              repeatable
#   -j N       per-rank analyses at a time on each machine (parallel's -j;
#              default: its own, one per core)
#   -S LOGINS  run on these machines (parallel's --sshlogin, e.g.
#              8/node1,8/node2; ":" is this machine). PARTS_DIR and the
#              traces must be at the same paths there (shared storage), and
#              tracestream on each machine's PATH (or TRACESTREAM=path)
#   -o REPORT  write the merged report there (default: standard output);
#              a name ending .json gets JSON, .html a page, .xlsx a workbook
#
# Each rank writes PARTS_DIR/NAME.tsp (NAME: the trace's file name without
# .json/.json.gz); a rank that fails is reported by name and the merge
# still runs on the others. The exit status is tracestream's, of the worst
# rank or of the merge: 1 a bad or cut trace, 2 a missing or unreadable
# one (or bad usage), 3 the pattern tables.
# The same by hand:
#   parallel tracestream -q --save-state parts/{/.}.tsp {} '>' /dev/null ::: traces/*
#   tracestream merge parts/*.tsp
set -u
ts=${TRACESTREAM:-tracestream}
jobs=() logins=() caps=() out=""
while getopts "j:S:c:o:" opt; do
	case $opt in
	j) jobs=(-j "$OPTARG") ;;
	c) caps+=(--capture "$(realpath "$OPTARG")") ;;
	S) logins=(--sshlogin "$OPTARG") ;;
	o) out=$OPTARG ;;
	*) sed -n '2,26p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { sed -n '2,26p' "$0" >&2; exit 2; }
parts=$1
shift
command -v parallel >/dev/null || { echo "parallel-ranks: GNU parallel is not installed (apt-get install parallel)" >&2; exit 2; }
mkdir -p "$parts" || exit 2
# {/} is the trace's file name; strip .gz and .json for the partial's name
log="$parts/.parallel-joblog"
rm -f "$log"
parallel --will-cite --halt never --joblog "$log" "${jobs[@]}" "${logins[@]}" \
	"$ts" -q --no-progress "${caps[@]}" --save-state "$parts/{= s:.*/::; s:\.gz\$::; s:\.json\$:: =}.tsp" {} '>' /dev/null ::: "$@"
prc=$?
# the worst rank's own exit status (parallel's is only how many failed);
# a rank killed by a signal counts as an I/O failure (2)
rc=$(awk 'NR > 1 { v = $7 + 0; if ($8 + 0 != 0 && v < 2) v = 2; if (v > w) w = v } END { print w + 0 }' "$log" 2>/dev/null)
[ -n "$rc" ] || rc=$prc
[ "$prc" -ne 0 ] && [ "$rc" -eq 0 ] && rc=2
shopt -s nullglob
set -- "$parts"/*.tsp
[ $# -gt 0 ] || { echo "parallel-ranks: no partial was written" >&2; [ "$rc" -ne 0 ] && exit "$rc"; exit 1; }
fmt=()
case $out in
*.json) fmt=(-f json) ;;
*.html) fmt=(-f html) ;;
*.xlsx) fmt=(-f xlsx) ;;
esac
if [ -n "$out" ]; then
	"$ts" -q "${fmt[@]}" -o "$out" merge "$@"
else
	"$ts" -q "${fmt[@]}" merge "$@"
fi
mrc=$?
# the worse of the merge's status and the worst rank's
[ "$mrc" -gt "$rc" ] && exit "$mrc"
exit "$rc"
