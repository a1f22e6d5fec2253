#!/usr/bin/env bash
# A sample of the architecture zoo (tests/zoo/zoo.py: random decoders, as
# traces with their truth): every pass and every layer of seeds 0..39, with
# real kernel names and with every name a random string, checked through
# `tracestream annotate` (tests/zoo/check.py). With names every seed of the
# sample is exact; without them the floor is below the issue's target where
# the full sweep (make zoo, 300 seeds) still misses it: a dense and a MoE
# layer that alternate read as one unit of two where attention is
# graph-replayed, and an all-reduce that ends every layer can be taken for
# where one begins.
# sanitizers: release only (the layer machine runs under the sanitizers on the second-hand generator's seeds (t_independent) and the fixtures (t_layer_fixtures, t_generic_layers))
. "$(dirname "$0")/lib.sh"
python3 "$here/zoo/check.py" "$TS" 0 40 --names-min 100 --random-min 90
