//! Cx-TCP: Reno with a per-ACK probabilistic backoff driven by the queueing delay
//! (seed 001: "On the fair coexistence of
//! loss- and delay-based TCP", Algorithm 1, Fig. 1, Sections II-III).
//!
//! On every ACK the flow estimates the queueing delay δ, draws a uniform number and halves
//! cwnd with probability p(δ); otherwise it grows as Reno. Losses are handled as Reno.
//! The backoff part is [`CxBackoff`], a reusable piece that any window law can own (seed 001
//! Section V-B applies it to HighSpeed TCP).
//!
//! What the paper leaves open and how it is closed here (also in docs/congestion/cx.md):
//! - the proportionality constant of the RTT weight ("set proportionally to the ratio of the
//!   average RTT and the cwnd value", Section II): we use w = avgRTT / (cwnd · τ) with an
//!   averaging time τ, the same for every flow (default 100 ms, one RTT of Table I's
//!   flows: w = 0.1 per ACK at the Fig. 2 operating point, RTT 100 ms and ~10 packets per
//!   window). Averaging times of 0.5-1 s made 30 flows oscillate (docs/congestion/cx.md);
//! - Algorithm 1 draws on every ACK with no limit per round trip; `once_per_rtt` (off by
//!   default) allows one backoff per window of data, as FreeBSD's `cc_hd` (an implementation
//!   of the same algorithm that treats a backoff as an ECN signal) does;
//! - the window after a backoff is floored at 2 segments and becomes ssthresh too, so a
//!   backoff ends slow start (the paper does not treat slow start, Section II);
//! - δmax is the fixed `delta_max_ns` by default (the paper's example after Lemma 4.1); with
//!   `delta_max_observed` it is each flow's observed RTTmax − RTTmin instead (Section II
//!   assumes "minimum (RTTmin) and maximum round-trip times (RTTmax) can be estimated
//!   reliably by all delay-based flows"; FreeBSD `cc_hd` uses maxrtt − minrtt).

use serde::{Deserialize, Serialize};

use super::reno::Reno;
use super::{AckEvent, CongestionControl, CcInit, CcKind};
use crate::error::{EngineError, Result};
use crate::rng::{Rng, RngCore};
use crate::time::{to_secs, Time};

const MS: Time = 1_000_000;

/// Parameters of the Cx backoff (seed 001 Fig. 1 and Algorithm 1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CxParams {
    /// δmin: no backoff at or below this queueing delay. Seed 001 Section III-A: 5 ms.
    pub delta_min_ns: Time,
    /// δth: the backoff probability peaks at this queueing delay. Seed 001 Section III-A: 20 ms.
    pub delta_threshold_ns: Time,
    /// δmax: the probability is back to zero at this queueing delay. Seed 001 Section IV,
    /// comment after Lemma 4.1 (the paper's example): 100 ms. Not used when
    /// `delta_max_observed` is set.
    pub delta_max_ns: Time,
    /// δmax = RTTmax − RTTmin as the flow observes them (largest and smallest RTT sample so
    /// far) instead of `delta_max_ns`. Seed 001 Section II assumes RTTmin and RTTmax "can be
    /// estimated reliably by all delay-based flows"; FreeBSD `cc_hd` does this. Off by default.
    pub delta_max_observed: bool,
    /// pmax: the peak per-ACK backoff probability. Seed 001 Section III-A: 5 %.
    pub p_max: f64,
    /// τ: the averaging time of the RTT estimate; the per-ACK weight is avgRTT/(cwnd·τ)
    /// (seed 001 Section II gives the proportionality only; τ = 100 ms is our choice).
    pub averaging_time_ns: Time,
    /// At most one backoff per window of data (not in Algorithm 1; FreeBSD `cc_hd` variant).
    pub once_per_rtt: bool,
}

/// The window law `cx` (registered in `super::CcConfig`).
impl CcKind for CxParams {
    fn build(&self, init: CcInit, field: &str) -> Result<Box<dyn CongestionControl>> {
        Ok(Box::new(Cx::new(init.initial_window, init.initial_ssthresh, self, init.rng, field)?))
    }
}

impl Default for CxParams {
    fn default() -> Self {
        CxParams {
            delta_min_ns: 5 * MS,
            delta_threshold_ns: 20 * MS,
            delta_max_ns: 100 * MS,
            delta_max_observed: false,
            p_max: 0.05,
            averaging_time_ns: 100 * MS,
            once_per_rtt: false,
        }
    }
}

