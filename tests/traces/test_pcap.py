"""Issue 31 acceptance: a pcap written by aqmlab, read back by a pcap library (scapy) and by
tshark where installed, agrees with aqmlab's own counters: per-flow bytes, retransmissions
and drops."""

from __future__ import annotations

import shutil
import subprocess
from collections import Counter, defaultdict

import numpy as np
import pytest
import scapy.all as scapy_all
from aqmlab.errors import ResultsError
from aqmlab.traces.pcap import RECEIVER_PORT, sender_port, write_pcap

LINKS = ["bottleneck", "bottleneck_reverse"]


def read(path):
    return scapy_all.rdpcap(str(path))


def data_segments(packets) -> dict[int, list[tuple[int, int]]]:
    """Per sender port: (sequence number, payload length) of every data segment."""
    segments = defaultdict(list)
    for packet in packets:
        tcp = packet[scapy_all.TCP]
        length = packet[scapy_all.IP].len - 4 * packet[scapy_all.IP].ihl - 4 * tcp.dataofs
        if tcp.dport == RECEIVER_PORT and length > 0:
            segments[tcp.sport].append((tcp.seq, length))
    return segments


def rows(run, **equal):
    table = run.packet_trace
    keep = np.ones(table.num_rows, dtype=bool)
    for column, value in equal.items():
        keep &= table.column(column).to_numpy(zero_copy_only=False) == value
    return table.filter(keep)


@pytest.fixture(scope="module")
def captures(traced_run, tmp_path_factory):
    directory = tmp_path_factory.mktemp("pcap")
    paths = {at: directory / f"{at}.pcap" for at in ("enqueue", "dequeue")}
    for at, path in paths.items():
        write_pcap(traced_run.packet_trace, path, at=at, links=LINKS)
    return paths


def test_the_run_completes_its_transfers_and_drops_and_marks(traced_run):
    flows = traced_run.flows.to_pandas()
    assert flows["end_s"].notna().all(), "every transfer completes: nothing queued or in flight at the end"
    links = traced_run.links.to_pandas().set_index("name")
    assert links.loc["bottleneck", "dropped"] > 10 and links.loc["bottleneck", "marked"] > 0
    assert (links.loc["access", "dropped"] == 0).all(), "every segment sent reaches the bottleneck"


def test_bytes_per_flow_after_the_queue_are_those_delivered(traced_run, captures):
    segments = data_segments(read(captures["dequeue"]))
    flows = traced_run.flows.to_pandas()
    for flow, delivered in zip(flows["flow"], flows["bytes_delivered"], strict=True):
        covered = set()
        for seq, length in segments[sender_port(flow)]:
            covered.update(range(seq, seq + length))
        assert len(covered) == delivered
        assert min(covered) == 1, "data starts at sequence number 1 (after an implied handshake)"


def test_retransmissions_per_flow_are_the_senders(traced_run, captures):
    # Every segment sent reaches the bottleneck's queue (no access drops): the capture there
    # holds each segment once plus every retransmission.
    segments = data_segments(read(captures["enqueue"]))
    flows = traced_run.flows.to_pandas()
    for flow, retransmits, sent in zip(flows["flow"], flows["retransmits"], flows["segments_sent"], strict=True):
        seqs = [seq for seq, _ in segments[sender_port(flow)]]
        assert len(seqs) == sent
        assert len(seqs) - len(set(seqs)) == retransmits
    assert flows["retransmits"].sum() > 0


def test_drops_are_what_reaches_the_queue_and_does_not_leave_it(traced_run, captures):
    before, after = read(captures["enqueue"]), read(captures["dequeue"])
    links = traced_run.links.to_pandas().set_index("name")
    assert len(before) - len(after) == links.loc[LINKS, "dropped"].sum()
    ports_in = Counter(p[scapy_all.TCP].sport for p in before if p[scapy_all.TCP].dport == RECEIVER_PORT)
    ports_out = Counter(p[scapy_all.TCP].sport for p in after if p[scapy_all.TCP].dport == RECEIVER_PORT)
    drops = rows(traced_run, event="drop", link_name="bottleneck")
    by_flow = Counter(drops.column("flow").to_pylist())
    for flow in traced_run.flows.column("flow").to_pylist():
        assert ports_in[sender_port(flow)] - ports_out[sender_port(flow)] == by_flow[flow]


def test_ecn_bits_and_sack_blocks_are_in_the_headers(traced_run, captures):
    after = read(captures["dequeue"])
    ce = sum(1 for p in after if p[scapy_all.IP].tos & 0b11 == 0b11)
    assert ce == traced_run.links.to_pandas().set_index("name").loc["bottleneck", "marked"]
    ect = sum(1 for p in after if p[scapy_all.IP].tos & 0b11 == 0b10)
    assert ect > 0
    acks = [p for p in after if p[scapy_all.TCP].sport == RECEIVER_PORT]
    ece = sum(1 for p in acks if p[scapy_all.TCP].flags & 0x40)
    assert ece == sum(rows(traced_run, event="dequeue", link_name="bottleneck_reverse").column("ece").to_pylist())
    assert ece > 0
    with_sack = [p for p in acks if any(option[0] == "SAck" for option in p[scapy_all.TCP].options)]
    traced = rows(traced_run, event="dequeue", link_name="bottleneck_reverse")
    assert len(with_sack) == sum(1 for blocks in traced.column("sack").to_pylist() if blocks) > 0


