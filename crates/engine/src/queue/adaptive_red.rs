//! Adaptive RED (Floyd, Gummadi, Shenker, "Adaptive RED: An Algorithm for Increasing the
//! Robustness of RED's Active Queue Management", 2001; ns-2 `red.cc` with `adaptive_ 1`).
//!
//! Gentle RED whose p̄ (`max_p`) is adapted by AIMD every `interval` (0.5 s) to keep the
//! average queue in the target band [min_th + 0.4 (max_th − min_th), min_th + 0.6 (max_th − min_th)]
//! (paper Fig. 5):
//! - avg > target and p̄ < top (0.5): p̄ ← p̄ + α, α = min(0.01, p̄/4);
//! - avg < target and p̄ > bottom (0.01): p̄ ← p̄ · β, β = 0.9.
//!
//! The EWMA, control law, count spacing and drop/mark decision are `red.rs`'s.
//!
//! Timing: as ns-2 (`REDQueue::enque` → `updateMaxP`), the adaptation runs at the first
//! arrival at least `interval` after the last change of p̄, with the average of that arrival,
//! and the clock restarts only when p̄ changes. This is deterministic (a function of arrival
//! times) and needs no timer; catching up missed periods is not needed because during an idle
//! period the average only decays, which the next arrival's update sees.
//!
//! Automatic thresholds (ns-2 `REDQueue::initialize_params`, as in the paper Section 4):
//! with `min_th = 0`, min_th = max(5, target_delay · C / 2) packets, C the link rate in
//! packets/s; with `max_th = 0`, max_th = 3 min_th.

use serde::{Deserialize, Serialize};

use super::red::{ns2_thresholds, Red, RedConfig};
use super::{Limit, LinkContext, QueuePolicy, QueueView, Verdict};
use crate::error::Result;
use crate::packet::Packet;
use crate::rng::Rng;
use crate::time::{to_secs, Time};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdaptiveRedConfig {
    pub limit: Limit,
    /// Minimum threshold, packets (bytes when `queue_in_bytes`); 0 = automatic from `target_delay_ns`.
    pub min_th: f64,
    /// Maximum threshold; 0 = automatic, 3 · min_th (paper Section 4).
    pub max_th: f64,
    /// Initial p̄ (ns-2 1/linterm_ = 0.1).
    pub max_p: f64,
    /// EWMA weight; 0, -1, -2 as in RED. The paper sets w = 1 − exp(−1/C) (ns-2's 0).
    pub q_weight: f64,
    /// Target queueing delay for automatic thresholds (paper and ns-2: 5 ms).
    pub target_delay_ns: Time,
    /// Adaptation interval (paper: 0.5 s).
    pub interval_ns: Time,
    /// Additive-increase cap α (paper: min(0.01, p̄/4); this is the 0.01).
    pub alpha: f64,
    /// Multiplicative-decrease factor β (paper: 0.9).
    pub beta: f64,
    /// Upper bound for increases (paper: 0.5).
    pub top: f64,
    /// Lower bound for decreases (paper: 0.01).
    pub bottom: f64,
    /// Gentle RED (the paper always uses it).
    pub gentle: bool,
    pub wait: bool,
    pub ecn: bool,
    pub byte_mode: bool,
    pub queue_in_bytes: bool,
    pub mean_packet_bytes: u32,
    pub link_delay_ns: Time,
}

// The queue kind `adaptive_red` (registered in `super::QueueConfig`): its buffer limit, its policy.
super::queue_kind!(|config: AdaptiveRedConfig, link, field| config.limit, AdaptiveRed::new(config, link, field));

/// Adaptive RED's AIMD step (paper Fig. 5; ns-2 `updateMaxP`). Returns the new p̄, or None
/// when the average is in the target band (or p̄ is at its bound).
#[allow(clippy::too_many_arguments)]
pub fn adapt_max_p(
    average: f64,
    min_th: f64,
    max_th: f64,
    max_p: f64,
    alpha: f64,
    beta: f64,
    top: f64,
    bottom: f64,
) -> Option<f64> {
    let part = 0.4 * (max_th - min_th);
    if average < min_th + part && max_p > bottom {
        // avg below target: decrease p̄ multiplicatively.
        Some(max_p * beta)
    } else if average > max_th - part && max_p < top {
        // avg above target: increase p̄ by α = min(0.01, p̄/4).
        Some(max_p + alpha.min(0.25 * max_p))
    } else {
        None
    }
}

