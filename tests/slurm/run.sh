#!/usr/bin/env bash
# make test-slurm: scripts/slurm-ranks.sh against a single-node Slurm on
# this machine (Debian slurm-wlm and munge, installed when missing and run
# as root; configured here, in a temporary directory, and stopped at the
# end). The ranks of tests/ranks/mkranks.py go through a job array and a
# merge job; the merged report must equal the direct run. Skips, with a
# message, where Slurm cannot be installed or started.
set -u
cd "$(dirname "$0")/../.."
TS=$(realpath "${TS:-./tracestream}")
skip() { echo "skip - slurm: $*"; exit 0; }
[ -x "$TS" ] || { echo "not ok - slurm: $TS is not built (make)"; exit 1; }
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
	[ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null || skip "slurm-wlm and munge are not installed (apt-get install slurm-wlm munge, as root)"
	(export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq slurm-wlm munge) \
		> /dev/null 2>&1 || skip "could not install slurm-wlm and munge"
fi
[ "$(id -u)" -eq 0 ] || skip "starting slurmctld, slurmd and munged needs root here"
tmp=$(mktemp -d /tmp/ts-slurm.XXXXXX)
chmod 755 "$tmp"
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	sleep 1
	rm -rf "$tmp"
}
trap cleanup EXIT
host=$(hostname -s)
cpus=$(nproc)
# munge: a key of our own, its socket in tmp
mkdir -p "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/key" bs=1024 count=1 2>/dev/null
chmod 400 "$tmp/munge/key"
munged --force --key-file="$tmp/munge/key" --socket="$tmp/munge/sock" \
	--pid-file="$tmp/munge/pid" --log-file="$tmp/munge/log" --seed-file="$tmp/munge/seed" ||
	skip "munged would not start: $(tail -2 "$tmp/munge/log" 2>/dev/null)"
pids+=("$(cat "$tmp/munge/pid")")
mkdir -p "$tmp/state" "$tmp/spool"
cat > "$tmp/slurm.conf" <<CONF
ClusterName=tstest
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=ts Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -f "$SLURM_CONF" || skip "slurmctld would not start: $(tail -3 "$tmp/slurmctld.log")"
sleep 1
slurmd -f "$SLURM_CONF" || skip "slurmd would not start: $(tail -3 "$tmp/slurmd.log")"
sleep 1
pids+=("$(cat "$tmp/slurmctld.pid" 2>/dev/null)" "$(cat "$tmp/slurmd.pid" 2>/dev/null)")
for _ in $(seq 30); do
	sinfo -h -o %T 2>/dev/null | grep -q idle && break
	sleep 1
done
sinfo -h -o %T 2>/dev/null | grep -q idle || skip "the node did not come up: $(tail -3 "$tmp/slurmd.log")"

python3 tests/ranks/mkranks.py "$tmp/job" "$tmp/truth.json"
"$TS" --no-progress -q -f json "$tmp/job" > "$tmp/direct.json"
TRACESTREAM=$TS bash scripts/slurm-ranks.sh -p ts "$tmp/parts" "$tmp/job" > "$tmp/submit" 2>&1 ||
	{ echo "not ok - slurm: submitting failed: $(cat "$tmp/submit")"; exit 1; }
for _ in $(seq 120); do
	[ -z "$(squeue -h 2>/dev/null)" ] && break
	sleep 1
done
fail=0
if [ -s "$tmp/parts/report.json" ] && python3 - "$tmp/direct.json" "$tmp/parts/report.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); m = json.load(open(sys.argv[2]))
strip = lambda rs: sorted(({k: v for k, v in r.items() if k != 'path'} for r in rs), key=lambda r: r['rank'])
assert strip(d['ranks']) == strip(m['ranks'])
assert d['skew']['straggler'] == m['skew']['straggler'] and d['skew']['layers'] == m['skew']['layers']
assert {k['name']: k['count'] for k in d['kernels']} == {k['name']: k['count'] for k in m['kernels']}
PY
then
	if grep -q 'data-table="ranks"' "$tmp/parts/report.html"; then
		echo "ok - slurm: a job array of 4 ranks and a merge job after it (single-node Slurm): the direct run's report ($(head -1 "$tmp/parts/report.txt")), and report.html"
	else
		echo "not ok - slurm: no report.html with the ranks table"
		fail=1
	fi
else
	echo "not ok - slurm: no merged report equal to the direct run: $(cat "$tmp/submit"; tail -5 "$tmp/parts/logs/"*.log 2>/dev/null; tail -5 "$tmp/slurmctld.log")"
	fail=1
fi

# -c: each task's --capture (the hand-made capture and two ranks replaying it)
python3 tests/capture/mkcapture.py "$tmp/cap"
mkdir "$tmp/capjob"
cp "$tmp/cap/replay_hip.json" "$tmp/capjob/r0.json"
cp "$tmp/cap/replay_hip.json" "$tmp/capjob/r1.json"
"$TS" --no-progress -q -f json --capture "$tmp/cap/capture_hip.json" "$tmp/capjob" > "$tmp/capdirect.json"
TRACESTREAM=$TS bash scripts/slurm-ranks.sh -p ts -c "$tmp/cap/capture_hip.json" "$tmp/capparts" "$tmp/capjob" \
	> "$tmp/capsubmit" 2>&1 || { echo "not ok - slurm: submitting with -c failed: $(cat "$tmp/capsubmit")"; exit 1; }
for _ in $(seq 120); do
	[ -z "$(squeue -h 2>/dev/null)" ] && break
	sleep 1
done
if [ -s "$tmp/capparts/report.json" ] && python3 - "$tmp/capdirect.json" "$tmp/capparts/report.json" <<'PY'
import json, sys
d, m = (json.load(open(p)) for p in sys.argv[1:3])
assert d['graph_replays'] == m['graph_replays'] and d['attribution'] == m['attribution']
assert m['graph_replays']['matched'] == 6
PY
then
	echo "ok - slurm: -c gives each task the capture: the merged replay table is the direct run's"
else
	echo "not ok - slurm: -c: $(cat "$tmp/capsubmit"; tail -5 "$tmp/capparts/logs/"*.log 2>/dev/null)"
	fail=1
fi
exit $fail
