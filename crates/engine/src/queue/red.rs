//! Random Early Detection with ns-2 semantics (Floyd & Jacobson 1993; ns-2 `queue/red.cc`).
//!
//! The average queue is an EWMA updated on every arrival, with the idle-time correction of
//! ns-2: after an idle period the average decays as if `m = ptc * idle_time` empty-queue
//! arrivals had happened. The drop probability is the RED control law (seed 003 eq. (10);
//! seed 000 eq. (6)), spaced by the count of packets since the last drop (`wait`).
//! The `instantaneous` mode takes decisions on the current queue instead of the average,
//! as seed 000 Sections IV and V-A2 do for "RED without averaging".
//!
//! Defaults are ns-2's (ns-2.35 `tcl/lib/ns-default.tcl`, CVS v1.388; the Python model
//! `aqmlab.queues.Red` carries them, with the line of each; `docs/queues/red.md`).

use serde::{Deserialize, Serialize};

use super::{DropReason, Limit, LinkContext, MarkReason, QueuePolicy, QueueView, Verdict};
use crate::error::{EngineError, Result};
use crate::packet::{Ecn, Packet};
use crate::rng::{Rng, RngCore};
use crate::time::{to_secs, Time};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RedConfig {
    pub limit: Limit,
    /// Minimum threshold (ns-2 `thresh_`), packets (bytes when `queue_in_bytes`);
    /// 0 = ns-2's automatic threshold from `target_delay_ns` (see [`ns2_thresholds`]).
    pub min_th: f64,
    /// Maximum threshold (ns-2 `maxthresh_`), packets (bytes when `queue_in_bytes`);
    /// 0 = ns-2's automatic 3 · min_th.
    pub max_th: f64,
    /// Maximum early-drop probability p̄ = 1 / `linterm_`.
    pub max_p: f64,
    /// EWMA weight; 0, -1, -2 select ns-2's automatic weights (see [`automatic_q_weight`]).
    pub q_weight: f64,
    /// Gentle RED: p rises from max_p to 1 between max_th and 2 max_th (ns-2 `gentle_`).
    pub gentle: bool,
    /// Space drops uniformly by the count since the last drop (ns-2 `wait_`).
    pub wait: bool,
    /// Mark ECN-capable packets instead of dropping them (ns-2 `setbit_`).
    pub ecn: bool,
    /// ns-2 `mark_p_` with `use_mark_p_ true`: an early decision marks an ECN-capable packet
    /// only while the control-law probability is below `mark_p`, and drops it otherwise
    /// (ns-2 `queue/red.cc` `drop_early`: `!use_mark_p || v_prob1 < mark_p`). `None` is
    /// `use_mark_p_ false` (always mark). Required, `null` included: the default is the
    /// scenario's (Python `Red.mark_p`, 0.1), and an engine default could only disagree with it.
    #[serde(deserialize_with = "Option::deserialize")]
    pub mark_p: Option<f64>,
    /// Scale the drop probability by packet size / mean packet size (ns-2 `bytes_`).
    pub byte_mode: bool,
    /// Measure the queue, average and thresholds in bytes (ns-2 `queue_in_bytes_`).
    pub queue_in_bytes: bool,
    /// Decide on the instantaneous queue instead of the average (seed 000 eq. (25)-(26)).
    pub instantaneous: bool,
    /// Mean packet size (ns-2 `mean_pktsize_`), bytes: sets the packet time constant ptc.
    pub mean_packet_bytes: u32,
    /// One-way propagation delay of the link the queue feeds (ns-2 `link_->delay()`), used by
    /// the automatic weight `q_weight = -1`.
    pub link_delay_ns: Time,
    /// Target queueing delay of the automatic thresholds (ns-2 `targetdelay_`, 5 ms).
    #[serde(default = "default_target_delay_ns")]
    pub target_delay_ns: Time,
}

// The queue kind `red` (registered in `super::QueueConfig`): its buffer limit, its policy.
super::queue_kind!(|config: RedConfig, link, field| config.limit, Red::new(config, link, field));

fn default_target_delay_ns() -> Time {
    5_000_000
}