impl CxParams {
    /// Check the parameters; `field` names their place in the scenario.
    pub fn validate(&self, field: &str) -> Result<()> {
        if self.delta_threshold_ns <= self.delta_min_ns {
            return Err(EngineError::invalid(
                format!("{field}.delta_threshold_ns"),
                self.delta_threshold_ns,
                format!("a queueing delay above delta_min_ns = {}", self.delta_min_ns),
            ));
        }
        // With `delta_max_observed` the fixed δmax is not used, so it is not checked.
        if !self.delta_max_observed && self.delta_max_ns <= self.delta_threshold_ns {
            return Err(EngineError::invalid(
                format!("{field}.delta_max_ns"),
                self.delta_max_ns,
                format!("a queueing delay above delta_threshold_ns = {}", self.delta_threshold_ns),
            ));
        }
        let check = crate::queue::params::checker(field);
        check(self.p_max > 0.0 && self.p_max <= 1.0, "p_max", self.p_max, "a probability in (0, 1]")?;
        check(
            self.averaging_time_ns > 0,
            "averaging_time_ns",
            self.averaging_time_ns as f64,
            "a positive averaging time",
        )?;
        Ok(())
    }
}

/// The Cx per-ACK backoff decision: the smoothed queueing delay δ and the draw against p(δ).
pub struct CxBackoff {
    delta_min: f64,
    delta_threshold: f64,
    /// δmax, seconds: the fixed parameter, or with `delta_max_observed` the latest
    /// RTTmax − RTTmin (0 before the first sample).
    delta_max: f64,
    delta_max_observed: bool,
    /// Largest RTT sample so far, seconds (used with `delta_max_observed`).
    max_rtt: f64,
    p_max: f64,
    averaging_time: f64,
    once_per_rtt: bool,
    /// Weighted average of the RTT samples, seconds (None before the first sample).
    avg_rtt: Option<f64>,
    /// With `once_per_rtt`: no further backoff until `snd_una` reaches this segment.
    recover: u64,
    rng: Rng,
    /// Backoffs taken so far.
    pub backoffs: u64,
}

impl CxBackoff {
    /// `rng` is the flow's own random stream (`CcInit::rng`).
    pub fn new(params: &CxParams, rng: Rng, field: &str) -> Result<Self> {
        params.validate(field)?;
        Ok(CxBackoff {
            delta_min: to_secs(params.delta_min_ns),
            delta_threshold: to_secs(params.delta_threshold_ns),
            delta_max: if params.delta_max_observed { 0.0 } else { to_secs(params.delta_max_ns) },
            delta_max_observed: params.delta_max_observed,
            max_rtt: 0.0,
            p_max: params.p_max,
            averaging_time: to_secs(params.averaging_time_ns),
            once_per_rtt: params.once_per_rtt,
            avg_rtt: None,
            recover: 0,
            rng,
            backoffs: 0,
        })
    }

    /// Seed 001 Algorithm 1 and Fig. 1 (eq. (4) in Section IV is the same shape with
    /// δ measured from δmin): p rises linearly from 0 at δmin to pmax at δth (Region A) and
    /// falls linearly back to 0 at δmax (Region B); 0 elsewhere. An observed δmax at or
    /// below δth leaves Region B empty and Region A whole.
    pub fn probability(&self, delta: f64) -> f64 {
        if delta <= self.delta_min {
            0.0
        } else if delta <= self.delta_threshold {
            // Algorithm 1: p = pmax (δ − δmin)/(δth − δmin) for δmin < δ ≤ δth
            self.p_max * (delta - self.delta_min) / (self.delta_threshold - self.delta_min)
        } else if delta < self.delta_max {
            // Algorithm 1: p = pmax (δmax − δ)/(δmax − δth) for δth < δ < δmax
            self.p_max * (self.delta_max - delta) / (self.delta_max - self.delta_threshold)
        } else {
            0.0
        }
    }

    /// The δmax in use, seconds: the fixed parameter, or the latest observed
    /// RTTmax − RTTmin with `delta_max_observed`.
    pub fn delta_max(&self) -> f64 {
        self.delta_max
    }

