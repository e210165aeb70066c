//! The general window law of seed 002 Section IV-A and the window functions of seed 000
//! Table I, as packet-level congestion control.
//!
//! Seed 002 Section IV-A (general form of TCP, after its reference [33]): the window grows
//! by a·wⁿ for each unmarked acknowledgment and shrinks by b·wᵐ for each marked one; its
//! eq. (31) is the fluid form ẇ = x(t − τ)(a wⁿ (1 − q) − b wᵐ q). Reno is n = −1, m = 1;
//! Scalable TCP is n = 0, m = 1. Seed 000 eq. (1) is the same law with an increase i(w)
//! per ACK and a decrease d(w) per loss; its Table I lists i(w), d(w) for TCP variants.
//!
//! Three scenario kinds build this one algorithm (`aimd` here, `illinois_like.rs`,
//! `africa_like.rs`):
//! - `aimd`: i(w) = a·wⁿ, d(w) = b·wᵐ with free a, n, b, m (defaults a = 1, n = −1,
//!   b = 1/2, m = 1: Reno's i(w) = 1/w, d(w) = w/2, seed 000 Section II-A);
//! - `illinois_like`: seed 000 Table I "TCP Illinois", i(w) = α_max/w, d(w) = β_min·w
//!   (α_max = 10, β_min = 0.125): Illinois at its most aggressive (no queueing delay);
//!   the delay-dependent α, β of real TCP-Illinois are not modelled, as in the table;
//! - `africa_like`: seed 000 Table I "AFRICA TCP", i(w) = a(w)/w, d(w) = w·b(w) with
//!   HighSpeed TCP's a(w), b(w) (RFC 3649 Section 5; the table prints a(w) = 0.156 w^0.8
//!   b(w)/(2 − b(w)) and b(w) = −0.4 (log w − log 38)/(log 83000 − log 38) + 0.5, which
//!   are RFC 3649's with its rounded p(w) = 0.078/w^1.2; we use the RFC's log-log
//!   interpolation of p(w), 0-2.5 % above that form): AFRICA's fast mode; its switch to
//!   Reno growth on delay is not modelled, as in the table.
//!
//! The decrease applies per *marked ACK* when ECN is on: the law asks the sender for every
//! ACK with its ECN echo (`ecn_per_ack`), which needs the receiver to echo CE per packet
//! (`TcpConfig::ecn_echo = per_packet`), so that fluid models and packets share the very
//! same law. A loss (three duplicate ACKs) applies d(w) once per loss event, at w =
//! min(FlightSize, cwnd) (`reduction_base`), and enters the shared sender's NewReno recovery. Slow start
//! (RFC 5681, +1 per ACK) runs until the first mark or loss, as the fluid law has no slow
//! start of its own.

use serde::{Deserialize, Serialize};

use super::highspeed::HighSpeedConfig;
use super::{AckEvent, CongestionControl, CongestionEvent, Window, CcInit, CcKind};
use crate::error::Result;

/// Parameters of the `aimd` kind: i(w) = a·wⁿ per unmarked ACK, d(w) = b·wᵐ per marked
/// ACK or loss event (seed 002 Section IV-A).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AimdConfig {
    pub a: f64,
    pub n: f64,
    pub b: f64,
    pub m: f64,
}

/// The window law `aimd` (registered in `super::CcConfig`).
impl CcKind for AimdConfig {
    fn build(&self, init: CcInit, field: &str) -> Result<Box<dyn CongestionControl>> {
        Ok(Box::new(Aimd::new(Law::power(self, field)?, init.initial_window, init.initial_ssthresh)))
    }

    fn growth_bounds(&self, _max_window: f64) -> Vec<(&'static str, f64, f64, f64)> {
        vec![("a", self.a, 0.0, 100.0), ("n", self.n, -2.0, 1.0), ("b", self.b, 0.0, 100.0), ("m", self.m, -2.0, 2.0)]
    }
}

impl Default for AimdConfig {
    /// Reno: 1/w per ACK, w/2 per loss (seed 000 Section II-A; RFC 5681).
    fn default() -> Self {
        AimdConfig { a: 1.0, n: -1.0, b: 0.5, m: 1.0 }
    }
}

/// The window functions i(w) (per unmarked ACK) and d(w) (per marked ACK or loss event).
#[derive(Clone, Debug, PartialEq)]
pub enum Law {
    /// i(w) = a wⁿ, d(w) = b wᵐ (seed 002 Section IV-A).
    Power { a: f64, n: f64, b: f64, m: f64 },
    /// i(w) = a(w)/w, d(w) = w b(w) with HighSpeed's a, b (seed 000 Table I, AFRICA).
    HighSpeed(HighSpeedConfig),
}