impl Default for RedConfig {
    /// Floyd and Jacobson's RED (max_p 0.1, q_weight 0.002, no gentle mode) with ns-2's
    /// `wait_` spacing and automatic thresholds (`min_th = max_th = 0`), dropping, on a
    /// 100-packet queue of 1500-byte packets behind a 1 ms link.
    fn default() -> Self {
        RedConfig {
            limit: Limit::Packets(100),
            min_th: 0.0,
            max_th: 0.0,
            max_p: 0.1,
            q_weight: 0.002,
            gentle: false,
            wait: true,
            ecn: false,
            mark_p: None,
            byte_mode: false,
            queue_in_bytes: false,
            instantaneous: false,
            mean_packet_bytes: 1500,
            link_delay_ns: 1_000_000,
            target_delay_ns: default_target_delay_ns(),
        }
    }
}

/// `on_overflow`, `average_queue` and `drop_probability` of a policy that decides with a
/// `Red` in its field `red` (Adaptive RED, RED on a virtual queue), inside its
/// `impl QueuePolicy` block.
macro_rules! red_measures {
    () => {
        fn on_overflow(&mut self) {
            self.red.on_overflow();
        }

        fn average_queue(&self) -> f64 {
            self.red.average_queue()
        }

        fn drop_probability(&self) -> f64 {
            self.red.drop_probability()
        }
    };
}
pub(crate) use red_measures;

/// The thresholds as given (RED, Adaptive RED): each >= 0 and finite (0: ns-2's automatic
/// threshold), and a target delay > 0 when min_th is automatic (`ns2_thresholds`).
pub(crate) fn check_thresholds(
    check: impl Fn(bool, &str, f64, &str) -> Result<()>,
    min_th: f64,
    max_th: f64,
    target_delay_ns: Time,
) -> Result<()> {
    check(min_th >= 0.0 && min_th.is_finite(), "min_th", min_th, "a threshold >= 0 (0: automatic)")?;
    check(max_th >= 0.0 && max_th.is_finite(), "max_th", max_th, "a threshold >= 0 (0: automatic)")?;
    if min_th == 0.0 {
        check(
            target_delay_ns > 0,
            "target_delay_ns",
            target_delay_ns as f64,
            "a delay > 0 ns when min_th is automatic",
        )?;
    }
    Ok(())
}

/// ns-2's automatic thresholds (`REDQueue::initialize_params`, `queue/red.cc`): with
/// `min_th = 0`, min_th = max(5, target_delay · ptc / 2) packets; with `max_th = 0`,
/// max_th = 3 · min_th; in bytes (× the mean packet size) when the queue is in bytes
/// (`REDQueue::reset`). Given thresholds are returned unchanged.
pub fn ns2_thresholds(
    min_th: f64,
    max_th: f64,
    target_delay_s: f64,
    link_rate_bps: u64,
    mean_packet_bytes: u32,
    queue_in_bytes: bool,
) -> (f64, f64) {
    let ptc = link_rate_bps as f64 / (8.0 * mean_packet_bytes as f64);
    let unit = if queue_in_bytes { mean_packet_bytes as f64 } else { 1.0 };
    let min_th = if min_th > 0.0 { min_th } else { (target_delay_s * ptc / 2.0).max(5.0) * unit };
    let max_th = if max_th > 0.0 { max_th } else { 3.0 * min_th };
    (min_th, max_th)
}

/// ns-2's automatic EWMA weights (`REDQueue::initialize_params`), with
/// ptc = link rate / (8 * mean packet size) packets per second:
/// - `0`:  w = 1 - exp(-1 / ptc)
/// - `-1`: w = 1 - exp(-1 / (10 * rtt * ptc)), rtt = max(3 (delay + 1/ptc), 0.1 s)
/// - `-2`: w = 1 - exp(-10 / ptc)
///
/// Any positive value is returned as given; other values are invalid.
pub fn automatic_q_weight(q_weight: f64, link_rate_bps: u64, mean_packet_bytes: u32, link_delay_s: f64) -> Option<f64> {
    let ptc = link_rate_bps as f64 / (8.0 * mean_packet_bytes as f64);
    if q_weight > 0.0 && q_weight <= 1.0 {
        Some(q_weight)
    } else if q_weight == 0.0 {
        Some(1.0 - (-1.0 / ptc).exp())
    } else if q_weight == -1.0 {
        let rtt = (3.0 * (link_delay_s + 1.0 / ptc)).max(0.1);
        Some(1.0 - (-1.0 / (10.0 * rtt * ptc)).exp())
    } else if q_weight == -2.0 {
        Some(1.0 - (-10.0 / ptc).exp())
    } else {
        None
    }
}

