#!/usr/bin/env bash
# Collectives with their sizes and bandwidth (issue 39): a fixture with one
# kernel of each kind (all-reduce, all-gather, reduce-scatter, all-to-all,
# broadcast) of known message, group and time, whose bandwidths are
# computed here by NCCL-tests' formulas; the parallel parse carries the
# message as the in-order one; on the shared HTA NCCL trace the
# all-reduce's bytes equal an independent sum of In msg nelems x dtype
# size over its kernels.
T=collectives
. "$(dirname "$0")/lib.sh"

python3 - "$tmp/c.json" <<'PY'
import json, sys
K = [  # kernel name, in, out, dtype, group, dur us
    ('ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)', 1000000, 1000000, 'Float', 4, 1000),
    ('ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)', 1000000, 4000000, 'Half', 4, 2000),
    ('ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)', 4000000, 1000000, 'BFloat16', 4, 500),
    ('ncclDevKernel_AllToAll_RING_LL(ncclDevKernelArgsStorage<4096ul>)', 2000000, 2000000, 'Float', 8, 4000),
    ('ncclDevKernel_Broadcast_RING_LL(ncclDevKernelArgsStorage<4096ul>)', 1000, 1000, 'Long', 2, 8),
]
ev, t = [], 1000.0
for rep in range(2):
    for name, i, o, dt, g, d in K:
        ev.append({'ph': 'X', 'cat': 'kernel', 'name': name, 'pid': 0, 'tid': 7, 'ts': t, 'dur': d,
                   'args': {'device': 0, 'stream': 7, 'Collective name': 'x', 'In msg nelems': i,
                            'Out msg nelems': o, 'Group size': g, 'dtype': dt}})
        t += d + 10
json.dump({'traceEvents': ev}, open(sys.argv[1], 'w'))
PY
for T_ in 1 2; do
	"$TS" -q -T $T_ -f json "$tmp/c.json" >"$tmp/c$T_.out" 2>"$tmp/err" || bad "fixture -T $T_: exit $?: $(cat "$tmp/err")"
done
python3 - "$tmp/c1.out" <<'PY' && ok "every kind's message, algorithm and bus bandwidth by NCCL-tests' formulas" || bad "collectives: $(head -c 800 "$tmp/c1.out.why" 2>/dev/null)"
import json, sys
r = {c['kind']: c for c in json.load(open(sys.argv[1]))['collectives']}
# message bytes as NCCL-tests size them; bandwidth = bytes / time, GB/s
want = {  # kind: (bytes, group, algbw, busbw)
    'all_reduce': (4000000, 4, 4.0, 4.0 * 2 * 3 / 4),
    'all_gather': (8000000, 4, 4.0, 4.0 * 3 / 4),
    'reduce_scatter': (8000000, 4, 16.0, 16.0 * 3 / 4),
    'all_to_all': (8000000, 8, 2.0, 2.0 * 7 / 8),
    'broadcast_p2p': (8000, 2, 1.0, 1.0),
}
got = {k: (c['msg_bytes'], c['group_size'], c['algbw_gbps'], c['busbw_gbps']) for k, c in r.items()}
ok = set(got) == set(want) and all(
    got[k][:2] == want[k][:2] and abs(got[k][2] - want[k][2]) < 0.006 and abs(got[k][3] - want[k][3]) < 0.006
    and r[k]['calls'] == 2 for k in want)
if not ok:
    open(sys.argv[1] + '.why', 'w').write('got %s want %s' % (got, want))
    sys.exit(1)
PY
cmp -s <(json_get "$tmp/c1.out" "d['collectives']") <(json_get "$tmp/c2.out" "d['collectives']") &&
	ok "the parallel parse gives the same collectives" || bad "-T 2 differs: $(json_get "$tmp/c2.out" "d['collectives']")"
"$TS" --no-progress -w 100 "$tmp/c.json" >"$tmp/c.txt" 2>/dev/null
grep -Eq '^ all_reduce +4.00 MB +4 +2 +2000.000 +1000.000 +4.00 +6.00$' "$tmp/c.txt" &&
	ok "the text report's Collectives section" || bad "text: $(sed -n '/^Collectives/,/^$/p' "$tmp/c.txt")"