    /// Per-ACK weight of a new RTT sample. Seed 001 Section II: "the RTT weight is set
    /// proportionally to the ratio of the average RTT and the cwnd value", so that flows
    /// with different RTTs average over the same time: w = avgRTT/(cwnd·τ), at most 1.
    pub fn weight(&self, avg_rtt: f64, cwnd: f64) -> f64 {
        (avg_rtt / (cwnd.max(1.0) * self.averaging_time)).min(1.0)
    }

    /// Weighted average RTT, seconds.
    pub fn avg_rtt(&self) -> Option<f64> {
        self.avg_rtt
    }

    /// Fold one RTT sample into the average and return δ = avgRTT − RTTmin (seed 001
    /// Section II: "the difference between the weighted average of the RTT and its minimum
    /// observed value"). With `delta_max_observed`, also δmax = RTTmax − RTTmin.
    pub fn update_delay(&mut self, rtt: f64, min_rtt: f64, cwnd: f64) -> f64 {
        let avg = match self.avg_rtt {
            None => rtt,
            Some(avg) => {
                let w = self.weight(avg, cwnd);
                (1.0 - w) * avg + w * rtt
            }
        };
        self.avg_rtt = Some(avg);
        if self.delta_max_observed {
            // Seed 001 Section II: RTTmin and RTTmax "can be estimated reliably by all
            // delay-based flows", so δmax = RTTmax − RTTmin, RTTmax the largest sample so far
            // (as FreeBSD cc_hd's maxrtt − minrtt). avgRTT ≤ RTTmax, so δ ≤ δmax: a full
            // buffer gives p = 0 whatever its size.
            self.max_rtt = self.max_rtt.max(rtt);
            self.delta_max = (self.max_rtt - min_rtt).max(0.0);
        }
        (avg - min_rtt).max(0.0)
    }

    /// Seed 001 Algorithm 1, one ACK: estimate δ, draw rand uniformly from [0, 1) and
    /// return true ("reduce cwnd by 0.5·cwnd") if rand < p(δ). The caller applies the
    /// backoff or, when false, its normal increase.
    pub fn on_ack(&mut self, ack: &AckEvent, cwnd: f64) -> bool {
        let Some(rtt_ns) = ack.rtt_sample_ns else { return false };
        if ack.min_rtt_ns == 0 {
            return false;
        }
        let delta = self.update_delay(to_secs(rtt_ns), to_secs(ack.min_rtt_ns), cwnd);
        if self.once_per_rtt && ack.snd_una < self.recover {
            return false;
        }
        let p = self.probability(delta);
        if p <= 0.0 {
            return false;
        }
        let back_off = self.rng.gen::<f64>() < p;
        if back_off {
            self.backoffs += 1;
            self.recover = ack.high_tx;
        }
        back_off
    }
}

/// Cx-TCP: Reno's window law with the Cx backoff (seed 001 Algorithm 1).
pub struct Cx {
    /// The window law: Reno's (losses and growth).
    reno: Reno,
    backoff: CxBackoff,
}

impl Cx {
    pub fn new(initial_window: f64, initial_ssthresh: f64, params: &CxParams, rng: Rng, field: &str) -> Result<Self> {
        Ok(Cx { reno: Reno::new(initial_window, initial_ssthresh), backoff: CxBackoff::new(params, rng, field)? })
    }

    pub fn backoff(&self) -> &CxBackoff {
        &self.backoff
    }
}

/// Seed 001 Algorithm 1: "reduce cwnd by 0.5·cwnd"; floored at 2 segments as RFC 5681
/// eq. (4) floors ssthresh.
pub fn halve_window(cwnd: f64) -> f64 {
    (0.5 * cwnd).max(2.0)
}

impl CongestionControl for Cx {
    super::window_state!(reno.state);

    fn ack_signal(&mut self, ack: &AckEvent) -> bool {
        let reduce = self.backoff.on_ack(ack, self.reno.window());
        if reduce {
            // Seed 001 Algorithm 1: "if rand < p then reduce cwnd by 0.5·cwnd"; ssthresh
            // follows so that a backoff in slow start ends it.
            self.reno.reduce_to(halve_window(self.reno.window()));
        }
        reduce
    }