/// The RED control law H (seed 003 eq. (10); seed 000 eq. (6) with gentle extension):
/// drop probability as a function of the (average) queue, before count spacing.
pub fn control_law(queue: f64, min_th: f64, max_th: f64, max_p: f64, gentle: bool) -> f64 {
    if queue < min_th {
        0.0
    } else if queue < max_th {
        // p = p̄ (q - b) / (b̄ - b) between the thresholds.
        max_p * (queue - min_th) / (max_th - min_th)
    } else if gentle && queue < 2.0 * max_th {
        // Gentle RED: p = p̄ + (1 - p̄)(q - b̄)/b̄ between b̄ and 2 b̄.
        max_p + (1.0 - max_p) * (queue - max_th) / max_th
    } else {
        1.0
    }
}

pub struct Red {
    min_th: f64,
    max_th: f64,
    max_p: f64,
    q_weight: f64,
    gentle: bool,
    wait: bool,
    ecn: bool,
    mark_p: Option<f64>,
    byte_mode: bool,
    queue_in_bytes: bool,
    instantaneous: bool,
    mean_packet_bytes: f64,
    /// Packet time constant, packets per second (ns-2 `ptc`).
    ptc: f64,
    average: f64,
    /// Arrivals since the last early drop (ns-2 `edv_.count`).
    count: u64,
    count_bytes: u64,
    /// Whether the average was above min_th at the previous arrival (ns-2 `edv_.old`).
    above_min: bool,
    /// Probability of the last decision, after spacing (ns-2 `v_prob`).
    probability: f64,
    /// The queue measure (average, or current in instantaneous mode) of the last decision.
    decision_queue: f64,
}

impl Red {
    pub fn new(config: &RedConfig, link: LinkContext, field: &str) -> Result<Self> {
        let check = super::params::checker(field);
        check_thresholds(&check, config.min_th, config.max_th, config.target_delay_ns)?;
        let (min_th, max_th) = ns2_thresholds(
            config.min_th,
            config.max_th,
            to_secs(config.target_delay_ns),
            link.rate_bps,
            config.mean_packet_bytes.max(1),
            config.queue_in_bytes,
        );
        check(max_th > min_th, "max_th", max_th, "a threshold above min_th")?;
        if let Some(mark_p) = config.mark_p {
            check(mark_p > 0.0 && mark_p <= 1.0, "mark_p", mark_p, "a probability in (0, 1], or none")?;
        }
        check(config.max_p > 0.0 && config.max_p <= 1.0, "max_p", config.max_p, "a probability in (0, 1]")?;
        check(config.mean_packet_bytes > 0, "mean_packet_bytes", config.mean_packet_bytes as f64, "a size > 0 bytes")?;
        let q_weight =
            automatic_q_weight(config.q_weight, link.rate_bps, config.mean_packet_bytes, to_secs(config.link_delay_ns))
                .ok_or_else(|| {
                    EngineError::invalid(
                        format!("{field}.q_weight"),
                        config.q_weight,
                        "a weight in (0, 1], or 0, -1, -2 for ns-2's automatic weights",
                    )
                })?;
        Ok(Red {
            min_th,
            max_th,
            max_p: config.max_p,
            q_weight,
            gentle: config.gentle,
            wait: config.wait,
            ecn: config.ecn,
            mark_p: config.mark_p,
            byte_mode: config.byte_mode,
            queue_in_bytes: config.queue_in_bytes,
            instantaneous: config.instantaneous,
            mean_packet_bytes: config.mean_packet_bytes as f64,
            ptc: link.rate_bps as f64 / (8.0 * config.mean_packet_bytes as f64),
            average: 0.0,
            count: 0,
            count_bytes: 0,
            above_min: false,
            probability: 0.0,
            decision_queue: 0.0,
        })
    }

    pub fn q_weight(&self) -> f64 {
        self.q_weight
    }

    /// The current maximum early-drop probability p̄ (Adaptive RED adapts it).
    pub(crate) fn max_p(&self) -> f64 {
        self.max_p
    }

    /// Set p̄ (Adaptive RED's AIMD update, `adaptive_red.rs`).
    pub(crate) fn set_max_p(&mut self, max_p: f64) {
        self.max_p = max_p;
    }

    /// (min_th, max_th), in the queue's units.
    pub(crate) fn thresholds(&self) -> (f64, f64) {
        (self.min_th, self.max_th)
    }

