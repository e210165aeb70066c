//! PIE, Proportional Integral controller Enhanced (RFC 8033).
//!
//! - Latency (RFC 8033 Section 4.3): the timestamp option — `current_qdelay` is the sojourn
//!   time of the last packet dequeued (Appendix A `packet.timestamp_delay()`), and 0 when
//!   that dequeue emptied the queue (as Linux `pie_process_dequeue` without the rate
//!   estimator). We use timestamps because the engine stamps every packet at enqueue; the
//!   departure-rate estimator of Section 5.2 is not implemented.
//! - Drop probability (Section 4.2, Appendix A `calculate_drop_prob`), every T_UPDATE:
//!   p = α (qdelay − QDELAY_REF) + β (qdelay − qdelay_old), scaled down by 2048 ... 2 when
//!   drop_prob is small, the increase capped at 2 % per update when drop_prob ≥ 10 %
//!   (Section 5.5, optional, on by default as in Appendix B and Linux), decayed by 0.98 when
//!   both delays are 0, bounded to [0, 1].
//! - Burst allowance (Section 4.4): no random drop while it is positive; it is reset to
//!   MAX_BURST when drop_prob = 0 and both delays are below QDELAY_REF/2, and decreases by
//!   T_UPDATE at each update.
//! - Random drop (Section 4.1, Appendix A `drop_early`): no drop when qdelay_old <
//!   QDELAY_REF/2 and drop_prob < 20 %, or when at most 2 mean packets are queued; else
//!   drop with probability drop_prob; optional de-randomisation (Section 5.4, off by
//!   default); ECN (Section 5.1): mark ECN-capable packets while drop_prob ≤ mark_ecnth.
//! - PIE is always active (the activation/deactivation of Section 5.3 is not implemented).
//!
//! Updates are caught up lazily at packet events ([`super::periodic`]).

use serde::{Deserialize, Serialize};

use super::periodic::Ticker;
use super::{Departure, DropReason, Limit, LinkContext, MarkReason, QueuePolicy, QueueView, Verdict};
use crate::error::Result;
use crate::packet::{Ecn, Packet};
use crate::rng::{Rng, RngCore};
use crate::time::{to_secs, Time};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieConfig {
    pub limit: Limit,
    /// QDELAY_REF, ns (RFC 8033 Section 4.2 / Appendix A: 15 ms).
    pub target_ns: Time,
    /// T_UPDATE, ns (RFC 8033 Section 4.2: 15 ms).
    pub update_interval_ns: Time,
    /// α, 1/s (RFC 8033 Section 4.2: 0.125).
    pub alpha: f64,
    /// β, 1/s (RFC 8033 Section 4.2: 1.25).
    pub beta: f64,
    /// MAX_BURST, ns (RFC 8033 Section 4.4: 150 ms).
    pub max_burst_ns: Time,
    /// Mark ECN-capable packets while drop_prob ≤ `mark_ecn_threshold` (Section 5.1).
    pub ecn: bool,
    /// mark_ecnth (RFC 8033 Section 5.1: 10 %).
    pub mark_ecn_threshold: f64,
    /// De-randomisation with an accumulated probability (Section 5.4; default off).
    pub derandomize: bool,
    /// Cap the increase at 2 % per update when drop_prob ≥ 10 % (Section 5.5).
    pub cap_drop_adjustment: bool,
    /// MEAN_PKTSIZE, bytes (Appendix A `drop_early`); default: the scenario's packet size.
    #[serde(default)]
    pub mean_packet_bytes: Option<u32>,
}

// The queue kind `pie` (registered in `super::QueueConfig`): its buffer limit, its policy.
super::queue_kind!(|config: PieConfig, link, field| config.limit, Pie::new(config, link, field));

