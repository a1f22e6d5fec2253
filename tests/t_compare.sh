#!/usr/bin/env bash
# tracestream compare A B: the command line (labels, stdin as one side,
# errors of either side, the regression gate), per-pass comparison of
# traces with different pass counts, the compare tables' loader errors, and,
# when ../shared/traces is there, the Qwen3-30B-A3B B300 / MI300X pair
# checked against the MANIFEST and an independent count (tests/oracle.py).
T=compare
. "$(dirname "$0")/lib.sh"

gen="$here/layers/mkgeneric.py"
python3 "$gen" --layers 4 --decode 3 --batch 8 --seed 1 > "$tmp/d3.json"
python3 "$gen" --layers 4 --decode 6 --batch 8 --seed 1 > "$tmp/d6.json"
python3 "$gen" --layers 4 --decode 3 --batch 8 --seed 2 --moe > "$tmp/moe.json"

# --- usage ---
"$TS" compare "$tmp/d3.json" > /dev/null 2> "$tmp/err"
check "one trace is a usage error" "$?" 2
"$TS" compare - - < "$tmp/d3.json" > /dev/null 2> "$tmp/err"
check "stdin on both sides is refused" "$?" 2
"$TS" compare --names onlyone "$tmp/d3.json" "$tmp/d6.json" > /dev/null 2> "$tmp/err"
check "--names needs two labels" "$?" 2
"$TS" --fail-if-slower 5 "$tmp/d3.json" > /dev/null 2> "$tmp/err"
check "--fail-if-slower is for compare only" "$?" 2
"$TS" compare --verify-ops "$tmp/d3.json" "$tmp/d6.json" > /dev/null 2> "$tmp/err"
check "--verify-ops is refused in compare" "$?" 2

# --- A against itself: every row equal ---
"$TS" compare -f json --names x,y "$tmp/moe.json" "$tmp/moe.json" > "$tmp/aa.json" 2> "$tmp/err"
check "compare A A exits 0" "$?" 0
python3 - "$tmp/aa.json" <<'PY' && ok "compare A A: ratio 1, gap 0, similar in every op, layer and latency row; labels from --names" || bad "compare A A rows"
import json, sys
d = json.load(open(sys.argv[1]))
assert d['mode'] == 'compare' and d['schema'] == 1
assert d['a']['name'] == 'x' and d['b']['name'] == 'y'
assert d['ops'] and d['layers'] and d['alignment']
for r in d['ops']:
    assert r['a_count'] == r['b_count'] and r['a_total_us'] == r['b_total_us'], r
    assert r['gap_us'] == 0 and r['status'] == 'similar' and r['fused'] is None, r
    assert r['ratio'] in (1, None), r
assert d['latency'] and all(x['step_gap_us'] == 0 and x['a'] == x['b'] and x['status'] == 'similar'
                           and not any(x['gap_by_cause_us'].values()) for x in d['latency']), d['latency']
for L in d['layers']:
    assert L['gap_us'] == 0 and L['ratio'] == 1 and L['status'] == 'similar', L
for al in d['alignment']:
    assert all(p['kind'] == 'same' and len(p['a']) == 1 and len(p['b']) == 1 for p in al['pairs'])
PY

# --- different pass counts: compared per pass ---
"$TS" compare -f json "$tmp/d3.json" "$tmp/d6.json" > "$tmp/pp.json" 2> "$tmp/err"
check "compare of 3 and 6 decode passes exits 0" "$?" 0
python3 - "$tmp/pp.json" <<'PY' && ok "3 against 6 identical decode passes: per pass, every op row within 5% and its totals double" || bad "per-pass comparison"
import json, sys
d = json.load(open(sys.argv[1]))
assert d['per_pass'] is True
assert d['a']['passes'] == 3 and d['b']['passes'] == 6, (d['a']['passes'], d['b']['passes'])
tot = 0
for r in d['ops']:
    assert r['b_count'] == 2 * r['a_count'], r
    assert abs(r['gap_us']) <= max(1.0, 0.05 * r['a_total_us'] / 3), r
    assert r['status'] == 'similar', r
PY

# --- one side from standard input ---
"$TS" compare -f json "$tmp/d3.json" - < "$tmp/d6.json" > "$tmp/stdin.json" 2> "$tmp/err"
check "stdin as B exits 0" "$?" 0
python3 -c "
import json,sys
a=json.load(open('$tmp/stdin.json')); b=json.load(open('$tmp/pp.json'))
assert a['b']['path']=='-' and a['b']['name']=='<stdin>'
assert a['ops']==b['ops'] and a['layers']==b['layers']
" && ok "stdin as B gives the same rows as the file" || bad "stdin as B"

