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
#   ts_out ARGS...                 the stdout of "$TS ARGS" (stderr dropped,
#                                  exit status kept), made once a run: see
#                                  below (tests/tscache.py, the same in Python)
#   gen_out CMD...                 the stdout of a generator of test traces,
#                                  made once a run for both builds: see below
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

# ts_out ARGS...: the stdout of "$TS" ARGS on inputs that do not change
# during a run (the shared traces, tests/data), its stderr dropped and its
# exit status kept. The same report of the same trace by the same binary
# is asked for by a dozen scripts; tests/run.sh gives them one folder
# ($TS_CACHE), so that it is made once a run, by whichever asks first, and
# read back by the others (a script run alone keeps its own). The key is
# the binary, TRACESTREAM_PATTERNS and the arguments, each file named with
# its real path, size and time; -q and --no-progress, which change nothing
# on stdout, are left out of it. A run that names standard input, a
# folder or one of this script's scratch files, or writes to a file (-o),
# is not kept, nor one that ends in a sanitizer's report or a signal (an
# exit status over 98). tests/tscache.py makes the same keys.
TS_CACHE=${TS_CACHE:-$tmp/cache}
export TS_TESTS="$here"
tmp_real=$(cd "$tmp" && pwd -P)
ts_out() {
	local a r key=() c rc
	for a in "$@"; do
		case $a in
		-q | --quiet | --no-progress) continue ;;
		- | -o | --output | --output=* | --save-state | --csv-dir) "$TS" "$@" 2>/dev/null; return ;;
		esac
		key+=("$a")
		if [ -f "$a" ]; then
			r=$(realpath "$a")
			# this script's scratch files change under the same name
			case $r in "$tmp_real"/*) "$TS" "$@" 2>/dev/null; return ;; esac
			key+=("$r $(stat -c '%s %Y' "$a")")
		elif [ -d "$a" ]; then
			# a folder (ranks, patterns): its files are not in the key
			"$TS" "$@" 2>/dev/null
			return
		fi
	done
	mkdir -p "$TS_CACHE" 2>/dev/null
	c="$TS_CACHE/$(printf '%s\n' "$TS" "${TRACESTREAM_PATTERNS:-}" "${key[@]}" | md5sum | cut -c1-32)"
	if [ ! -f "$c.rc" ]; then
		"$TS" -q --no-progress "$@" > "$c.$$" 2>/dev/null
		rc=$?
		if [ $rc -gt 98 ]; then
			cat "$c.$$"
			rm -f "$c.$$"
			return $rc
		fi
		mv -f "$c.$$" "$c.out" && echo $rc > "$c.$$" && mv -f "$c.$$" "$c.rc"
	fi
	cat "$c.out"
	read -r rc < "$c.rc"
	return "$rc"
}

# gen_out CMD...: the stdout of CMD, a generator that writes the same trace
# for the same arguments (tests/layers/mkfixture.py, repeat.py, ...), made
# once a run and read back by the other build's script: the same key as
# ts_out's (each file argument, the generator's own source among them, by
# its real path, size and time, however it is spelt), in the same folder.
# Its stderr and exit
# status are kept only when it fails (and then nothing is kept).
gen_out() {
	local a r key=() c
	for a in "$@"; do
		if [ -f "$a" ]; then
			r=$(realpath "$a")
			case $r in "$tmp_real"/*) "$@"; return ;; esac
			key+=("$r $(stat -c '%s %Y' "$a")")
		elif [ -d "$a" ]; then
			"$@"
			return
		else
			key+=("$a")
		fi
	done
	mkdir -p "$TS_CACHE" 2>/dev/null
	c="$TS_CACHE/gen.$(printf '%s\n' "${key[@]}" | md5sum | cut -c1-32)"
	if [ ! -f "$c" ]; then
		"$@" > "$c.$$" || { a=$?; cat "$c.$$"; rm -f "$c.$$"; return $a; }
		mv -f "$c.$$" "$c"
	fi
	cat "$c"
}

finish() { exit "$fail"; }
