#!/usr/bin/env bash
# tracestream schema (issue 60): the JSON Schema of the JSON report, built
# in from docs/report.schema.json; its version is the report's "schema"
# member. Every JSON report validates against it (a validator of the
# standard library, for the keywords the schema uses: type, properties,
# required, additionalProperties, items, const, enum): the bundled sample, the
# captures in tests/data, every shared trace, the ranks of a job, a
# --capture run, a --stage run and a cut trace. A report with a member the
# schema does not name, or a field of another type, fails; so does the
# validator's own check on a made-up bad report.
# sanitizers: release only (the JSON report's paths run under the sanitizers in t_outputs, t_tables and t_md)
T=schema
. "$(dirname "$0")/lib.sh"
"$TS" schema >"$tmp/s.json" 2>"$tmp/err"
if [ $? -eq 0 ] && cmp -s "$tmp/s.json" docs/report.schema.json; then
	ok "tracestream schema prints docs/report.schema.json"
else
	bad "tracestream schema: $(head -c 200 "$tmp/err")"
fi
n=0
for t in tests/data/sample_trace.json.gz tests/data/torch_*_h200.json.gz "$SHARED"/*.json*; do
	[ -f "$t" ] || continue
	n=$((n + 1))
	ts_out -f json "$t" >"$tmp/r$n.json"
done
"$TS" --no-progress -f json tests/data/sample_trace.json.gz tests/data/torch_dense_eager_h200.json.gz >"$tmp/ranks.json" 2>/dev/null
"$TS" --no-progress -f json --stage decode tests/data/sample_trace.json.gz >"$tmp/stage.json" 2>/dev/null
head -c 100000 tests/data/sample_trace.json.gz | gzip -dc 2>/dev/null >"$tmp/cut.trace.json"
"$TS" --no-progress -f json "$tmp/cut.trace.json" >"$tmp/cut.json" 2>/dev/null
cap="$SHARED/vllm_mi300x_graph_capture_bs8192_piecewise.pt.trace.json.gz"
[ -f "$cap" ] && "$TS" --no-progress -f json --capture "$cap" \
	"$SHARED/vllm_mi300x_mixed_prefilldecode_piecewise_graph.json.gz" >"$tmp/capture.json" 2>/dev/null
out=$(python3 - "$tmp/s.json" "$tmp"/r*.json "$tmp/ranks.json" "$tmp/stage.json" "$tmp/cut.json" \
	$( [ -f "$tmp/capture.json" ] && echo "$tmp/capture.json") <<'PY' 2>&1
import json, os, sys
schema = json.load(open(sys.argv[1]))
TYPES = {'object': dict, 'array': list, 'string': str, 'boolean': bool, 'null': type(None)}
def is_type(v, t):
    if t == 'number':
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t == 'integer':
        return isinstance(v, int) and not isinstance(v, bool)
    return isinstance(v, TYPES[t])
def check(v, s, path, errs):
    if 'const' in s and v != s['const']:
        errs.append('%s: %r is not %r' % (path, v, s['const']))
    if 'enum' in s and v not in s['enum']:
        errs.append('%s: %r is none of %r' % (path, v, s['enum']))
    t = s.get('type')
    if t is not None and not any(is_type(v, x) for x in (t if isinstance(t, list) else [t])):
        errs.append('%s: %s is not %s' % (path, type(v).__name__, t))
        return
    if isinstance(v, dict):
        for k in s.get('required', []):
            if k not in v:
                errs.append('%s: %s missing' % (path, k))
        props, extra = s.get('properties', {}), s.get('additionalProperties', True)
        for k, x in v.items():
            if k in props:
                check(x, props[k], path + '.' + k, errs)
            elif extra is False:
                errs.append('%s: %s is no member the schema names' % (path, k))
            elif isinstance(extra, dict):
                check(x, extra, path + '.' + k, errs)
    if isinstance(v, list) and 'items' in s:
        for i, x in enumerate(v):
            check(x, s['items'], '%s[%d]' % (path, i), errs)
    return errs
assert schema['properties']['schema']['const'] == 1 and schema['$id'].endswith(':1'), 'version'
bad = dict(json.load(open(sys.argv[2])), surplus=1)
bad['trace'] = dict(bad['trace'], partial='no')
e = check(bad, schema, '$', [])
assert any('surplus' in x for x in e) and any('partial' in x for x in e), e
docs = 0
for f in sys.argv[2:]:
    doc = json.load(open(f))
    assert doc['schema'] == schema['properties']['schema']['const'], f
    e = check(doc, schema, '$', [])
    if e:
        print('%s: %s' % (os.path.basename(f), '; '.join(e[:3])))
        sys.exit(1)
    docs += 1
print('%d reports' % docs)
PY
)
if [ $? -eq 0 ]; then
	ok "every JSON report validates against the schema ($out: traces, ranks, --stage, --capture, a cut trace); a made-up bad one does not"
else
	bad "schema: $out"
fi
finish
