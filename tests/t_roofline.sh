#!/usr/bin/env bash
# The roofline: FLOPs and bytes per workload from the operator rules, the
# GPU's peaks from the devices: table, achieved rates and percentages, on a
# hand-made trace with known answers (tests/roofline/mkroof.py); --device;
# the devices: loader's errors; and, when ../shared/traces is there, the
# Qwen3-8B prefill GEMMs' FLOPs exactly and every percentage on every
# shared trace within (0, 100].
T=roofline
. "$(dirname "$0")/lib.sh"

mk="$here/roofline/mkroof.py"
python3 "$mk" > "$tmp/h100.json"
"$TS" --no-progress -f json "$tmp/h100.json" > "$tmp/h100.out" 2> "$tmp/err"
check "a trace with a too-fast workload still exits 0" "$?" 0
grep -q "1 workloads ran faster than the H100 SXM peaks allow" "$tmp/err" &&
	ok "the too-fast workload is warned about" || bad "warning missing: $(cat "$tmp/err")"
python3 - "$tmp/h100.out" <<'PY' && ok "H100: GEMM 2MNK FLOPs and bytes exact, 85.9 TFLOP/s = 8.68% of 989.4 (compute); RMSNorm 0.839 TB/s = 25.0% of 3.35 (memory); the 1 us GEMM has no percentage" || bad "H100 figures"
import json, sys
d = json.load(open(sys.argv[1]))
p = d['trace']['peaks']
assert p['name'] == 'H100 SXM' and p['matched_by'] == 'name', p
assert p['tflops']['bf16'] == 989.4 and p['hbm_tbps'] == 3.35, p
w = {x['name']: x for x in d['workloads']}
g = w['gemm_n1024_k4096']
flops = 2 * (2 * 512 * 1024 * 4096)
byts = 2 * 2 * (512 * 4096 + 4096 * 1024 + 512 * 1024)
assert g['calls'] == 2 and g['flops'] == flops and g['bytes'] == byts, g
close = lambda a, b: abs(a - b) <= 1e-4 * abs(b)
assert close(g['tflops'], flops / 100e-6 / 1e12), g
assert close(g['tbps'], byts / 100e-6 / 1e12), g
assert close(g['intensity'], flops / byts), g
assert g['bound'] == 'compute' and close(g['pct_of_peak'], 100 * flops / 100e-6 / 1e12 / 989.4), g
n = w['rmsnorm_h4096']
nb = 2 * 512 * 4096 * 2
assert n['bytes'] == nb and n['bound'] == 'memory', n
assert close(n['pct_of_peak'], 100 * nb / 10e-6 / 1e12 / 3.35), n
big = w['gemm_n8192_k8192']
assert big['flops'] == 2 * 8192 ** 3 and big['pct_of_peak'] is None and big['exceeds_peak'] is True, big
assert not g['exceeds_peak'] and not n['exceeds_peak']
PY

"$TS" --no-progress -f json --device mi300x "$tmp/h100.json" > "$tmp/dev.out" 2> "$tmp/err"
check "--device (any case) exits 0" "$?" 0
python3 - "$tmp/dev.out" <<'PY' && ok "--device MI300X: its peaks (1307.4 bf16, 5.3 TB/s) replace the trace's GPU" || bad "--device"
import json, sys
d = json.load(open(sys.argv[1]))
p = d['trace']['peaks']
assert p['name'] == 'MI300X' and p['matched_by'] == '--device', p
g = {x['name']: x for x in d['workloads']}['gemm_n1024_k4096']
flops = 2 * (2 * 512 * 1024 * 4096)
assert abs(g['pct_of_peak'] - 100 * flops / 100e-6 / 1e12 / 1307.4) < 1e-3, g
PY
"$TS" --no-progress --device 'GPU 9000' "$tmp/h100.json" > /dev/null 2> "$tmp/err"
check "an unknown --device is a usage error" "$?" 2
grep -q "unknown device 'GPU 9000'; known:.*'H100 SXM'" "$tmp/err" && ok "the error lists the known devices" ||
	bad "unknown device message: $(cat "$tmp/err")"

# a trace without a GPU name: SM/CU count and memory; an unknown name: no peaks
python3 "$mk" --amd --gpu "" --sms 304 --mem 206141652992 > "$tmp/noname.json"
"$TS" --no-progress -f json "$tmp/noname.json" 2> /dev/null |
	python3 -c "import json,sys; p=json.load(sys.stdin)['trace']['peaks']; print(p['name'], p['matched_by'])" > "$tmp/nm"
