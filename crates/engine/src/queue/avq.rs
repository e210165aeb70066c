//! Adaptive Virtual Queue (Kunniyur and Srikant, "Analysis and Design of an Adaptive
//! Virtual Queue (AVQ) Algorithm for Active Queue Management", SIGCOMM 2001).
//!
//! A virtual queue of capacity C̃ ≤ C and buffer B̃ (the real buffer by default) sees every
//! arrival. An arriving packet that would overflow the virtual buffer is marked or dropped;
//! otherwise it joins the virtual queue. The virtual capacity follows
//! dC̃/dt = α (γ C − λ) (paper eq. (2)), λ the arrival rate, γ the desired utilisation.
//! Implementation as the paper's pseudo-code (Section 3), at each arrival of b units at
//! time t, s being the previous arrival:
//!   VQ ← max(VQ − C̃ (t − s), 0)
//!   if VQ + b > B̃: mark or drop, else VQ ← VQ + b
//!   C̃ ← max(min(C̃ + α γ C (t − s), C) − α b, 0)
//! Units are packets (C in packets/s of `mean_packet_bytes`, b = 1) or bytes with
//! `queue_in_bytes`. Event driven by construction: no timer, deterministic.

use serde::{Deserialize, Serialize};

use super::{Limit, LinkContext, QueuePolicy, QueueView, Verdict};
use crate::error::Result;
use crate::packet::Packet;
use crate::rng::Rng;
use crate::time::{to_secs, Time};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AvqConfig {
    pub limit: Limit,
    /// Desired utilisation γ (paper simulations: 0.98).
    pub gamma: f64,
    /// Smoothing parameter α of the capacity update (paper simulations: 0.15).
    pub alpha: f64,
    /// Virtual buffer B̃, packets (bytes when `queue_in_bytes`); the paper uses the real buffer.
    pub virtual_buffer: f64,
    /// Mark ECN-capable packets instead of dropping them (the paper marks).
    pub ecn: bool,
    pub queue_in_bytes: bool,
    pub mean_packet_bytes: u32,
}

// The queue kind `avq` (registered in `super::QueueConfig`): its buffer limit, its policy.
super::queue_kind!(|config: AvqConfig, link, field| config.limit, Avq::new(config, link, field));

pub struct Avq {
    gamma: f64,
    alpha: f64,
    buffer: f64,
    /// Link capacity C in units per second.
    capacity: f64,
    /// Virtual capacity C̃, units per second.
    virtual_capacity: f64,
    /// Virtual queue length, units.
    vq: f64,
    last: Time,
    ecn: bool,
    queue_in_bytes: bool,
    /// 1 when the last arrival overflowed the virtual buffer, else 0 (for traces).
    state: f64,
}

impl Avq {
    pub fn new(config: &AvqConfig, link: LinkContext, field: &str) -> Result<Self> {
        let check = super::params::checker(field);
        check(config.gamma > 0.0 && config.gamma <= 1.0, "gamma", config.gamma, "a utilisation in (0, 1]")?;
        check(config.alpha > 0.0 && config.alpha.is_finite(), "alpha", config.alpha, "a smoothing parameter > 0")?;
        check(
            config.virtual_buffer > 0.0 && config.virtual_buffer.is_finite(),
            "virtual_buffer",
            config.virtual_buffer,
            "a buffer > 0",
        )?;
        check(config.mean_packet_bytes > 0, "mean_packet_bytes", config.mean_packet_bytes as f64, "a size > 0 bytes")?;
        let unit_bytes = if config.queue_in_bytes { 1.0 } else { config.mean_packet_bytes as f64 };
        let capacity = link.rate_bps as f64 / 8.0 / unit_bytes;
        Ok(Avq {
            gamma: config.gamma,
            alpha: config.alpha,
            buffer: config.virtual_buffer,
            capacity,
            // Start at the link capacity (the upper bound of C̃).
            virtual_capacity: capacity,
            vq: 0.0,
            last: 0,
            ecn: config.ecn,
            queue_in_bytes: config.queue_in_bytes,
            state: 0.0,
        })
    }

