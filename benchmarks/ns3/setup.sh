#!/usr/bin/env bash
# Create benchmarks/ns3/.venv with ns-3 3.44 (PyPI wheel "ns3", Python bindings via cppyy).
# Idempotent: does nothing when the venv already has this requirements.txt installed.
# First run takes a minute or two (pip compiles cppyy's CPyCppyy from source).
#
#   bash setup.sh          # the venv (enough for dumbbell60.py, the default Python backend)
#   bash setup.sh --cxx    # also compile dumbbell60.cc and aqmlab_ns3.cc against the wheel -> build/
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="$HERE/.venv"
STAMP="$VENV/.requirements.installed"
PYTHON="${PYTHON:-python3}"

if ! { [[ -f "$STAMP" ]] && cmp -s "$STAMP" "$HERE/requirements.txt"; }; then
    [[ -x "$VENV/bin/python" ]] || "$PYTHON" -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
    "$VENV/bin/python" -m pip install --quiet -r "$HERE/requirements.txt"
    # Importing the bindings once builds cppyy's precompiled header, so the first timed run
    # does not pay for it.
    "$VENV/bin/python" -c "from ns import ns; ns.Simulator.Now()" 2>/dev/null
    cp "$HERE/requirements.txt" "$STAMP"
    echo "ns-3 ready: $VENV/bin/python $HERE/dumbbell60.py"
fi

if [[ "${1:-}" == "--cxx" ]]; then
    NS3="$("$VENV/bin/python" -c 'import ns3; print(list(ns3.__path__)[0])')"
    MODULES=(core network internet point-to-point traffic-control applications)
    mkdir -p "$HERE/build"
    # dumbbell60.cc: the dumbbell-60 benchmark; aqmlab_ns3.cc: the harness that runs any
    # spec written by ns3_mapping.py (the cross-simulator agreement matrix).
    # aqmlab_ns3 also links ns3_variants.cc (one-factor variants of ns-3's congestion controls).
    for PROGRAM in dumbbell60 aqmlab_ns3; do
        BIN="$HERE/build/$PROGRAM"
        SOURCES=("$HERE/$PROGRAM.cc")
        [[ "$PROGRAM" == aqmlab_ns3 ]] && SOURCES+=("$HERE/ns3_variants.cc")
        NEWER=false
        for SOURCE in "${SOURCES[@]}"; do [[ "$SOURCE" -nt "$BIN" ]] && NEWER=true; done
        if [[ ! -x "$BIN" || "$NEWER" == true || "$STAMP" -nt "$BIN" ]]; then
            # The wheel's libraries are the "release" profile with logging and asserts compiled
            # in: the same definitions as its CMake package (lib64/cmake/ns3/ns3Targets.cmake).
            ${CXX:-g++} -std=c++20 -O2 -DNDEBUG \
                -D__LINUX__ -DNS3_BUILD_PROFILE_RELEASE -DNS3_LOG_ENABLE -DNS3_ASSERT_ENABLE \
                -I"$NS3/include" "${SOURCES[@]}" -o "$BIN" \
                -L"$NS3/lib64" "${MODULES[@]/#/-lns3.44-}" -Wl,-rpath,"$NS3/lib64"
            echo "built $BIN"
        fi
    done
fi