pub struct Pie {
    target: f64,
    update_s: f64,
    alpha: f64,
    beta: f64,
    max_burst: f64,
    ecn: bool,
    mark_ecn_threshold: f64,
    derandomize: bool,
    cap_drop_adjustment: bool,
    mean_packet_bytes: u64,
    ticker: Ticker,
    /// current_qdelay, s.
    qdelay: f64,
    /// qdelay_old_, s.
    qdelay_old: f64,
    /// drop_prob_.
    drop_prob: f64,
    /// burst_allowance_, s.
    burst_allowance: f64,
    /// accu_prob_ (Section 5.4).
    accu_prob: f64,
}

/// The auto-tuning of RFC 8033 Section 4.2: the factor that divides the PI increment at
/// small drop probabilities.
pub fn scale_divisor(drop_prob: f64) -> f64 {
    if drop_prob < 0.000001 {
        2048.0
    } else if drop_prob < 0.00001 {
        512.0
    } else if drop_prob < 0.0001 {
        128.0
    } else if drop_prob < 0.001 {
        32.0
    } else if drop_prob < 0.01 {
        8.0
    } else if drop_prob < 0.1 {
        2.0
    } else {
        1.0
    }
}

/// The state `calculate_drop_prob` changes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PieState {
    pub drop_prob: f64,
    pub qdelay_old: f64,
    pub burst_allowance: f64,
}

/// RFC 8033 Appendix A `calculate_drop_prob` (Section 4.2; Section 5.5 cap if `cap`),
/// delays in seconds.
#[allow(clippy::too_many_arguments)]
pub fn calculate_drop_prob(
    state: PieState,
    current_qdelay: f64,
    target: f64,
    alpha: f64,
    beta: f64,
    t_update: f64,
    cap: bool,
) -> PieState {
    let mut p = alpha * (current_qdelay - target) + beta * (current_qdelay - state.qdelay_old);
    p /= scale_divisor(state.drop_prob);
    // Section 5.5: cap the increase at 2 % per update when drop_prob ≥ 10 %.
    if cap && state.drop_prob >= 0.1 && p > 0.02 {
        p = 0.02;
    }
    let mut drop_prob = state.drop_prob + p;
    // Exponentially decay drop prob when congestion goes away.
    if current_qdelay == 0.0 && state.qdelay_old == 0.0 {
        drop_prob *= 0.98;
    }
    PieState {
        drop_prob: drop_prob.clamp(0.0, 1.0),
        qdelay_old: current_qdelay,
        burst_allowance: (state.burst_allowance - t_update).max(0.0),
    }
}

impl Pie {
    pub fn new(config: &PieConfig, link: LinkContext, field: &str) -> Result<Self> {
        let check = super::params::checker(field);
        check(config.target_ns > 0, "target_ns", config.target_ns as f64, "a target delay > 0 ns")?;
        check(
            config.update_interval_ns > 0,
            "update_interval_ns",
            config.update_interval_ns as f64,
            "an interval > 0 ns",
        )?;
        check(config.alpha.is_finite() && config.alpha >= 0.0, "alpha", config.alpha, "a gain >= 0 (1/s)")?;
        check(config.beta.is_finite() && config.beta >= 0.0, "beta", config.beta, "a gain >= 0 (1/s)")?;
        check(
            (0.0..=1.0).contains(&config.mark_ecn_threshold),
            "mark_ecn_threshold",
            config.mark_ecn_threshold,
            "a probability in [0, 1]",
        )?;
        let mean = config.mean_packet_bytes.unwrap_or(link.mean_packet_bytes);
        check(mean > 0, "mean_packet_bytes", mean as f64, "a size > 0 bytes")?;
        Ok(Pie {
            target: to_secs(config.target_ns),
            update_s: to_secs(config.update_interval_ns),
            alpha: config.alpha,
            beta: config.beta,
            max_burst: to_secs(config.max_burst_ns),
            ecn: config.ecn,
            mark_ecn_threshold: config.mark_ecn_threshold,
            derandomize: config.derandomize,
            cap_drop_adjustment: config.cap_drop_adjustment,
            mean_packet_bytes: mean as u64,
            ticker: Ticker::new(config.update_interval_ns),
            qdelay: 0.0,
            qdelay_old: 0.0,
            drop_prob: 0.0,
            burst_allowance: to_secs(config.max_burst_ns),
            accu_prob: 0.0,
        })
    }