pub struct AdaptiveRed {
    red: Red,
    interval: Time,
    alpha: f64,
    beta: f64,
    top: f64,
    bottom: f64,
    last_set: Time,
}

impl AdaptiveRed {
    pub fn new(config: &AdaptiveRedConfig, link: LinkContext, field: &str) -> Result<Self> {
        let check = super::params::checker(field);
        check(config.interval_ns > 0, "interval_ns", config.interval_ns as f64, "an interval > 0 ns")?;
        check(config.alpha > 0.0 && config.alpha < 1.0, "alpha", config.alpha, "an increment in (0, 1)")?;
        check(config.beta > 0.0 && config.beta < 1.0, "beta", config.beta, "a factor in (0, 1)")?;
        check(config.top > 0.0 && config.top <= 1.0, "top", config.top, "a probability in (0, 1]")?;
        check(config.bottom > 0.0 && config.bottom < config.top, "bottom", config.bottom, "a probability in (0, top)")?;
        check(config.mean_packet_bytes > 0, "mean_packet_bytes", config.mean_packet_bytes as f64, "a size > 0 bytes")?;
        super::red::check_thresholds(&check, config.min_th, config.max_th, config.target_delay_ns)?;
        let (min_th, max_th) = automatic_thresholds(config, link);
        let red = Red::new(
            &RedConfig {
                limit: config.limit,
                min_th,
                max_th,
                max_p: config.max_p,
                q_weight: config.q_weight,
                gentle: config.gentle,
                wait: config.wait,
                ecn: config.ecn,
                mark_p: None,
                byte_mode: config.byte_mode,
                queue_in_bytes: config.queue_in_bytes,
                instantaneous: false,
                mean_packet_bytes: config.mean_packet_bytes,
                link_delay_ns: config.link_delay_ns,
                target_delay_ns: config.target_delay_ns,
            },
            link,
            field,
        )?;
        Ok(AdaptiveRed {
            red,
            interval: config.interval_ns,
            alpha: config.alpha,
            beta: config.beta,
            top: config.top,
            bottom: config.bottom,
            last_set: 0,
        })
    }

    pub fn max_p(&self) -> f64 {
        self.red.max_p()
    }

    pub fn thresholds(&self) -> (f64, f64) {
        self.red.thresholds()
    }
}

/// ns-2 `initialize_params` for adaptive RED: min_th = max(5, target_queue / 2) packets with
/// target_queue = target_delay · ptc; max_th = 3 min_th. Bytes in byte mode.
pub fn automatic_thresholds(config: &AdaptiveRedConfig, link: LinkContext) -> (f64, f64) {
    ns2_thresholds(
        config.min_th,
        config.max_th,
        to_secs(config.target_delay_ns),
        link.rate_bps,
        config.mean_packet_bytes,
        config.queue_in_bytes,
    )
}

impl QueuePolicy for AdaptiveRed {
    fn decides_at_arrival(&self) -> bool {
        true
    }
    fn on_arrival(&mut self, packet: &Packet, queue: &QueueView, now: Time, rng: &mut Rng) -> Verdict {
        let verdict = self.red.on_arrival(packet, queue, now, rng);
        if now >= self.last_set + self.interval {
            let (min_th, max_th) = self.red.thresholds();
            if let Some(p) = adapt_max_p(
                self.red.average_queue(),
                min_th,
                max_th,
                self.red.max_p(),
                self.alpha,
                self.beta,
                self.top,
                self.bottom,
            ) {
                self.red.set_max_p(p);
                self.last_set = now;
            }
        }
        verdict
    }

