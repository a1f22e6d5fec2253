#!/bin/sh
# Install the Debian packages tracestream needs to build and test, when they
# are missing. As root it runs apt-get; otherwise it prints the exact command.
set -eu

pkgs="make gcc libc6-dev libyajl-dev zlib1g-dev libcyaml-dev libyaml-dev libpcre2-dev libxlsxwriter-dev python3 python3-openpyxl gzip"

missing=""
for p in $pkgs; do
	status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$status" = "installed" ] || missing="$missing $p"
done

[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: missing packages:$missing (not a Debian system: install their equivalents)" >&2
	exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing Debian packages:$missing" >&2
	echo "deps: run: sudo apt-get update && sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "deps: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq $missing