    /// Otherwise Reno's growth (RFC 5681 Section 3.1; seed 001 Algorithm 1 "else increment
    /// cwnd by 1/cwnd"). Losses and timeouts as Reno (seed 001 Section II): the trait's
    /// defaults, RFC 5681 Section 3.2 (ssthresh = FlightSize/2) and Section 3.1 eq. (4).
    fn congestion_avoidance(&mut self, ack: &AckEvent) {
        self.reno.congestion_avoidance(ack);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, StreamKind};
    use crate::tcp::cc::CongestionEvent;

    fn rng(index: u64) -> Rng {
        stream(42, StreamKind::Flow, index)
    }

    fn ack(rtt_ms: f64, min_rtt_ms: f64) -> AckEvent {
        AckEvent {
            now: 0,
            acked_segments: 1,
            delivered_segments: 1,
            rtt_sample_ns: Some((rtt_ms * 1e6) as Time),
            min_rtt_ns: (min_rtt_ms * 1e6) as Time,
            srtt_ns: 0,
            in_flight: 10,
            ece: false,
            snd_una: 0,
            high_tx: 10,
        }
    }

    fn backoff(params: CxParams) -> CxBackoff {
        CxBackoff::new(&params, rng(0), "cc").unwrap()
    }

    #[test]
    fn probability_is_zero_then_rises_to_p_max_then_falls_to_zero() {
        let b = backoff(CxParams::default());
        let close = |a: f64, e: f64| assert!((a - e).abs() < 1e-12, "{a} vs {e}");
        // breakpoints (δmin = 5 ms, δth = 20 ms, δmax = 100 ms, pmax = 0.05)
        close(b.probability(0.0), 0.0);
        close(b.probability(0.005), 0.0);
        close(b.probability(0.020), 0.05);
        close(b.probability(0.100), 0.0);
        close(b.probability(0.500), 0.0);
        // Region A: linear, pmax (δ − δmin)/(δth − δmin)
        close(b.probability(0.010), 0.05 * 5.0 / 15.0);
        close(b.probability(0.0125), 0.025);
        // Region B: linear, pmax (δmax − δ)/(δmax − δth)
        close(b.probability(0.060), 0.025);
        close(b.probability(0.090), 0.05 * 10.0 / 80.0);
        // monotone on each side of δth
        let grid: Vec<f64> = (0..=1100).map(|i| i as f64 * 1e-4).collect();
        for pair in grid.windows(2) {
            let (p0, p1) = (b.probability(pair[0]), b.probability(pair[1]));
            if pair[1] <= 0.020 {
                assert!(p1 >= p0);
            } else if pair[0] >= 0.020 {
                assert!(p1 <= p0);
            }
        }
    }

    #[test]
    fn smoothing_weight_is_avg_rtt_over_cwnd_and_averaging_time() {
        let b = backoff(CxParams::default());
        // default τ = 100 ms: w = avgRTT/(cwnd·τ) = 0.1 s / (10 · 0.1 s) = 0.1
        assert!((b.weight(0.1, 10.0) - 0.1).abs() < 1e-15);
        let slow = CxParams { averaging_time_ns: 1000 * MS, ..CxParams::default() };
        let mut b = backoff(slow.clone());
        // τ = 1 s: 0.1 s / (10 · 1 s) = 0.01 (PERT's per-ACK weight at this point)
        assert!((b.weight(0.1, 10.0) - 0.01).abs() < 1e-15);
        // a flow with twice the RTT and the same window weighs samples twice as much
        assert!((b.weight(0.2, 10.0) - 0.02).abs() < 1e-15);
        assert!((b.weight(0.1, 20.0) - 0.005).abs() < 1e-15, "and half as much with twice the window");
        assert_eq!(b.weight(5.0, 1.0), 1.0, "capped at 1");
        // first sample initialises the average
        let d = b.update_delay(0.100, 0.100, 10.0);
        assert_eq!((b.avg_rtt(), d), (Some(0.100), 0.0));
        // one sample of 0.2 s: avg = 0.99·0.1 + 0.01·0.2 = 0.101
        let d = b.update_delay(0.200, 0.100, 10.0);
        assert!((b.avg_rtt().unwrap() - 0.101).abs() < 1e-12);
        assert!((d - 0.001).abs() < 1e-12);
        // A step of the RTT from 0.10 to 0.13 s decays with time constant τ whatever the
        // flow's RTT and window: the samples arrive cwnd per avgRTT, each weighs
        // avgRTT/(cwnd·τ), so after τ seconds of ACKs about e^-1 of the step remains.
        for (min_rtt, cwnd) in [(0.100, 10.0), (0.030, 40.0), (0.200, 5.0)] {
            let mut b = backoff(slow.clone());
            b.update_delay(min_rtt, min_rtt, cwnd);
            let mut elapsed = 0.0;
            while elapsed < 1.0 {
                let avg = b.avg_rtt().unwrap();
                b.update_delay(min_rtt + 0.030, min_rtt, cwnd);
                elapsed += avg / cwnd; // one ACK every avgRTT/cwnd seconds
            }
            let remaining = (min_rtt + 0.030 - b.avg_rtt().unwrap()) / 0.030;
            assert!((remaining - (-1.0f64).exp()).abs() < 0.03, "RTT {min_rtt}, cwnd {cwnd}: {remaining}");
        }
    }

