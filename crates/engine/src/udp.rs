//! Unresponsive constant-bit-rate sources (seed 002 Section V-C: a UDP flow joins at 50 s
//! and leaves at 70 s; seed 000 Section V-B: 8 UDP flows of 1 Mbps each).

use crate::packet::{Ecn, FlowId, Packet, PacketKind, RouteId};
use crate::time::{Serialiser, Time};

pub struct UdpSource {
    flow: FlowId,
    route: RouteId,
    packet_bytes: u32,
    rate_bps: u64,
    /// Time between datagrams: packet size / rate, the sub-nanosecond remainder carried (so
    /// the source keeps its rate exactly over a long run).
    clock: Serialiser,
    stop: Option<Time>,
    next_seq: u64,
    pub started_at: Option<Time>,
    pub stopped_at: Option<Time>,
    pub datagrams_sent: u64,
}

impl UdpSource {
    pub fn new(flow: FlowId, route: RouteId, rate_bps: u64, packet_bytes: u32, stop: Option<Time>) -> Self {
        UdpSource {
            flow,
            route,
            packet_bytes,
            rate_bps,
            clock: Serialiser::default(),
            stop,
            next_seq: 0,
            started_at: None,
            stopped_at: None,
            datagrams_sent: 0,
        }
    }

    /// Send one datagram at `now`; returns it and the time of the next one (None once the
    /// source has stopped).
    pub fn send(&mut self, now: Time) -> (Option<Packet>, Option<Time>) {
        if self.started_at.is_none() {
            self.started_at = Some(now);
        }
        if self.stop.is_some_and(|stop| now >= stop) {
            self.stopped_at.get_or_insert(now);
            return (None, None);
        }
        let packet = Packet {
            flow: self.flow,
            kind: PacketKind::Datagram,
            ecn: Ecn::NotEct,
            flags: 0,
            hop: 0,
            route: self.route,
            size_bytes: self.packet_bytes,
            seq: self.next_seq,
            timestamp: now,
            enqueued_at: 0,
            sack: 0,
        };
        self.next_seq += 1;
        self.datagrams_sent += 1;
        (Some(packet), Some(now + self.clock.next(self.packet_bytes, self.rate_bps)))
    }
}

/// What the receiving end of a UDP flow counts.
#[derive(Default)]
pub struct UdpSink {
    pub datagrams: u64,
    pub bytes: u64,
    /// Sum of one-way delays, ns (for the mean).
    pub delay_sum_ns: u128,
}

impl UdpSink {
    pub fn on_datagram(&mut self, packet: &Packet, now: Time) {
        self.datagrams += 1;
        self.bytes += packet.size_bytes as u64;
        self.delay_sum_ns += (now - packet.timestamp) as u128;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sends_at_the_configured_rate_until_it_stops() {
        // 1 Mb/s of 1500-byte datagrams: one every 12 ms.
        let mut source = UdpSource::new(0, 0, 1_000_000, 1500, Some(100_000_000));
        let mut now = 0;
        let mut sent = 0;
        while let (Some(_), Some(next)) = source.send(now) {
            sent += 1;
            assert_eq!(next - now, 12_000_000);
            now = next;
        }
        assert_eq!(sent, 9); // at 0, 12, ..., 96 ms
        assert_eq!(source.stopped_at, Some(108_000_000));
    }

    #[test]
    fn keeps_its_rate_exactly_when_the_interval_is_not_a_whole_nanosecond() {
        // 500-byte datagrams at 15 Mb/s: 266 666.67 ns apart; 3000 of them span 0.8 s exactly.
        let mut source = UdpSource::new(0, 0, 15_000_000, 500, None);
        let mut now = 0;
        for _ in 0..3000 {
            now = source.send(now).1.unwrap();
        }
        assert_eq!(now, 800_000_000);
    }
}
