"""Issue 31 acceptance: the ns-2-format trace of a small run matches the Parquet trace line
by line, has ns-2's fields (compared with a trace ns-2 itself writes, where ns-2 is
installed), and an ns-2 awk script reads it unchanged."""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pyarrow.parquet as pq
import pytest
from aqmlab.traces import ns2_lines, write_ns2

#: One line of ns-2's `Trace::format` (ns-2.35 trace/trace.cc): event, time, from node,
#: to node, type, size, flags, fid, src.port, dst.port, seq, packet id.
NS2_LINE = re.compile(
    r"^[-+rd] \d+(\.\d+)?(e-\d+)? \d+ \d+ (tcp|ack|cbr) \d+ [C-][P-]-[A-][E-][F-][N-] \d+ \d+\.\d+ \d+\.\d+ -?\d+ \d+$"
)
EVENT = {"+": "enqueue", "-": "dequeue", "r": "receive", "d": "drop"}
TYPE = {"tcp": "data", "ack": "ack", "cbr": "datagram"}


def test_every_line_matches_its_parquet_row(traced_run, tmp_path):
    traced_run.save(tmp_path / "run")
    table = pq.read_table(tmp_path / "run" / "packet_trace.parquet")
    assert table.to_pylist() == traced_run.packet_trace.to_pylist()
    rows = table.filter(table.column("event").to_numpy(zero_copy_only=False) != "mark").to_pylist()
    lines = list(ns2_lines(table))
    assert len(lines) == len(rows) > 1000
    for line, row in zip(lines, rows, strict=True):
        assert NS2_LINE.match(line), line
        event, time, src, dst, kind, size, flags, fid, source, sink, seq, uid = line.split()
        assert EVENT[event] == row["event"]
        assert float(time) == pytest.approx(row["time_ns"] / 1e9, abs=5e-7)
        assert (int(src), int(dst)) == (row["from_node"], row["to_node"])
        assert TYPE[kind] == row["kind"] and int(size) == row["size_bytes"] and int(fid) == row["flow"]
        assert (source, sink) == (f"{row['src_node']}.0", f"{row['dst_node']}.0")
        # ns-2's TCP sink acknowledges the highest in-order segment, aqmlab the next expected.
        assert int(seq) == row["seq"] - (row["kind"] == "ack")
        assert int(uid) == row["packet_id"]
        assert (flags[0] == "C", flags[3] == "A") == (row["ece"], row["cwr"])
        assert (flags[4] == "E", flags[6] == "N") == (row["ecn"] == 3, row["ecn"] != 0)


def test_an_ns2_awk_script_reads_it_unchanged(traced_run, tmp_path):
    assert shutil.which("awk"), "awk (POSIX; Debian's mawk is essential) is needed to run the ns-2 awk script"
    path = write_ns2(traced_run.packet_trace, tmp_path / "out.tr")
    table = traced_run.packet_trace
    bottleneck = table.filter(table.column("link_name").to_numpy(zero_copy_only=False) == "bottleneck")
    src, dst = bottleneck.column("from_node")[0].as_py(), bottleneck.column("to_node")[0].as_py()
    # The classic ns-2 throughput and loss script: bytes received at the far end of a link, drops.
    script = (
        f'$1=="r" && $3=={src} && $4=={dst} && $5=="tcp" {{ bytes += $6 }} '
        '$1=="d" { drops++ } END { print bytes, drops }'
    )
    out = subprocess.run(["awk", script, str(path)], check=True, capture_output=True, text=True).stdout.split()
    received = bottleneck.filter(bottleneck.column("event").to_numpy(zero_copy_only=False) == "receive")
    assert int(out[0]) == int(np.sum(received.column("size_bytes").to_numpy()))
    assert int(out[1]) == int(
        traced_run.links.to_pandas().set_index("name").loc[["bottleneck", "bottleneck_reverse"], "dropped"].sum()
    )


def test_the_first_ack_acknowledges_segment_zero_as_in_ns2(traced_run):
    lines = [line.split() for line in ns2_lines(traced_run.packet_trace)]
    first_ack = next(fields for fields in lines if fields[4] == "ack")
    assert first_ack[10] == "0"


@pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 is not installed")
def test_ns2_itself_writes_lines_of_the_same_form(tmp_path):
    script = tmp_path / "trace.tcl"
    script.write_text(
        f"""set ns [new Simulator]
set f [open {tmp_path / "ns2.tr"} w]
$ns trace-all $f
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
set tcp [new Agent/TCP/Sack1]
$tcp set ecn_ 1
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink/Sack1]
$ns attach-agent $n1 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.0 "$ftp start"
$ns at 0.5 "$ns flush-trace; close $f; exit 0"
$ns run
"""
    )
    subprocess.run(["ns", str(script)], check=True, capture_output=True, cwd=tmp_path)
    lines = (tmp_path / "ns2.tr").read_text().splitlines()
    assert len(lines) > 50
    assert all(NS2_LINE.match(line) for line in lines), next(line for line in lines if not NS2_LINE.match(line))