    #[test]
    fn backoff_frequency_matches_p_of_delta() {
        // A fixed δ: every sample equals min RTT + δ, and the average starts there.
        for (delta_ms, cwnd) in [(3.0, 10.0), (10.0, 10.0), (20.0, 30.0), (60.0, 5.0), (120.0, 10.0)] {
            let mut b = CxBackoff::new(&CxParams::default(), rng(delta_ms as u64), "cc").unwrap();
            let p = b.probability(delta_ms / 1000.0);
            let n = 200_000u64;
            let mut hits = 0u64;
            for _ in 0..n {
                if b.on_ack(&ack(100.0 + delta_ms, 100.0), cwnd) {
                    hits += 1;
                }
            }
            let rate = hits as f64 / n as f64;
            let sigma = (p * (1.0 - p) / n as f64).sqrt();
            assert!((rate - p).abs() <= 4.0 * sigma + 1e-12, "δ = {delta_ms} ms: rate {rate} vs p {p}");
            assert_eq!(b.backoffs, hits);
        }
    }

    #[test]
    fn once_per_rtt_allows_one_backoff_per_window() {
        let params = CxParams { p_max: 1.0, once_per_rtt: true, ..CxParams::default() };
        let mut b = backoff(params);
        let mut a = ack(120.0, 100.0); // δ = 20 ms: p = pmax = 1
        a.snd_una = 5;
        a.high_tx = 30;
        assert!(b.on_ack(&a, 10.0));
        for una in 6..30 {
            a.snd_una = una;
            assert!(!b.on_ack(&a, 10.0), "blocked until segment 30 is acknowledged");
        }
        a.snd_una = 30;
        assert!(b.on_ack(&a, 10.0));
        // without the option (Algorithm 1) every ACK may back off
        let mut b = backoff(CxParams { p_max: 1.0, ..CxParams::default() });
        assert!((0..10).all(|_| b.on_ack(&a, 10.0)));
    }

    #[test]
    fn no_rtt_sample_or_minimum_means_no_backoff() {
        let mut b = backoff(CxParams { p_max: 1.0, ..CxParams::default() });
        let mut a = ack(120.0, 100.0);
        a.rtt_sample_ns = None;
        assert!(!b.on_ack(&a, 10.0));
        let mut a = ack(120.0, 0.0);
        a.min_rtt_ns = 0;
        assert!(!b.on_ack(&a, 10.0));
        assert_eq!(b.avg_rtt(), None);
    }

