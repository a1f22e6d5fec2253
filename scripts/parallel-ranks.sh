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
# still runs on the others, exit status that of the worst.
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
parallel --will-cite --halt never "${jobs[@]}" "${logins[@]}" \
	"$ts" -q --no-progress "${caps[@]}" --save-state "$parts/{= s:.*/::; s:\.gz\$::; s:\.json\$:: =}.tsp" {} '>' /dev/null ::: "$@"
rc=$?
shopt -s nullglob
set -- "$parts"/*.tsp
[ $# -gt 0 ] || { echo "parallel-ranks: no partial was written" >&2; exit 1; }
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
# parallel's status is the number of failed ranks: those are exit 1
[ $mrc -ne 0 ] && exit $mrc
[ $rc -ne 0 ] && exit 1
exit 0
