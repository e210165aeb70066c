//! DropTail: accept every packet; the base queue drops on overflow.

use super::{QueuePolicy, QueueView, Verdict};
use crate::packet::Packet;
use crate::rng::Rng;
use crate::time::Time;

pub struct DropTail;

impl QueuePolicy for DropTail {
    fn decides_at_arrival(&self) -> bool {
        true
    }
    fn on_arrival(&mut self, _packet: &Packet, _queue: &QueueView, _now: Time, _rng: &mut Rng) -> Verdict {
        Verdict::Enqueue
    }
}
