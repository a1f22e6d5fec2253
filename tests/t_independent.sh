#!/usr/bin/env bash
# The independent zoo (../shared/traces/independent-zoo/): traces of random
# LLM architectures from a generator written apart from the project, each
# with the truth the generator knew. Every complete pass, its stage and its
# layer count must be exact (tests/indep/score.py), but for the files
# tests/indep/known-failing.txt lists with the class each still misses;
# the same files rewritten in ways that must not change the answers; and a
# sample of a second generator written apart from the sources.
T=independent
. "$(dirname "$0")/lib.sh"
# A sample of the second-hand generator (tests/indep/gen: written from the
# trace format and the real traces, never from the sources), at least the
# rates it had when the floor was set, and the seeds of each class fixed
# (tests/indep/exact-seeds.txt); `make indep` sweeps 200 seeds. It needs
# no shared trace: it runs everywhere, CI included.
case "$TS" in
*/san/*) ;;   # the release build's run holds the floor
*) # the rates on fresh seeds: make test-long (TS_LONG=1); the seeds of
   # each class fixed in every run
   [ "${TS_LONG:-0}" = 1 ] &&
	{ python3 "$here/indep/sweep.py" "$TS" 0 20 --real-min 90 --random-min 70 || fail=1; }
   python3 "$here/indep/sweep.py" "$TS" --seeds "$here/indep/exact-seeds.txt" || fail=1
   # a spec-decode capture cut inside its last step (its annotation lost,
   # its target cut after two drafts): the drafts of that step, in no
   # step, are drafts by the count drafts had beside their targets, not
   # the model's forwards (real_4043 of the generator: 6-layer drafts, a
   # 15-layer target; its layer count is still one short, a class of its
   # own)
   python3 - "$TS" "$here/indep/gen" "$tmp/spec" <<'PY' && ok "spec-decode cut inside a step: its stray drafts are drafts, not the model" || bad "spec-decode stray drafts"
import json, subprocess, sys
ts, gen_dir, out = sys.argv[1:4]
sys.path.insert(0, gen_dir)
import gen
gen.write(4043, 'real', out)
d = json.loads(subprocess.run([ts, '--no-progress', '-f', 'json', out + '/real_4043.json.gz'],
                              capture_output=True, text=True).stdout)
six = [p for p in d['passes'] if p['complete'] and p['layers'] == 6]
assert len(six) == 6 and all(p['draft'] for p in six), [(p['index'], p['draft']) for p in six]
assert d['layers']['per_pass'] > 6, d['layers']['per_pass']
PY
   # speculative decoding in step annotations: the model is the target's,
   # never the draft's (the judge above sets drafts aside, so this says
   # what the first screen says). A step's last pass ends inside it (its
   # sampling follows): the next step closes it. The target verifies
   # once where the draft proposes a forward a token, deeper or not; one
   # of each: the count a step showed alone (the prompt's). With no step
   # annotation, the cycle of the passes' counts says the same.
   python3 - "$TS" "$here/indep/gen" "$tmp/spec2" <<'PY' && ok "spec-decode: the model's layers are the target's" || bad "spec-decode: the model's layers are the draft's"
import json, subprocess, sys
ts, gen_dir, out = sys.argv[1:4]
sys.path.insert(0, gen_dir)
import gen
bad = []
# SGLang 4 drafts of 4 + 65; TRT-LLM; vLLM; vLLM 3 drafts of 4 deeper
# than a 2-layer target; vLLM one 6-layer draft beside a 4-layer target;
# then no step annotation at all (the cycle of the counts): SGLang eager,
# TRT-LLM graphs (3 drafts of 4 + 11; 4 of 1 + 18; 4 of 1 + 10)
# and what told the drafts apart, in layers.drafts_by: two drafts or more
# beside one target; the count seen alone; the deeper (TRT-LLM's steps);
# the cycle where no step annotation is
by = {4454: 'target_verified_once', 4262: 'target_deeper', 4275: 'target_verified_once',
      4355: 'target_verified_once', 4371: 'target_verified_once', 4049: 'target_count_seen_alone',
      4288: 'layer_count_cycle', 4324: 'layer_count_cycle', 4415: 'layer_count_cycle',
      4209: 'layer_count_cycle'}
for seed in (4454, 4262, 4275, 4355, 4371, 4049, 4288, 4324, 4415, 4209):
    gen.write(seed, 'real', out)
    truth = json.load(open('%s/real_%d.truth.json' % (out, seed)))
    d = json.loads(subprocess.run([ts, '--no-progress', '-f', 'json', '%s/real_%d.json.gz' % (out, seed)],
                                  capture_output=True, text=True).stdout)
    if d['layers']['per_pass'] != truth['layers_per_pass']:
        bad.append((seed, d['layers']['per_pass'], truth['layers_per_pass']))
    drafts = [p for p in d['passes'] if p['draft']]
    if d['layers'].get('drafts_by') != by[seed] or not drafts or any(p['draft_by'] is None for p in drafts):
        bad.append((seed, d['layers'].get('drafts_by'), by[seed]))
assert not bad, bad
PY
   ;;
esac

z="$SHARED/independent-zoo"
if [ ! -d "$z" ]; then
	echo "skip - $T: $z is not here (the shared traces)"
	finish
fi
files=()
for f in "$z"/*.json.gz; do
	whole_run "$f" && files+=("$f")
done
case "${TS_LONG:-0}:$TS" in 0:*/san/* | 0:*/tsan/*)
	# under a sanitizer the zoo's C paths, not its every trace: the fewest
	# traces whose truths hold every class tag the zoo has (architecture,
	# framework, platform, graphs, annotation, stages, parallelism), taken
	# greedily; the release build scores every trace and every rewrite
	# (and make test-long every one under the sanitizers too)
	mapfile -t files < <(python3 -c '
import json, sys
for f in sys.argv[1:]:
    print(f, *json.load(open(f[:-len(".json.gz")] + ".truth.json")).get("classes", []))' "${files[@]}" |
		python3 "$here/cover.py")
	echo "# $T: under the sanitizer ${#files[@]} of the zoo's traces, every class tag among them" ;;
esac
python3 "$here/indep/score.py" "$TS" "${files[@]}" --known "$here/indep/known-failing.txt" || fail=1

# The same traces written otherwise must give the same answers: with every
# attention / state-space mixer kernel renamed to a string no table knows
# (a new attention kernel), and, for traces with kernel names and no mixed
# batch (which only an annotation can tell), with no step annotation.
# A rewrite is the same for both builds: made once a run ($TS_CACHE, as
# ts_out keeps reports), whichever build's run comes first.
mkdir -p "$tmp/vary" "$TS_CACHE/vary"
vary() { # kind trace out
	local c
	c="$TS_CACHE/vary/$(basename "$2").$(stat -c '%s.%Y' "$2").$1.json"
	if [ ! -f "$c" ]; then
		python3 "$here/indep/vary.py" "$1" "$2" "$3" && cp "$3" "$c.$$" && mv -f "$c.$$" "$c"
	else
		cp "$c" "$3"
	fi
}
for f in "${files[@]}"; do
	stem=$(basename "$f" .json.gz)
	grep -q "^$stem " "$here/indep/known-failing.txt" && continue
	vary mixer-unnamed "$f" "$tmp/vary/$stem.mixer-unnamed.json"
	cp "$z/$stem.truth.json" "$tmp/vary/$stem.mixer-unnamed.truth.json"
	case $stem in real_*)
		if ! grep -q '"mixed"' "$z/$stem.truth.json"; then
			vary no-annotation "$f" "$tmp/vary/$stem.no-annotation.json"
			cp "$z/$stem.truth.json" "$tmp/vary/$stem.no-annotation.truth.json"
		fi ;;
	esac
done
python3 "$here/indep/score.py" "$TS" "$tmp"/vary/*.mixer-unnamed.json "$tmp"/vary/*.no-annotation.json \
	--known "$here/indep/known-failing.txt" || fail=1

finish
