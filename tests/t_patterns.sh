#!/usr/bin/env bash
# Pattern tables: the built-ins load; every loader error is reported as
# FILE:LINE:COLUMN: what, with exit 3; the search order; --model; and a new
# YAML directory changes the analysis without recompiling.
T=
. "$(dirname "$0")/lib.sh"

bad() { echo "not ok - $1: $2"; }

"$TS" patterns check >"$tmp/out" 2>"$tmp/err" && grep -q '^ok: [0-9]* categories, [0-9]* rules, [0-9]* operator rules, [0-9]* call-site skips, [0-9]* model families' "$tmp/out" \
	&& ok "built-in tables pass patterns check" || bad "built-in tables" "$(cat "$tmp/out" "$tmp/err" | head -5)"
n_cat=$(grep -o '[0-9]* categories' "$tmp/out" | cut -d' ' -f1)
[ "${n_cat:-0}" -ge 30 ] && ok "at least 30 categories ($n_cat)" || bad "category count" "$n_cat"

# bad_case NAME RELPATH EXPECTED_FIRST_LINE  (file content on stdin)
bad_case() {
	local name=$1 rel=$2 want=$3
	mkdir -p "$tmp/$name/$(dirname "$rel")"
	cat >"$tmp/$name/$rel"
	(cd "$tmp" && "$TS" patterns check "$name") >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	local first
	first=$(head -1 "$tmp/err")
	if [ $rc -ne 3 ]; then
		bad "loader: $name" "exit $rc, want 3: $first"
	elif [ "$first" != "$want" ]; then
		bad "loader: $name" "got '$first', want '$want'"
	else
		ok "loader: $name -> $want"
	fi
}

bad_case unknown-key k.yaml "unknown-key/k.yaml:5:5: Unexpected key: colour" <<'Y'
rules:
  - name: a
    match: 'foo'
    category: GEMM-CUTLASS
    colour: red
Y
bad_case missing-field k.yaml "missing-field/k.yaml:3:5: Missing required mapping field: category" <<'Y'
rules:
  - {name: ok, match: x, category: GEMM-CUTLASS}
  - name: a
    match: foo
Y
bad_case wrong-type k.yaml "wrong-type/k.yaml:4:15: Expecting STRING, got event: SEQUENCE_START" <<'Y'
rules:
  - name: a
    match: foo
    category: [GEMM-CUTLASS]
Y
bad_case second-document k.yaml "second-document/k.yaml:4:1: a second YAML document: a pattern file holds one (libcyaml would load the first alone)" <<'Y'
# one document a file: a second one's rules would never load
rules:
  - {name: a, match: 'x', category: GEMM-CUTLASS}
---
rules:
  - {name: b, match: 'y', category: GEMM-CUTLASS}
Y
bad_case escaped-nul k.yaml "escaped-nul/k.yaml:3:14: an escaped NUL (\\0): a name or pattern would be cut there" <<'Y'
rules:
  - name: a
    match: "a\0b"
    category: GEMM-CUTLASS
Y
bad_case bad-regex k.yaml "bad-regex/k.yaml:3:17: invalid regex 'foo(': missing closing parenthesis (at offset 4)" <<'Y'
rules:
  - name: a
    match: 'foo('
    category: GEMM-CUTLASS
Y
bad_case bad-type k.yaml "bad-type/k.yaml:2:21: unknown type 'gpu' (one of attention, moe, gemm, norm, activation, rope, kv_cache, quantization, communication, memory, elementwise, reduce, sort_topk, sampling, embedding, other)" <<'Y'
categories:
  - {name: Y, type: gpu}
Y
bad_case bad-mixer k.yaml "bad-mixer/k.yaml:2:39: unknown mixer 'mamba' (one of none, attention, mla, gdn, ssm; mixers: declares them)" <<'Y'
categories:
  - {name: Y, type: attention, mixer: mamba}
Y
bad_case bad-collective k.yaml "bad-collective/k.yaml:2:48: unknown collective 'allreduce' (one of none, all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, unknown)" <<'Y'
categories:
  - {name: Y, type: communication, collective: allreduce}
