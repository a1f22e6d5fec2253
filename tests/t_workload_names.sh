#!/usr/bin/env bash
# Workload names and the ops behind them: unfused HF-style RMSNorm and RoPE
# (sequence rules) are recognised as those operators, per-head norms count
# tokens (not rows of tokens x heads) and say how many heads, attention is
# named causal prefill or decode from its arguments. A hand-made trace
# (tests/attrib/mkseq.py) gives exact answers; on the shared HF trace an
# independent Python count (tests/attrib/seq_oracle.py) must agree.
T='workload names'
. "$(dirname "$0")/lib.sh"

python3 "$here/attrib/mkseq.py" "$tmp/seq.json" "$tmp/truth.json"
"$TS" --no-progress -f json "$tmp/seq.json" > "$tmp/out" 2> "$tmp/err" ||
	bad "fixture: exit $?: $(head -c 300 "$tmp/err")"
python3 - "$tmp/out" "$tmp/truth.json" <<'PY' && ok "fixture: every workload (unfused norm and RoPE, per-head norms, causal and decode SDPA) with its calls, tokens, heads and time, exact; the broken try is none" || bad "fixture workloads"
import json, sys
d = json.load(open(sys.argv[1])); truth = json.load(open(sys.argv[2]))
got = {(w['name'], w['dtype']): w for w in d['workloads']}
assert len(got) == len(truth), sorted(got)
for t in truth:
    w = got[(t['name'], t['dtype'])]
    assert w['calls'] == t['calls'], (t, w)
    assert w['tokens'] == {'min': t['tokens'], 'p50': t['tokens'], 'max': t['tokens']}, (t, w)
    want = None if t['heads'] is None else {'min': t['heads'], 'max': t['heads']}
    assert w['heads'] == want, (t, w)
    assert abs(w['total_us'] - t['total_us']) < 1e-9, (t, w)
PY
"$TS" --no-progress --model dense --verify-ops "$tmp/seq.json" > "$tmp/cov" 2>&1
if grep -Eq '✓ rmsnorm +optional +3 calls +3 definitions' "$tmp/cov" &&
	grep -Eq '✓ rope +optional +1 calls' "$tmp/cov" && grep -Eq '✓ gqa +required +3 calls' "$tmp/cov"; then
	ok "--verify-ops counts the unfused norms and RoPE as rmsnorm and rope"
else
	bad "--verify-ops: $(sed -n '/OPERATOR COVERAGE/,/^$/p' "$tmp/cov")"
fi
grep -q 'rmsnorm_h16 per head x4' "$tmp/cov" && ok "the text report says a norm is per head" ||
	bad "text: no per-head mark: $(grep rmsnorm_h16 "$tmp/cov")"

# rules in a user's table are checked: errors at FILE:LINE:COL, exit 3
mkdir -p "$tmp/pat"
cp -r "$here/../patterns/." "$tmp/pat/"
rule() { # put one operator rule first in the copy of operators.yaml
	python3 - "$here/../patterns/operators.yaml" "$tmp/pat/operators.yaml" "$1" <<'PY'
import sys
s = open(sys.argv[1]).read()
open(sys.argv[2], 'w').write(s.replace('\noperators:\n', '\noperators:\n' + sys.argv[3] + '\n', 1))
PY
}
rule "  - {kind: gelu, steps: ['^aten::mul\$', '^aten::neg\$'], skip: '^aten::slice\$', shapes: 2, workload: 'x_{a0[0]}'}"
"$TS" --no-progress --patterns "$tmp/pat" "$tmp/seq.json" > /dev/null 2> "$tmp/err"
rc=$?
if [ $rc -eq 3 ] && grep -q "operators.yaml:[0-9]*:[0-9]*: .*shapes '2' is not a step, 0 to 1" "$tmp/err"; then
	ok "a sequence rule's shapes past its steps is a table error at FILE:LINE:COL (exit 3)"
else
	bad "bad shapes: exit $rc: $(cat "$tmp/err")"
fi
rule "  - {kind: gelu, op: '^aten::neg\$', steps: ['^aten::mul\$', '^aten::neg\$'], workload: 'x'}"
"$TS" --no-progress --patterns "$tmp/pat" "$tmp/seq.json" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 3 ] && grep -q "either op (one op) or steps" "$tmp/err" &&
	ok "op and steps together are a table error" || bad "op + steps: exit $rc: $(cat "$tmp/err")"
rule "  - {kind: gelu, op: '^aten::neg\$', where: ['a0[0] ~ 3'], workload: 'x'}"
"$TS" --no-progress --patterns "$tmp/pat" "$tmp/seq.json" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 3 ] && grep -q "where 'a0\[0\] ~ 3': expected \*, /, + or - between terms, or a comparison" "$tmp/err" &&
	ok "a condition without a comparison is a table error" || bad "bad where: exit $rc: $(cat "$tmp/err")"

shared="$SHARED"
if [ ! -d "$shared" ]; then
	echo "ok - workload names: shared traces # SKIP ../shared/traces is absent"
	exit $fail
fi
hf="$shared/hf_qwen1.5-0.5b-chat_h100.json.gz"
if [ -e "$hf" ]; then
	python3 "$here/attrib/seq_oracle.py" "$hf" > "$tmp/oracle"
	ts_out -f json "$hf" > "$tmp/hf"
	python3 - "$tmp/hf" "$tmp/oracle" <<'PY' && ok "HF Qwen1.5-0.5B: unfused RMSNorm (49 = 24 layers x 2 + 1) and RoPE (48 = q and k per layer) calls and kernel time equal the Python oracle's; SDPA is causal prefill" || bad "HF Qwen1.5 sequences"
import json, sys
d = json.load(open(sys.argv[1])); o = json.load(open(sys.argv[2]))
w = {x['name']: x for x in d['workloads']}
assert o['rmsnorm']['calls'] == 49 and o['rope']['calls'] == 48, o
n, r = w['rmsnorm_h1024'], w['rope_h16_d64']
assert n['calls'] == o['rmsnorm']['calls'] and abs(n['total_us'] - o['rmsnorm']['us']) < 0.002, (n, o)
assert r['calls'] == o['rope']['calls'] and abs(r['total_us'] - o['rope']['us']) < 0.002, (r, o)
assert n['tokens']['p50'] == 8944 and r['tokens']['p50'] == 8944, (n, r)
assert w['mha_ragged_prefill_causal_h16_kv16_d64']['calls'] == 24, sorted(w)
PY
	"$TS" --no-progress --verify-ops "$hf" 2>/dev/null | grep -Eq '✓ rmsnorm +optional +49 calls' &&
		ok "HF Qwen1.5-0.5B: --verify-ops finds rmsnorm and rope" || bad "HF --verify-ops"
fi
q="$shared/sglang_qwen3-8b_mi300x_prefill_then_decode.json.gz"
if [ -e "$q" ]; then
	ts_out -f json "$q" | python3 -c '
import json, sys
d = json.load(sys.stdin)
w = {x["name"]: x for x in d["workloads"]}
n = w["rmsnorm_h128"]
assert n["calls"] == 72 and n["tokens"] == {"min": 15360, "p50": 15360, "max": 15360}, n
assert n["heads"] == {"min": 8, "max": 32}, n
' && ok "Qwen3-8B prefill: the QK norms count 15,360 tokens with 8 (k) and 32 (q) heads, not 122,880 and 491,520 rows" ||
		bad "Qwen3-8B QK norm tokens"
fi
exit $fail