    fn catch_up(&mut self, now: Time) {
        for _ in 0..self.ticker.elapsed(now) {
            let state = PieState {
                drop_prob: self.drop_prob,
                qdelay_old: self.qdelay_old,
                burst_allowance: self.burst_allowance,
            };
            let next = calculate_drop_prob(
                state,
                self.qdelay,
                self.target,
                self.alpha,
                self.beta,
                self.update_s,
                self.cap_drop_adjustment,
            );
            self.drop_prob = next.drop_prob;
            self.qdelay_old = next.qdelay_old;
            self.burst_allowance = next.burst_allowance;
        }
    }

    /// RFC 8033 Appendix A `drop_early` (with Section 5.4 de-randomisation if enabled).
    fn drop_early(&mut self, queue_bytes: u64, rng: &mut Rng) -> bool {
        // Safeguard PIE to be work conserving (Section 4.1).
        if (self.qdelay_old < self.target / 2.0 && self.drop_prob < 0.2) || queue_bytes <= 2 * self.mean_packet_bytes {
            return false;
        }
        if self.derandomize {
            // Section 5.4.
            if self.drop_prob == 0.0 {
                self.accu_prob = 0.0;
            }
            self.accu_prob += self.drop_prob;
            if self.accu_prob < 0.85 {
                return false;
            }
            if self.accu_prob >= 8.5 {
                return true;
            }
        }
        let drop = rng.gen::<f64>() < self.drop_prob;
        if drop {
            self.accu_prob = 0.0;
        }
        drop
    }

    pub fn state(&self) -> PieState {
        PieState { drop_prob: self.drop_prob, qdelay_old: self.qdelay_old, burst_allowance: self.burst_allowance }
    }

    pub fn current_qdelay(&self) -> f64 {
        self.qdelay
    }
}

impl QueuePolicy for Pie {
    fn on_arrival(&mut self, packet: &Packet, queue: &QueueView, now: Time, rng: &mut Rng) -> Verdict {
        self.catch_up(now);
        // Appendix A `enque`: restore the burst allowance once congestion has gone.
        if self.drop_prob == 0.0 && self.qdelay < self.target / 2.0 && self.qdelay_old < self.target / 2.0 {
            self.burst_allowance = self.max_burst;
        }
        if self.burst_allowance == 0.0 && self.drop_early(queue.bytes, rng) {
            // Section 5.1: mark instead of drop only while drop_prob ≤ mark_ecnth.
            if self.ecn && packet.ecn != Ecn::NotEct && self.drop_prob <= self.mark_ecn_threshold {
                Verdict::Mark(MarkReason::Early)
            } else {
                self.accu_prob = 0.0;
                Verdict::Drop(DropReason::Early)
            }
        } else {
            Verdict::Enqueue
        }
    }

    fn on_overflow(&mut self) {
        // Appendix B `enque`: a tail drop resets the accumulated probability.
        self.accu_prob = 0.0;
    }

    fn on_dequeue(&mut self, packet: &Packet, queue: &QueueView, now: Time, _rng: &mut Rng) -> Departure {
        self.catch_up(now);
        // Section 4.3, timestamp option: the latency of the departing packet; 0 once the
        // queue is empty (Linux `pie_process_dequeue`).
        self.qdelay = if queue.packets == 0 { 0.0 } else { to_secs(now - packet.enqueued_at) };
        Departure::Send
    }

    fn drop_probability(&self) -> f64 {
        self.drop_prob
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, StreamKind};

