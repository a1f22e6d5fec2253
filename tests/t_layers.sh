#!/usr/bin/env bash
# The layer machine on generated traces whose truth is known by
# construction (bench/gen_trace: 48-layer MoE decode steps, every 8th step an
# EXTEND): K steps give exactly K complete passes of 48 layers, and each
# pass takes the stage of its own step annotation (steps 7, 15, ... are
# EXTEND steps: bench/gen_trace.c, EXTEND_EVERY).
. "$(dirname "$0")/lib.sh"
cc -O1 -o "$tmp/gen_trace" bench/gen_trace.c 2>"$tmp/cc.err" || {
	echo "not ok - building bench/gen_trace.c: $(head -c 300 "$tmp/cc.err")"
	exit 0
}
for k in 1 3 9 20; do
	"$tmp/gen_trace" --steps "$k" 2>/dev/null | "$TS" --format json - >"$tmp/r.json" 2>"$tmp/err" || {
		echo "not ok - $k steps: exit $?: $(head -c 200 "$tmp/err")"
		continue
	}
	python3 - "$tmp/r.json" "$k" <<'PY'
import json, sys
r, k = json.load(open(sys.argv[1])), int(sys.argv[2])
p = r['passes']
ok = (len(p) == k and all(x['complete'] and x['layers'] == 48 for x in p)
      and r['layers']['total'] == 48 * k and r['layers']['per_pass'] == 48)
print('%s - %d generated steps: %d complete passes of 48 layers (got %d passes, layers %s)' %
      ('ok' if ok else 'not ok', k, k, len(p), sorted(set(x['layers'] for x in p))))
# gen_trace: step i is an EXTEND (prefill) step when i % 8 == 7
want = ['prefill' if i % 8 == 7 else 'decode' for i in range(k)]
got = [x['stage'] for x in p]
print('%s - %d generated steps: stages follow their step annotations %s' %
      ('ok' if got == want else 'not ok', k, '' if got == want else '(want %s, got %s)' % (want, got)))
PY
done
exit 0
