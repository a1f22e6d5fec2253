#!/usr/bin/env bash
# Every kind of file PyTorch's profiler writes is said to be what it is
# (issue 39), never a silent zero: a small trace of each kind
# (tests/kinds/mkkinds.py) and the words its passes note must hold; the
# PyTorch 1.8 / 1.9 spellings (Kernel, Memcpy, Memset, Runtime, Operator,
# async flows, "external id") read like today's; the shared PyTorch 1.8
# trace gives kineto's own expected table (8,772 kernels of 67 names,
# 591,532 us, tb_plugin/test/result_check_file.txt).
T=trace_kinds
. "$(dirname "$0")/lib.sh"

python3 "$here/kinds/mkkinds.py" "$tmp" >"$tmp/kinds.tsv"
while IFS="$(printf '\t')" read -r kind words; do
	"$TS" -q -f json "$tmp/$kind.json" >"$tmp/$kind.out" 2>"$tmp/err"
	rc=$?
	note=$(json_get "$tmp/$kind.out" "d['passes_note']")
	case $rc:$note in
	0:*"$words"*) ok "$kind: exit 0, the note says: $words" ;;
	*) bad "$kind: exit $rc: $note $(head -c 200 "$tmp/err")" ;;
	esac
done <"$tmp/kinds.tsv"

python3 - "$tmp/old.out" <<'PY' && ok "PyTorch 1.8 spellings: 40 kernels (280 us), a memcpy and a memset, each kernel's op by the lower-case external id" || bad "old spellings: $(head -c 400 "$tmp/old.out")"
import json, sys
d = json.load(open(sys.argv[1]))
e = d['events']
assert (e['kernel'], e['gpu_memcpy'], e['gpu_memset'], e['cpu_op'], e['cuda_runtime'], e['flow']) == (40, 1, 1, 40, 40, 80), e
assert d['trace']['kernel_time_us'] == 280.0, d['trace']
assert [(o['name'], o['kernels']) for o in d['ops']] == [('aten::conv2d', 40)], d['ops']
assert d['kernels'][0]['category'] == 'Conv', d['kernels'][0]
PY

need_shared
f="$SHARED/kineto_pytorch1.8_resnet50_v100_train_oldspelling.pt.trace.json.gz"
if [ -e "$f" ] && whole_run "$f"; then
	"$TS" -q -f json --top 0 "$f" >"$tmp/k.json" 2>/dev/null
	python3 - "$tmp/k.json" <<'PY' && ok "kineto's PyTorch 1.8 ResNet-50 trace: 8772 kernels of 67 names, 591532 us (kineto's expected table), all typed" || bad "kineto 1.8 trace: $(json_get "$tmp/k.json" "d['trace']")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d['events']['kernel'] == 8772, d['events']
assert d['trace']['kernel_time_us'] == 591532.0, d['trace']
assert len(d['kernels']) == 67, len(d['kernels'])
assert d['classified_pct'] >= 97, d['classified_pct']
PY
fi
finish
