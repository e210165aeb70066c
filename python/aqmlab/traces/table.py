"""The per-packet trace as an Arrow table, from the engine's columns.

One row per event, sorted by time (rows of one instant in the order they happened):

* `time_ns`, `time_s`: when;
* `event`: `enqueue` (the packet reaches the link's queue; ns-2's `+`, also for a packet the
  queue then drops), `dequeue` (its transmission starts, `-`), `receive` (its last bit
  reaches the far end, `r`), `drop` (`d`) or `mark` (the queue set CE; no ns-2 line);
* `reason`: of a drop or mark: `overflow` (the buffer was full), `early` (an AQM's early
  decision), `forced` (a forced decision: RED above its maximum threshold, the threshold
  policy, E-RED's forced marks); empty otherwise;
* `link`, `link_name`, `from_node`, `to_node`: where (nodes numbered from the topology: the
  node each link leaves and enters);
* `flow`, `kind` (`data`, `ack`, `datagram`), `src_node`, `dst_node` (the packet's ends);
* `seq`: in segments, as everywhere in aqmlab (data: the segment, from 0; ACK: the next
  segment expected); `tcp_seq` and `tcp_ack`: the same in bytes of payload, from 0;
* `size_bytes` (the packet on the wire, headers included), `payload_bytes`;
* `ecn`: the IP header's ECN field (RFC 3168 Section 5: 0 Not-ECT, 2 ECT(0), 3 CE);
  `ece`, `cwr`: the TCP flags (RFC 3168 Section 6.1); `retransmit`: a retransmitted segment;
* `sack`: the SACK blocks of an ACK (RFC 2018) as byte edges `[left, right, left, right, ...]`;
* `sent_ns`: when the data segment was sent (an ACK: the echoed send time);
* `packet_id`: one number per packet, the same on every link (ns-2's packet id), numbered in
  order of first appearance (duplicate ACKs alike in every field are told apart by their
  order; see `_packet_ids`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa

from aqmlab import _arrow as arrow

EVENTS = ("enqueue", "dequeue", "receive", "drop", "mark")
REASONS = ("", "overflow", "early", "forced")
KINDS = ("data", "ack", "datagram")
#: Engine packet flags (crates/engine/src/packet.rs).
FLAG_ECE, FLAG_CWR, FLAG_RETRANSMIT = 1, 2, 4
#: IPv4 (RFC 791) and UDP (RFC 768) headers of a datagram: its size less these is payload.
UDP_HEADERS_BYTES = 20 + 8


def packet_table(
    raw: dict[str, np.ndarray], links: pa.Table, flows: pa.Table, groups: list[dict[str, Any]]
) -> pa.Table:
    """The table of the engine's `packet_trace` columns; `links` and `flows` are the run's
    tables and `groups` the resolved scenario's engine groups (for segment sizes)."""
    link = np.asarray(raw["link"], dtype=np.uint32)
    flow = np.asarray(raw["flow"], dtype=np.uint32)
    kind = np.asarray(raw["kind"], dtype=np.uint8)
    seq = np.asarray(raw["seq"], dtype=np.uint64)
    size = np.asarray(raw["size_bytes"], dtype=np.uint32)
    flags = np.asarray(raw["flags"], dtype=np.uint8)
    sent = np.asarray(raw["sent_ns"], dtype=np.uint64)
    time_ns = np.asarray(raw["time_ns"], dtype=np.uint64)
    names = np.asarray(links.column("name").to_pylist(), dtype=object)
    from_node = np.asarray(raw["link_from_node"], dtype=np.uint32)
    to_node = np.asarray(raw["link_to_node"], dtype=np.uint32)
    source = np.asarray(raw["flow_source_node"], dtype=np.uint32)[flow]
    sink = np.asarray(raw["flow_sink_node"], dtype=np.uint32)[flow]
    is_ack = kind == KINDS.index("ack")
    segment, header = _segment_sizes(flows, groups)
    mss = segment[flow]
    data_bytes = seq * mss
    payload = np.where(
        kind == KINDS.index("data"),
        size - header[flow],
        np.where(kind == KINDS.index("datagram"), size.astype(np.int64) - UDP_HEADERS_BYTES, 0),
    ).clip(min=0)
    counts = np.asarray(raw["sack_blocks"], dtype=np.int64)
    edges = np.asarray(raw["sack_edges"], dtype=np.uint64) * np.repeat(mss, 2 * counts)
    offsets = np.concatenate([[0], np.cumsum(2 * counts)]).astype(np.int32)
    columns = {
        "time_ns": time_ns,
        "time_s": time_ns / 1e9,
        "event": _labels(raw["event"], EVENTS),
        "reason": _labels(raw["reason"], REASONS),
        "link": link,
        "link_name": _labels(link, list(names)),
        "from_node": from_node[link],
        "to_node": to_node[link],
        "flow": flow,
        "kind": _labels(kind, KINDS),
        "src_node": np.where(is_ack, sink, source),
        "dst_node": np.where(is_ack, source, sink),
        "seq": seq,
        "tcp_seq": np.where(is_ack | (kind == KINDS.index("datagram")), 0, data_bytes).astype(np.uint64),
        "tcp_ack": np.where(is_ack, data_bytes, 0).astype(np.uint64),
        "size_bytes": size,
        "payload_bytes": payload.astype(np.uint32),
        "ecn": np.asarray(raw["ecn"], dtype=np.uint8),
        "ece": flags & FLAG_ECE != 0,
        "cwr": flags & FLAG_CWR != 0,
        "retransmit": flags & FLAG_RETRANSMIT != 0,
        "sent_ns": sent,
        "packet_id": _packet_ids(
            flow,
            kind,
            seq,
            sent,
            flags,
            counts,
            np.asarray(raw["sack_edges"], np.uint64),
            link,
            np.asarray(raw["event"]),
        ),
    }
    labels = {name: columns.pop(name) for name in ("event", "reason", "link_name", "kind")}
    table = arrow.table(columns)
    for position, name in ((2, "event"), (3, "reason"), (5, "link_name"), (9, "kind")):
        table = table.add_column(position, name, labels[name])
    sack = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), pa.array(edges, pa.uint64()))
    return table.append_column("sack", sack)


