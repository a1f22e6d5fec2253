#!/usr/bin/env bash
# `tracestream compare A B` with a fusion on one side, on synthetic traces of
# one dense decoder (tests/compare/mkfusion.py): the fused side runs one
# kernel (all-reduce + RMSNorm, or residual add + RMSNorm) where the other
# runs two. For each fusion and each fused side: the rows of the fusion's
# parts merge into one row with the truth's name, fused side and fusion; its
# launches and total time, and every other row's, are the generator's truth
# exactly; the rows add up to each side's kernel time; in the typical
# decode layer the fused kernel pairs with its two parts as one "fused"
# pair and every other kernel pairs 1-to-1 as "same". Also: compare A A is
# similar everywhere (ratio 1, gap 0), and compare B A mirrors compare A B.
. "$(dirname "$0")/lib.sh"
GEN=tests/compare/mkfusion.py
# the interpreter itself, not a version-manager shim (pyenv's costs ~0.5 s a call)
PY=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
[ -x "$PY" ] || PY=python3

# the generator itself: valid JSON, the same files on every run
g=(--fuse add+norm --fused-side a --layers 3 --decode 2 --seed 7)
if "$PY" "$GEN" "${g[@]}" --out-a "$tmp/g1a.json" --out-b "$tmp/g1b.json" --truth "$tmp/g1t.json" &&
	PYTHONHASHSEED=1 "$PY" "$GEN" "${g[@]}" --out-a "$tmp/g2a.json" --out-b "$tmp/g2b.json" \
		--truth "$tmp/g2t.json" &&
	"$PY" -m json.tool "$tmp/g1a.json" >/dev/null && "$PY" -m json.tool "$tmp/g1b.json" >/dev/null &&
	cmp -s "$tmp/g1a.json" "$tmp/g2a.json" && cmp -s "$tmp/g1b.json" "$tmp/g2b.json" &&
	cmp -s "$tmp/g1t.json" "$tmp/g2t.json"; then
	echo "ok - mkfusion.py: valid JSON, the same traces and truth on every run"
else
	echo "not ok - mkfusion.py: valid JSON, the same traces and truth on every run"
	fail=1
fi

# Each case: generate both traces and the truth, run compare A B, B A and
# A A; the checks of all cases run at the end, in one Python process.
cases=0
for fuse in allreduce+norm add+norm; do
	for side in a b; do
		cases=$((cases + 1))
		d=$tmp/c$cases
		mkdir "$d"
		printf '%s fused on %s\n' "$fuse" "$side" >"$d/label"
		if ! "$PY" "$GEN" --fuse "$fuse" --fused-side "$side" --layers 4 --decode 3 --seed "$cases" \
			--out-a "$d/A.json" --out-b "$d/B.json" --truth "$d/truth.json" 2>"$d/gerr"; then
			echo "mkfusion.py: $(head -c 300 "$d/gerr")" >"$d/fail"
			continue
		fi
		for run in AB:A:B BA:B:A AA:A:A; do
			IFS=: read -r out x y <<<"$run"
			"$TS" compare -f json "$d/$x.json" "$d/$y.json" >"$d/$out.out" 2>"$d/$out.err"
			rc=$?
			[ $rc -eq 0 ] ||
				echo "$TS compare -f json $x $y: exit status $rc: $(head -c 300 "$d/$out.err")" >>"$d/fail"
		done
	done
done

"$PY" - "$tmp" <<'PY'
import glob, json, os, sys
from decimal import Decimal as D

EPS = D('0.001')
FAILED = []


def load(path):
    with open(path) as f:
        return json.load(f, parse_float=D)


def us(ns):
    return D(ns) / 1000


def short(x, n=200):
    s = json.dumps(x, default=str)
    return s if len(s) <= n else s[:n] + '...'