impl Law {
    /// The `aimd` law; `field` names the configuration in errors.
    pub fn power(config: &AimdConfig, field: &str) -> Result<Law> {
        let check = crate::queue::params::checker(field);
        check(config.a.is_finite() && config.a > 0.0, "a", config.a, "a positive number (Reno: 1)")?;
        check(config.n.is_finite(), "n", config.n, "a finite exponent (Reno: -1)")?;
        check(config.b.is_finite() && config.b > 0.0, "b", config.b, "a positive number (Reno: 0.5)")?;
        check(config.m.is_finite(), "m", config.m, "a finite exponent (Reno: 1)")?;
        check(
            !(config.m == 1.0 && config.b >= 1.0),
            "b",
            config.b,
            "a fraction below 1 when m = 1 (the decrease b·w must leave a window)",
        )?;
        Ok(Law::Power { a: config.a, n: config.n, b: config.b, m: config.m })
    }

    /// Seed 000 Table I, AFRICA TCP: HighSpeed's a(w), b(w).
    pub fn africa_like(config: &HighSpeedConfig, field: &str) -> Result<Law> {
        config.validate(field)?;
        Ok(Law::HighSpeed(config.clone()))
    }

    /// i(w): segments added per unmarked ACK.
    pub fn increase(&self, w: f64) -> f64 {
        match self {
            // seed 002 Section IV-A: a·wⁿ per unmarked acknowledgment.
            Law::Power { a, n, .. } => a * w.powf(*n),
            // seed 000 Table I, AFRICA: a(w)/w (RFC 3649 Section 5).
            Law::HighSpeed(p) => p.increase(w) / w,
        }
    }

    /// d(w): segments removed per marked ACK (or per loss event).
    pub fn decrease(&self, w: f64) -> f64 {
        match self {
            // seed 002 Section IV-A: b·wᵐ per marked acknowledgment.
            Law::Power { b, m, .. } => b * w.powf(*m),
            // seed 000 Table I, AFRICA: w·b(w) (RFC 3649 Section 5).
            Law::HighSpeed(p) => w * p.decrease(w),
        }
    }
}

pub struct Aimd {
    law: Law,
    state: Window,
}

impl Aimd {
    pub fn new(law: Law, initial_window: f64, initial_ssthresh: f64) -> Self {
        Aimd { law, state: Window::new(initial_window, initial_ssthresh) }
    }
}

impl CongestionControl for Aimd {
    super::window_state!();

    fn ack_signal(&mut self, ack: &AckEvent) -> bool {
        if ack.ece {
            // seed 002 Section IV-A: w −= b·wᵐ for each marked acknowledgment (seed 000 eq.
            // (1): d(w) per congestion signal). At least one segment stays (RFC 3168 Section
            // 6.1.2 lets ECN take cwnd down to one segment); slow start ends (RFC 5681
            // Section 3.1 slow start, the trait's default, until the first congestion signal).
            self.state.cwnd = (self.state.cwnd - self.law.decrease(self.state.cwnd)).max(1.0);
            self.state.ssthresh = self.state.cwnd;
        }
        ack.ece
    }

    fn congestion_avoidance(&mut self, _ack: &AckEvent) {
        // seed 002 Section IV-A: w += a·wⁿ for each unmarked acknowledgment (seed 000
        // eq. (1): i(w) per ACK).
        self.state.cwnd += self.law.increase(self.state.cwnd);
    }

    /// One decrease d(w) per loss event (seed 000 eq. (1), d(w) per drop): w − d(w) at w =
    /// min(FlightSize, cwnd), at least two segments (RFC 5681 eq. (4) floor); after a timeout
    /// cwnd = 1 segment (RFC 5681 Section 3.1; the trait's `on_rto`).
    fn reduced_window(&self, event: &CongestionEvent) -> f64 {
        let w = super::reduction_base(event, self.state.cwnd);
        (w - self.law.decrease(w)).max(2.0)
    }

