//! PERT, Probabilistic Early Response TCP (Bhandarkar, Reddy, Zhang, Loguinov, "Emulating
//! AQM from end hosts", ACM SIGCOMM 2007), the delay-based scheme seed 001 builds on and
//! compares against (seed 001 Sections II and V-A, its reference [17]).
//!
//! PERT emulates gentle RED at the sender: the congestion signal is the queueing delay
//! estimated as srtt_0.99 − RTTmin, where srtt_0.99 is an RTT average with history weight
//! 0.99 per ACK; on each ACK the flow responds early with a probability that rises linearly
//! from 0 at Tmin = 5 ms to pmax = 0.05 at Tmax = 10 ms and then linearly to 1 at 2·Tmax,
//! reducing cwnd by β = 0.35 (to 0.65·cwnd), at most once per round trip. Losses are handled
//! as Reno. The default values were checked against the ns-3 port of PERT (`TcpPertRed`:
//! Thresh1 5 ms, Thresh2 10 ms, Thresh3 20 ms, MaxP 0.05, Beta 0.35, srtt ← 0.99·srtt +
//! 0.01·rtt); the paper's text itself was not available to us (docs/congestion/pert.md).
//!
//! Choices where sources differ or are silent: the response applies in slow start too and
//! sets ssthresh to the reduced window (the ns-3 port responds only in congestion
//! avoidance); the window after a response is floored at 2 segments (RFC 5681 eq. (4)).

use serde::{Deserialize, Serialize};

use super::reno::Reno;
use super::{AckEvent, CongestionControl, CcInit, CcKind};
use crate::error::{EngineError, Result};
use crate::rng::{Rng, RngCore};
use crate::time::{to_secs, Time};

const MS: Time = 1_000_000;

/// Parameters of PERT's early response (defaults: Bhandarkar et al. 2007; ns-3 `TcpPertRed`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PertParams {
    /// Tmin: no early response below this queueing delay (5 ms).
    pub t_min_ns: Time,
    /// Tmax: the response probability reaches `p_max` here (10 ms); it reaches 1 at 2·Tmax.
    pub t_max_ns: Time,
    /// pmax: response probability at Tmax (0.05).
    pub p_max: f64,
    /// History weight of the RTT average srtt_0.99 (0.99: srtt ← 0.99·srtt + 0.01·rtt per ACK).
    pub srtt_weight: f64,
    /// β: fraction of cwnd given up on an early response (0.35: cwnd ← 0.65·cwnd).
    pub beta: f64,
}

/// The window law `pert` (registered in `super::CcConfig`).
impl CcKind for PertParams {
    fn build(&self, init: CcInit, field: &str) -> Result<Box<dyn CongestionControl>> {
        Ok(Box::new(Pert::new(init.initial_window, init.initial_ssthresh, self, init.rng, field)?))
    }
}

impl Default for PertParams {
    fn default() -> Self {
        PertParams { t_min_ns: 5 * MS, t_max_ns: 10 * MS, p_max: 0.05, srtt_weight: 0.99, beta: 0.35 }
    }
}

impl PertParams {
    /// Check the parameters; `field` names their place in the scenario.
    pub fn validate(&self, field: &str) -> Result<()> {
        if self.t_max_ns <= self.t_min_ns {
            return Err(EngineError::invalid(
                format!("{field}.t_max_ns"),
                self.t_max_ns,
                format!("a queueing delay above t_min_ns = {}", self.t_min_ns),
            ));
        }
        let check = crate::queue::params::checker(field);
        check(self.p_max > 0.0 && self.p_max <= 1.0, "p_max", self.p_max, "a probability in (0, 1]")?;
        check((0.0..1.0).contains(&self.srtt_weight), "srtt_weight", self.srtt_weight, "a weight in [0, 1)")?;
        check(self.beta > 0.0 && self.beta < 1.0, "beta", self.beta, "a fraction in (0, 1)")?;
        Ok(())
    }
}

pub struct Pert {
    /// The window law: Reno's (losses and growth).
    reno: Reno,
    t_min: f64,
    t_max: f64,
    p_max: f64,
    srtt_weight: f64,
    beta: f64,
    /// srtt_0.99, seconds (None before the first sample).
    srtt: Option<f64>,
    /// No further early response until `snd_una` reaches this segment (once per RTT).
    recover: u64,
    rng: Rng,
    /// Early responses taken so far.
    pub early_responses: u64,
}

