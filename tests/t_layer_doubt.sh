#!/usr/bin/env bash
# The layers' self-check says what puts the layout in doubt, with its
# numbers (layers.doubt in JSON, "layers in doubt" on the first screen):
# layers of one type whose kernel count is more than two off their type's
# median in a complete pass, and attention kernels that ran in no layer.
# Known answers: a generic decoder (tests/layers/mkgeneric.py, 7 layers of
# 11 kernels, 3 decode passes) has none; the same trace with three kernels
# no rule knows added to layer 4 of pass 1 (a debug hook) has that one
# layer at 14 kernels against 11; with an attention kernel after the LM
# head of pass 2 (a draft model's layer, as speculative decoding runs) has
# one attention kernel in no layer. The layers themselves stay 7 a pass.
T=doubt
. "$(dirname "$0")/lib.sh"

gen_out python3 "$here/layers/mkgeneric.py" --layers 7 --decode 3 --batch 4 >"$tmp/g.json"

# edit: insert copies of a kernel into pass P after kernel K of the pass
# (kernels in launch order), shifting the later kernels by their time
edit() {
	python3 - "$tmp/g.json" "$@" <<'PY'
import copy, json, sys
src, out, p, k, name, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], int(sys.argv[6])
d = json.load(open(src))
ev = d['traceEvents']
# correlation ids count launches: ten apart, so that the added launches
# take the ids after the one they follow (as a profiler numbers them)
for e in ev:
    a = e.get('args') or {}
    if isinstance(a.get('correlation'), int):
        a['correlation'] *= 10
    if e.get('cat') == 'ac2g' and isinstance(e.get('id'), int):
        e['id'] *= 10
ks = sorted((e for e in ev if e.get('cat') == 'kernel'), key=lambda e: e['ts'])
per = len(ks) // 3
after = ks[p * per + k]
base = copy.deepcopy(after)
dur = 3.0
shift = n * (dur + 1.0)
for e in ks:
    if e['ts'] > after['ts']:
        e['ts'] = round(e['ts'] + shift, 3)
corr = after['args']['correlation'] + 1
launch = next(e for e in ev if e.get('cat') == 'cuda_runtime'
              and e['args'].get('correlation') == after['args']['correlation'])
add = []
for i in range(n):
    e = copy.deepcopy(base)
    e['name'] = name
    e['ts'] = round(after['ts'] + after['dur'] + 1.0 + i * (dur + 1.0), 3)
    e['dur'] = dur
    e['args'] = dict(e['args'], correlation=corr + i)
    e['args'].pop('External id', None)
    add.append(e)
    add.append({'ph': 'X', 'cat': 'cuda_runtime', 'name': 'cudaLaunchKernel', 'pid': 4242, 'tid': 4242,
                'ts': round(launch['ts'] + launch['dur'] + 0.1 * (i + 1), 3), 'dur': 0.05,
                'args': {'correlation': corr + i, 'cbid': 211}})
# in the file where the kernel it follows is: the stream is read in order
at = next(i for i, e in enumerate(ev) if e is after) + 1
ev[at:at] = add
json.dump(d, open(out, 'w'))
PY
}

doubt() {
	"$TS" -q -f json "$1" >"$tmp/out.json" 2>"$tmp/err" || { bad "$2: exit $?: $(cat "$tmp/err")"; return 1; }
	"$TS" -q --brief -w 200 "$1" >"$tmp/brief.txt" 2>&1
	python3 - "$tmp/out.json" "$tmp/brief.txt" "$3" <<'PY' && ok "$2" || bad "$2: $(grep -i doubt "$tmp/brief.txt")"
import json, sys
r = json.load(open(sys.argv[1]))
brief = open(sys.argv[2]).read()
want = json.loads(sys.argv[3])
assert [(p['layers'], p['complete']) for p in r['passes']] == [(7, True)] * 3, r['passes']
d = r['layers']['doubt']
for k, v in want.items():
    assert d[k] == v, (k, d[k], v)
line = [l for l in brief.splitlines() if 'layers in doubt' in l]
if d['layers_differing'] or d['attention_outside_layers']:
    assert line, brief
    f = d['first_differing']
    if f:
        assert '%d of %d layers' % (d['layers_differing'], d['layers_checked']) in line[0], line
        assert 'pass %d layer %d' % (f['pass'], f['layer']) in line[0], line
    if d['attention_outside_layers']:
        assert '%d attention kernel' % d['attention_outside_layers'] in line[0], line
else:
    assert not line, line
PY
}

doubt "$tmp/g.json" "a generic decoder: 21 layers checked, none in doubt" \
	'{"layers_checked": 21, "layers_differing": 0, "attention_outside_layers": 0, "first_differing": null, "passes_layers_thin": 0}'

# layer 4 of pass 1 starts at kernel 2 + 4 * 11 of the pass; its SiLU is its 10th
edit "$tmp/hook.json" 1 $((2 + 4 * 11 + 9)) 'debug_hook_check_finite_kernel' 3
doubt "$tmp/hook.json" "three kernels more in one layer: that layer is in doubt (14 kernels against 11)" \
	'{"layers_checked": 21, "layers_differing": 1, "attention_outside_layers": 0,
	  "first_differing": {"pass": 1, "layer": 4, "type": "Attn+FC", "kernels": 14, "typical_kernels": 11}}'

# the LM head is the pass's 81st kernel (2 + 77 + final norm + LM head)
ATTN=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(next(e['name'] for e in d['traceEvents'] if e.get('cat')=='kernel' and 'flash::enable_sm90_or_later' in e['name']))" "$tmp/g.json")
[ -n "$ATTN" ] || bad "no attention kernel name in the generic decoder"
edit "$tmp/draft.json" 2 80 "$ATTN" 1
doubt "$tmp/draft.json" "an attention kernel after the LM head: one attention kernel in no layer, in one pass" \
	'{"layers_differing": 0, "attention_outside_layers": 1, "passes_with_attention_outside": 1, "passes_layers_thin": 0}'
finish
