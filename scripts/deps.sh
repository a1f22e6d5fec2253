#!/bin/sh
# Install the Debian packages tracestream needs to build and test, when they
# are missing. As root it runs apt-get; otherwise it prints the exact command.
#
#   sh scripts/deps.sh          what building and the tests need
#   sh scripts/deps.sh --test   also what some tests use when they can:
#                               chromium (the HTML report in a real browser)
#                               python3-openpyxl (reading the workbook),
#                               python3-pandas (the notebook package's DataFrames),
#                               python3-venv (pip install ./python, offline, in a venv)
#                               and parallel (GNU parallel: scripts/parallel-ranks.sh);
#                               those tests skip with a message without them,
#                               so failing to install these is not an error
#   sh scripts/deps.sh --check  only say what building needs and is missing
#                               (exit 1), installing nothing (pip's build)
set -eu

pkgs="make gcc libc6-dev libyajl-dev zlib1g-dev libcyaml-dev libyaml-dev libpcre2-dev libxlsxwriter-dev python3 gzip"
extras="chromium python3-openpyxl python3-pandas python3-venv parallel"

if [ "${1:-}" = "--test" ]; then
	missing_x=""
	for p in $extras; do
		status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
		[ "$status" = "installed" ] || missing_x="$missing_x $p"
	done
	if [ -n "$missing_x" ]; then
		if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
			echo "deps: installing for the tests:$missing_x (apt-get, quietly: a minute or more)" >&2
			t0=$(date +%s)
			if (export DEBIAN_FRONTEND=noninteractive; apt-get update -qq &&
				apt-get install -y -qq $missing_x) >/dev/null 2>&1; then
				echo "deps: installed in $(($(date +%s) - t0)) s" >&2
			else
				echo "deps: could not install$missing_x; the tests that use them will skip" >&2
			fi
		else
			echo "deps: optional for the tests:$missing_x (sudo apt-get install -y$missing_x)" >&2
		fi
	fi
fi

missing=""
for p in $pkgs; do
	status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$status" = "installed" ] || missing="$missing $p"
done

[ -z "$missing" ] && exit 0

if [ "${1:-}" = "--check" ]; then
	echo "missing Debian packages:$missing" >&2
	echo "run: sudo apt-get update && sudo apt-get install -y$missing" >&2
	exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: missing packages:$missing (not a Debian system: install their equivalents)" >&2
	exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing Debian packages:$missing" >&2
	echo "deps: run: sudo apt-get update && sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "deps: installing:$missing (apt-get)" >&2
export DEBIAN_FRONTEND=noninteractive
t0=$(date +%s)
# apt's own lines go to a log; its errors come back with it
log=$(mktemp)
if ! { apt-get update -qq && apt-get install -y -qq $missing; } >"$log" 2>&1; then
	cat "$log" >&2
	rm -f "$log"
	echo "deps: apt-get failed installing:$missing" >&2
	exit 1
fi
rm -f "$log"
echo "deps: installed in $(($(date +%s) - t0)) s" >&2