impl Pert {
    /// `rng` is the flow's own random stream (`CcInit::rng`).
    pub fn new(initial_window: f64, initial_ssthresh: f64, params: &PertParams, rng: Rng, field: &str) -> Result<Self> {
        params.validate(field)?;
        Ok(Pert {
            reno: Reno::new(initial_window, initial_ssthresh),
            t_min: to_secs(params.t_min_ns),
            t_max: to_secs(params.t_max_ns),
            p_max: params.p_max,
            srtt_weight: params.srtt_weight,
            beta: params.beta,
            srtt: None,
            recover: 0,
            rng,
            early_responses: 0,
        })
    }

    /// PERT's response curve (gentle RED on the queueing delay): 0 below Tmin, linear to
    /// pmax at Tmax, linear from pmax to 1 at 2·Tmax, 1 beyond.
    pub fn probability(&self, queueing_delay: f64) -> f64 {
        let q = queueing_delay;
        if q < self.t_min {
            0.0
        } else if q < self.t_max {
            self.p_max * (q - self.t_min) / (self.t_max - self.t_min)
        } else if q < 2.0 * self.t_max {
            self.p_max + (1.0 - self.p_max) * (q - self.t_max) / self.t_max
        } else {
            1.0
        }
    }

    /// srtt_0.99, seconds.
    pub fn srtt(&self) -> Option<f64> {
        self.srtt
    }

    /// Fold one RTT sample into srtt_0.99 and return the queueing delay srtt − RTTmin.
    pub fn update_delay(&mut self, rtt: f64, min_rtt: f64) -> f64 {
        let srtt = match self.srtt {
            None => rtt,
            Some(srtt) => self.srtt_weight * srtt + (1.0 - self.srtt_weight) * rtt,
        };
        self.srtt = Some(srtt);
        (srtt - min_rtt).max(0.0)
    }

    /// One ACK: update the delay estimate and draw the early response (at most once per
    /// window of data: none until the data outstanding at the last response is acknowledged).
    fn early_response(&mut self, ack: &AckEvent) -> bool {
        let Some(rtt_ns) = ack.rtt_sample_ns else { return false };
        if ack.min_rtt_ns == 0 {
            return false;
        }
        let q = self.update_delay(to_secs(rtt_ns), to_secs(ack.min_rtt_ns));
        if ack.snd_una < self.recover {
            return false;
        }
        let p = self.probability(q);
        if p <= 0.0 {
            return false;
        }
        let respond = self.rng.gen::<f64>() < p;
        if respond {
            self.early_responses += 1;
            self.recover = ack.high_tx;
        }
        respond
    }
}

impl CongestionControl for Pert {
    super::window_state!(reno.state);

    fn ack_signal(&mut self, ack: &AckEvent) -> bool {
        let early = self.early_response(ack);
        if early {
            // PERT early response: cwnd ← (1 − β)·cwnd, β = 0.35; ssthresh follows.
            self.reno.reduce_to(((1.0 - self.beta) * self.reno.window()).max(2.0));
        }
        early
    }

    /// Otherwise Reno's growth (RFC 5681 Section 3.1). Losses and timeouts as Reno: the
    /// trait's defaults, RFC 5681 Section 3.2 (ssthresh = FlightSize/2) and Section 3.1 eq. (4).
    fn congestion_avoidance(&mut self, ack: &AckEvent) {
        self.reno.congestion_avoidance(ack);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, StreamKind};
    use crate::tcp::cc::CongestionEvent;

    fn pert(params: PertParams) -> Pert {
        Pert::new(16.0, 16.0, &params, stream(9, StreamKind::Flow, 0), "cc").unwrap()
    }

    fn ack(rtt_ms: f64, min_rtt_ms: f64, snd_una: u64, high_tx: u64) -> AckEvent {
        AckEvent {
            now: 0,
            acked_segments: 1,
            delivered_segments: 1,
            rtt_sample_ns: Some((rtt_ms * 1e6).round() as Time),
            min_rtt_ns: (min_rtt_ms * 1e6).round() as Time,
            srtt_ns: 0,
            in_flight: high_tx - snd_una,
            ece: false,
            snd_una,
            high_tx,
        }
    }

    #[test]
    fn response_curve_of_the_paper() {
        let p = pert(PertParams::default());
        let close = |a: f64, e: f64| assert!((a - e).abs() < 1e-12, "{a} vs {e}");
        close(p.probability(0.0), 0.0);
        close(p.probability(0.0049), 0.0);
        close(p.probability(0.005), 0.0);
        close(p.probability(0.0075), 0.025); // halfway to pmax
        close(p.probability(0.010), 0.05); // pmax at Tmax
        close(p.probability(0.015), 0.05 + 0.95 * 0.5); // halfway from pmax to 1
        close(p.probability(0.020), 1.0); // 1 at 2·Tmax
        close(p.probability(0.5), 1.0);
        let grid: Vec<f64> = (0..=300).map(|i| i as f64 * 1e-4).collect();
        assert!(grid.windows(2).all(|w| p.probability(w[1]) >= p.probability(w[0])), "monotone");
    }

