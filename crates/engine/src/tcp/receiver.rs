//! TCP receiver: cumulative ACKs, out-of-order buffering, delayed ACKs (RFC 1122
//! Section 4.2.3.2, RFC 5681 Section 4.2), the ECN echo (RFC 3168 Section 6.1.3) and,
//! optionally, SACK blocks (RFC 2018 Section 4).

use std::collections::VecDeque;

use super::sack::{SackBlock, SackBlocks, SackStore};
use super::{EcnEcho, RttSampling, TcpConfig};
use crate::packet::{Ecn, FlowId, Packet, PacketKind, RouteId, FLAG_CWR, FLAG_ECE};
use crate::time::Time;

pub struct TcpReceiver {
    flow: FlowId,
    route: RouteId,
    ack_bytes: u32,
    payload_bytes: u64,
    total_bytes: Option<u64>,
    delayed_ack: bool,
    delayed_ack_timeout: Time,
    /// Next segment expected in order.
    rcv_nxt: u64,
    /// `received[i]`: segment `rcv_nxt + i` has arrived (out of order).
    received: VecDeque<bool>,
    /// RFC 3168 Section 6.1.3: set ECE on every ACK until a CWR arrives.
    echo_congestion: bool,
    /// Echo each CE mark on one ACK only (`EcnEcho::PerPacket`).
    per_packet_echo: bool,
    /// In-order segments not yet acknowledged (delayed ACKs).
    unacked: u32,
    /// Timestamp to echo in the next ACK (RFC 7323 TS.Recent).
    echo_timestamp: Time,
    /// `rtt_sampling = every_ack`: TS.Recent as ns-2's sink keeps it (`Acker::update_ts`).
    echo_ts_recent: bool,
    /// Delayed-ACK deadline, if an ACK is being held.
    pub ack_deadline: Option<Time>,
    /// Time of the pending delayed-ACK timer event, if one is scheduled.
    pub timer_pending: Option<Time>,
    pub segments_received: u64,
    /// Report SACK blocks (RFC 2018).
    sack: bool,
    /// The blocks of the next ACK, most recent first (RFC 2018 Section 4); every one is a
    /// maximal run of out-of-order segments above `rcv_nxt`.
    sack_recent: SackBlocks,
    /// The SACK options of the ACKs on their way to the sender (`Packet::sack` handles).
    pub sack_store: SackStore,
}

impl TcpReceiver {
    pub fn new(flow: FlowId, route: RouteId, config: &TcpConfig, total_bytes: Option<u64>) -> Self {
        TcpReceiver {
            flow,
            route,
            ack_bytes: config.header_bytes,
            payload_bytes: (config.packet_size_bytes - config.header_bytes) as u64,
            total_bytes,
            delayed_ack: config.delayed_ack,
            delayed_ack_timeout: config.delayed_ack_timeout_ns,
            rcv_nxt: 0,
            received: VecDeque::new(),
            echo_congestion: false,
            per_packet_echo: config.ecn_echo == EcnEcho::PerPacket,
            unacked: 0,
            echo_timestamp: 0,
            echo_ts_recent: config.rtt_sampling == RttSampling::EveryAck,
            ack_deadline: None,
            timer_pending: None,
            segments_received: 0,
            sack: config.recovery.uses_sack(),
            sack_recent: SackBlocks::default(),
            sack_store: SackStore::default(),
        }
    }

    /// Payload bytes delivered in order to the application.
    pub fn bytes_delivered(&self) -> u64 {
        let bytes = self.rcv_nxt * self.payload_bytes;
        match self.total_bytes {
            Some(total) => bytes.min(total),
            None => bytes,
        }
    }

    pub fn next_expected(&self) -> u64 {
        self.rcv_nxt
    }

    /// The SACK blocks the next ACK will carry, most recent first.
    pub fn sack_blocks(&self) -> &[SackBlock] {
        self.sack_recent.as_slice()
    }

    fn make_ack(&mut self) -> Packet {
        self.unacked = 0;
        self.ack_deadline = None;
        let ece = self.echo_congestion;
        if self.per_packet_echo {
            // Per-packet echo: this ACK reports the marks since the previous ACK, once.
            self.echo_congestion = false;
        }
        let (sack, option_bytes) = if self.sack && !self.sack_recent.is_empty() {
            (self.sack_store.push(self.sack_recent), self.sack_recent.option_bytes())
        } else {
            (0, 0)
        };
        Packet {
            flow: self.flow,
            kind: PacketKind::Ack,
            // RFC 3168 Section 6.1.4: pure ACKs are sent not-ECT.
            ecn: Ecn::NotEct,
            flags: if ece { FLAG_ECE } else { 0 },
            hop: 0,
            route: self.route,
            size_bytes: self.ack_bytes + option_bytes,
            seq: self.rcv_nxt,
            timestamp: self.echo_timestamp,
            enqueued_at: 0,
            sack,
        }
    }

