//! The threshold policy of seed 000 Section VI (the packet-level rule behind eq. (36)):
//! "if q(t) ≥ q_th, drop the packet, else admit it to the queue". The queue is measured in
//! packets, or in bytes with `queue_in_bytes`; with `ecn` an ECN-capable packet is marked
//! (and admitted) instead of dropped.

use serde::{Deserialize, Serialize};

use super::{DropReason, Limit, MarkReason, QueuePolicy, QueueView, Verdict};
use crate::error::{EngineError, Result};
use crate::packet::{Ecn, Packet};
use crate::rng::Rng;
use crate::time::Time;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThresholdConfig {
    pub limit: Limit,
    /// The packet-dropping threshold q_th (seed 000 Section VI-A), packets (bytes when
    /// `queue_in_bytes`). The paper uses q_th = 15 packets (Section VI-C).
    pub q_th: f64,
    /// Mark ECN-capable packets instead of dropping them.
    #[serde(default)]
    pub ecn: bool,
    /// Compare the queue in bytes against a threshold in bytes.
    #[serde(default)]
    pub queue_in_bytes: bool,
}

// The queue kind `threshold` (registered in `super::QueueConfig`): its buffer limit, its policy.
super::queue_kind!(|config: ThresholdConfig, _link, field| config.limit, Threshold::new(config, field));

pub struct Threshold {
    q_th: f64,
    ecn: bool,
    queue_in_bytes: bool,
    /// 1 when the last arrival found the queue at or above q_th, else 0 (for traces).
    state: f64,
}

impl Threshold {
    pub fn new(config: &ThresholdConfig, field: &str) -> Result<Self> {
        if !(config.q_th > 0.0 && config.q_th.is_finite()) {
            return Err(EngineError::invalid(
                format!("{field}.q_th"),
                config.q_th,
                "a threshold > 0 (packets, or bytes with queue_in_bytes)",
            ));
        }
        Ok(Threshold { q_th: config.q_th, ecn: config.ecn, queue_in_bytes: config.queue_in_bytes, state: 0.0 })
    }
}

impl QueuePolicy for Threshold {
    fn decides_at_arrival(&self) -> bool {
        true
    }
    fn on_arrival(&mut self, packet: &Packet, queue: &QueueView, _now: Time, _rng: &mut Rng) -> Verdict {
        let q = if self.queue_in_bytes { queue.bytes as f64 } else { queue.packets as f64 };
        // Seed 000 Section VI-A: if q(t) ≥ q_th, drop the packet, else admit it.
        if q >= self.q_th {
            self.state = 1.0;
            if self.ecn && packet.ecn != Ecn::NotEct {
                Verdict::Mark(MarkReason::Forced)
            } else {
                Verdict::Drop(DropReason::Forced)
            }
        } else {
            self.state = 0.0;
            Verdict::Enqueue
        }
    }

    fn drop_probability(&self) -> f64 {
        self.state
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::Queue;
    use crate::rng::{stream, StreamKind};

    fn packet(size: u32, ecn: Ecn) -> Packet {
        Packet::test_data(size, ecn, 0)
    }

    fn config(q_th: f64, queue_in_bytes: bool, ecn: bool) -> ThresholdConfig {
        ThresholdConfig { limit: Limit::Packets(1000), q_th, ecn, queue_in_bytes }
    }

    #[test]
    fn queue_never_exceeds_the_threshold_under_random_arrivals_and_departures() {
        use crate::rng::RngCore;
        let policy = Threshold::new(&config(15.0, false, false), "q").unwrap();
        let mut queue = Queue::new(Limit::Packets(1000), 1_000_000, Box::new(policy));
        let mut rng = stream(7, StreamKind::Queue, 0);
        let mut coin = stream(7, StreamKind::Queue, 1);
        let mut max_seen = 0;
        let mut now = 0;
        for _ in 0..200_000 {
            now += 1000;
            // Arrivals twice as likely as departures: the queue is pushed against q_th.
            if coin.gen::<f64>() < 2.0 / 3.0 {
                let verdict = queue.enqueue(packet(1500, Ecn::NotEct), now, &mut rng);
                let before = queue.len_packets() - u32::from(!matches!(verdict, Verdict::Drop(_)));
                // The rule itself: dropped exactly when the arrival found q >= q_th.
                assert_eq!(matches!(verdict, Verdict::Drop(DropReason::Forced)), before >= 15);
            } else {
                queue.dequeue(now, &mut rng);
            }
            max_seen = max_seen.max(queue.len_packets());
        }
        assert_eq!(max_seen, 15, "the queue holds at most q_th packets");
        assert!(queue.counters.dropped_forced > 1000);
    }

    #[test]
    fn byte_mode_compares_bytes() {
        let mut t = Threshold::new(&config(3000.0, true, false), "q").unwrap();
        let mut rng = stream(1, StreamKind::Queue, 0);
        let view = |packets: u32, bytes: u64| QueueView { packets, bytes, idle_since: None, link_rate_bps: 1 };
        assert_eq!(t.on_arrival(&packet(1500, Ecn::NotEct), &view(1, 1500), 0, &mut rng), Verdict::Enqueue);
        assert_eq!(t.on_arrival(&packet(1500, Ecn::NotEct), &view(50, 2999), 0, &mut rng), Verdict::Enqueue);
        assert_eq!(
            t.on_arrival(&packet(40, Ecn::NotEct), &view(2, 3000), 0, &mut rng),
            Verdict::Drop(DropReason::Forced)
        );
        assert_eq!(t.drop_probability(), 1.0);
    }

    #[test]
    fn ecn_marks_capable_packets_and_drops_others() {
        let mut t = Threshold::new(&config(15.0, false, true), "q").unwrap();
        let mut rng = stream(1, StreamKind::Queue, 0);
        let view = QueueView { packets: 15, bytes: 0, idle_since: None, link_rate_bps: 1 };
        assert_eq!(t.on_arrival(&packet(1500, Ecn::Ect), &view, 0, &mut rng), Verdict::Mark(MarkReason::Forced));
        assert_eq!(t.on_arrival(&packet(1500, Ecn::NotEct), &view, 0, &mut rng), Verdict::Drop(DropReason::Forced));
    }

    #[test]
    fn rejects_a_non_positive_threshold_naming_the_field() {
        let err = Threshold::new(&config(0.0, false, false), "topology.bottleneck.queue").err().unwrap().to_string();
        assert!(err.contains("topology.bottleneck.queue.q_th"), "{err}");
    }
}