    /// ns-2 `modify_p`: spread drops uniformly by the count since the last drop.
    fn spaced_probability(&self, p: f64, size_bytes: u32) -> f64 {
        let count =
            if self.byte_mode { (self.count_bytes as f64 / self.mean_packet_bytes).floor() } else { self.count as f64 };
        let mut p = if self.wait {
            if count * p < 1.0 {
                0.0
            } else if count * p < 2.0 {
                p / (2.0 - count * p)
            } else {
                1.0
            }
        } else if count * p < 1.0 {
            p / (1.0 - count * p)
        } else {
            1.0
        };
        if self.byte_mode && p < 1.0 {
            p = p * size_bytes as f64 / self.mean_packet_bytes;
        }
        p.min(1.0)
    }
}

impl QueuePolicy for Red {
    fn decides_at_arrival(&self) -> bool {
        true
    }
    fn on_arrival(&mut self, packet: &Packet, queue: &QueueView, now: Time, rng: &mut Rng) -> Verdict {
        let current = if self.queue_in_bytes { queue.bytes as f64 } else { queue.packets as f64 };
        // ns-2 idle-time correction: m = int(ptc * idle time) virtual empty arrivals.
        let idle_arrivals = match queue.idle_since {
            Some(since) if now > since => (self.ptc * to_secs(now - since)) as i32,
            _ => 0,
        };
        // EWMA (seed 000 eq. (5); ns-2 `estimator`): avg <- (1-w)^(m+1) avg + w q.
        self.average = self.average * (1.0 - self.q_weight).powi(idle_arrivals + 1) + self.q_weight * current;
        self.count += 1;
        self.count_bytes += packet.size_bytes as u64;

        let decision_queue = if self.instantaneous { current } else { self.average };
        self.decision_queue = decision_queue;
        let forced_limit = if self.gentle { 2.0 * self.max_th } else { self.max_th };
        // ns-2: no drop decision while the queue holds at most one packet.
        let mut verdict = Verdict::Enqueue;
        if decision_queue >= self.min_th && queue.packets > 1 {
            if decision_queue >= forced_limit {
                verdict = Verdict::Drop(DropReason::Forced);
                self.count = 0;
                self.count_bytes = 0;
            } else if !self.above_min {
                // The average has just crossed min_th: start counting, no drop (ns-2 `old`).
                self.count = 1;
                self.count_bytes = packet.size_bytes as u64;
                self.above_min = true;
            } else {
                let p = control_law(decision_queue, self.min_th, self.max_th, self.max_p, self.gentle);
                self.probability = self.spaced_probability(p, packet.size_bytes);
                if rng.gen::<f64>() <= self.probability {
                    self.count = 0;
                    self.count_bytes = 0;
                    // ns-2 `drop_early`: mark only while v_prob1 (the unspaced law) < mark_p.
                    let markable = self.mark_p.is_none_or(|mark_p| p < mark_p);
                    verdict = if self.ecn && packet.ecn != Ecn::NotEct && markable {
                        Verdict::Mark(MarkReason::Early)
                    } else {
                        Verdict::Drop(DropReason::Early)
                    };
                }
            }
        } else {
            self.probability = 0.0;
            self.above_min = false;
        }
        verdict
    }

    fn on_overflow(&mut self) {
        // ns-2: a forced drop on a full buffer also restarts the count.
        self.count = 0;
        self.count_bytes = 0;
    }

    fn average_queue(&self) -> f64 {
        self.average
    }

    fn drop_probability(&self) -> f64 {
        // The control law at the last decision's queue measure (before count spacing).
        control_law(self.decision_queue, self.min_th, self.max_th, self.max_p, self.gentle)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, StreamKind};

    fn config() -> RedConfig {
        RedConfig { limit: Limit::Packets(2084), min_th: 50.0, max_th: 100.0, ..RedConfig::default() }
    }

    const LINK: LinkContext = LinkContext { rate_bps: 100_000_000, mean_packet_bytes: 1500 };