    /// A data segment arrived; any ACK to send is pushed to `out`.
    pub fn on_data(&mut self, packet: &Packet, now: Time, out: &mut Vec<Packet>) {
        self.segments_received += 1;
        // RFC 3168 Section 6.1.3: CWR ends the echo; CE (re)starts it. (Per-packet echo
        // clears it on each ACK instead.)
        if packet.has_flag(FLAG_CWR) && !self.per_packet_echo {
            self.echo_congestion = false;
        }
        let congestion = packet.ecn == Ecn::Ce;
        if congestion {
            self.echo_congestion = true;
        }
        let in_order = packet.seq == self.rcv_nxt;
        let had_gap = !self.received.is_empty();
        if self.echo_ts_recent && packet.seq <= self.rcv_nxt && packet.timestamp >= self.echo_timestamp {
            // tcp-sink.cc `Acker::update_ts` (lines 93-95, `ts_echo_rfc1323_ false`): the
            // segment expected next or a duplicate below it updates TS.Recent; one above a hole
            // does not (RFC 7323 Section 4.3: SEG.SEQ <= Last.ACK.sent).
            self.echo_timestamp = packet.timestamp;
        }
        if in_order && !had_gap {
            // The next segment expected, nothing above it held: the edge moves by one. What the
            // general case below does (mark it received, then take it off the front), without
            // writing to the out-of-order buffer, a heap allocation of its own: a cache miss on
            // every data packet with many flows (benchmarks/scale/README.md, issue 28, stop 6).
            self.rcv_nxt += 1;
        } else if packet.seq >= self.rcv_nxt {
            let index = (packet.seq - self.rcv_nxt) as usize;
            if index >= self.received.len() {
                self.received.resize(index + 1, false);
            }
            self.received[index] = true;
            while self.received.front() == Some(&true) {
                self.received.pop_front();
                self.rcv_nxt += 1;
            }
        }
        if self.sack {
            self.update_sack_blocks(packet.seq);
        }
        if self.echo_ts_recent {
            // TS.Recent, set above.
        } else if in_order && (self.unacked == 0 || !self.delayed_ack) {
            // RFC 7323 Section 4.3: echo the timestamp of the segment that advanced the edge
            // (the earliest one held by a delayed ACK).
            self.echo_timestamp = packet.timestamp;
        } else if !in_order {
            self.echo_timestamp = packet.timestamp;
        }
        // RFC 5681 Section 4.2: ACK at once for out-of-order segments and for segments that
        // fill a gap; RFC 1122: otherwise at least every second full segment.
        let immediate = !self.delayed_ack || !in_order || had_gap || congestion;
        if immediate {
            out.push(self.make_ack());
            return;
        }
        self.unacked += 1;
        if self.unacked >= 2 {
            out.push(self.make_ack());
        } else if self.ack_deadline.is_none() {
            self.ack_deadline = Some(now + self.delayed_ack_timeout);
        }
    }

    /// RFC 2018 Section 4: the first block holds the segment that triggered the ACK (unless
    /// it advanced the cumulative ACK); the others repeat the most recently reported blocks
    /// that are not subsets of a block already included. Blocks the cumulative ACK now
    /// covers are dropped.
    fn update_sack_blocks(&mut self, seq: u64) {
        let rcv_nxt = self.rcv_nxt;
        let mut blocks = SackBlocks::default();
        let first = (seq > rcv_nxt).then(|| self.block_containing(seq));
        if let Some(first) = first {
            blocks.push(first);
        }
        for &block in self.sack_recent.as_slice() {
            if block.end > rcv_nxt && !first.is_some_and(|f| f.contains_block(&block)) {
                blocks.push(block);
            }
        }
        self.sack_recent = blocks;
    }

    /// The maximal run of received segments around `seq` (> rcv_nxt, received). Every
    /// block in `sack_recent` is such a run, so an edge it shares is not scanned again.
    fn block_containing(&self, seq: u64) -> SackBlock {
        let recent = self.sack_recent.as_slice();
        let start = match recent.iter().find(|b| b.end == seq) {
            Some(b) => b.start,
            None => {
                let mut i = (seq - self.rcv_nxt) as usize;
                while i > 0 && self.received[i - 1] {
                    i -= 1;
                }
                self.rcv_nxt + i as u64
            }
        };
        let end = match recent.iter().find(|b| b.start == seq + 1) {
            Some(b) => b.end,
            None => {
                let mut i = (seq - self.rcv_nxt) as usize + 1;
                while i < self.received.len() && self.received[i] {
                    i += 1;
                }
                self.rcv_nxt + i as u64
            }
        };
        SackBlock::new(start, end)
    }