Y
bad_case bad-bound k.yaml "bad-bound/k.yaml:2:57: unknown type 'collective' (a type of the categories: communication, attention, gemm, ...)" <<'Y'
bounds:
  - {name: b, match: '^triton_', never: [communication, collective]}
Y
bad_case unknown-category k.yaml "unknown-category/k.yaml:4:15: unknown category 'Nope' (declare it under categories:)" <<'Y'
rules:
  - name: a
    match: foo
    category: Nope
Y
bad_case bad-stage k.yaml "bad-stage/k.yaml:5:12: unknown stage 'prefil' (prefill, decode or none)" <<'Y'
rules:
  - name: a
    match: foo
    category: GEMM-CUTLASS
    stage: prefil
Y
bad_case bad-event k.yaml "bad-event/k.yaml:5:22: unknown event category 'gpu_memcopy' (kernel, gpu_memcpy or gpu_memset)" <<'Y'
rules:
  - name: a
    match: foo
    category: GEMM-CUTLASS
    events: [kernel, gpu_memcopy]
Y
bad_case bad-short k.yaml "bad-short/k.yaml:5:17: short name uses \$2 but the regex has 1 capture group" <<'Y'
rules:
  - name: a
    match: 'foo_(\d+)'
    category: GEMM-CUTLASS
    short: 'foo $2'
Y
bad_case duplicate-rule k.yaml "duplicate-rule/k.yaml:3:12: rule name 'a' is used twice" <<'Y'
rules:
  - {name: a, match: x, category: GEMM-CUTLASS}
  - {name: a, match: y, category: GEMM-CUTLASS}
Y
bad_case duplicate-category k.yaml "duplicate-category/k.yaml:3:12: category 'Z' is defined twice" <<'Y'
categories:
  - {name: Z, type: gemm}
  - {name: Z, type: moe}
Y
bad_case syntax k.yaml "syntax/k.yaml:2:1: YAML syntax error: found character that cannot start any token while scanning for the next token" <<'Y'
rules:
	- name: a
Y
bad_case bad-number models/f.yaml "bad-number/models/f.yaml:4:21: num_hidden_layers entry '12abc' is not a whole number from 1 to 100000" <<'Y'
family: f
attention: mha
mlp: moe
num_hidden_layers: [12abc]
Y
bad_case moe-topk models/f.yaml "moe-topk/models/f.yaml:5:33: topk 16 is more than the 8 experts" <<'Y'
family: f
attention: mha
mlp: moe
moe_configs:
  - {name: m, experts: 8, topk: 16, hidden: 4096, intermediate: 14336}
Y
bad_case moe-bits models/f.yaml "moe-bits/models/f.yaml:6:18: weight_bits '4.25b' is not a number of bits above 0, at most 64" <<'Y'
family: f
attention: mha
mlp: moe
moe_configs:
  - name: m
    weight_bits: 4.25b
    experts: 8
    topk: 2
    hidden: 4096
    intermediate: 14336
Y
bad_case moe-hole k.yaml "moe-hole/k.yaml:2:44: flops 'moe.expert * a0[0]': a MoE field is moe.experts, moe.topk, moe.hidden, moe.intermediate or moe.weight_bits" <<'Y'
operators:
  - {kind: moe, op: x, workload: y, flops: 'moe.expert * a0[0]'}
Y
bad_case bad-weight models/f.yaml "bad-weight/models/f.yaml:5:25: weight '2.5' is not a whole number from -1000 to 1000" <<'Y'
family: f
attention: mha
mlp: moe
detect:
  - {type: moe, weight: 2.5}
Y
bad_case bad-enum models/f.yaml "bad-enum/models/f.yaml:2:12: unknown attention 'mla2' (mha, mla, gdn or hybrid)" <<'Y'
family: f
attention: mla2
mlp: moe
Y
bad_case bad-bool models/f.yaml "bad-bool/models/f.yaml:4:14: half_layers 'maybe' is not true or false" <<'Y'
family: f
attention: mha
mlp: moe
half_layers: maybe
Y
bad_case bad-selector models/f.yaml "bad-selector/models/f.yaml:5:11: a selector needs exactly one of category, type or match (found 2)" <<'Y'
family: f
attention: mha
mlp: moe
layer:
  start: [{type: norm, match: rms}]
