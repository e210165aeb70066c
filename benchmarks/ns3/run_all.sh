#!/usr/bin/env bash
# `make bench-ns3`: set up ns-3, build the harness, run the agreement matrix in aqmlab and in
# ns-3 (16 scenarios timed 3 times each, plus their 16 min-RTO-1-s twins), write
# benchmarks/ns3/agreement.json and regenerate docs/validation.md's tables and figures.
# About 75 min on a 2-core VM (ns-3 takes ~40-70 s per 100-s run).
#
#   bash benchmarks/ns3/run_all.sh                 # the whole matrix (resumes unless --force)
#   bash benchmarks/ns3/run_all.sh --only cubic-red-rtt200 --force
#   bash benchmarks/ns3/run_all.sh --quick [--fresh-ns3]   # = make validate-ns3-quick
#
# Needs the repository's .venv with aqmlab installed (make demo / make test create it), or
# PYTHON=/path/to/python with aqmlab importable; cargo for the engine's bare runner.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PYTHON="${PYTHON:-$ROOT/.venv/bin/python}"

bash "$HERE/setup.sh" --cxx
if [[ "${1:-}" == "--quick" ]]; then
    # make validate-ns3-quick: the QUICK rows of agreement.py at 40 s, no timing; exits 1 if a
    # row differs (report.py then still writes what was measured).
    shift
    status=0
    "$PYTHON" "$HERE/agreement.py" --quick "$@" || status=$?
    "$PYTHON" "$HERE/report.py"
    exit $status
fi
(cd "$ROOT" && cargo build --quiet --release --example run_scenario)
"$PYTHON" "$HERE/agreement.py" --matrix --runs 3 --seeds 5 "$@"
"$PYTHON" "$HERE/report.py"