# --- a bad side: which side, partial, exit 1 ---
head -c $(( $(wc -c < "$tmp/d6.json") * 3 / 4 )) "$tmp/d6.json" > "$tmp/cut.json"
"$TS" compare -f json "$tmp/d3.json" "$tmp/cut.json" > "$tmp/cut.out" 2> "$tmp/err"
check "B cut short exits 1" "$?" 1
grep -q "^tracestream: B: $tmp/cut.json: byte [0-9]*: " "$tmp/err" && ok "the error names side B, the file and the byte" || bad "side in the error: $(cat "$tmp/err")"
python3 -c "
import json
d=json.load(open('$tmp/cut.out'))
assert d['b']['partial'] is True and d['a']['partial'] is False and d['b']['error']
assert d['b']['kernel_time_us'] > 0
" && ok "the report of what was read is printed, B marked partial" || bad "partial report"
"$TS" compare "$tmp/cut.json" "$tmp/d3.json" > "$tmp/cut.txt" 2> "$tmp/err"
check "A cut short exits 1" "$?" 1
grep -q "^PARTIAL A: " "$tmp/cut.txt" && ok "text report marks A partial" || bad "PARTIAL A line"
"$TS" compare "$tmp/nonexistent.json" "$tmp/d3.json" > /dev/null 2> "$tmp/err"
check "a missing A exits 2" "$?" 2
grep -q "^tracestream: A: $tmp/nonexistent.json: " "$tmp/err" && ok "the open error names side A" || bad "open error: $(cat "$tmp/err")"

# --- the regression gate ---
"$TS" compare -q --fail-if-slower 20 "$tmp/d3.json" "$tmp/moe.json" > /dev/null 2> "$tmp/err"
rc=$?
python3 - "$tmp/pp.json" "$rc" "$TS" "$tmp" <<'PY' && ok "--fail-if-slower: exit 5 exactly when B is more than PCT% above A" || bad "--fail-if-slower"
import json, subprocess, sys
ts, tmp = sys.argv[3], sys.argv[4]
out = subprocess.run([ts, 'compare', '-f', 'json', tmp + '/d3.json', tmp + '/moe.json'],
                     capture_output=True, text=True).stdout
d = json.loads(out)
pct = 100 * (d['b']['kernel_time_us'] - d['a']['kernel_time_us']) / d['a']['kernel_time_us']
want = 5 if pct > 20 else 0
assert int(sys.argv[2]) == want, (sys.argv[2], pct)
for limit, want in ((pct - 1, 5), (pct + 1, 0)):
    if limit < 0:
        continue
    rc = subprocess.run([ts, 'compare', '-q', '--fail-if-slower', '%.4f' % limit,
                         tmp + '/d3.json', tmp + '/moe.json'], capture_output=True).returncode
    assert rc == want, (limit, rc, want)
    rc = subprocess.run([ts, 'compare', '-q', '--fail-if-slower', '%.4f' % limit,
                         tmp + '/moe.json', tmp + '/d3.json'], capture_output=True).returncode
    assert rc == (0 if pct > 0 else want), (limit, rc)
PY

# --- the compare tables: loader errors point at the line and column ---
mkdir -p "$tmp/p1" "$tmp/p2" "$tmp/p3"
cat > "$tmp/p1/cmp.yaml" <<'EOF'
fusions:
  - name: bogus
    fused: [{type: norm}]
    parts: [norm, nosuchgroup]
EOF
"$TS" patterns check "$tmp/p1" > /dev/null 2> "$tmp/err"
check "a fusion part that is no group: exit 3" "$?" 3
grep -q "p1/cmp.yaml:4:[0-9]*: unknown group 'nosuchgroup'" "$tmp/err" && ok "unknown group error at file:line:col" || bad "unknown group error: $(cat "$tmp/err")"
cat > "$tmp/p2/cmp.yaml" <<'EOF'
groups:
  - {name: mine, kernels: [{type: gemm}], split: vendor}
EOF
"$TS" patterns check "$tmp/p2" > /dev/null 2> "$tmp/err"
check "split: vendor is an error (exit 3)" "$?" 3
grep -q "p2/cmp.yaml:2:[0-9]*: split 'vendor' is not category or none" "$tmp/err" && ok "split error at file:line:col" || bad "split error: $(cat "$tmp/err")"
cat > "$tmp/p3/cmp.yaml" <<'EOF'
align:
  gap: -1
EOF
"$TS" patterns check "$tmp/p3" > /dev/null 2> "$tmp/err"
check "a negative align cost is an error (exit 3)" "$?" 3
grep -q "p3/cmp.yaml:2:[0-9]*: gap '-1' is not a whole number" "$tmp/err" && ok "align cost error at file:line:col" || bad "align error: $(cat "$tmp/err")"

# --- a user's group comes first: its own row ---
mkdir -p "$tmp/p4"
cat > "$tmp/p4/cmp.yaml" <<'EOF'
groups:
  - {name: experts, kernels: [{category: MoE-GEMM}], description: "expert GEMMs on their own"}