Y
bad_case weight-outside-detect models/f.yaml "weight-outside-detect/models/f.yaml:5:40: weight is only used in detect rules" <<'Y'
family: f
attention: mha
mlp: moe
layer:
  start: [{category: Norm-RMS, weight: 3}]
Y
bad_case selector-regex models/f.yaml "selector-regex/models/f.yaml:5:15: invalid regex '[': missing terminating ] for character class (at offset 1)" <<'Y'
family: f
attention: mha
mlp: moe
detect:
  - {match: '[', weight: 1}
Y
bad_case missing-family models/f.yaml "missing-family/models/f.yaml:1:1: Missing required mapping field: family" <<'Y'
attention: mha
mlp: moe
Y

# Errors are reported all at once, not one per run.
mkdir -p "$tmp/many"
printf 'rules:\n  - {name: a, match: "(", category: Nope}\n' >"$tmp/many/k.yaml"
(cd "$tmp" && "$TS" patterns check many) >/dev/null 2>"$tmp/err"
[ "$(grep -c '^many/k.yaml:' "$tmp/err")" -eq 2 ] && ok "every error in a file is reported" || bad "several errors" "$(cat "$tmp/err")"

# A bad table stops an analysis too, with exit 3.
"$TS" --patterns "$tmp/bad-regex" tests/cli/tiny.json >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 3 ] && grep -q "invalid regex" "$tmp/err" && ok "analysis with a bad --patterns dir: exit 3" || bad "analysis with bad patterns" "exit $rc"
"$TS" --patterns "$tmp/nonexistent" tests/cli/tiny.json >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 3 ] && grep -q "not a directory of pattern tables" "$tmp/err" && ok "missing --patterns dir: exit 3" || bad "missing --patterns dir" "exit $rc: $(head -1 "$tmp/err")"
TRACESTREAM_PATTERNS="$tmp/nonexistent" "$TS" tests/cli/tiny.json >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "built-in pattern tables not found" "$tmp/err" && ok "TRACESTREAM_PATTERNS pointing nowhere: exit 2 with a message" || bad "TRACESTREAM_PATTERNS missing" "exit $rc: $(head -1 "$tmp/err")"

# Search order: $TRACESTREAM_PATTERNS replaces the built-ins.
cp -r patterns "$tmp/alt"
sed -i "s/short: 'nvjet \$1 (cuBLASLt)'/short: 'NVJET-\$1'/" "$tmp/alt/kernels.yaml"
got=$(TRACESTREAM_PATTERNS="$tmp/alt" "$TS" patterns explain nvjet_tst_64x16_64x16_2x4_2cta_h_bz_bias_TNT | awk '/^short/ {print $2}')
[ "$got" = "NVJET-64x16" ] && ok "TRACESTREAM_PATTERNS replaces the built-in tables" || bad "TRACESTREAM_PATTERNS" "short name '$got'"

# What a category means beside its type is YAML, never its name: a new
# category whose collective: is all_reduce is counted and sized as one
# (its name says nothing of it), explain shows it and a mixer
mkdir -p "$tmp/mean"
cat > "$tmp/mean/k.yaml" <<'Y'
categories:
  - {name: Comm-Custom, type: communication, collective: all_reduce}
  - {name: Scan-Custom, type: attention, mixer: ssm}
rules:
  - {name: custom-ar, match: '^my_custom_ar_kernel', category: Comm-Custom}
  - {name: custom-scan, match: '^my_scan_kernel', category: Scan-Custom}
Y
python3 -c "
import json, sys
ev = [{'ph': 'X', 'cat': 'kernel', 'name': 'my_custom_ar_kernel', 'pid': 0, 'tid': 7, 'ts': 10.0 * i, 'dur': 5.0,
       'args': {'device': 0, 'stream': 7, 'correlation': i + 1}} for i in range(3)]
