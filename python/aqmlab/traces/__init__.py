"""Per-packet traces (issue 31; docs/results.md, "Per-packet traces").

A scenario with `trace.packets = { links = [...], flows = [...], groups = [...] }` records
every enqueue, dequeue, receive, drop (with its reason) and ECN mark of the chosen links and
flows. `Results.packet_trace` holds them as an Arrow table (`table.packet_table`), written to
`packet_trace.parquet` in the run directory; from it,

* `ns2.write_ns2`: ns-2's trace format (`+ - r d` lines, the fields of ns-2's `trace.cc`), so
  existing awk scripts run unchanged;
* `pcap.write_pcap`: a pcap capture with synthesized IPv4/TCP (or UDP) headers, for
  Wireshark's and tcptrace's TCP analysis.

`aqmlab trace RUN_DIR --format ns2|pcap|parquet` writes them from a run directory.
"""

from aqmlab.traces.ns2 import ns2_lines, write_ns2
from aqmlab.traces.pcap import write_pcap
from aqmlab.traces.table import EVENTS, packet_table

__all__ = ["EVENTS", "ns2_lines", "packet_table", "write_ns2", "write_pcap"]