check "no GPU name, 304 CUs and 192 GiB: MI300X by sms and memory" "$(cat "$tmp/nm")" "MI300X sms and memory"
python3 "$mk" --gpu "NVIDIA RTX 9999" --sms 200 > "$tmp/unk.json"
"$TS" --no-progress -f json "$tmp/unk.json" 2> /dev/null > "$tmp/unk.out"
python3 - "$tmp/unk.out" <<'PY' && ok "an unknown GPU: no peaks, achieved rates kept, no percentage or bound" || bad "unknown GPU"
import json, sys
d = json.load(open(sys.argv[1]))
assert d['trace']['peaks'] is None
g = {x['name']: x for x in d['workloads']}['gemm_n1024_k4096']
assert g['tflops'] > 85 and g['pct_of_peak'] is None and g['bound'] is None, g
PY
"$TS" --no-progress "$tmp/unk.json" 2> /dev/null | grep -q "Roofline: achieved rates only" &&
	ok "the text report says the GPU is not in the table" || bad "text report for an unknown GPU"

# --- the devices: loader ---
mkdir -p "$tmp/p1"
cat > "$tmp/p1/devices.yaml" <<'Y'
devices:
  - name: Test GPU
    vendor: nvidia
    match: 'RTX 9999'
    hbm_tbps: fast
    tflops: {bf16: 100}
    source: 'test'
Y
"$TS" --no-progress -p "$tmp/p1" "$tmp/unk.json" > /dev/null 2> "$tmp/err"
check "a devices: entry with a bad hbm_tbps exits 3" "$?" 3
grep -q "devices.yaml:5:[0-9]*: .*hbm_tbps 'fast' is not a positive number" "$tmp/err" &&
	ok "the error names the file, line and key" || bad "loader error: $(cat "$tmp/err")"
cat > "$tmp/p1/devices.yaml" <<'Y'
devices:
  - name: Test GPU
    vendor: intel
    match: 'RTX ['
    hbm_tbps: 1
    tflops: {}
    source: 'test'
Y
"$TS" --no-progress -p "$tmp/p1" "$tmp/unk.json" > /dev/null 2> "$tmp/err"
check "a devices: entry with a bad vendor, regex and no peaks exits 3" "$?" 3
for m in "vendor 'intel' is not nvidia or amd" "invalid regex 'RTX ['" "tflops: needs at least one dtype"; do
	grep -qF "$m" "$tmp/err" && ok "loader: $m" || bad "loader message '$m' missing: $(cat "$tmp/err")"
done
cat > "$tmp/p1/devices.yaml" <<'Y'
devices:
  - name: Test GPU
    vendor: nvidia
    match: 'RTX 9999'
    hbm_tbps: 1.5
    tflops: {bf16: 100}
    source: 'a test part'
Y
"$TS" --no-progress -f json -p "$tmp/p1" "$tmp/unk.json" 2> /dev/null |
	python3 -c "import json,sys; p=json.load(sys.stdin)['trace']['peaks']; print(p['name'], p['hbm_tbps'], p['source'])" > "$tmp/nm"
check "a device added in YAML is matched (no C)" "$(cat "$tmp/nm")" "Test GPU 1.5 a test part"

# --- shared traces ---
shared="$SHARED"
if [ ! -d "$shared" ]; then
	echo "skip - roofline: ../shared/traces absent (shared-trace checks not run)"
	exit $fail
fi
ts_out -f json "$shared/sglang_qwen3-8b_mi300x_prefill_then_decode.json.gz" > "$tmp/q8.json"
python3 - "$tmp/q8.json" <<'PY' && ok "Qwen3-8B prefill (MI300X): the four projection GEMMs carry 2 x 15360 x N x K x 36 FLOPs exactly, TFLOP/s = FLOPs / kernel time, peaks from the MI300X data sheet" || bad "Qwen3-8B GEMM FLOPs"
import json, sys
d = json.load(open(sys.argv[1]))
p = d['trace']['peaks']
assert p['name'] == 'MI300X' and 'data sheet' in p['source'] and p['tflops']['bf16'] == 1307.4, p
n = 0
for w in d['workloads']:
    if w['kind'] == 'gemm' and w['calls'] == 36:
        N, K = (int(x[1:]) for x in w['name'].split('_')[1:3])
        assert w['flops'] == 2 * 15360 * N * K * 36, w
        assert abs(w['tflops'] - w['flops'] / (w['total_us'] * 1e-6) / 1e12) < 1e-3 * w['tflops'], w
        assert 0 < w['pct_of_peak'] <= 100 and w['bound'] == 'compute', w
        n += 1