    #[test]
    fn srtt_has_history_weight_0_99() {
        let mut p = pert(PertParams::default());
        assert_eq!(p.update_delay(0.100, 0.100), 0.0);
        let q = p.update_delay(0.200, 0.100);
        assert!((p.srtt().unwrap() - 0.101).abs() < 1e-12);
        assert!((q - 0.001).abs() < 1e-12);
        // n samples of a step: remaining error 0.99^n
        for _ in 0..99 {
            p.update_delay(0.200, 0.100);
        }
        assert!((p.srtt().unwrap() - (0.200 - 0.1 * 0.99f64.powi(100))).abs() < 1e-12);
    }

    #[test]
    fn at_most_one_early_response_per_round_trip() {
        // queueing delay 30 ms ≥ 2·Tmax: p = 1 on every ACK that is allowed to respond
        let mut p = pert(PertParams::default());
        p.on_ack(&ack(130.0, 100.0, 1, 17));
        assert_eq!(p.early_responses, 1);
        assert!((p.window() - 0.65 * 16.0).abs() < 1e-12, "cwnd reduced by β = 0.35");
        assert_eq!(p.ssthresh(), p.window());
        // the rest of this window (up to segment 17) is acknowledged: no response, growth 1/w
        let mut w = p.window();
        for una in 2..17 {
            p.on_ack(&ack(130.0, 100.0, una, 17 + una));
            w += 1.0 / w;
            assert!((p.window() - w).abs() < 1e-12);
        }
        assert_eq!(p.early_responses, 1);
        // the ACK that covers segment 17 starts a new round: respond again
        p.on_ack(&ack(130.0, 100.0, 17, 30));
        assert_eq!(p.early_responses, 2);
        assert!((p.window() - 0.65 * w).abs() < 1e-12);
    }

    #[test]
    fn response_frequency_follows_the_curve() {
        // A fixed queueing delay of 7.5 ms (p = 0.025); each ACK is its own round trip
        // (snd_una past the previous high_tx), so the once-per-RTT rule never blocks.
        let mut p = pert(PertParams::default());
        let n = 100_000u64;
        for i in 0..n {
            p.on_ack(&ack(107.5, 100.0, 10 * i + 10, 10 * i + 10));
            if p.window() < 100.0 {
                p.reno.reduce_to(100.0); // keep the window law out of the count
            }
        }
        let rate = p.early_responses as f64 / n as f64;
        let sigma = (0.025f64 * 0.975 / n as f64).sqrt();
        assert!((rate - 0.025).abs() < 4.0 * sigma, "rate {rate}");
    }

    #[test]
    fn no_response_below_t_min_and_losses_as_reno() {
        let mut p = pert(PertParams::default());
        for i in 0..1000 {
            p.on_ack(&ack(104.0, 100.0, i + 1, i + 20));
        }
        assert_eq!(p.early_responses, 0);
        let mut p = Pert::new(2.0, 1e9, &PertParams::default(), stream(9, StreamKind::Flow, 0), "cc").unwrap();
        for i in 0..6 {
            p.on_ack(&ack(100.0, 100.0, i + 1, i + 3));
        }
        assert_eq!(p.window(), 8.0, "slow start +1 per ACK");
        p.on_loss(&CongestionEvent { now: 0, in_flight: 8, srtt_ns: 0, min_rtt_ns: 0 });
        assert_eq!((p.window(), p.ssthresh()), (4.0, 4.0));
        p.on_rto(&CongestionEvent { now: 0, in_flight: 8, srtt_ns: 0, min_rtt_ns: 0 });
        assert_eq!((p.window(), p.ssthresh()), (1.0, 4.0));
    }

    #[test]
    fn parameters_are_validated_with_the_field_named() {
        let rng = || stream(9, StreamKind::Flow, 0);
        let bad = [
            (PertParams { t_max_ns: 5 * MS, ..PertParams::default() }, "cc.t_max_ns"),
            (PertParams { p_max: 0.0, ..PertParams::default() }, "cc.p_max"),
            (PertParams { srtt_weight: 1.0, ..PertParams::default() }, "cc.srtt_weight"),
            (PertParams { beta: 1.0, ..PertParams::default() }, "cc.beta"),
        ];
        for (params, field) in bad {
            let message = Pert::new(2.0, 1e9, &params, rng(), "cc").err().expect("invalid").to_string();
            assert!(message.contains(field), "{message}");
        }
    }
}