EOF
"$TS" compare -f json -p "$tmp/p4" "$tmp/moe.json" "$tmp/moe.json" > "$tmp/user.json" 2> "$tmp/err"
python3 -c "
import json
d=json.load(open('$tmp/user.json'))
names=[r['op'] for r in d['ops']]
assert 'experts' in names, names
r=[r for r in d['ops'] if r['op']=='experts'][0]
assert all(k['category']=='MoE-GEMM' for k in r['a_kernels']) and r['a_count']>0
assert not any(k['category']=='MoE-GEMM' for x in d['ops'] if x['op']!='experts' for k in x['a_kernels'])
" && ok "a --patterns group picks its kernels before the built-in groups" || bad "user group"

# --- the shared Qwen3-30B-A3B pair ---
SHARED=${SHARED:-$here/../../shared/traces}
A="$SHARED/sglang_qwen3-30b-a3b_b300_decode_bs16.trace.json.gz"
B="$SHARED/sglang_qwen3-30b-a3b_mi300x_decode_bs16.trace.json.gz"
if [ ! -f "$A" ] || [ ! -f "$B" ]; then
	echo "skip - compare: Qwen3-30B-A3B B300 / MI300X traces not in $SHARED"
	exit $fail
fi
"$TS" compare -f json -q "$A" "$B" > "$tmp/q.json"
check "Qwen3-30B-A3B B300 against MI300X exits 0" "$?" 0
"$TS" compare -f json -q "$B" "$A" > "$tmp/qr.json"
"$TS" compare -f json -q --stage decode "$A" "$B" > "$tmp/qd.json"
python3 "$here/oracle.py" "$A" > "$tmp/oa.json"
python3 "$here/oracle.py" "$B" > "$tmp/ob.json"
python3 - "$tmp" <<'PY' && ok "Qwen3-30B-A3B pair: 48 decode layers paired, attention and MoE rows pair the vendors' kernels, totals equal the oracle's, rows add up, B A mirrors A B, the alignment pairs FMHA with paged QKV + reduce" || bad "Qwen3-30B-A3B pair"
import json, re, sys
from decimal import Decimal
t = sys.argv[1]
d = json.load(open(t + '/q.json'))
r = json.load(open(t + '/qr.json'))
sd = json.load(open(t + '/qd.json'))
oa = json.load(open(t + '/oa.json'))
ob = json.load(open(t + '/ob.json'))
# side totals: the independent count of kernel time
for side, o in (('a', oa), ('b', ob)):
    assert Decimal(str(d[side]['kernel_time_us'])) * 1000 == o['kernel_time_ns'], (side, d[side]['kernel_time_us'], o['kernel_time_ns'])
    assert d[side]['kernels'] == o['kernels']
    assert abs(sum(Decimal(str(x[side + '_total_us'])) for x in d['ops']) - Decimal(str(d[side]['kernel_time_us']))) < Decimal('0.001')
    assert sum(x[side + '_count'] for x in d['ops']) == o['kernels']
assert d['a']['gpu'].startswith('NVIDIA B300') and 'MI300X' in d['b']['gpu']
# 48 decode layers each, all paired
lc = [x for x in d['layer_counts'] if x['stage'] == 'decode'][0]
assert lc == {'stage': 'decode', 'a': 48, 'b': 48, 'matched': 48}, lc
dl = [L for L in d['layers'] if L['stage'] == 'decode']
assert len(dl) == 48 and all(L['a_us'] is not None and L['b_us'] is not None for L in dl)
# attention: fmha ... ForGen against paged_attention_ll4mi QKV + reduce
att = [x for x in d['ops'] if x['op'] == 'attention'][0]
assert [k['name'] for k in att['a_kernels'] if re.search(r'fmhaSm100f.*ForGen', k['name'])], att['a_kernels']
assert len(att['a_kernels']) == 1
bn = ' '.join(k['name'] for k in att['b_kernels'])
assert 'paged_attention_ll4mi_QKV' in bn and 'paged_attention_ll4mi_reduce' in bn, bn
# MoE expert kernels: one row, the vendors' own GEMMs
moe = [x for x in d['ops'] if x['op'] == 'moe: MoE-GEMM'][0]
assert moe['a_count'] == 96 and moe['b_count'] == 96
assert all('bmm_' in k['name'] for k in moe['a_kernels']), moe['a_kernels']
assert all(re.search(r'(?i)moe', k['name']) for k in moe['b_kernels']), moe['b_kernels']
# B A mirrors A B row by row
ra = {x['op']: x for x in r['ops']}
assert set(ra) == {x['op'] for x in d['ops']}
for x in d['ops']:
    y = ra[x['op']]
    assert (y['a_count'], y['b_count']) == (x['b_count'], x['a_count'])
    assert (y['a_total_us'], y['b_total_us']) == (x['b_total_us'], x['a_total_us'])
    assert abs(y['gap_us'] + x['gap_us']) < 0.002, (x, y)
    assert {'slower': 'faster', 'faster': 'slower', 'similar': 'similar'}[x['status']] == y['status'] or \
        x['status'] == 'similar' or y['status'] == 'similar'
