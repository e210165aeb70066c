#!/usr/bin/env bash
# Create benchmarks/ns3/.venv with ns-3 3.44 (PyPI wheel "ns3", Python bindings via cppyy).
# Idempotent: does nothing when the venv already has this requirements.txt installed.
# First run takes a minute or two (cppyy's CPyCppyy is compiled from source by pip).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="$HERE/.venv"
STAMP="$VENV/.requirements.installed"
PYTHON="${PYTHON:-python3}"

if [[ -f "$STAMP" ]] && cmp -s "$STAMP" "$HERE/requirements.txt"; then
    exit 0
fi
[[ -x "$VENV/bin/python" ]] || "$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet -r "$HERE/requirements.txt"
# Importing the bindings once builds cppyy's precompiled header, so the first timed run
# does not pay for it.
"$VENV/bin/python" -c "from ns import ns; ns.Simulator.Now()" 2>/dev/null
cp "$HERE/requirements.txt" "$STAMP"
echo "ns-3 ready: $VENV/bin/python $HERE/dumbbell60.py"