    /// The virtual capacity C̃, in units (packets or bytes) per second.
    pub fn virtual_capacity(&self) -> f64 {
        self.virtual_capacity
    }
}

impl QueuePolicy for Avq {
    fn decides_at_arrival(&self) -> bool {
        true
    }
    fn on_arrival(&mut self, packet: &Packet, _queue: &QueueView, now: Time, _rng: &mut Rng) -> Verdict {
        let elapsed = to_secs(now.saturating_sub(self.last));
        let b = if self.queue_in_bytes { packet.size_bytes as f64 } else { 1.0 };
        // VQ ← max(VQ − C̃ (t − s), 0)
        self.vq = (self.vq - self.virtual_capacity * elapsed).max(0.0);
        // Drop/mark if the packet would overflow the virtual buffer, else it joins the VQ.
        let verdict = if self.vq + b > self.buffer {
            self.state = 1.0;
            super::early::early_signal(self.ecn, packet)
        } else {
            self.state = 0.0;
            self.vq += b;
            Verdict::Enqueue
        };
        // C̃ ← max(min(C̃ + α γ C (t − s), C) − α b, 0): the Euler step of dC̃/dt = α (γC − λ),
        // with every arrival (accepted or not) counted in λ.
        self.virtual_capacity = ((self.virtual_capacity + self.alpha * self.gamma * self.capacity * elapsed)
            .min(self.capacity)
            - self.alpha * b)
            .max(0.0);
        self.last = now;
        verdict
    }

    fn drop_probability(&self) -> f64 {
        self.state
    }

