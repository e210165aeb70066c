"""pcap export of a per-packet trace: what a capture on the chosen links would hold, with
IPv4 and TCP (or UDP) headers synthesized from each row, for Wireshark's and tcptrace's TCP
analysis (sequence graphs, retransmissions, RTT).

The capture point is an event: `dequeue` (default: the packet as it goes onto the wire,
after the queue), `enqueue` (as it reaches the queue, dropped packets included) or
`receive` (at the far end). Headers only are captured (like `tcpdump -s 96`): each record
holds the IPv4 and TCP/UDP headers and gives the packet's full length, so payload bytes
count without being stored.

Synthesized headers:
* addresses: node n of the topology is 10.0.0.0 + n + 1 (RFC 1918 private space);
* ports: the sender of flow f uses 1024 + f mod 64512, the receiver 5001;
* sequence numbers in bytes as after a handshake with initial sequence numbers 0 (RFC 9293
  Section 3.4: data starts at 1, the receiver's ACK numbers are 1 + the bytes received in
  order), modulo 2**32;
* ECN: the IP header's ECN field as traced (RFC 3168 Section 5), ECE and CWR in the TCP
  flags (RFC 3168 Section 6.1);
* SACK blocks in a SACK option after two NOPs (RFC 2018 Section 3), so an ACK carrying n
  blocks is 4 + 8n bytes longer than a bare one (aqmlab counts 2 + 8n: the two NOPs are
  padding to a 32-bit boundary).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pyarrow as pa

from aqmlab._fsio import write_atomic
from aqmlab.errors import ResultsError

# pcap file format (draft-ietf-opsawg-pcap Section 4): the magic number of a file with
# nanosecond timestamps, version 2.4, and LINKTYPE_RAW (101: each packet starts with its
# IPv4 header; Section 4, LinkType).
PCAP_MAGIC_NANOSECONDS = 0xA1B23C4D
PCAP_VERSION = (2, 4)
PCAP_SNAPLEN = 65535
LINKTYPE_RAW = 101

IP_PROTOCOL_TCP = 6
IP_PROTOCOL_UDP = 17
RECEIVER_PORT = 5001
FIRST_SENDER_PORT = 1024
# TCP flags, byte 13 of the header: CWR and ECE (RFC 3168 Section 6.1), ACK (RFC 9293 Section 3.1).
TCP_CWR, TCP_ECE, TCP_ACK = 0x80, 0x40, 0x10
CAPTURE_POINTS = ("dequeue", "enqueue", "receive")


def node_address(node: int) -> int:
    """The IPv4 address of a node: 10.0.0.0 + node + 1."""
    return (10 << 24) + node + 1


def sender_port(flow: int) -> int:
    return FIRST_SENDER_PORT + flow % (65536 - FIRST_SENDER_PORT)


def checksum(data: bytes) -> int:
    """The Internet checksum: one's complement of the one's complement sum of 16-bit words
    (RFC 1071; used by IPv4, RFC 791 Section 3.1, and TCP/UDP)."""
    if len(data) % 2:
        data += b"\0"
    total = int(np.frombuffer(data, dtype=">u2").sum(dtype=np.uint64))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def ipv4_header(total_length: int, ident: int, protocol: int, ecn: int, src: int, dst: int) -> bytes:
    """RFC 791 Section 3.1: version 4, 20 bytes, the TOS octet's low two bits the ECN field
    (RFC 3168 Section 5), don't-fragment, TTL 64, then the header checksum."""
    header = struct.pack(
        ">BBHHHBBHII", 0x45, ecn & 0b11, total_length, ident & 0xFFFF, 0x4000, 64, protocol, 0, src, dst
    )
    return header[:10] + struct.pack(">H", checksum(header)) + header[12:]


def transport_checksum(src: int, dst: int, protocol: int, segment: bytes, length: int) -> int:
    """TCP/UDP checksum over the pseudo-header (RFC 9293 Section 3.1, RFC 768) and the
    segment; `length` counts the payload too, which is zeros here and adds nothing."""
    pseudo = struct.pack(">IIBBH", src, dst, 0, protocol, length)
    return checksum(pseudo + segment)