def test_the_checksums_of_fully_captured_packets_are_right(captures):
    acks = [p for p in read(captures["dequeue"]) if p[scapy_all.TCP].sport == RECEIVER_PORT]
    assert acks
    for packet in acks[:200]:
        ip = packet[scapy_all.IP]
        rebuilt = scapy_all.IP(bytes(ip))
        del rebuilt.chksum
        del rebuilt[scapy_all.TCP].chksum
        again = scapy_all.IP(bytes(rebuilt))
        assert (again.chksum, again[scapy_all.TCP].chksum) == (ip.chksum, ip[scapy_all.TCP].chksum)


def test_an_unknown_link_or_capture_point_is_refused(traced_run, tmp_path):
    with pytest.raises(ResultsError, match="'core' is not in the packet trace; its links are bottleneck"):
        write_pcap(traced_run.packet_trace, tmp_path / "x.pcap", links=["core"])
    with pytest.raises(ResultsError, match="capture point 'drop'"):
        write_pcap(traced_run.packet_trace, tmp_path / "x.pcap", at="drop")


@pytest.mark.skipif(shutil.which("tshark") is None, reason="tshark is not installed")
def test_tshark_reads_the_capture(traced_run, captures):
    def tshark(*args: str) -> list[str]:
        command = ["tshark", "-r", str(captures["dequeue"]), "-o", "tcp.check_checksum:TRUE", *args]
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        return out.splitlines()

    payload = defaultdict(int)
    for line in tshark("-Y", "tcp.len > 0", "-T", "fields", "-e", "tcp.srcport", "-e", "tcp.len"):
        port, length = line.split("\t")
        payload[int(port)] += int(length)
    departed = rows(traced_run, event="dequeue", link_name="bottleneck", kind="data")
    expected = defaultdict(int)
    flows, lengths = departed.column("flow").to_pylist(), departed.column("payload_bytes").to_pylist()
    for flow, length in zip(flows, lengths, strict=True):
        expected[sender_port(flow)] += length
    assert payload == expected
    assert tshark("-Y", "tcp.checksum.status == 0 || ip.checksum.status == 0") == []
    acks = rows(traced_run, event="dequeue", link_name="bottleneck_reverse")
    assert len(tshark("-Y", "tcp.checksum.status == 1")) == acks.num_rows
    assert len(tshark("-Y", "tcp.options.sack_le")) == sum(1 for b in acks.column("sack").to_pylist() if b)


@pytest.mark.skipif(shutil.which("tcptrace") is None, reason="tcptrace is not installed")
def test_tcptrace_counts_the_retransmissions_and_the_bytes(traced_run, captures):
    def per_connection(path, field: str) -> list[int]:
        out = subprocess.run(["tcptrace", "-l", str(path)], check=True, capture_output=True, text=True).stdout
        # "     rexmt data pkts:   12     rexmt data pkts:   0": the first column is the data direction.
        return [int(line.split(":")[1].split()[0]) for line in out.splitlines() if line.strip().startswith(field)]

    flows = traced_run.flows.to_pandas().sort_values("flow")
    # The connections are listed in order of their first packet: the flows' order of start.
    order = traced_run.packet_trace.column("flow").to_pylist()
    started = list(dict.fromkeys(order))
    retransmits = per_connection(captures["enqueue"], "rexmt data pkts")
    assert retransmits == [int(flows["retransmits"][flow]) for flow in started]
    # Every packet (ACKs alike in every field included) has its own IP identification.
    out = subprocess.run(["tcptrace", "-l", str(captures["dequeue"])], check=True, capture_output=True, text=True)
    # (tcptrace reports "hardware dups: N segs" only where N > 0.)
    assert "hardware dups" not in out.stdout and "unique bytes sent" in out.stdout
    unique = per_connection(captures["dequeue"], "unique bytes sent")
    assert unique == [int(flows["bytes_delivered"][flow]) for flow in started]


def test_a_packet_id_is_one_packet_on_each_link(traced_run):
    table = traced_run.packet_trace
    ids, links, events = (table.column(name).to_pylist() for name in ("packet_id", "link", "event"))
    enqueued = Counter(
        (packet, link) for packet, link, event in zip(ids, links, events, strict=True) if event == "enqueue"
    )
    assert max(enqueued.values()) == 1
    received = Counter(
        (packet, link) for packet, link, event in zip(ids, links, events, strict=True) if event == "receive"
    )
    assert set(received) <= set(enqueued) and max(received.values()) == 1