# --stage decode: the same pass, so the same layers
assert sd['stage_filter'] == 'decode'
assert [L['a_us'] for L in sd['layers']] == [L['a_us'] for L in dl]
# the alignment of a decode layer
al = [x for x in d['alignment'] if x['stage'] == 'decode'][0]
assert al['a_layer'] == 24 and al['b_layer'] == 24
fm = [p for p in al['pairs'] if any('fmha' in k['name'] for k in p['a'])][0]
assert len(fm['a']) == 1 and sorted(k['category'] for k in fm['b']) == ['Attention-Paged-Compute', 'Attention-Paged-Reduce'], fm
ex = [p for p in al['pairs'] if p['a'] and p['a'][0]['category'] == 'MoE-GEMM']
assert len(ex) == 2 and all(p['kind'] == 'same' and p['b'][0]['category'] == 'MoE-GEMM' for p in ex), ex
PY
# --- latency first: the step each side's requests wait for, by cause ---
"$TS" compare -q "$A" "$B" > "$tmp/q.txt"
python3 - "$tmp" "$A" "$B" <<'PY' && ok "Qwen3-30B-A3B pair: compare leads with the decode step (each side its step[DECODE] GPU window in the raw trace), per token, and the difference by cause adding up to the gap, the replayed step's too (kernels by type); B A mirrors it" || bad "latency of the pair"
import gzip, json, sys
t, fa, fb = sys.argv[1:4]
def window(f):
    ev = json.load(gzip.open(f))['traceEvents']
    w = [e for e in ev if e.get('cat') == 'gpu_user_annotation' and e['name'].startswith('step[DECODE')]
    assert len(w) == 1, len(w)
    return float(w[0]['dur'])
d = json.load(open(t + '/q.json'))
r = json.load(open(t + '/qr.json'))
L = [x for x in d['latency'] if x['stage'] == 'decode'][0]
R = [x for x in r['latency'] if x['stage'] == 'decode'][0]
for side, f in (('a', fa), ('b', fb)):
    s = L[side]
    w = window(f)
    assert s['steps'] == 1 and s['step_from'] == 'window', s
    assert abs(s['step_mean_us'] - w) < 0.01 and abs(s['per_output_token_us'] - w) < 0.01, (s, w)
    assert abs(sum(s['by_cause_us'].values()) - s['step_mean_us']) < 0.01, s
    assert abs(s['tokens_per_s'] - 16e6 / w) < 0.1, s
assert abs(sum(L['gap_by_cause_us'].values()) - L['step_gap_us']) < 0.01, L
assert abs(L['step_gap_us'] - (window(fb) - window(fa))) < 0.02 and L['status'] == 'slower'
assert L['a']['by_cause_us']['before_pass_cpu'] > 1000, L['a']   # B300: 1.5 ms of input preparation
assert R['a'] == L['b'] and R['b'] == L['a'] and R['status'] == 'faster'
# each side's step replayed, along what each start waited for: adds up to
# the same window, and the differences to the gap
rc = L['replayed_by_cause_us']
for side, f in (('a', fa), ('b', fb)):
    assert abs(sum(v[side + '_us'] for v in rc.values()) - window(f)) < 0.01, (side, rc)
assert abs(sum(v['gap_us'] for v in rc.values()) - L['step_gap_us']) < 0.02, rc
assert rc['moe']['gap_us'] > 1000 and rc['launch']['a_us'] > 1000, rc
assert all(abs(R['gap_by_cause_us'][k] + v) < 0.002 for k, v in L['gap_by_cause_us'].items())
txt = open(t + '/q.txt').read().splitlines()
at = lambda w: next(i for i, x in enumerate(txt) if x.lstrip().startswith(w))
assert at('decode step') < at('per output token') < at('the decode step by cause') < at('kernel time'), txt[:20]
PY
"$TS" compare -q --fail-if-slower 10 "$A" "$B" > /dev/null 2> "$tmp/err"
check "MI300X more than 10% slower than B300: exit 5" "$?" 5
grep -q "moe: MoE-GEMM" "$tmp/err" && ok "the gate prints the top regressions" || bad "gate output: $(cat "$tmp/err")"
"$TS" compare -q --fail-if-slower 10 "$B" "$A" > /dev/null 2> "$tmp/err"
check "B300 against MI300X passes the gate" "$?" 0
exit $fail