assert n == 4, n
PY
bad_pct=0
for f in "$shared"/*.json*; do
	ts_out -f json "$f" > "$tmp/s.json"
	python3 - "$tmp/s.json" <<'PY' || { bad "$(basename "$f"): a pct_of_peak outside (0, 100]"; bad_pct=1; }
import json, sys
d = json.load(open(sys.argv[1]))
for w in d['workloads']:
    v = w['pct_of_peak']
    assert v is None or 0 < v <= 100, (w['name'], v)
    assert (v is None) or (w['bound'] in ('compute', 'memory')), w
PY
done
[ $bad_pct = 0 ] && ok "every pct_of_peak on every shared trace is in (0, 100] or null"
# --- what an opportunity is measured against: the device's attainable
# share of its peak (attainable: in the tables), or the default, said so ---
mkdir -p "$tmp/att"
cat > "$tmp/att/devices.yaml" <<'Y'
devices:
  - name: Test MI300X half
    vendor: amd
    match: 'MI300X'
    hbm_tbps: 5.3
    tflops: {bf16: 1307.4, fp16: 1307.4, fp8: 2614.9, fp32: 163.4}
    source: 'test: the MI300X datasheet figures'
    attainable: {compute: 0.5, memory: 0.9, source: 'test: a made-up attainable share'}
Y
pf="$shared/sglang_qwen3-8b_mi300x_prefill_then_decode.json.gz"
if [ -f "$pf" ]; then
	ts_out -f json "$pf" > "$tmp/def.json"
	"$TS" --no-progress -f json --patterns "$tmp/att" --device 'Test MI300X half' "$pf" > "$tmp/att.json" 2>/dev/null
	python3 - "$tmp/def.json" "$tmp/att.json" <<'PY' && ok "roofline opportunities say what they are measured against: the default 80% of peak, or a device's attainable share (50%: less at stake)" || bad "attainable ceilings"
import json, sys
d = json.load(open(sys.argv[1])); a = json.load(open(sys.argv[2]))
rd = [o for o in d['opportunities'] if o['kind'] == 'roofline']
ra = [o for o in a['opportunities'] if o['kind'] == 'roofline']
assert rd and all(o['ceiling_pct'] == 80.0 and o['ceiling_source'] == 'default' for o in rd), rd[:1]
assert all('vs 80% of peak (default ceiling)' in o['text'] for o in rd if 'TFLOP/s' in o['text']), rd[:1]
assert all(o['ceiling_source'].startswith('test: a made-up') for o in ra), ra[:1]
comp_d = {o['text'].split(' ')[0]: o for o in rd if 'TFLOP/s' in o['text']}
comp_a = {o['text'].split(' ')[0]: o for o in ra if 'TFLOP/s' in o['text']}
for k, o in comp_a.items():
    assert o['ceiling_pct'] == 50.0 and '(attainable)' in o['text'], o
    if k in comp_d:                    # at 50% a GEMM at 35% has less at stake than at 80%
        assert float(o['at_stake_us']) < float(comp_d[k]['at_stake_us']), (o, comp_d[k])
assert comp_a, ra
PY
	printf 'devices:\n  - name: X\n    vendor: amd\n    match: X\n    hbm_tbps: 1\n    tflops: {bf16: 1}\n    source: s\n    attainable: {compute: 1.5, source: s}\n' > "$tmp/att/devices.yaml"
	"$TS" --patterns "$tmp/att" patterns check > /dev/null 2> "$tmp/err"
	[ $? -eq 3 ] && grep -q "devices.yaml:[0-9]*:[0-9]*: .*attainable compute '1.5' is not a share" "$tmp/err" &&
		ok "an attainable share over 1 is a table error at its line" || bad "attainable check: $(cat "$tmp/err")"
fi

# --- MoE: fused_experts' bytes from the experts a batch touches; vLLM's
# moe_forward from the model's moe_configs, split over the job's ranks; an
# unknown model keeps its recorded width and says why it has no FLOPs ---
python3 "$mk" --moe > "$tmp/moe.json"
"$TS" --no-progress -f json "$tmp/moe.json" > "$tmp/moe.out" 2> "$tmp/err"
check "the MoE trace exits 0" "$?" 0
python3 - "$tmp/moe.out" <<'PY' && ok "fused_experts: 6*T*k*H*I FLOPs and the weights of 128*(1-(1-8/128)^16) experts; moe_forward: Qwen3-30B-A3B's top-8 and I=768 over 2 ranks (i384), no bytes without weight_bits; 96 experts: no FLOPs, named by width" || bad "MoE FLOPs and bytes"
import json, sys
d = json.load(open(sys.argv[1]))
w = {x['name']: x for x in d['workloads'] if x['kind'] == 'moe'}
T, k, E, H, I = 16, 8, 128, 2048, 768
touched = E * (1 - (1 - k / E) ** T)
f = w['moe_topk8_e128_h2048_i768']
assert f['flops'] == 6 * T * k * H * I, f
want = touched * (2 * I * H * 2 + H * I * 2) + 2 * T * H * 2
assert abs(f['bytes'] - want) <= 1, (f['bytes'], want)
assert 'uniform routing' in f['note'], f
v = w['moe_topk8_e128_h2048_i384']
assert v['flops'] == 6 * T * k * H * I // 2 and v['bytes'] is None, v
assert 'moe_configs' in v['note'], v
u = w['moe_e96_in2048']
assert u['flops'] is None and u['bytes'] is None and 'no moe_configs entry' in u['note'], u
PY

# gpt-oss-120b on 8 B200s: moe_forward records x [888, 3072 (padded)] and
# the logits [888, 128]; the sizes are gpt-oss-120b's (top-4, hidden and
# expert intermediate 2880, MXFP4 weights at 4.25 bits), 1/8 per rank ---
g="$shared/vllm_gptoss120b_b200_tp8_eager_prefill.json.gz"
if [ -f "$g" ]; then
	ts_out -f json "$g" > "$tmp/g.json"
	python3 - "$tmp/g.json" <<'PY' && ok "gpt-oss-120b TP8: moe_topk4_e128_h2880_i360, FLOPs 6*888*4*2880*2880/8 a call, bytes of 4.25-bit weights of the experts 888 tokens touch, placed on the roofline" || bad "gpt-oss MoE roofline"
import json, sys
d = json.load(open(sys.argv[1]))
moe = [w for w in d['workloads'] if w['kind'] == 'moe']
assert [w['name'] for w in moe] == ['moe_topk4_e128_h2880_i360'], [w['name'] for w in moe]
m = moe[0]
T, k, E, H, I, W = 888, 4, 128, 2880, 2880, 8
assert m['calls'] == 36 and m['flops'] == 36 * 6 * T * k * H * I // W, m
touched = E * (1 - (1 - k / E) ** T)
per = touched * 3 * H * I / W * 4.25 / 8 + 2 * T * H * 2
assert abs(m['bytes'] - 36 * per) <= 36, (m['bytes'], 36 * per)
assert m['bound'] in ('memory', 'compute') and 0 < m['pct_of_peak'] < 100, m
PY
	# gpt-oss's family file without its moe_configs, in front of the built-in
	mkdir -p "$tmp/nocfg/models"
	sed '/^moe_configs:/,$d' "$here/../patterns/models/gpt-oss.yaml" > "$tmp/nocfg/models/gpt-oss.yaml"
	"$TS" --no-progress -p "$tmp/nocfg" -f json "$g" > "$tmp/g2.json" 2>/dev/null
	"$TS" --no-progress -p "$tmp/nocfg" -w 200 "$g" > "$tmp/g2.txt" 2>/dev/null
	python3 - "$tmp/g2.json" "$tmp/g2.txt" <<'PY' && ok "without gpt-oss's moe_configs: moe_forward has no FLOPs, its note says why, it is named by x's recorded width (in3072), not as a hidden size, and the text says it is not placed" || bad "MoE roofline note"
import json, sys
d = json.load(open(sys.argv[1])); txt = open(sys.argv[2]).read()
moe = [w for w in d['workloads'] if w['kind'] == 'moe']
assert moe and all(w['flops'] is None and w['note'] and 'moe_configs' in w['note'] for w in moe), moe
assert [w['name'] for w in moe] == ['moe_e128_in3072'], [w['name'] for w in moe]
assert 'not placed: %s' % moe[0]['name'] in txt, txt[-500:]
assert all(w['note'] is None for w in d['workloads'] if w['kind'] == 'gemm')
PY
fi

exit $fail