# against the link of the GPU (devices.yaml links:): an H100 SXM's NVLink 4,
# 450 GB/s per direction; a links: entry that is no number is a table error
python3 - "$tmp/c.json" "$tmp/h100.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['deviceProperties'] = [{'id': 0, 'name': 'NVIDIA H100 80GB HBM3', 'numSms': 132}]
json.dump(d, open(sys.argv[2], 'w'))
PY
"$TS" -q -f json "$tmp/h100.json" >"$tmp/h100.out" 2>/dev/null
python3 - "$tmp/h100.out" <<'PY' && ok "busbw against the H100 SXM's NVLink 4 (450 GB/s a direction): the all-reduce's 6 GB/s is 1.33% of it" || bad "link: $(json_get "$tmp/h100.out" "d['collectives']")"
import json, sys
r = {c['kind']: c for c in json.load(open(sys.argv[1]))['collectives']}
assert abs(r['all_reduce']['pct_of_link'] - 100 * 6.0 / 450) < 0.006, r['all_reduce']
assert abs(r['all_to_all']['pct_of_link'] - 100 * 1.75 / 450) < 0.006, r['all_to_all']
PY
# compare puts each kind's calls, bytes and bus bandwidth side by side
"$TS" -q compare -f json "$tmp/c.json" "$tmp/h100.json" >"$tmp/cmp.json" 2>/dev/null
python3 - "$tmp/cmp.json" <<'PY' && ok "compare: each kind's calls, bytes, time and bus bandwidth on both sides" || bad "compare: $(json_get "$tmp/cmp.json" "d['collectives']")"
import json, sys
r = {x['kind']: x for x in json.load(open(sys.argv[1]))['collectives']}
a = r['all_reduce']
assert (a['a_calls'], a['a_bytes'], a['a_total_us'], a['a_busbw_gbps']) == (2, 8000000, 2000.0, 6.0), a
assert (a['b_calls'], a['b_bytes'], a['b_busbw_gbps']) == (2, 8000000, 6.0), a
assert len(r) == 5 and r['all_to_all']['a_busbw_gbps'] == 1.75, r
PY
mkdir -p "$tmp/pat"
cat >"$tmp/pat/devices.yaml" <<'YAML'
devices:
  - name: Test GPU
    vendor: nvidia
    match: 'Test GPU'
    hbm_tbps: 1
    tflops: {bf16: 100}
    source: 'test'
    links: {fabric: 'NVLink', gbps: fast, source: 'test'}
YAML
"$TS" -q -p "$tmp/pat" "$tmp/c.json" >/dev/null 2>"$tmp/perr"
rc=$?
[ $rc = 3 ] && grep -q "devices.yaml:8:.*links gbps 'fast' is not a positive number of GB/s" "$tmp/perr" &&
	ok "a links: gbps that is no number: exit 3, file, line and what" || bad "links error: exit $rc: $(cat "$tmp/perr")"

need_shared
f="$SHARED/hta_a100_ddp_training_nccl.json.gz"
if [ -e "$f" ]; then
	"$TS" -q -f json "$f" >"$tmp/h.json" 2>/dev/null
	python3 - "$f" "$tmp/h.json" <<'PY' && ok "HTA NCCL trace: the all-reduce's bytes equal the sum of In msg nelems x dtype size over its kernels, with its bus bandwidth" || bad "HTA: $(cat "$tmp/h.json.why" 2>/dev/null)"
import gzip, json, sys
size = {'Float': 4, 'BFloat16': 2, 'Half': 2, 'Long': 8, 'Int': 4}
ev = json.load(gzip.open(sys.argv[1]))['traceEvents']
want_b = want_n = 0
for e in ev:
    a = e.get('args') or {}
    if e.get('cat') == 'kernel' and 'AllReduce' in e.get('name', '') and 'In msg nelems' in a:
        want_b += a['In msg nelems'] * size[a['dtype']]
        want_n += 1
rows = [c for c in json.load(open(sys.argv[2]))['collectives'] if c['kind'] == 'all_reduce']
got_b = sum(c['msg_bytes'] * c['calls'] for c in rows)
got_n = sum(c['calls'] for c in rows)
ok = (got_b, got_n) == (want_b, want_n) and want_n > 0 and all(
    c['busbw_gbps'] is not None and c['group_size'] == 2 for c in rows)
if not ok:
    open(sys.argv[2] + '.why', 'w').write('want %d bytes in %d calls, got %d in %d: %s' % (want_b, want_n, got_b, got_n, rows))
    sys.exit(1)
PY
fi
finish