json.dump({'traceEvents': ev}, open(sys.argv[1], 'w'))" "$tmp/ar.json"
"$TS" --no-progress -f json --patterns "$tmp/mean" "$tmp/ar.json" 2>/dev/null >"$tmp/ar.out"
"$TS" patterns explain --patterns "$tmp/mean" my_custom_ar_kernel my_scan_kernel >"$tmp/mean.out"
python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))['collectives']
assert [(r['kind'], r['calls']) for r in c] == [('all_reduce', 3)], c
t = open(sys.argv[2]).read()
assert 'collective all_reduce' in t and 'mixer     ssm' in t, t" "$tmp/ar.out" "$tmp/mean.out" &&
	ok "a category's collective: and mixer: (kernels.yaml) say what it is, whatever its name" ||
	bad "category meaning from YAML" "$(head -c 300 "$tmp/ar.out")"

# A new mixer kind is YAML alone: declared under mixers:, named by a
# category, it types the layers its kernels run in (label+MLP) and the
# model line says its words; the layer count is unchanged
mkdir -p "$tmp/mixer"
cat > "$tmp/mixer/k.yaml" <<'Y'
mixers:
  - {name: retention, label: Ret, says: "retention (RetNet)", rank: 4, linear: true}
categories:
  - {name: Attention-Retention, type: attention, mixer: retention}
rules:
  - {name: retention, match: 'native_sdpa_sm[89]0_flash', category: Attention-Retention}
Y
"$TS" --no-progress -f json tests/data/torch_dense_eager_h200.json.gz >"$tmp/mix0.json" 2>/dev/null
"$TS" --no-progress -f json --patterns "$tmp/mixer" tests/data/torch_dense_eager_h200.json.gz >"$tmp/mix1.json" 2>/dev/null
"$TS" patterns explain --patterns "$tmp/mixer" cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x64_4x1x1_cga1x1x1_kernel0_0 >"$tmp/mix.out"
python3 -c "
import json, sys
a, b = (json.load(open(f))['layers'] for f in sys.argv[1:3])
m = json.load(open(sys.argv[2]))['model']['described']
assert a['types'] == {'Attn+FC': 48}, a['types']
assert b['types'] == {'Ret+FC': 48}, b['types']
assert a['per_pass'] == b['per_pass'] == 8, (a['per_pass'], b['per_pass'])
assert m.startswith('a dense model: 8 retention (RetNet) layers'), m
assert 'mixer     retention' in open(sys.argv[3]).read()" "$tmp/mix0.json" "$tmp/mix1.json" "$tmp/mix.out" &&
	ok "a new mixer kind (mixers: in a user's kernels.yaml) types its layers and names them on the model line" ||
	bad "new mixer kind" "$(grep -o '"types":[^}]*}' "$tmp/mix1.json" | head -1)"
bad_case mixer-twice k.yaml "mixer-twice/k.yaml:3:12: mixer 'x' is also declared in mixer-twice/k.yaml" <<'Y'
mixers:
  - {name: x, label: X, says: "x"}
  - {name: x, label: X, says: "x"}
Y
bad_case mixer-rank k.yaml "mixer-rank/k.yaml:2:42: rank 'high' is not a whole number in -1000..1000" <<'Y'
mixers:
  - {name: x, label: X, says: "x", rank: high}
Y

# explain
"$TS" patterns explain 'nvjet_sm103_tst_32x64_64x16_4x1_v_bz_splitK_TNN' >"$tmp/out"
if grep -q '^rule      nvjet (.*kernels.yaml:[0-9]*)' "$tmp/out" && grep -q '^type      gemm' "$tmp/out" &&
	grep -q '^category  GEMM-cuBLASLt' "$tmp/out" && grep -q '^short     nvjet 32x64 (cuBLASLt)' "$tmp/out"; then
	ok "patterns explain names the rule, file:line, type, category and short name"
else
	bad "patterns explain" "$(cat "$tmp/out")"
fi
"$TS" patterns explain 'some_new_kernel_xyz' | grep -q '^rule      none' && ok "patterns explain says when no rule matches" || bad "explain no match" ""
"$TS" patterns explain 'flash_fwd_kernel' 'some_new_kernel_xyz' 'ampere_sgemm_128x64_tn' >"$tmp/out"
[ "$(grep -c '^name ' "$tmp/out")" = 3 ] && [ "$(awk '/^category/ {print $2}' "$tmp/out" | tr '\n' ' ')" = "Attention-Flash Other GEMM-cuBLAS " ] &&
	ok "patterns explain takes several names: a block each, in order" || bad "explain several names" "$(cat "$tmp/out")"