    fn virtual_queue(&self) -> f64 {
        self.vq
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::Ecn;
    use crate::queue::{DropReason, MarkReason};
    use crate::rng::{stream, StreamKind};

    /// 12 Mb/s of 1500-byte packets: C = 1000 packets/s.
    const LINK: LinkContext = LinkContext { rate_bps: 12_000_000, mean_packet_bytes: 1500 };

    fn config() -> AvqConfig {
        AvqConfig {
            limit: Limit::Packets(100),
            gamma: 0.98,
            alpha: 0.15,
            virtual_buffer: 10.0,
            ecn: false,
            queue_in_bytes: false,
            mean_packet_bytes: 1500,
        }
    }

    fn packet(ecn: Ecn) -> Packet {
        Packet::test_data(1500, ecn, 0)
    }

    const VIEW: QueueView = QueueView { packets: 0, bytes: 0, idle_since: None, link_rate_bps: 12_000_000 };

    #[test]
    fn virtual_capacity_update_follows_the_pseudocode() {
        let mut a = Avq::new(&config(), LINK, "q").unwrap();
        let mut rng = stream(1, StreamKind::Queue, 0);
        // First arrival at t = 0: C̃ = min(1000 + 0, 1000) − 0.15 = 999.85.
        a.on_arrival(&packet(Ecn::NotEct), &VIEW, 0, &mut rng);
        assert!((a.virtual_capacity() - 999.85).abs() < 1e-9);
        // 10 ms later: min(999.85 + 0.15 · 0.98 · 1000 · 0.01, 1000) − 0.15 = 1000 − 0.15.
        a.on_arrival(&packet(Ecn::NotEct), &VIEW, 10_000_000, &mut rng);
        assert!((a.virtual_capacity() - 999.85).abs() < 1e-9);
        // Arrivals at 2000 packets/s (λ > γC): C̃ falls by α (λ − γC) = 0.15 · 1020 = 153 per second.
        let mut c = a.virtual_capacity();
        let mut now = 10_000_000;
        for _ in 0..2000 {
            now += 500_000;
            a.on_arrival(&packet(Ecn::NotEct), &VIEW, now, &mut rng);
            c = ((c + 0.15 * 0.98 * 1000.0 * 0.0005).min(1000.0) - 0.15).max(0.0);
            assert!((a.virtual_capacity() - c).abs() < 1e-6);
        }
        assert!((a.virtual_capacity() - (999.85 - 153.0)).abs() < 1e-6, "{}", a.virtual_capacity());
        // Arrivals at 500 packets/s (λ < γC): C̃ rises at 0.15 · 480 = 72 per second, capped at C.
        let before = a.virtual_capacity();
        for _ in 0..500 {
            now += 2_000_000;
            a.on_arrival(&packet(Ecn::NotEct), &VIEW, now, &mut rng);
        }
        assert!((a.virtual_capacity() - (before + 72.0)).abs() < 1e-6, "{}", a.virtual_capacity());
    }

    #[test]
    fn drops_exactly_when_the_virtual_buffer_would_overflow() {
        let mut a = Avq::new(&config(), LINK, "q").unwrap();
        let mut rng = stream(1, StreamKind::Queue, 0);
        // 10 simultaneous arrivals fill the virtual buffer B̃ = 10; the 11th is dropped.
        for i in 0..10 {
            assert_eq!(a.on_arrival(&packet(Ecn::NotEct), &VIEW, 0, &mut rng), Verdict::Enqueue, "{i}");
        }
        assert_eq!(a.virtual_queue(), 10.0);
        assert_eq!(a.on_arrival(&packet(Ecn::NotEct), &VIEW, 0, &mut rng), Verdict::Drop(DropReason::Early));
        assert_eq!(a.virtual_queue(), 10.0);
        // C̃ = 1000 − 11 · 0.15 = 998.35 packets/s; after 1.5 ms the VQ has served 1.49753:
        // VQ = 8.50248, and 8.50 + 1 ≤ 10 admits one packet.
        let c = a.virtual_capacity();
        assert!((c - 998.35).abs() < 1e-9);
        assert_eq!(a.on_arrival(&packet(Ecn::Ect), &VIEW, 1_500_000, &mut rng), Verdict::Enqueue);
        assert!((a.virtual_queue() - (10.0 - c * 0.0015 + 1.0)).abs() < 1e-9);
        // ECN: an overflowing ECN-capable arrival is marked.
        let mut e = Avq::new(&AvqConfig { ecn: true, virtual_buffer: 1.0, ..config() }, LINK, "q").unwrap();
        assert_eq!(e.on_arrival(&packet(Ecn::Ect), &VIEW, 0, &mut rng), Verdict::Enqueue);
        assert_eq!(e.on_arrival(&packet(Ecn::Ect), &VIEW, 0, &mut rng), Verdict::Mark(MarkReason::Early));
        assert_eq!(e.on_arrival(&packet(Ecn::NotEct), &VIEW, 0, &mut rng), Verdict::Drop(DropReason::Early));
    }

    #[test]
    fn byte_mode_counts_bytes() {
        let c = AvqConfig { queue_in_bytes: true, virtual_buffer: 3000.0, ..config() };
        let mut a = Avq::new(&c, LINK, "q").unwrap();
        let mut rng = stream(1, StreamKind::Queue, 0);
        assert_eq!(a.on_arrival(&packet(Ecn::NotEct), &VIEW, 0, &mut rng), Verdict::Enqueue);
        assert_eq!(a.on_arrival(&packet(Ecn::NotEct), &VIEW, 0, &mut rng), Verdict::Enqueue);
        assert_eq!(a.on_arrival(&packet(Ecn::NotEct), &VIEW, 0, &mut rng), Verdict::Drop(DropReason::Early));
        // C = 1.5e6 bytes/s; three arrivals of 1500 B: C̃ = 1.5e6 − 3 · 0.15 · 1500.
        assert!((a.virtual_capacity() - (1.5e6 - 675.0)).abs() < 1e-6);
    }

    #[test]
    fn rejects_bad_gamma_naming_the_field() {
        let err = Avq::new(&AvqConfig { gamma: 0.0, ..config() }, LINK, "topology.bottleneck.queue")
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("topology.bottleneck.queue.gamma"), "{err}");
    }
}
