"""ns-2's trace format (`$ns trace-all`), so awk scripts written for ns-2 read aqmlab's
per-packet traces unchanged.

One line per enqueue (`+`), dequeue (`-`), receive (`r`) and drop (`d`); aqmlab's `mark` rows
have no ns-2 line (the mark shows in the flags of the packet's later lines, as in ns-2). The
twelve fields of ns-2's `Trace::format` (ns-2.35 `trace/trace.cc`), space-separated:

     1 event      `+ - r d`
     2 time       seconds, rounded to the microsecond and printed with `%.15g` (as ns-2.35)
     3 from node  the node the link leaves
     4 to node    the node the link enters
     5 type       `tcp` (data), `ack`, `cbr` (a UDP datagram)
     6 size       bytes on the wire, headers included (ns-2's common header size)
     7 flags      7 characters, `-` where unset: [0] `C` ECN-Echo (ECE), [1] `P` priority
                  (never), [2] `-`, [3] `A` congestion action (CWR), [4] `E` congestion
                  experienced (CE), [5] `F` fast start (never), [6] `N` ECN-capable transport
     8 fid        the flow id
     9 src        `node.port` of the sender (ports are 0: one agent per node and flow)
    10 dst        `node.port` of the receiver
    11 seq        data: the segment number (from 0); ACK: the highest segment received in
                  order (ns-2's TCP sink acknowledges that, not the next one expected)
    12 packet id  the same on every link (`packet_id`)
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa

from aqmlab._fsio import write_atomic

EVENT_CHARS = {"enqueue": "+", "dequeue": "-", "receive": "r", "drop": "d"}
TYPE_NAMES = {"data": "tcp", "ack": "ack", "datagram": "cbr"}
#: The ECN field of the IP header (RFC 3168 Section 5).
ECN_CE = 0b11


def ns2_rows(table: pa.Table) -> pa.Table:
    """The rows that have an ns-2 line (every event but `mark`), in order."""
    event = table.column("event").to_numpy(zero_copy_only=False)
    return table.filter(pa.array(event != "mark"))


def ns2_time(time_ns: int) -> str:
    """ns-2.35 rounds event times to the microsecond and prints them with `%.15g`."""
    return f"{((time_ns + 500) // 1000) / 1e6:.15g}"


def ns2_lines(table: pa.Table) -> Iterator[str]:
    """The ns-2 trace lines of a packet-trace table (`aqmlab.traces.table`), without newlines."""
    rows = ns2_rows(table)
    columns = {name: rows.column(name).to_numpy(zero_copy_only=False) for name in _COLUMNS}
    seq = columns["seq"].astype(np.int64)
    is_ack = columns["kind"] == "ack"
    # ns-2's TCP sink acknowledges the highest in-order segment; aqmlab's ACK carries the next.
    seq = np.where(is_ack, seq - 1, seq)
    for i in range(rows.num_rows):
        ecn = int(columns["ecn"][i])
        flags = "".join(
            (
                "C" if columns["ece"][i] else "-",
                "-",
                "-",
                "A" if columns["cwr"][i] else "-",
                "E" if ecn == ECN_CE else "-",
                "-",
                "N" if ecn != 0 else "-",
            )
        )
        yield (
            f"{EVENT_CHARS[columns['event'][i]]} {ns2_time(int(columns['time_ns'][i]))} "
            f"{columns['from_node'][i]} {columns['to_node'][i]} {TYPE_NAMES[columns['kind'][i]]} "
            f"{columns['size_bytes'][i]} {flags} {columns['flow'][i]} "
            f"{columns['src_node'][i]}.0 {columns['dst_node'][i]}.0 {seq[i]} {columns['packet_id'][i]}"
        )


_COLUMNS = (
    "event",
    "time_ns",
    "from_node",
    "to_node",
    "kind",
    "size_bytes",
    "ece",
    "cwr",
    "ecn",
    "flow",
    "src_node",
    "dst_node",
    "seq",
    "packet_id",
)


def write_ns2(table: pa.Table, path: str | Path) -> Path:
    """The ns-2 trace of `table` into `path` (replaced atomically)."""
    return write_atomic(path, "".join(line + "\n" for line in ns2_lines(table)))
