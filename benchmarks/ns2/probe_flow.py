"""One flow's TCP state in ns-2 every 50 ms, for finding a disagreement's cause.

    python benchmarks/ns2/probe_flow.py ROW FLOW [OPTIONS-DICT]
    python benchmarks/ns2/probe_flow.py sack-red-rtt200 3

Runs the matrix row's ns-2 program (aqmlab seed 1's start times) with a probe that prints, for
flow FLOW: time, cwnd_, ssthresh_, nrexmit_ (timeouts so far), rtt_ (last sample, ticks),
srtt_ (ticks x 8), rttvar_ (ticks x 4), ack_, t_seqno_ (tcp.cc's fixed-point estimator,
T_SRTT_BITS 3, T_RTTVAR_BITS 2, read from the binary).
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import aqmlab  # noqa: E402
import matrix  # noqa: E402
import ns2_mapping  # noqa: E402


def main() -> None:
    name, flow = sys.argv[1], int(sys.argv[2])
    options = ast.literal_eval(sys.argv[3]) if len(sys.argv) > 3 else {}
    row = {**matrix.rows(), **matrix.experiment_rows()}[name]
    results = aqmlab.simulate(row.scenario, seed=1)
    starts = [float(x) for x in results.flows.column("start_s").to_numpy()]
    program = ns2_mapping.translate(
        row.scenario.resolved(), start_times=starts, seed=1, options=ns2_mapping.Options(**options)
    )
    fields = "cwnd_ ssthresh_ nrexmit_ rtt_ srtt_ rttvar_ ack_ t_seqno_".split()
    values = " ".join(f"[$a({flow}) set {f}]" for f in fields)
    lines = program.lines[:-1] + [
        "set pf [open probe.txt w]",
        f'proc probe {{}} {{ global ns a pf; set t [$ns now]; puts $pf "$t {values}"; $ns at [expr $t + 0.05] probe }}',
        "$ns at 0.0 probe",
        "$ns run",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "p.tcl").write_text("\n".join(lines) + "\n")
        subprocess.run(["ns", "p.tcl"], cwd=tmp, capture_output=True, check=False)
        print("t " + " ".join(fields))
        print((Path(tmp) / "probe.txt").read_text(), end="")


if __name__ == "__main__":
    main()