    #[test]
    fn window_law_phase_by_phase() {
        // p_max = 1 makes the draw certain when every sample sits at δ = δth = 20 ms.
        let certain = CxParams { p_max: 1.0, ..CxParams::default() };
        // slow start with δ = 2 ms < δmin: +1 per ACK, as Reno, and no draw
        let mut cx = Cx::new(2.0, 1e9, &certain, rng(1), "cc").unwrap();
        for _ in 0..6 {
            cx.on_ack(&ack(102.0, 100.0));
        }
        assert_eq!(cx.window(), 8.0);
        assert_eq!(cx.backoff().backoffs, 0);
        // congestion avoidance with δ = 0: +1/cwnd per ACK (Algorithm 1 "else" branch)
        let mut cx = Cx::new(16.0, 16.0, &certain, rng(1), "cc").unwrap();
        cx.on_ack(&ack(120.0, 120.0));
        assert!((cx.window() - (16.0 + 1.0 / 16.0)).abs() < 1e-12);
        // δ = δth, p = 1: the ACK halves cwnd instead of growing it, and sets ssthresh
        let mut cx = Cx::new(16.0, 16.0, &certain, rng(1), "cc").unwrap();
        cx.on_ack(&ack(120.0, 100.0));
        assert_eq!((cx.window(), cx.ssthresh()), (8.0, 8.0));
        assert_eq!(cx.backoff().backoffs, 1);
        // a backoff in slow start ends slow start; repeated backoffs stop at 2 segments
        let mut cx = Cx::new(10.0, 1e9, &certain, rng(1), "cc").unwrap();
        cx.on_ack(&ack(120.0, 100.0));
        assert_eq!((cx.window(), cx.ssthresh()), (5.0, 5.0));
        cx.on_ack(&ack(120.0, 100.0));
        assert_eq!(cx.window(), 2.5);
        cx.on_ack(&ack(120.0, 100.0));
        assert_eq!(cx.window(), 2.0);
        cx.on_ack(&ack(120.0, 100.0));
        assert_eq!(cx.window(), 2.0);
        // an ACK of no new data changes nothing
        let mut a = ack(120.0, 100.0);
        a.acked_segments = 0;
        cx.on_ack(&a);
        assert_eq!(cx.backoff().backoffs, 4);
    }

    #[test]
    fn losses_are_handled_as_reno() {
        let mut cx = Cx::new(20.0, 1e9, &CxParams::default(), rng(2), "cc").unwrap();
        cx.on_loss(&CongestionEvent { now: 0, in_flight: 20, srtt_ns: 0, min_rtt_ns: 0 });
        assert_eq!((cx.window(), cx.ssthresh()), (10.0, 10.0));
        cx.on_ack(&ack(100.0, 100.0)); // δ = 0: no backoff, +1/w
        assert!((cx.window() - 10.1).abs() < 1e-12);
        cx.on_rto(&CongestionEvent { now: 0, in_flight: 3, srtt_ns: 0, min_rtt_ns: 0 });
        assert_eq!((cx.window(), cx.ssthresh()), (1.0, 2.0));
        // ECN is a loss (trait default, RFC 3168)
        let mut cx = Cx::new(20.0, 1e9, &CxParams::default(), rng(2), "cc").unwrap();
        cx.on_ecn(&CongestionEvent { now: 0, in_flight: 16, srtt_ns: 0, min_rtt_ns: 0 });
        assert_eq!(cx.window(), 8.0);
    }

    #[test]
    fn parameters_are_validated_with_the_field_named() {
        let bad = [
            (CxParams { delta_threshold_ns: 5 * MS, ..CxParams::default() }, "cc.delta_threshold_ns"),
            (CxParams { delta_max_ns: 20 * MS, ..CxParams::default() }, "cc.delta_max_ns"),
            (CxParams { p_max: 0.0, ..CxParams::default() }, "cc.p_max"),
            (CxParams { p_max: 1.5, ..CxParams::default() }, "cc.p_max"),
            (CxParams { averaging_time_ns: 0, ..CxParams::default() }, "cc.averaging_time_ns"),
        ];
        for (params, field) in bad {
            let message = CxBackoff::new(&params, rng(0), "cc").err().expect("invalid").to_string();
            assert!(message.contains(field), "{message}");
        }
    }

    #[test]
    fn observed_delta_max_is_largest_rtt_minus_minimum() {
        // Seed 001 Section II: δmax = RTTmax − RTTmin as the flow estimates them.
        let params = CxParams { delta_max_observed: true, ..CxParams::default() };
        let mut b = backoff(params);
        let close = |a: f64, e: f64| assert!((a - e).abs() < 1e-12, "{a} vs {e}");
        b.update_delay(0.100, 0.100, 10.0);
        close(b.delta_max(), 0.0);
        // samples up to 180 ms over a 100 ms minimum: δmax = 80 ms
        for rtt in [0.150, 0.180, 0.120] {
            b.update_delay(rtt, 0.100, 10.0);
        }
        close(b.delta_max(), 0.080);
        // Region B now ends at 80 ms: p = pmax (80 − δ)/(80 − 20)
        close(b.probability(0.050), 0.05 * 30.0 / 60.0);
        close(b.probability(0.079), 0.05 * 1.0 / 60.0);
        close(b.probability(0.080), 0.0);
        // Region A does not depend on δmax
        close(b.probability(0.0125), 0.025);
        close(b.probability(0.020), 0.05);
        // a smaller minimum later raises δmax with it (cc_hd's maxrtt − minrtt)
        b.update_delay(0.120, 0.090, 10.0);
        close(b.delta_max(), 0.090);
        // δmax never below the smoothed δ: the average is a mix of samples ≤ RTTmax
        let mut b = backoff(CxParams { delta_max_observed: true, ..CxParams::default() });
        for i in 0..500 {
            let rtt = 0.1 + 0.1 * ((i as f64) * 0.37).sin().abs();
            let d = b.update_delay(rtt, 0.1, 10.0);
            assert!(d <= b.delta_max() + 1e-15);
        }
    }