def _labels(codes: np.ndarray, labels: tuple[str, ...] | list[str]) -> pa.DictionaryArray:
    """Strings dictionary-encoded (an index per row into a few labels): built and written
    without one Python string per row."""
    return pa.DictionaryArray.from_arrays(pa.array(np.asarray(codes, dtype=np.int32)), pa.array(list(labels)))


def _segment_sizes(flows: pa.Table, groups: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    """Per flow: payload bytes of a full segment (sequence numbers in bytes) and header bytes."""
    segment, header = [], []
    for group in groups:
        tcp = group["traffic"].get("tcp")
        headers = tcp["header_bytes"] if tcp else UDP_HEADERS_BYTES
        size = tcp["packet_size_bytes"] if tcp else group["traffic"]["packet_size_bytes"]
        segment.append(size - headers)
        header.append(headers)
    group_of = np.asarray(flows.column("group").to_numpy(), dtype=np.intp)
    return np.asarray(segment, dtype=np.uint64)[group_of], np.asarray(header, dtype=np.uint32)[group_of]


def _packet_ids(
    flow: np.ndarray,
    kind: np.ndarray,
    seq: np.ndarray,
    sent: np.ndarray,
    flags: np.ndarray,
    sack_counts: np.ndarray,
    sack_edges: np.ndarray,
    link: np.ndarray,
    event: np.ndarray,
) -> np.ndarray:
    """A number per packet, numbered in order of first appearance. A packet is known by its
    flow, kind, sequence number, send time (an ACK: the echoed one), TCP flags and SACK
    blocks; duplicate ACKs can share all of these (they echo the same timestamp, RFC 7323
    Section 4.3), so packets alike are told apart by their order on each link and event
    (queues and links are FIFO): the k-th of them enqueued on a link is the k-th dequeued and
    received there, and the k-th on the next link, unless one of them was dropped between."""
    if len(flow) == 0:
        return np.zeros(0, dtype=np.uint64)
    # The SACK blocks of each row as one number (a weighted sum of its edges, mod 2**64).
    # Each edge weighted by its position in its row's option.
    row_of_edge = np.repeat(np.arange(len(flow)), 2 * sack_counts)
    row_start = np.concatenate([[0], np.cumsum(2 * sack_counts)[:-1]]).astype(np.int64)
    position = np.arange(len(sack_edges), dtype=np.int64) - row_start[row_of_edge]
    weights = (position + 1).astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    sack = np.zeros(len(flow), dtype=np.uint64)
    np.add.at(sack, row_of_edge, sack_edges * weights)
    flags = flags & (FLAG_ECE | FLAG_CWR | FLAG_RETRANSMIT)
    alike, _ = _groups(flow, kind, seq, sent, flags, sack)
    # The order of each row among the rows alike on its link and event.
    group, first = _groups(alike, link, event)
    occurrence = np.arange(len(flow)) - first[group]
    packet, first = _groups(alike, occurrence)
    # Groups come numbered in sorted key order; renumber them by first appearance.
    rank = np.empty(len(first), dtype=np.uint64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first), dtype=np.uint64)
    return rank[packet]


def _groups(*keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows equal in every key form a group: each row's group number (groups numbered in
    sorted key order) and each group's first row."""
    order = np.lexsort(keys[::-1])  # stable: rows of a group keep their order
    changed = np.zeros(len(order), dtype=bool)
    changed[0] = True
    for key in keys:
        sorted_key = key[order]
        changed[1:] |= sorted_key[1:] != sorted_key[:-1]
    group = np.empty(len(order), dtype=np.int64)
    group[order] = np.cumsum(changed) - 1
    return group, order[changed]