    super::red::red_measures!();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, StreamKind};

    const LINK: LinkContext = LinkContext { rate_bps: 100_000_000, mean_packet_bytes: 1500 };

    fn config() -> AdaptiveRedConfig {
        AdaptiveRedConfig {
            limit: Limit::Packets(1000),
            min_th: 20.0,
            max_th: 80.0,
            max_p: 0.1,
            q_weight: 1.0,
            target_delay_ns: 5_000_000,
            interval_ns: 500_000_000,
            alpha: 0.01,
            beta: 0.9,
            top: 0.5,
            bottom: 0.01,
            gentle: true,
            wait: true,
            ecn: false,
            byte_mode: false,
            queue_in_bytes: false,
            mean_packet_bytes: 1500,
            link_delay_ns: 1_000_000,
        }
    }

    #[test]
    fn aimd_step_matches_the_paper() {
        // Band for (20, 80): [44, 56].
        assert_eq!(adapt_max_p(50.0, 20.0, 80.0, 0.1, 0.01, 0.9, 0.5, 0.01), None);
        // Above: + min(0.01, p/4).
        assert_eq!(adapt_max_p(60.0, 20.0, 80.0, 0.1, 0.01, 0.9, 0.5, 0.01), Some(0.1 + 0.01));
        assert_eq!(adapt_max_p(60.0, 20.0, 80.0, 0.02, 0.01, 0.9, 0.5, 0.01), Some(0.02 + 0.005));
        // Below: × 0.9.
        assert!((adapt_max_p(40.0, 20.0, 80.0, 0.1, 0.01, 0.9, 0.5, 0.01).unwrap() - 0.09).abs() < 1e-15);
        // Bounds.
        assert_eq!(adapt_max_p(60.0, 20.0, 80.0, 0.5, 0.01, 0.9, 0.5, 0.01), None);
        assert_eq!(adapt_max_p(40.0, 20.0, 80.0, 0.01, 0.01, 0.9, 0.5, 0.01), None);
    }

    #[test]
    fn max_p_adapts_once_per_interval_towards_the_band() {
        let mut a = AdaptiveRed::new(&config(), LINK, "q").unwrap();
        let mut rng = stream(1, StreamKind::Queue, 0);
        // Average held at 70 (q_weight = 1), above the band: one increase per 0.5 s.
        let mut expected = 0.1;
        for step in 1..=20u64 {
            // arrivals every 100 ms; the update happens at multiples of 0.5 s
            let now = step * 100_000_000;
            a.on_arrival(&LINK.data_packet(), &LINK.queue_of(70), now, &mut rng);
            if step % 5 == 0 {
                expected += 0.01f64.min(expected / 4.0);
            }
            assert!((a.max_p() - expected).abs() < 1e-12, "t {now}: {} vs {expected}", a.max_p());
        }
        // Then an average of 30, below the band: × 0.9 every 0.5 s, down to the bottom.
        for step in 21..=400u64 {
            let now = step * 100_000_000;
            a.on_arrival(&LINK.data_packet(), &LINK.queue_of(30), now, &mut rng);
            if step % 5 == 0 && expected > 0.01 {
                expected *= 0.9;
            }
            assert!((a.max_p() - expected).abs() < 1e-12);
        }
        assert!(a.max_p() <= 0.01 && a.max_p() > 0.009);
    }

    #[test]
    fn zero_thresholds_take_ns2s_rule_from_the_target_delay() {
        // The rule itself (ns-2 red.cc initialize_params) is tested in red.rs; adaptive RED
        // hands it its own target delay (5 ms), mean packet size and link.
        let c = AdaptiveRedConfig { min_th: 0.0, max_th: 0.0, ..config() };
        for link in [LINK, LinkContext { rate_bps: 1_000_000, mean_packet_bytes: 1500 }] {
            let expected = crate::queue::red::ns2_thresholds(0.0, 0.0, 0.005, link.rate_bps, 1500, false);
            assert_eq!(AdaptiveRed::new(&c, link, "q").unwrap().thresholds(), expected);
        }
        assert_eq!(AdaptiveRed::new(&config(), LINK, "q").unwrap().thresholds(), (20.0, 80.0), "given thresholds kept");
    }

    #[test]
    fn rejects_bad_beta_naming_the_field() {
        let mut c = config();
        c.beta = 1.5;
        let err = AdaptiveRed::new(&c, LINK, "topology.bottleneck.queue").err().unwrap().to_string();
        assert!(err.contains("topology.bottleneck.queue.beta"), "{err}");
    }
}
