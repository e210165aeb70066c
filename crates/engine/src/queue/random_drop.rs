//! Random drop with a fixed probability, independent of the queue (seed 003 Section II-B
//! measures the queue law G(p) this way: every arriving packet is dropped with probability p).
//! With `ecn`, ECN-capable packets are marked instead of dropped (RFC 3168 Section 5), which
//! gives per-packet marks of a known probability (seed 002's per-marked-ACK law).

use super::{QueuePolicy, QueueView, Verdict};
use crate::packet::Packet;
use crate::rng::{Rng, RngCore};
use crate::time::Time;

pub struct RandomDrop {
    probability: f64,
    ecn: bool,
}

impl RandomDrop {
    pub fn new(probability: f64, ecn: bool) -> Self {
        RandomDrop { probability, ecn }
    }
}

impl QueuePolicy for RandomDrop {
    fn decides_at_arrival(&self) -> bool {
        true
    }
    fn on_arrival(&mut self, packet: &Packet, _queue: &QueueView, _now: Time, rng: &mut Rng) -> Verdict {
        // seed 003 Section II-B: drop each arrival independently with probability p.
        if self.probability > 0.0 && rng.gen::<f64>() < self.probability {
            super::early::early_signal(self.ecn, packet)
        } else {
            Verdict::Enqueue
        }
    }

    fn drop_probability(&self) -> f64 {
        self.probability
    }
}