    /// The delayed-ACK timer fired at `now`.
    pub fn on_timer(&mut self, now: Time, out: &mut Vec<Packet>) {
        if let Some(deadline) = self.ack_deadline {
            if deadline <= now && self.unacked > 0 {
                out.push(self.make_ack());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segment(seq: u64) -> Packet {
        Packet {
            flow: 0,
            kind: PacketKind::Data,
            ecn: Ecn::Ect,
            flags: 0,
            hop: 0,
            route: 0,
            size_bytes: 1500,
            seq,
            timestamp: seq * 10,
            enqueued_at: 0,
            sack: 0,
        }
    }

    #[test]
    fn cumulative_acks_and_gap_filling() {
        let mut rx = TcpReceiver::new(0, 1, &TcpConfig::default(), None);
        let mut out = Vec::new();
        for seq in [0, 1, 3, 4, 2] {
            rx.on_data(&segment(seq), 0, &mut out);
        }
        let acks: Vec<u64> = out.iter().map(|p| p.seq).collect();
        assert_eq!(acks, vec![1, 2, 2, 2, 5]);
        assert_eq!(rx.bytes_delivered(), 5 * 1460);
    }

    /// `rtt_sampling = every_ack`: the ACKs echo TS.Recent as ns-2's sink (tcp-sink.cc
    /// `Acker::update_ts`, `ts_echo_bugfix_ true`): segments 3 and 4, above the hole at 2, do
    /// not change it, so their duplicate ACKs echo segment 1's timestamp (10); the retransmission
    /// of 2 (sent at 100) fills the hole and is echoed. By default each ACK echoes the segment
    /// that triggered it.
    #[test]
    fn every_ack_sampling_echoes_ts_recent_unchanged_by_out_of_order_segments() {
        use crate::tcp::RttSampling;
        for (rtt_sampling, echoed) in
            [(RttSampling::NewData, vec![0, 10, 30, 40, 100]), (RttSampling::EveryAck, vec![0, 10, 10, 10, 100])]
        {
            let mut rx = TcpReceiver::new(0, 1, &TcpConfig { rtt_sampling, ..TcpConfig::default() }, None);
            let mut out = Vec::new();
            for seq in [0, 1, 3, 4] {
                rx.on_data(&segment(seq), 0, &mut out);
            }
            rx.on_data(&Packet { timestamp: 100, ..segment(2) }, 0, &mut out);
            let acks: Vec<(u64, Time)> = out.iter().map(|p| (p.seq, p.timestamp)).collect();
            let expected: Vec<(u64, Time)> = [1, 2, 2, 2, 5].into_iter().zip(echoed).collect();
            assert_eq!(acks, expected, "{rtt_sampling:?}");
        }
    }

    #[test]
    fn delayed_acks_every_second_segment_and_on_timer() {
        let config = TcpConfig { delayed_ack: true, ..TcpConfig::default() };
        let mut rx = TcpReceiver::new(0, 1, &config, None);
        let mut out = Vec::new();
        rx.on_data(&segment(0), 0, &mut out);
        assert!(out.is_empty());
        assert_eq!(rx.ack_deadline, Some(100_000_000));
        rx.on_data(&segment(1), 5, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].seq, 2);
        assert_eq!(out[0].timestamp, 0, "echoes the earliest held segment");
        rx.on_data(&segment(2), 10, &mut out);
        rx.on_timer(100_000_010, &mut out);
        assert_eq!(out.len(), 2);
        assert_eq!(out[1].seq, 3);
    }

    #[test]
    fn ecn_echo_until_cwr() {
        let mut rx = TcpReceiver::new(0, 1, &TcpConfig::default(), None);
        let mut out = Vec::new();
        let mut ce = segment(0);
        ce.ecn = Ecn::Ce;
        rx.on_data(&ce, 0, &mut out);
        rx.on_data(&segment(1), 0, &mut out);
        let mut cwr = segment(2);
        cwr.flags = FLAG_CWR;
        rx.on_data(&cwr, 0, &mut out);
        let ece: Vec<bool> = out.iter().map(|p| p.has_flag(FLAG_ECE)).collect();
        assert_eq!(ece, vec![true, true, false]);
    }

    #[test]
    fn per_packet_echo_marks_only_the_ack_of_each_ce_packet() {
        let config = TcpConfig { ecn_echo: EcnEcho::PerPacket, ..TcpConfig::default() };
        let mut rx = TcpReceiver::new(0, 1, &config, None);
        let mut out = Vec::new();
        for (seq, ce) in [(0, true), (1, false), (2, true), (3, true), (4, false)] {
            let mut packet = segment(seq);
            if ce {
                packet.ecn = Ecn::Ce;
            }
            rx.on_data(&packet, 0, &mut out);
        }
        let ece: Vec<bool> = out.iter().map(|p| p.has_flag(FLAG_ECE)).collect();
        assert_eq!(ece, vec![true, false, true, true, false]);
    }

    #[test]
    fn sack_blocks_most_recent_first_per_rfc_2018_section_4() {
        let config =
            TcpConfig { recovery: crate::tcp::RecoveryConfig::Sack(Default::default()), ..TcpConfig::default() };
        let mut rx = TcpReceiver::new(0, 1, &config, None);
        let mut out = Vec::new();
        let block = SackBlock::new;
        let step = |rx: &mut TcpReceiver, seq: u64, out: &mut Vec<Packet>| {
            rx.on_data(&segment(seq), 0, out);
            rx.sack_blocks().to_vec()
        };
        assert_eq!(step(&mut rx, 0, &mut out), vec![]);
        assert_eq!(step(&mut rx, 1, &mut out), vec![]);
        assert_eq!(out.iter().map(|p| (p.sack, p.size_bytes)).collect::<Vec<_>>(), vec![(0, 40), (0, 40)]);
        // 2 lost.
        assert_eq!(step(&mut rx, 3, &mut out), vec![block(3, 4)]);
        assert_eq!(step(&mut rx, 4, &mut out), vec![block(3, 5)]);
        // 5 lost.
        assert_eq!(step(&mut rx, 6, &mut out), vec![block(6, 7), block(3, 5)]);
        // 7 lost.
        assert_eq!(step(&mut rx, 8, &mut out), vec![block(8, 9), block(6, 7), block(3, 5)]);
        // 9 lost: at most three blocks, the oldest one drops out.
        assert_eq!(step(&mut rx, 10, &mut out), vec![block(10, 11), block(8, 9), block(6, 7)]);
        // The retransmitted 2 advances the cumulative ACK to 5: no first-block rule.
        assert_eq!(step(&mut rx, 2, &mut out), vec![block(10, 11), block(8, 9), block(6, 7)]);
        assert_eq!(out.last().unwrap().seq, 5);
        // 5 arrives: ACK 7, block 6..7 is covered.
        assert_eq!(step(&mut rx, 5, &mut out), vec![block(10, 11), block(8, 9)]);
        // 9 joins 8..9 and 10..11 into one block.
        assert_eq!(step(&mut rx, 9, &mut out), vec![block(8, 11)]);
        // A duplicate of a SACKed segment reports its block first.
        assert_eq!(step(&mut rx, 8, &mut out), vec![block(8, 11)]);
        assert_eq!(step(&mut rx, 7, &mut out), vec![]);
        assert_eq!(out.last().unwrap().seq, 11);
        // Every ACK with blocks carries a handle to them and the option's bytes.
        let with_blocks: Vec<(u64, u32)> = out.iter().filter(|p| p.sack != 0).map(|p| (p.seq, p.size_bytes)).collect();
        assert_eq!(with_blocks.len(), 9);
        assert_eq!(with_blocks[3], (2, 40 + 2 + 24));
        let handles: Vec<u32> = out.iter().filter(|p| p.sack != 0).map(|p| p.sack).collect();
        assert_eq!(rx.sack_store.len(), handles.len());
        let sixth = rx.sack_store.take(handles[5]).unwrap();
        assert_eq!(sixth.as_slice(), &[block(10, 11), block(8, 9), block(6, 7)]);
        assert_eq!(rx.sack_store.len(), handles.len() - 6);
    }

    #[test]
    fn no_sack_blocks_without_the_option() {
        let mut rx = TcpReceiver::new(0, 1, &TcpConfig::default(), None);
        let mut out = Vec::new();
        for seq in [0, 2, 3] {
            rx.on_data(&segment(seq), 0, &mut out);
        }
        assert!(out.iter().all(|p| p.sack == 0 && p.size_bytes == 40));
        assert!(rx.sack_blocks().is_empty() && rx.sack_store.is_empty());
    }

    #[test]
    fn finite_transfer_counts_only_its_bytes() {
        let mut rx = TcpReceiver::new(0, 1, &TcpConfig::default(), Some(2000));
        let mut out = Vec::new();
        rx.on_data(&segment(0), 0, &mut out);
        rx.on_data(&segment(1), 0, &mut out);
        assert_eq!(rx.bytes_delivered(), 2000);
    }
}