def check(d):
    label = open(d + '/label').read().strip()

    def line(ok, what, want=None, got=None):
        if ok:
            print('ok - %s: %s' % (label, what))
        else:
            FAILED.append(what)
            print('not ok - %s: %s: expected %s, got %s' % (label, what, want, got))

    if os.path.exists(d + '/fail'):
        FAILED.append('run')
        print('not ok - %s: %s' % (label, open(d + '/fail').read().strip()))
        return
    try:
        r, ba, aa = (load('%s/%s.out' % (d, x)) for x in ('AB', 'BA', 'AA'))
    except ValueError as e:
        FAILED.append('json')
        print('not ok - %s: a report is not JSON: %s' % (label, e))
        return
    t = load(d + '/truth.json')
    K, N = t['decode'], t['layers']

    line(r.get('mode') == 'compare', 'mode is compare', 'compare', r.get('mode'))
    # each side: kernel time, passes and layers
    for s in 'ab':
        side = r.get(s) or {}
        want = (us(t['kernel_time_ns'][s]), t['passes'][s], t['layers_total'][s])
        got = (side.get('kernel_time_us'), side.get('passes'), side.get('layers'))
        line(got == want, '%s: kernel_time_us, passes, layers' % s, short(want), short(got))

    ops = r.get('ops') or []
    by = {o['op']: o for o in ops}
    line(len(by) == len(ops), 'op rows have distinct names', len(ops), len(by))

    # the merged row
    m = by.get(t['merged_row'])
    line(m is not None, 'merged row "%s" exists' % t['merged_row'], t['merged_row'],
         short(sorted(by)))
    if m is not None:
        fu = m.get('fused') or {}
        want = (t['fusion'], t['fused_side'])
        got = (fu.get('fusion'), fu.get('side'))
        line(got == want, 'merged row: fused.fusion and fused.side', short(want), short(got))
        want = tuple((t['merged'][s]['count'], us(t['merged'][s]['total_ns'])) for s in 'ab')
        got = tuple((m.get(s + '_count'), m.get(s + '_total_us')) for s in 'ab')
        line(got == want, 'merged row: launches and total us per side (a, b)', short(want), short(got))

    # every other row
    want_rows = set(t['rows']) | {t['merged_row']}
    line(set(by) == want_rows, 'the rows are the groups the traces run',
         short(sorted(want_rows)), short(sorted(by)))
    bad = []
    for g, c in t['rows'].items():
        o = by.get(g)
        want = tuple((c[s]['count'], us(c[s]['total_ns'])) for s in 'ab')
        got = None if o is None else tuple((o.get(s + '_count'), o.get(s + '_total_us')) for s in 'ab')
        if got != want:
            bad.append((g, want, got))
        elif o.get('fused') is not None:
            bad.append((g, 'fused null', o.get('fused')))
    line(not bad, 'other rows (%d): launches and total us per side, not fused' % len(t['rows']),
         'the truth', short(bad, 400))

    # the rows add up to the kernel time; gap = b - a
    for s in 'ab':
        tot = sum((o.get(s + '_total_us') or D(0)) for o in ops)
        kt = (r.get(s) or {}).get('kernel_time_us')
        line(kt is not None and abs(tot - kt) <= EPS,
             'sum of the rows %s_total_us = %s.kernel_time_us' % (s, s), kt, tot)
    bad = [(o['op'], o.get('gap_us')) for o in ops
           if o.get('gap_us') is None or abs(o['gap_us'] - (o['b_total_us'] - o['a_total_us'])) > EPS]
    line(not bad, 'every row: gap_us = b_total_us - a_total_us', '[]', short(bad))

    # the alignment of the typical decode layer
    al = [x for x in r.get('alignment') or [] if x.get('stage') == 'decode']
    line(len(al) == 1, 'one decode alignment', 1, len(al))
    if al:
        al = al[0]
        pairs = al.get('pairs') or []
        got = [(p.get('kind'), p.get('fusion'), [k['name'] for k in p.get('a', [])],
                [k['name'] for k in p.get('b', [])]) for p in pairs]
        want = [(p['kind'], p['fusion'], p['a'], p['b']) for p in t['align']]
        nf = sum(1 for p in want if p[0] == 'fused')
        bad = [(i, w[0], g[0] if g else None) for i, (w, g) in
               enumerate(zip(want + [None] * len(got), got + [None] * len(want))) if w != g and (w or g)]
        line(got == want, 'decode alignment: %d pairs, %d fused (%s) with its 2 parts, the rest same 1-to-1'
             % (len(want), nf, t['fusion']), 'the truth', 'pairs differ at (index, want kind, got kind) %s'
             % short(bad, 300))
        # the times of the pairs: the sample layer's kernels averaged over
        # every layer that runs the same kernels, in every pass
        la, lb = al.get('a_layer'), al.get('b_layer')
        ok_idx = la == lb and la in range(N)
        line(ok_idx, 'decode alignment: a_layer = b_layer, a layer index', '0..%d' % (N - 1), (la, lb))
        if ok_idx and got == want:
            bad = []
            pos = {'a': 0, 'b': 0}
            for i, p in enumerate(pairs):
                for s in 'ab':
                    names = t['layer_names'][s]
                    like = [li for li in range(N) if names[li] == names[la]]
                    tot = D(0)
                    for k in p[s]:
                        w = D(sum(t['layer_avg_ns'][s][li][pos[s]] for li in like)) / (K * len(like)) / 1000
                        pos[s] += 1
                        tot += w
                        if abs(k.get('avg_us') - w) > EPS:
                            bad.append((i, s, k['short'], str(w), str(k.get('avg_us'))))
                    if abs(p.get(s + '_us') - tot) > EPS:
                        bad.append((i, s + '_us', str(tot), str(p.get(s + '_us'))))
            line(not bad, 'decode alignment: avg_us of every kernel and a_us/b_us of every pair',
                 'the truth', short(bad, 400))
            inst = {s: K * sum(1 for li in range(N) if t['layer_names'][s][li] == t['layer_names'][s][la])
                    for s in 'ab'}
            line(al.get('a_instances') == inst['a'] and al.get('b_instances') == inst['b'],
                 'decode alignment: a mean over every like layer of every pass, not one layer',
                 (inst['a'], inst['b']), (al.get('a_instances'), al.get('b_instances')))

    # compare A A: similar everywhere
    bad = []
    for o in aa.get('ops') or []:
        zero = o['a_total_us'] == 0 and o['b_total_us'] == 0
        rt = o.get('ratio')
        if not ((rt is None if zero else rt == 1) and o.get('gap_us') == 0 and o.get('status') == 'similar'
                and o.get('fused') is None):
            bad.append((o['op'], str(rt), str(o.get('gap_us')), o.get('status'), o.get('fused')))
    line(not bad and aa.get('ops'), 'compare A A: every op row ratio 1, gap 0, similar, not fused',
         '[]', short(bad, 400))
    bad = []
    for L in aa.get('layers') or []:
        rt = L.get('ratio')
        zero = L.get('a_us') == 0 and L.get('b_us') == 0
        if not ((rt is None if zero else rt == 1) and L.get('gap_us') == 0 and L.get('status') == 'similar'):
            bad.append((L.get('stage'), L.get('layer'), str(rt), str(L.get('gap_us')), L.get('status')))
    nl = len(aa.get('layers') or [])
    line(not bad and nl == N, 'compare A A: %d layer rows, each ratio 1, gap 0, similar' % N,
         '%d rows, []' % N, '%d rows, %s' % (nl, short(bad, 400)))

    # compare B A mirrors compare A B
    bm = {o['op']: o for o in ba.get('ops') or []}
    line(set(bm) == set(by), 'compare B A: the same op rows as A B', short(sorted(by)), short(sorted(bm)))
    bad = []
    for name, o in by.items():
        p = bm.get(name)
        if p is None:
            continue
        fo, fp = o.get('fused'), p.get('fused')
        flip = {'a': 'b', 'b': 'a'}
        same_fused = (fo is None and fp is None) or (
            fo is not None and fp is not None and fp.get('fusion') == fo.get('fusion')
            and fp.get('side') == flip.get(fo.get('side')))
        if not (p['a_count'] == o['b_count'] and p['b_count'] == o['a_count']
                and p['a_total_us'] == o['b_total_us'] and p['b_total_us'] == o['a_total_us']
                and p['gap_us'] == -o['gap_us'] and same_fused):
            bad.append(name)
    line(not bad, 'compare B A: every row with a/b counts and totals swapped, gap negated, fused side flipped',
         '[]', short(bad))
    want = (r['a']['kernel_time_us'], r['b']['kernel_time_us'])
    got = (ba['b']['kernel_time_us'], ba['a']['kernel_time_us'])
    line(got == want, 'compare B A: the sides swapped', short(want), short(got))


dirs = sorted(glob.glob(sys.argv[1] + '/c[0-9]*'))
for d in dirs:
    check(d)
if len(dirs) != 4:
    FAILED.append('cases')
    print('not ok - 4 cases checked (got %d)' % len(dirs))
sys.exit(1 if FAILED else 0)
PY
[ $? -eq 0 ] || fail=1
exit $fail