"$TS" patterns explain --event gpu_memcpy 'Memcpy HtoD (Pinned -> Device)' | grep -q '^category  Memcpy-HtoD' && ok "patterns explain --event gpu_memcpy" || bad "explain memcpy" ""
"$TS" patterns list >"$tmp/out"
for f in dense qwen3-moe deepseek-v3 grok-2 gpt-oss qwen3-next; do
	grep -q "^  $f " "$tmp/out" || bad "patterns list" "family $f missing"
done
grep -q "^  GEMM-Tensile " "$tmp/out" && grep -q "tensile " "$tmp/out" && ok "patterns list shows families, categories and their rules" || bad "patterns list" "no GEMM-Tensile"

# --model
"$TS" --model nope tests/cli/tiny.json >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "unknown model family 'nope'; known: " "$tmp/err" && ok "--model with an unknown family: exit 2, lists the known ones" || bad "--model nope" "exit $rc"
"$TS" --format json --model grok-2 tests/cli/tiny.json >"$tmp/out"
python3 -c "import json,sys; m=json.load(open(sys.argv[1]))['model']; assert m['family']=='grok-2' and m['source']=='forced', m" "$tmp/out" \
	&& ok "--model forces the family (source forced)" || bad "--model grok-2" "$(head -c 300 "$tmp/out")"

# Adding a model in YAML only: the same trace, with and without the example directory.
ex=tests/patterns/example.json
"$TS" --format json "$ex" >"$tmp/before.json"
"$TS" --format json --patterns tests/patterns/example "$ex" >"$tmp/after.json"
python3 - "$tmp/before.json" "$tmp/after.json" <<'PY' && ok "a --patterns directory adds a category, rule and model family without recompiling" || bad "adding a model" "see above"
import json, sys
b, a = (json.load(open(p)) for p in sys.argv[1:3])
def row(d, name):
    return next(k for k in d['kernels'] if k['name'] == name)
lb, la = row(b, 'lightning_attn_fwd_decode'), row(a, 'lightning_attn_fwd_decode')
checks = [
    (lb['category'] == 'Other' and lb['type'] == 'other', 'before: lightning kernel unclassified %r' % lb),
    (any(u['name'] == 'lightning_attn_fwd_decode' for u in b['unclassified']), 'before: listed as unclassified'),
    (la['category'] == 'Attention-Lightning' and la['type'] == 'attention', 'after: classified %r' % la),
    (la['short'] == 'lightning_attn fwd decode' and la['stage_hint'] == 'decode', 'after: short and stage %r' % la),
    (b['model']['family'] != 'minimax-m1', 'before: family %r' % b['model']),
    (a['model']['family'] == 'minimax-m1' and a['model']['source'] == 'detected', 'after: family %r' % a['model']),
    (a['classified_pct'] == 100.0 and b['classified_pct'] < 100.0, 'classified_pct %s -> %s' % (b['classified_pct'], a['classified_pct'])),
    (a['patterns']['dirs'][0] == 'tests/patterns/example', 'dirs %r' % a['patterns']['dirs']),
]
bad = [m for c, m in checks if not c]
for m in bad:
    print('# ' + m)
sys.exit(1 if bad else 0)
PY

# The classification table: hand-labeled real kernel names.
python3 tests/classify/check.py "$TS" tests/classify/names.tsv tests/classify/shorts.tsv

# install puts the binary and the tables where the binary looks for them
if make -s install DESTDIR="$tmp/dest" PREFIX=/usr >/dev/null 2>&1 &&
	[ -x "$tmp/dest/usr/bin/tracestream" ] && [ -f "$tmp/dest/usr/share/tracestream/patterns/kernels.yaml" ] &&
	[ -f "$tmp/dest/usr/share/tracestream/patterns/models/dense.yaml" ]; then
	ok "make install DESTDIR= PREFIX= installs the binary and the tables"
else
	bad "make install" "files missing under $tmp/dest"
fi
exit 0
