#!/usr/bin/env bash
# The ranks of one job on a Slurm cluster: a job array with one task per
# trace (each saves a partial on shared storage), and one merge job that
# depends on the whole array and writes the report. Slurm schedules; we
# only submit.
#
#   scripts/slurm-ranks.sh [-p PARTITION] [-t TIME] [-c CAPTURE]... PARTS_DIR TRACE... | DIR
#
#   PARTS_DIR  on storage every node sees: partials (NAME.tsp), logs, and
#              the merged report.txt, report.json and report.html when the
#              merge job ends
#   -p         the partition for both jobs; -t their time limit (sbatch -t)
#   -c         graph-capture traces (a file, a directory of them, or a
#              partial saved with --capture) for every task's --capture,
#              on shared storage; repeatable
#
# Prints the two job ids (array, merge). The merge job runs after every
# task has ended (afterany): a rank that failed is missing from the report
# (its log says why), and report.txt says how many of how many merged.
# tracestream must be on the nodes' PATH (or TRACESTREAM=/path/to/it).
# Every sbatch option can also come from SBATCH_* variables (man sbatch).
set -u
ts=${TRACESTREAM:-tracestream}
opts=() caps=""
while getopts "p:t:c:" opt; do
	case $opt in
	c) caps="$caps --capture '$(realpath "$OPTARG")'" ;;
	p) opts+=(-p "$OPTARG") ;;
	t) opts+=(-t "$OPTARG") ;;
	*) sed -n '2,21p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { sed -n '2,21p' "$0" >&2; exit 2; }
command -v sbatch >/dev/null || { echo "slurm-ranks: sbatch not found (not a Slurm client)" >&2; exit 2; }
parts=$(realpath -m "$1")
shift
mkdir -p "$parts/logs" || exit 2
list=$parts/traces.txt
: > "$list"
for a in "$@"; do
	if [ -d "$a" ]; then
		find "$(realpath "$a")" -maxdepth 1 -type f \( -name '*.json' -o -name '*.json.gz' \) | sort >> "$list"
	else
		realpath "$a" >> "$list"
	fi
done
n=$(wc -l < "$list")
[ "$n" -gt 0 ] || { echo "slurm-ranks: no traces" >&2; exit 2; }
cat > "$parts/rank.sh" <<SH
#!/bin/bash
# one array task: one trace -> one partial
trace=\$(sed -n "\$((SLURM_ARRAY_TASK_ID + 1))p" "$list")
name=\$(basename "\$trace"); name=\${name%.gz}; name=\${name%.json}
exec "$ts" -q --no-progress$caps --save-state "$parts/\$name.tsp" "\$trace" > /dev/null
SH
cat > "$parts/merge.sh" <<SH
#!/bin/bash
# after the array: every partial there is -> one report
shopt -s nullglob
set -- "$parts"/*.tsp
echo "merging \$# of $n ranks" > "$parts/report.txt"
[ \$# -gt 0 ] || exit 1
"$ts" -q merge "\$@" >> "$parts/report.txt" &&
	"$ts" -q -f json -o "$parts/report.json" merge "\$@" &&
	"$ts" -q -f html -o "$parts/report.html" merge "\$@"
SH
chmod +x "$parts/rank.sh" "$parts/merge.sh"
array=$(sbatch --parsable "${opts[@]}" --job-name=tracestream-ranks --array=0-$((n - 1)) \
	--output="$parts/logs/rank_%a.log" "$parts/rank.sh") || exit 1
array=${array%%;*}
merge=$(sbatch --parsable "${opts[@]}" --job-name=tracestream-merge --dependency=afterany:"$array" \
	--output="$parts/logs/merge.log" "$parts/merge.sh") || exit 1
echo "array $array ($n ranks), merge ${merge%%;*}: $parts/report.txt, report.json and report.html"