    #[test]
    fn ns2_automatic_weights() {
        // 100 Mb/s, 1500 B: ptc = 8333.33 packets/s.
        let ptc: f64 = 100e6 / 12000.0;
        let w0 = automatic_q_weight(0.0, 100_000_000, 1500, 0.001).unwrap();
        assert!((w0 - (1.0 - (-1.0 / ptc).exp())).abs() < 1e-15);
        assert!((w0 - 1.19993e-4).abs() < 1e-8, "{w0}");
        // -1 with a short link: rtt clamps to 0.1 s -> w = 1 - exp(-1/(10 * 0.1 * ptc)) = w0
        let w1 = automatic_q_weight(-1.0, 100_000_000, 1500, 0.001).unwrap();
        assert!((w1 - 1.199928e-4).abs() < 1e-10, "{w1}");
        // -1 with a 100 ms link: rtt = 3 (0.1 + 1/ptc) = 0.30036 s
        let w1_long = automatic_q_weight(-1.0, 100_000_000, 1500, 0.1).unwrap();
        let rtt = 3.0 * (0.1 + 1.0 / ptc);
        assert!((w1_long - (1.0 - (-1.0 / (10.0 * rtt * ptc)).exp())).abs() < 1e-15);
        let w2 = automatic_q_weight(-2.0, 100_000_000, 1500, 0.001).unwrap();
        assert!((w2 - 1.19928e-3).abs() < 1e-8, "{w2}");
        assert_eq!(automatic_q_weight(0.25, 1, 1, 0.0), Some(0.25));
        assert_eq!(automatic_q_weight(-3.0, 1, 1, 0.0), None);
        assert_eq!(automatic_q_weight(1.5, 1, 1, 0.0), None);
    }

    #[test]
    fn control_law_shape() {
        assert_eq!(control_law(49.9, 50.0, 100.0, 0.1, false), 0.0);
        assert!((control_law(75.0, 50.0, 100.0, 0.1, false) - 0.05).abs() < 1e-12);
        assert_eq!(control_law(100.0, 50.0, 100.0, 0.1, false), 1.0);
        assert!((control_law(150.0, 50.0, 100.0, 0.1, true) - 0.55).abs() < 1e-12);
        assert_eq!(control_law(200.0, 50.0, 100.0, 0.1, true), 1.0);
    }

    #[test]
    fn average_follows_ewma_and_idle_decay() {
        let mut red = Red::new(&config(), LINK, "q").unwrap();
        let mut rng = stream(1, StreamKind::Queue, 0);
        red.on_arrival(&LINK.data_packet(), &LINK.queue_of(10), 0, &mut rng);
        assert!((red.average_queue() - 0.02).abs() < 1e-12);
        // idle for 12 ms at ptc 8333.33: m = 100 -> avg * (1-w)^101
        let before = red.average_queue();
        let idle = QueueView { idle_since: Some(1_000_000), ..LINK.queue_of(0) };
        red.on_arrival(&LINK.data_packet(), &idle, 13_000_000, &mut rng);
        let expected = before * (1.0f64 - 0.002).powi(101);
        assert!((red.average_queue() - expected).abs() < 1e-15);
    }

    #[test]
    fn forced_drop_above_max_and_never_when_queue_is_nearly_empty() {
        let mut c = config();
        c.q_weight = 1.0;
        let mut red = Red::new(&c, LINK, "q").unwrap();
        let mut rng = stream(1, StreamKind::Queue, 0);
        assert_eq!(
            red.on_arrival(&LINK.data_packet(), &LINK.queue_of(150), 0, &mut rng),
            Verdict::Drop(DropReason::Forced)
        );
        // average 1 packet, below min: accepted
        assert_eq!(red.on_arrival(&LINK.data_packet(), &LINK.queue_of(1), 0, &mut rng), Verdict::Enqueue);
    }

    #[test]
    fn instantaneous_mode_decides_on_current_queue() {
        let mut c = config();
        c.instantaneous = true;
        let mut red = Red::new(&c, LINK, "q").unwrap();
        let mut rng = stream(1, StreamKind::Queue, 0);
        // average is tiny but the instantaneous queue is above max_th: forced drop
        assert_eq!(
            red.on_arrival(&LINK.data_packet(), &LINK.queue_of(120), 0, &mut rng),
            Verdict::Drop(DropReason::Forced)
        );
        assert!(red.average_queue() < 1.0);
    }

    #[test]
    fn measured_drop_rate_follows_control_law_with_wait_spacing() {
        // With a constant queue q between the thresholds and wait on, drops are spaced so
        // that the mean inter-drop count is 1/p_b + 1/2 ... 3/(2 p_b) band; check the rate
        // against ns-2's uniform spacing: E[count between drops] = 1/p_b + 1/2 (approx.).
        for &q in &[60u32, 75, 90] {
            let mut c = config();
            c.instantaneous = true;
            let mut red = Red::new(&c, LINK, "q").unwrap();
            let mut rng = stream(3, StreamKind::Queue, q as u64);
            let n = 400_000;
            let mut drops = 0;
            for _ in 0..n {
                if let Verdict::Drop(_) = red.on_arrival(&LINK.data_packet(), &LINK.queue_of(q), 0, &mut rng) {
                    drops += 1;
                }
            }
            let p_b = control_law(q as f64, 50.0, 100.0, 0.1, false);
            let rate = drops as f64 / n as f64;
            // With wait: no drop for count < 1/p_b, then p/(2 - count p): mean gap 1/p_b + ~0.5/p_b ...
            // The exact mean gap is sum over counts; compute it numerically.
            let mut survive = 1.0;
            let mut mean_gap = 0.0;
            let mut count = 1.0;
            loop {
                let p = if count * p_b < 1.0 {
                    0.0
                } else if count * p_b < 2.0 {
                    p_b / (2.0 - count * p_b)
                } else {
                    1.0
                };
                mean_gap += count * survive * p;
                survive *= 1.0 - p;
                if survive < 1e-15 {
                    break;
                }
                count += 1.0;
            }
            let expected = 1.0 / mean_gap;
            assert!((rate - expected).abs() / expected < 0.03, "q {q}: rate {rate} expected {expected}");
        }
    }