    const MS: Time = 1_000_000;
    const LINK: LinkContext = LinkContext { rate_bps: 10_000_000, mean_packet_bytes: 1500 };

    fn config() -> PieConfig {
        PieConfig {
            limit: Limit::Packets(1000),
            target_ns: 15 * MS,
            update_interval_ns: 15 * MS,
            alpha: 0.125,
            beta: 1.25,
            max_burst_ns: 150 * MS,
            ecn: false,
            mark_ecn_threshold: 0.1,
            derandomize: false,
            cap_drop_adjustment: true,
            mean_packet_bytes: None,
        }
    }

    fn packet(enqueued_at: Time) -> Packet {
        Packet::test_data(1500, Ecn::NotEct, enqueued_at)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn probability_update_at_hand_computed_steps() {
        let s0 = PieState { drop_prob: 0.0, qdelay_old: 0.0, burst_allowance: 0.15 };
        // Step 1: qdelay 30 ms from 0: p = 0.125 * 0.015 + 1.25 * 0.030 = 0.039375; drop_prob
        // 0 < 1e-6 -> /2048 = 1.922607421875e-5.
        let s1 = calculate_drop_prob(s0, 0.030, 0.015, 0.125, 1.25, 0.015, true);
        assert!(close(s1.drop_prob, 0.039375 / 2048.0), "{}", s1.drop_prob);
        assert!(close(s1.qdelay_old, 0.030));
        assert!(close(s1.burst_allowance, 0.135));
        // Step 2: qdelay stays 30 ms: p = 0.001875; drop_prob 1.92e-5 in [1e-5, 1e-4) -> /128.
        let s2 = calculate_drop_prob(s1, 0.030, 0.015, 0.125, 1.25, 0.015, true);
        assert!(close(s2.drop_prob, 0.039375 / 2048.0 + 0.001875 / 128.0), "{}", s2.drop_prob);
        // From drop_prob 0.05 (/2): qdelay 40 ms after 30 ms:
        // p = 0.125 * 0.025 + 1.25 * 0.010 = 0.015625 -> 0.0078125.
        let s = PieState { drop_prob: 0.05, qdelay_old: 0.030, burst_allowance: 0.0 };
        let n = calculate_drop_prob(s, 0.040, 0.015, 0.125, 1.25, 0.015, true);
        assert!(close(n.drop_prob, 0.0578125), "{}", n.drop_prob);
        assert_eq!(n.burst_allowance, 0.0);
        // From 0.2 (no scaling): the same step is 0.015625 < 2 %, not capped; a jump to
        // 100 ms gives 0.125 * 0.085 + 1.25 * 0.070 = 0.098125, capped to 0.02 (Section 5.5).
        let s = PieState { drop_prob: 0.2, qdelay_old: 0.030, burst_allowance: 0.0 };
        assert!(close(calculate_drop_prob(s, 0.040, 0.015, 0.125, 1.25, 0.015, true).drop_prob, 0.215625));
        assert!(close(calculate_drop_prob(s, 0.100, 0.015, 0.125, 1.25, 0.015, true).drop_prob, 0.22));
        assert!(close(calculate_drop_prob(s, 0.100, 0.015, 0.125, 1.25, 0.015, false).drop_prob, 0.298125));
        // Decreasing delay below target lowers it: 0.05 with 5 ms after 10 ms:
        // p = 0.125 * (-0.010) + 1.25 * (-0.005) = -0.0075 -> /2 = -0.00375.
        let s = PieState { drop_prob: 0.05, qdelay_old: 0.010, burst_allowance: 0.0 };
        assert!(close(calculate_drop_prob(s, 0.005, 0.015, 0.125, 1.25, 0.015, true).drop_prob, 0.04625));
        // Both delays 0: p = -0.001875 / 2 from 0.05 -> 0.0490625, then * 0.98.
        let s = PieState { drop_prob: 0.05, qdelay_old: 0.0, burst_allowance: 0.0 };
        assert!(close(calculate_drop_prob(s, 0.0, 0.015, 0.125, 1.25, 0.015, true).drop_prob, 0.0490625 * 0.98));
        // Bounds.
        let s = PieState { drop_prob: 0.001, qdelay_old: 0.1, burst_allowance: 0.0 };
        assert_eq!(calculate_drop_prob(s, 0.0, 0.015, 0.125, 1.25, 0.015, true).drop_prob, 0.0);
        let s = PieState { drop_prob: 0.99, qdelay_old: 0.0, burst_allowance: 0.0 };
        assert_eq!(calculate_drop_prob(s, 1.0, 0.015, 0.125, 1.25, 0.015, false).drop_prob, 1.0);
    }

    #[test]
    fn scale_factors_of_section_4_2() {
        let cases = [
            (0.0, 2048.0),
            (5e-6, 512.0),
            (5e-5, 128.0),
            (5e-4, 32.0),
            (5e-3, 8.0),
            (0.05, 2.0),
            (0.1, 1.0),
            (0.5, 1.0),
        ];
        for (p, d) in cases {
            assert_eq!(scale_divisor(p), d, "{p}");
        }
    }

    #[test]
    fn lazy_updates_use_the_delay_of_the_last_departure_and_burst_allowance_delays_drops() {
        let mut pie = Pie::new(&config(), LINK, "q").unwrap();
        let mut rng = stream(1, StreamKind::Queue, 0);
        // A departure at 30 ms after 30 ms in the queue, 50 packets behind; the next event
        // is at 76 ms.
        pie.on_dequeue(&packet(0), &LINK.queue_of(50), 30 * MS, &mut rng);
        assert!(close(pie.current_qdelay(), 0.030));
        pie.on_arrival(&packet(0), &LINK.queue_of(50), 76 * MS, &mut rng);
        let mut s = PieState { drop_prob: 0.0, qdelay_old: 0.0, burst_allowance: 0.15 };
        for _ in 0..3 {
            s = calculate_drop_prob(s, 0.030, 0.015, 0.125, 1.25, 0.015, true);
        }
        // Updates at 45, 60, 75 ms (the dequeue at 30 ms caught up those at 15 and 30 ms
        // with qdelay 0: they decayed 0 and spent 30 ms of burst allowance).
        let mut expected = PieState { drop_prob: 0.0, qdelay_old: 0.0, burst_allowance: 0.15 - 0.030 };
        for _ in 0..3 {
            expected = calculate_drop_prob(expected, 0.030, 0.015, 0.125, 1.25, 0.015, true);
        }
        let got = pie.state();
        assert!(close(got.drop_prob, expected.drop_prob) && close(got.qdelay_old, 0.030), "{got:?}");
        assert!(close(got.burst_allowance, 0.075), "{got:?}");
        assert!(s.drop_prob > 0.0);
        // While burst allowance remains, nothing is dropped even with drop_prob = 1.
        pie.drop_prob = 1.0;
        assert_eq!(pie.on_arrival(&packet(0), &LINK.queue_of(50), 76 * MS, &mut rng), Verdict::Enqueue);
        pie.burst_allowance = 0.0;
        assert!(matches!(pie.on_arrival(&packet(0), &LINK.queue_of(50), 76 * MS, &mut rng), Verdict::Drop(_)));
        // ...but never with at most two mean packets queued (Section 4.1 safeguard).
        assert_eq!(pie.on_arrival(&packet(0), &LINK.queue_of(2), 76 * MS, &mut rng), Verdict::Enqueue);
        // An emptying dequeue sets the delay to 0.
        pie.on_dequeue(&packet(0), &LINK.queue_of(0), 77 * MS, &mut rng);
        assert_eq!(pie.current_qdelay(), 0.0);
    }

    #[test]
    fn no_drop_while_qdelay_old_is_low_and_drop_prob_below_20_percent() {
        let mut pie = Pie::new(&config(), LINK, "q").unwrap();
        let mut rng = stream(1, StreamKind::Queue, 0);
        pie.burst_allowance = 0.0;
        pie.drop_prob = 0.19;
        pie.qdelay_old = 0.007;
        pie.qdelay = 0.007;
        assert!((0..1000).all(|_| pie.on_arrival(&packet(0), &LINK.queue_of(50), 0, &mut rng) == Verdict::Enqueue));
        pie.drop_prob = 0.2;
        let n = 100_000;
        let drops = (0..n)
            .filter(|_| matches!(pie.on_arrival(&packet(0), &LINK.queue_of(50), 0, &mut rng), Verdict::Drop(_)))
            .count();
        assert!((drops as f64 / n as f64 - 0.2).abs() < 0.005);
    }

    #[test]
    fn ecn_marks_only_below_the_threshold_and_derandomisation_spaces_drops() {
        let mut c = config();
        c.ecn = true;
        let mut pie = Pie::new(&c, LINK, "q").unwrap();
        let mut rng = stream(1, StreamKind::Queue, 0);
        pie.burst_allowance = 0.0;
        pie.qdelay_old = 0.030;
        pie.qdelay = 0.030;
        let mut ect = packet(0);
        ect.ecn = Ecn::Ect;
        pie.drop_prob = 0.1;
        let verdicts: Vec<Verdict> = (0..2000).map(|_| pie.on_arrival(&ect, &LINK.queue_of(50), 0, &mut rng)).collect();
        assert!(verdicts.iter().any(|v| matches!(v, Verdict::Mark(_))));
        assert!(!verdicts.iter().any(|v| matches!(v, Verdict::Drop(_))));
        pie.drop_prob = 0.11;
        let verdicts: Vec<Verdict> = (0..2000).map(|_| pie.on_arrival(&ect, &LINK.queue_of(50), 0, &mut rng)).collect();
        assert!(verdicts.iter().any(|v| matches!(v, Verdict::Drop(_))));
        assert!(!verdicts.iter().any(|v| matches!(v, Verdict::Mark(_))));

        // De-randomised at drop_prob 0.1: no drop until accu_prob reaches 0.85 (9 arrivals),
        // always one by 8.5 (85 arrivals, 86 with the rounding of 85 sums of 0.1): gaps lie
        // in [9, 86], with mean 9 + 0.9/0.1 = 18 (geometric from the 9th arrival on).
        let mut c = config();
        c.derandomize = true;
        let mut pie = Pie::new(&c, LINK, "q").unwrap();
        pie.burst_allowance = 0.0;
        pie.qdelay_old = 0.030;
        pie.qdelay = 0.030;
        pie.drop_prob = 0.1;
        let mut gap = 0;
        let mut gaps = Vec::new();
        for _ in 0..20_000 {
            gap += 1;
            if matches!(pie.on_arrival(&packet(0), &LINK.queue_of(50), 0, &mut rng), Verdict::Drop(_)) {
                gaps.push(gap);
                gap = 0;
            }
        }
        assert!(gaps.iter().all(|&g| (9..=86).contains(&g)), "{:?}", &gaps[..10]);
        let mean = gaps.iter().sum::<usize>() as f64 / gaps.len() as f64;
        assert!((mean - 18.0).abs() < 1.0, "{mean}");
    }

    #[test]
    fn invalid_parameters_name_the_field() {
        let mut bad = config();
        bad.update_interval_ns = 0;
        assert!(Pie::new(&bad, LINK, "a.queue").err().unwrap().to_string().contains("a.queue.update_interval_ns"));
        let mut bad = config();
        bad.mark_ecn_threshold = 2.0;
        assert!(Pie::new(&bad, LINK, "a.queue").err().unwrap().to_string().contains("a.queue.mark_ecn_threshold"));
    }
}