    fn ecn_per_ack(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::highspeed::{highspeed_decrease, highspeed_increase};
    use super::super::reno::Reno;
    use super::*;
    use crate::rng::{stream, RngCore, StreamKind};

    fn ack(ece: bool) -> AckEvent {
        AckEvent { ece, ..crate::tcp::cc::test_events::ack(1) }
    }

    fn loss(in_flight: u64) -> CongestionEvent {
        CongestionEvent { now: 0, in_flight, srtt_ns: 0, min_rtt_ns: 0 }
    }

    fn power(a: f64, n: f64, b: f64, m: f64) -> Law {
        Law::power(&AimdConfig { a, n, b, m }, "cc").unwrap()
    }

    #[test]
    fn reno_parameters_reproduce_reno() {
        // a = 1, n = −1, b = 1/2, m = 1: 1/w per ACK, w/2 per loss, the same as reno.rs.
        let mut aimd = Aimd::new(Law::power(&AimdConfig::default(), "cc").unwrap(), 2.0, 1e9);
        let mut reno = Reno::new(2.0, 1e9);
        for step in 0..2000 {
            aimd.on_ack(&ack(false));
            reno.on_ack(&ack(false));
            if step == 500 {
                aimd.on_loss(&loss(40));
                reno.on_loss(&loss(40));
            }
            if step == 1500 {
                aimd.on_rto(&loss(30));
                reno.on_rto(&loss(30));
            }
            assert!((aimd.window() - reno.window()).abs() < 1e-9, "step {step}");
            assert_eq!(aimd.ssthresh(), reno.ssthresh());
        }
    }

    #[test]
    fn power_law_per_unmarked_and_marked_ack() {
        for (a, n, b, m) in
            [(1.0, -1.0, 0.5, 1.0), (0.01, 0.0, 0.125, 1.0), (0.125, -0.25, 0.5, 1.0), (0.5, -1.0, 0.01, 2.0)]
        {
            let mut cc = Aimd::new(power(a, n, b, m), 50.0, 50.0);
            let w: f64 = 50.0;
            cc.on_ack(&ack(false));
            let grown = w + a * w.powf(n);
            assert!((cc.window() - grown).abs() < 1e-12, "increase a w^n for ({a}, {n}, {b}, {m})");
            cc.on_ack(&ack(true));
            let shrunk = grown - b * grown.powf(m);
            assert!((cc.window() - shrunk.max(1.0)).abs() < 1e-12, "decrease b w^m for ({a}, {n}, {b}, {m})");
            assert_eq!(cc.ssthresh(), cc.window());
            // a loss applies d(w) once, at w = min(FlightSize, cwnd)
            let w = cc.window().min(20.0);
            cc.on_loss(&loss(20));
            assert!((cc.window() - (w - b * w.powf(m)).max(2.0)).abs() < 1e-12);
            let mut big = Aimd::new(power(a, n, b, m), 50.0, 50.0);
            big.on_loss(&loss(1000));
            assert!((big.window() - (50.0 - b * 50f64.powf(m)).max(2.0)).abs() < 1e-12, "cwnd bounds FlightSize");
        }
        // A marked ACK in slow start ends slow start.
        let mut cc = Aimd::new(power(1.0, -1.0, 0.5, 1.0), 2.0, 1e9);
        cc.on_ack(&ack(false));
        assert_eq!(cc.window(), 3.0);
        cc.on_ack(&ack(true));
        assert_eq!((cc.window(), cc.ssthresh()), (1.5, 1.5));
        assert!(cc.ecn_per_ack());
    }

    #[test]
    fn mimd_law_settles_at_its_fluid_equilibrium() {
        // n = 0, m = 1 under independent marks of probability p: the drift per ACK,
        // (1 − p)·a − p·b·w, is linear in w, so the ACK-averaged window is exactly the fluid
        // equilibrium of seed 002 eq. (31): w* = a(1 − p)/(b p).
        let (a, b, p) = (0.05, 0.125, 0.002);
        let mut cc = Aimd::new(power(a, 0.0, b, 1.0), 100.0, 100.0);
        let mut rng = stream(3, StreamKind::Flow, 0);
        let (mut sum, mut count) = (0.0, 0u64);
        for i in 0..4_000_000u64 {
            cc.on_ack(&ack(rng.gen::<f64>() < p));
            if i > 100_000 {
                sum += cc.window();
                count += 1;
            }
        }
        let expected = a * (1.0 - p) / (b * p);
        assert!((sum / count as f64 / expected - 1.0).abs() < 0.02, "mean {} vs {expected}", sum / count as f64);
    }

    #[test]
    fn africa_like_follows_table_i() {
        let mut cc = Aimd::new(Law::africa_like(&HighSpeedConfig::default(), "cc").unwrap(), 1000.0, 1000.0);
        cc.on_ack(&ack(false));
        assert!((cc.window() - (1000.0 + highspeed_increase(1000.0) / 1000.0)).abs() < 1e-12);
        // Table I's printed form of a(w): 0.156 w^0.8 b(w)/(2 − b(w)) (p(w) = 0.078/w^1.2).
        let w: f64 = 1000.0;
        let printed = 0.156 * w.powf(0.8) * highspeed_decrease(w) / (2.0 - highspeed_decrease(w));
        assert!((printed / highspeed_increase(w) - 1.0).abs() < 0.025, "{printed} vs {}", highspeed_increase(w));
        cc.on_loss(&loss(1000));
        assert!((cc.window() - 1000.0 * (1.0 - highspeed_decrease(1000.0))).abs() < 1e-9);
        // below Low_Window AFRICA's functions are Reno's
        let law = Law::africa_like(&HighSpeedConfig::default(), "cc").unwrap();
        assert_eq!((law.increase(20.0), law.decrease(20.0)), (1.0 / 20.0, 10.0));
    }

    #[test]
    fn invalid_parameters_name_the_field() {
        let err = Law::power(&AimdConfig { b: 1.0, ..AimdConfig::default() }, "g.cc").err().unwrap();
        assert!(err.to_string().contains("g.cc.b"), "{err}");
        let err = Law::power(&AimdConfig { a: 0.0, ..AimdConfig::default() }, "g.cc").err().unwrap();
        assert!(err.to_string().contains("g.cc.a"), "{err}");
    }
}