    #[test]
    fn observed_delta_max_below_threshold_leaves_region_a_whole() {
        // Before the queue has ever exceeded δth, Region B is empty: a δ equal to the observed
        // maximum still gets Region A's probability (the fixed-δmax cut-off must not apply).
        let mut b = backoff(CxParams { delta_max_observed: true, ..CxParams::default() });
        let d = b.update_delay(0.115, 0.100, 10.0);
        assert!((d - 0.015).abs() < 1e-12 && (b.delta_max() - 0.015).abs() < 1e-12);
        assert!((b.probability(d) - 0.05 * 10.0 / 15.0).abs() < 1e-12);
        // and the draw matches it: every sample at 115 ms over 100 ms
        let n = 100_000u64;
        let hits = (0..n).filter(|_| b.on_ack(&ack(115.0, 100.0), 10.0)).count() as f64;
        let p = 0.05 * 10.0 / 15.0;
        assert!((hits / n as f64 - p).abs() < 4.0 * (p * (1.0 - p) / n as f64).sqrt());
    }

    #[test]
    fn full_buffer_gives_no_backoff_with_observed_delta_max() {
        // A queue held at the top of an 80 ms buffer (samples 100 → 180 ms): the fixed
        // δmax = 100 ms puts δ = 80 ms in Region B (p = 1.25 %); the observed δmax is 80 ms,
        // so p = 0 and the flow reacts to losses only (Section II, property (ii)).
        let mut fixed = backoff(CxParams { p_max: 1.0, ..CxParams::default() });
        let mut observed = backoff(CxParams { p_max: 1.0, delta_max_observed: true, ..CxParams::default() });
        fixed.update_delay(0.100, 0.100, 10.0);
        observed.update_delay(0.100, 0.100, 10.0);
        let (mut d_fixed, mut d_observed) = (0.0, 0.0);
        for _ in 0..2000 {
            d_fixed = fixed.update_delay(0.180, 0.100, 10.0);
            d_observed = observed.update_delay(0.180, 0.100, 10.0);
        }
        assert!((d_fixed - 0.080).abs() < 1e-9 && (fixed.probability(d_fixed) - 0.25).abs() < 1e-6);
        assert!((d_observed - 0.080).abs() < 1e-9);
        // the average approaches RTTmax from below, so p is 0 up to rounding
        assert!(observed.probability(d_observed) < 1e-12);
        assert_eq!(observed.probability(observed.delta_max()), 0.0);
        assert!((0..1000).all(|_| !observed.on_ack(&ack(180.0, 100.0), 10.0)));
    }

    #[test]
    fn fixed_delta_max_is_the_default_and_unchanged() {
        let mut b = backoff(CxParams::default());
        assert_eq!(b.delta_max(), 0.1);
        for rtt in [0.100, 0.250, 0.130] {
            b.update_delay(rtt, 0.100, 10.0);
        }
        assert_eq!(b.delta_max(), 0.1, "samples do not move a fixed δmax");
        // with the option the fixed value is not used, so it is not validated either
        let params = CxParams { delta_max_observed: true, delta_max_ns: 0, ..CxParams::default() };
        assert!(CxBackoff::new(&params, rng(0), "cc").is_ok());
        let json = r#"{"delta_max_observed": true}"#;
        let parsed: CxParams = serde_json::from_str(json).unwrap();
        assert_eq!(parsed, CxParams { delta_max_observed: true, ..CxParams::default() });
    }

    #[test]
    fn same_stream_same_decisions() {
        let run = |index| {
            let mut b = CxBackoff::new(&CxParams::default(), rng(index), "cc").unwrap();
            (0..2000).map(|_| b.on_ack(&ack(115.0, 100.0), 10.0)).collect::<Vec<_>>()
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
    }
}