def tcp_header(
    src_port: int, dst_port: int, seq: int, ack: int, flags: int, sack: list[int], src: int, dst: int, payload: int
) -> bytes:
    """RFC 9293 Section 3.1 header, with a SACK option (RFC 2018 Section 3: kind 5, length
    2 + 8n, left and right edges) after two NOP options (kind 1) when there are blocks."""
    options = b""
    if sack:
        options = struct.pack(">BBBB", 1, 1, 5, 2 + 4 * len(sack)) + struct.pack(f">{len(sack)}I", *sack)
    length = 20 + len(options)
    header = struct.pack(
        ">HHIIBBHHH", src_port, dst_port, seq % 2**32, ack % 2**32, (length // 4) << 4, flags, 65535, 0, 0
    )
    segment = header + options
    check = transport_checksum(src, dst, IP_PROTOCOL_TCP, segment, length + payload)
    return segment[:16] + struct.pack(">H", check) + segment[18:]


def udp_header(src_port: int, dst_port: int, src: int, dst: int, payload: int) -> bytes:
    """RFC 768: ports, length, checksum."""
    header = struct.pack(">HHHH", src_port, dst_port, 8 + payload, 0)
    check = transport_checksum(src, dst, IP_PROTOCOL_UDP, header, 8 + payload) or 0xFFFF
    return header[:6] + struct.pack(">H", check)


def packet_headers(row: dict) -> tuple[bytes, int]:
    """The IPv4 + TCP/UDP headers of one trace row and the packet's full IP length."""
    flow, kind = int(row["flow"]), row["kind"]
    src, dst = node_address(int(row["src_node"])), node_address(int(row["dst_node"]))
    payload = int(row["payload_bytes"])
    if kind == "datagram":
        transport = udp_header(sender_port(flow), RECEIVER_PORT, src, dst, payload)
        protocol = IP_PROTOCOL_UDP
    else:
        flags = TCP_ACK | (TCP_ECE if row["ece"] else 0) | (TCP_CWR if row["cwr"] else 0)
        if kind == "data":
            ports, seq, ack, sack = (sender_port(flow), RECEIVER_PORT), 1 + int(row["tcp_seq"]), 1, []
        else:
            ports, seq, ack = (RECEIVER_PORT, sender_port(flow)), 1, 1 + int(row["tcp_ack"])
            sack = [(1 + int(edge)) % 2**32 for edge in row["sack"]]
        transport = tcp_header(*ports, seq, ack, flags, sack, src, dst, payload)
        protocol = IP_PROTOCOL_TCP
    total = 20 + len(transport) + payload
    ip = ipv4_header(total, int(row["packet_id"]), protocol, int(row["ecn"]), src, dst)
    return ip + transport, total


def capture_rows(table: pa.Table, at: str = "dequeue", links: Iterable[str] | None = None) -> pa.Table:
    """The rows a capture at event `at` on `links` (names; default every traced link) holds."""
    if at not in CAPTURE_POINTS:
        raise ResultsError(f"capture point {at!r} is not one of {', '.join(CAPTURE_POINTS)}")
    names = table.column("link_name").to_numpy(zero_copy_only=False)
    keep = table.column("event").to_numpy(zero_copy_only=False) == at
    if links is not None:
        links = list(links)
        known = sorted(set(names))
        unknown = [name for name in links if name not in known]
        if unknown:
            raise ResultsError(f"link {unknown[0]!r} is not in the packet trace; its links are {', '.join(known)}")
        keep &= np.isin(names, links)
    return table.filter(pa.array(keep))


def pcap_bytes(table: pa.Table, at: str = "dequeue", links: Iterable[str] | None = None) -> bytes:
    """The pcap file of a capture at event `at` on `links` (see `capture_rows`)."""
    rows = capture_rows(table, at, links)
    major, minor = PCAP_VERSION
    parts = [struct.pack("<IHHiIII", PCAP_MAGIC_NANOSECONDS, major, minor, 0, 0, PCAP_SNAPLEN, LINKTYPE_RAW)]
    for row in rows.to_pylist():
        headers, total = packet_headers(row)
        seconds, nanoseconds = divmod(int(row["time_ns"]), 10**9)
        # Record header: timestamp (seconds, nanoseconds), captured length, original length.
        parts.append(struct.pack("<IIII", seconds, nanoseconds, len(headers), total))
        parts.append(headers)
    return b"".join(parts)


def write_pcap(table: pa.Table, path: str | Path, *, at: str = "dequeue", links: Iterable[str] | None = None) -> Path:
    """A pcap capture of the packet trace at event `at` on `links` into `path`."""
    return write_atomic(path, pcap_bytes(table, at, links))
