//! REDvq: RED run on a virtual queue served at γ·C (seed 002 Section V-A, the control
//! experiment that separates E-RED's exponential profile from its virtual queue). The RED
//! machinery (EWMA with idle-time correction, control law, count spacing, gentle, ECN,
//! byte mode) is `red.rs`'s: each arrival is offered to a [`Red`] whose view of "the queue"
//! is the virtual queue.

use serde::{Deserialize, Serialize};

use super::ered::VirtualQueue;
use super::red::{Red, RedConfig};
use super::{LinkContext, QueuePolicy, QueueView, Verdict};
use crate::error::{EngineError, Result};
use crate::packet::Packet;
use crate::rng::Rng;
use crate::time::Time;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RedVqConfig {
    /// Virtual capacity factor: the virtual queue is served at γ·C (seed 002 Remark 3).
    pub gamma: f64,
    /// RED's parameters; its thresholds apply to the virtual queue, its `limit` is the real buffer.
    pub red: RedConfig,
}

// The queue kind `red_vq` (registered in `super::QueueConfig`): its buffer limit, its policy.
super::queue_kind!(|config: RedVqConfig, link, field| config.red.limit, RedVq::new(config, link, field));

pub struct RedVq {
    red: Red,
    vq: VirtualQueue,
    queue_in_bytes: bool,
    mean_packet_bytes: f64,
}

impl RedVq {
    pub fn new(config: &RedVqConfig, link: LinkContext, field: &str) -> Result<Self> {
        if !(config.gamma > 0.0 && config.gamma <= 1.0) {
            return Err(EngineError::invalid(format!("{field}.gamma"), config.gamma, "a factor in (0, 1]"));
        }
        let red = Red::new(&config.red, link, &format!("{field}.red"))?;
        Ok(RedVq {
            red,
            vq: VirtualQueue::new(config.gamma * link.rate_bps as f64 / 8.0),
            queue_in_bytes: config.red.queue_in_bytes,
            mean_packet_bytes: config.red.mean_packet_bytes as f64,
        })
    }

    /// The virtual queue as RED sees it: bytes, and packets of the mean size.
    fn virtual_view(&self, real: &QueueView) -> QueueView {
        let bytes = self.vq.bytes();
        QueueView {
            packets: (bytes / self.mean_packet_bytes).round() as u32,
            bytes: bytes.round() as u64,
            idle_since: self.vq.empty_since(),
            link_rate_bps: real.link_rate_bps,
        }
    }
}

impl QueuePolicy for RedVq {
    fn decides_at_arrival(&self) -> bool {
        true
    }
    fn on_arrival(&mut self, packet: &Packet, queue: &QueueView, now: Time, rng: &mut Rng) -> Verdict {
        self.vq.drain(now);
        let view = self.virtual_view(queue);
        let verdict = self.red.on_arrival(packet, &view, now, rng);
        // Every arrival is offered load: it enters the virtual queue (as in E-RED).
        self.vq.add(packet.size_bytes as f64);
        verdict
    }

    super::red::red_measures!();

    fn virtual_queue(&self) -> f64 {
        if self.queue_in_bytes {
            self.vq.bytes()
        } else {
            self.vq.bytes() / self.mean_packet_bytes
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::red::control_law;
    use crate::queue::DropReason;
    use crate::rng::{stream, StreamKind};

    const LINK: LinkContext = LinkContext { rate_bps: 12_000_000, mean_packet_bytes: 1500 };

    fn config() -> RedVqConfig {
        RedVqConfig {
            gamma: 0.5,
            red: RedConfig { min_th: 20.0, max_th: 60.0, q_weight: 1.0, wait: false, ..RedConfig::default() },
        }
    }

    #[test]
    fn red_decides_on_the_virtual_queue_not_the_real_one() {
        // C = 1000 packets/s, γ = 0.5: the virtual queue is served at 500 packets/s.
        let mut r = RedVq::new(&config(), LINK, "q").unwrap();
        let mut rng = stream(1, StreamKind::Queue, 0);
        let empty_real = QueueView { packets: 0, bytes: 0, idle_since: None, link_rate_bps: 12_000_000 };
        // 1000 packets/s arrive for 0.2 s: the virtual queue grows by 500 packets/s → ~100.
        let mut forced = 0;
        for i in 0..200u64 {
            if let Verdict::Drop(DropReason::Forced) =
                r.on_arrival(&LINK.data_packet(), &empty_real, i * 1_000_000, &mut rng)
            {
                forced += 1;
            }
        }
        // With q_weight = 1 the average is the virtual queue; above max_th = 60 RED forces drops
        // although the real queue is empty. Every arrival enters the virtual queue: 200 − 0.5 · 199.
        assert!(forced > 0);
        assert!((r.virtual_queue() - (200.0 - 0.5 * 199.0)).abs() < 1e-9, "{}", r.virtual_queue());
        // The traced probability is RED's control law at the virtual queue.
        let p = control_law(r.average_queue(), 20.0, 60.0, 0.1, false);
        assert_eq!(r.drop_probability(), p);
    }

    #[test]
    fn gamma_is_validated() {
        let mut c = config();
        c.gamma = 0.0;
        assert!(RedVq::new(&c, LINK, "x").err().unwrap().to_string().contains("x.gamma"));
        let mut c = config();
        c.red.max_th = 1.0;
        assert!(RedVq::new(&c, LINK, "x").err().unwrap().to_string().contains("x.red.max_th"));
    }
}