    #[test]
    fn ecn_marks_capable_packets() {
        let mut c = config();
        c.ecn = true;
        c.instantaneous = true;
        c.wait = false;
        let mut red = Red::new(&c, LINK, "q").unwrap();
        let mut rng = stream(1, StreamKind::Queue, 0);
        let mut ect = LINK.data_packet();
        ect.ecn = Ecn::Ect;
        let mut marks = 0;
        for _ in 0..10_000 {
            match red.on_arrival(&ect, &LINK.queue_of(99), 0, &mut rng) {
                Verdict::Mark(_) => marks += 1,
                Verdict::Drop(r) => panic!("dropped an ECT packet early: {r:?}"),
                Verdict::Enqueue => {}
            }
        }
        assert!(marks > 100);
    }

    #[test]
    fn ecn_capable_packets_are_dropped_where_the_law_reaches_mark_p() {
        // ns-2 `drop_early` with use_mark_p_ true, mark_p_ 0.1 (ns-default.tcl lines 141-142):
        // between the thresholds p < 0.1 marks; in the gentle region p >= 0.1 drops.
        let mut c = config();
        c.ecn = true;
        c.gentle = true;
        c.instantaneous = true;
        c.wait = false;
        c.mark_p = Some(0.1);
        let mut ect = LINK.data_packet();
        ect.ecn = Ecn::Ect;
        for (queue, expect_marks) in [(99u32, true), (150, false)] {
            let mut red = Red::new(&c, LINK, "q").unwrap();
            let mut rng = stream(1, StreamKind::Queue, queue as u64);
            let (mut marks, mut drops) = (0, 0);
            for _ in 0..10_000 {
                match red.on_arrival(&ect, &LINK.queue_of(queue), 0, &mut rng) {
                    Verdict::Mark(_) => marks += 1,
                    Verdict::Drop(_) => drops += 1,
                    Verdict::Enqueue => {}
                }
            }
            if expect_marks {
                assert!(marks > 100 && drops == 0, "q {queue}: {marks} marks, {drops} drops");
            } else {
                assert!(drops > 1000 && marks == 0, "q {queue}: {marks} marks, {drops} drops");
            }
        }
    }

    #[test]
    fn zero_thresholds_are_ns2_automatic() {
        // ns-2 red.cc initialize_params: min_th = max(5, target_delay · ptc / 2), max = 3 min.
        // 100 Mb/s, 1500 B: ptc = 8333.3/s; 5 ms -> target queue 41.7 -> min_th 20.83.
        let mut c = config();
        c.min_th = 0.0;
        c.max_th = 0.0;
        let red = Red::new(&c, LINK, "q").unwrap();
        let (lo, hi) = red.thresholds();
        assert!((lo - 0.005 * 1e8 / 12000.0 / 2.0).abs() < 1e-9 && (hi - 3.0 * lo).abs() < 1e-9, "{lo} {hi}");
        // A slow link: the floor of 5 packets; bytes mode scales by the mean size.
        let slow = LinkContext { rate_bps: 1_000_000, mean_packet_bytes: 1500 };
        c.queue_in_bytes = true;
        let (lo, hi) = Red::new(&c, slow, "q").unwrap().thresholds();
        assert_eq!((lo, hi), (5.0 * 1500.0, 15.0 * 1500.0));
    }

    #[test]
    fn rejects_bad_thresholds_naming_the_field() {
        let mut c = config();
        c.min_th = 120.0;
        let err = Red::new(&c, LINK, "topology.bottleneck.queue").err().unwrap().to_string();
        assert!(err.contains("topology.bottleneck.queue.max_th"), "{err}");
    }
}
