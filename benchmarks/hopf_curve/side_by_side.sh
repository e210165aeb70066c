#!/usr/bin/env bash
# The side-by-side timing of issue 33: aqmlab's 200-point Hopf curve (bench.py) and DDE-BIFTOOL's
# (ddebiftool/hopf_curve_bench.m, exact derivatives), alternated in one sitting, each timed as the
# CPU time of its own process, median of REPEATS (default 5). Run from the repository root after
# `make build` and benchmarks/hopf_curve/setup.sh, with DDEBIFTOOL_DIR set.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash benchmarks/hopf_curve/setup.sh
REPEATS=${REPEATS:-5}
ROUNDS=${ROUNDS:-2}
export OPENBLAS_NUM_THREADS=1
K=8.483410465411442846720593   # C*tau at the Hopf point, 50 digits (reference_k.py)
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
    echo "== round $round: aqmlab"
    nice -n 5 .venv/bin/python benchmarks/hopf_curve/bench.py "$REPEATS"
    echo "== round $round: DDE-BIFTOOL (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    (cd benchmarks/hopf_curve/ddebiftool && REPEATS=$REPEATS HOPF_CTAU=$K nice -n 5 octave-cli --no-gui -q hopf_curve_bench.m 2>&1 | grep -v 'boundary hit')
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
