//! Random drop with a fixed probability, independent of the queue (seed 003 Section II-B
//! measures the queue law G(p) this way: every arriving packet is dropped with probability p).

use super::{DropReason, QueuePolicy, QueueView, Verdict};
use crate::packet::Packet;
use crate::rng::{Rng, RngCore};
use crate::time::Time;

pub struct RandomDrop {
    probability: f64,
}

impl RandomDrop {
    pub fn new(probability: f64) -> Self {
        RandomDrop { probability }
    }
}

impl QueuePolicy for RandomDrop {
    fn on_arrival(&mut self, _packet: &Packet, _queue: &QueueView, _now: Time, rng: &mut Rng) -> Verdict {
        // seed 003 Section II-B: drop each arrival independently with probability p.
        if self.probability > 0.0 && rng.gen::<f64>() < self.probability {
            Verdict::Drop(DropReason::Early)
        } else {
            Verdict::Enqueue
        }
    }

    fn drop_probability(&self) -> f64 {
        self.probability
    }
}
