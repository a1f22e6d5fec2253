# tests/lib.sh - the preamble every test script shares. A script sets T
# (the name its result lines carry; empty for none) and sources this:
#
#   T=compare
#   . "$(dirname "$0")/lib.sh"
#
# It gives: TS (the binary, an absolute path), here (the tests folder),
# SHARED (the shared traces, maybe absent), tmp (a scratch folder removed
# at exit), fail (1 once a check failed), and
#   ok DESC / bad DESC             one TAP-style result line
#   check DESC GOT WANT            ok when GOT = WANT
#   need_shared                    exit 0 with a "skip" line without SHARED
#   json_get FILE EXPR             print EXPR over d = the JSON in FILE
#   whole_run FILE                 false for a shared trace over 1 MB under a
#                                  sanitizer build (runs 5-10x slower): the
#                                  release build checks those, and t_threads
#                                  runs every shared trace under ASan
#   sweep_run FILE                 false for a shared trace over 1 MB unless
#                                  TS_LONG=1 (make test-long): for the sweeps
#                                  that rewrite or render every trace
#   finish                         exit with $fail
set -u
here=$(cd "$(dirname "$0")" && pwd)
TS=$(realpath "${TS:-./tracestream}")
SHARED=${SHARED:-../shared/traces}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ts_test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
T=${T:-}
# python3 as the interpreter itself, not a version manager's shim (pyenv's
# costs 0.3 s a call); tests/run.sh does it once for all
if [ -z "${TS_PYTHON_RESOLVED:-}" ]; then
	py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
	if [ -n "$py" ] && [ -x "$py" ]; then
		mkdir -p "$tmp/bin" && ln -s "$py" "$tmp/bin/python3" && PATH="$tmp/bin:$PATH"
	fi
	export TS_PYTHON_RESOLVED=1
fi

ok() { echo "ok - ${T:+$T: }$1"; }
bad() { echo "not ok - ${T:+$T: }$1"; fail=1; }
check() { if [ "$2" = "$3" ]; then ok "$1"; else bad "$1 (expected '$3', got '$2')"; fi; }

need_shared() {
	if [ ! -d "$SHARED" ]; then
		echo "skip - ${T:+$T: }the shared traces ($SHARED) are not here"
		exit 0
	fi
}

json_get() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1" 2>/dev/null
}

whole_run() {
	case "$TS" in
	*/san/* | */tsan/*) [ "$(wc -c < "$1")" -le 1000000 ] ;;
	*) true ;;
	esac
}

sweep_run() {
	[ "${TS_LONG:-0}" = 1 ] || [ "$(wc -c < "$1")" -le 1000000 ]
}

finish() { exit "$fail"; }
