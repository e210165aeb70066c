//! Random Exponential Marking (REM): Athuraliya, Low, Li and Yin, "REM: Active Queue
//! Management", IEEE Network 15(3), 2001; discretised as in ns-2 `queue/rem.cc`.
//!
//! Each link keeps a price p_l updated every period,
//!
//!   p_l(t+1) = [ p_l(t) + γ ( α_l (b_l(t) - b*) + x_l(t) - c_l(t) ) ]⁺,
//!
//! with b_l the queue (backlog), b* the target backlog, x_l the input rate and c_l the
//! capacity, and marks (or drops) each arriving packet with probability 1 - φ^(-p_l(t)).
//! The article's parameters are the defaults: φ = 1.001, γ = 0.001, α = 0.1, b* = 20
//! packets. As in ns-2 (`pupdtime_` = 2 ms), rates are counted per update period in packets:
//! x = packets that arrived during the period, c = link rate · period / (8 · mean packet
//! size). Updates are caught up lazily at packet events ([`super::periodic`]).

use serde::{Deserialize, Serialize};

use super::periodic::Ticker;
use super::{Departure, Limit, LinkContext, QueuePolicy, QueueView, Verdict};
use crate::error::Result;
use crate::packet::Packet;
use crate::rng::{Rng, RngCore};
use crate::time::{to_secs, Time};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemConfig {
    pub limit: Limit,
    /// Step size γ of the price update (Athuraliya et al. 2001: 0.001).
    pub gamma: f64,
    /// Weight α of the backlog term (Athuraliya et al. 2001: 0.1; ns-2 hard-codes 0.1).
    pub alpha: f64,
    /// Base φ > 1 of the exponential marking 1 - φ^(-p) (Athuraliya et al. 2001: 1.001).
    pub phi: f64,
    /// Target backlog b*, packets (Athuraliya et al. 2001: 20; ns-2 `pbo_` = 20).
    pub target_backlog: f64,
    /// Price update period, ns (ns-2 `pupdtime_` = 2 ms).
    pub update_interval_ns: Time,
    /// Mark ECN-capable packets instead of dropping them.
    pub ecn: bool,
    /// Measure backlog and input in bytes / mean packet size (ns-2 `qib_`).
    pub queue_in_bytes: bool,
    /// Packet size that converts the link rate (and bytes) to packets; default: the
    /// scenario's packet size.
    #[serde(default)]
    pub mean_packet_bytes: Option<u32>,
}

// The queue kind `rem` (registered in `super::QueueConfig`): its buffer limit, its policy.
super::queue_kind!(|config: RemConfig, link, field| config.limit, Rem::new(config, link, field));

pub struct Rem {
    gamma: f64,
    alpha: f64,
    phi: f64,
    target_backlog: f64,
    ecn: bool,
    queue_in_bytes: bool,
    mean_packet_bytes: f64,
    /// c: packets the link can send in one update period.
    capacity_per_period: f64,
    ticker: Ticker,
    price: f64,
    probability: f64,
    /// Arrivals (packets, or bytes / mean size) since the last update.
    arrivals: f64,
    /// The backlog left by the last packet event, packets (or bytes / mean size).
    backlog: f64,
    last_added: f64,
}

/// One price update (Athuraliya et al. 2001, the REM price law):
/// p(t+1) = max(0, p(t) + γ (α (b(t) - b*) + x(t) - c(t))).
pub fn price_step(price: f64, gamma: f64, alpha: f64, backlog: f64, target: f64, input: f64, capacity: f64) -> f64 {
    (price + gamma * (alpha * (backlog - target) + input - capacity)).max(0.0)
}

/// Exponential marking (Athuraliya et al. 2001): probability 1 - φ^(-p).
pub fn mark_probability(phi: f64, price: f64) -> f64 {
    1.0 - phi.powf(-price)
}

impl Rem {
    pub fn new(config: &RemConfig, link: LinkContext, field: &str) -> Result<Self> {
        let check = super::params::checker(field);
        check(config.gamma.is_finite() && config.gamma > 0.0, "gamma", config.gamma, "a step size > 0")?;
        check(config.alpha.is_finite() && config.alpha >= 0.0, "alpha", config.alpha, "a weight >= 0")?;
        check(config.phi.is_finite() && config.phi > 1.0, "phi", config.phi, "a base > 1")?;
        check(
            config.target_backlog.is_finite() && config.target_backlog >= 0.0,
            "target_backlog",
            config.target_backlog,
            "a backlog >= 0 packets",
        )?;
        check(
            config.update_interval_ns > 0,
            "update_interval_ns",
            config.update_interval_ns as f64,
            "an interval > 0 ns",
        )?;
        let mean = config.mean_packet_bytes.unwrap_or(link.mean_packet_bytes);
        check(mean > 0, "mean_packet_bytes", mean as f64, "a size > 0 bytes")?;
        let mean = mean as f64;
        Ok(Rem {
            gamma: config.gamma,
            alpha: config.alpha,
            phi: config.phi,
            target_backlog: config.target_backlog,
            ecn: config.ecn,
            queue_in_bytes: config.queue_in_bytes,
            mean_packet_bytes: mean,
            // ns-2 rem.cc: c = pupdtime * ptc, ptc = link rate / (8 * mean packet size).
            capacity_per_period: link.rate_bps as f64 * to_secs(config.update_interval_ns) / (8.0 * mean),
            ticker: Ticker::new(config.update_interval_ns),
            price: 0.0,
            probability: 0.0,
            arrivals: 0.0,
            backlog: 0.0,
            last_added: 0.0,
        })
    }

    fn catch_up(&mut self, now: Time) {
        for _ in 0..self.ticker.elapsed(now) {
            self.price = price_step(
                self.price,
                self.gamma,
                self.alpha,
                self.backlog,
                self.target_backlog,
                self.arrivals,
                self.capacity_per_period,
            );
            self.probability = mark_probability(self.phi, self.price);
            // Periods after the first saw no arrivals (else they would have caught up).
            self.arrivals = 0.0;
        }
    }

    fn measure(&self, queue: &QueueView) -> f64 {
        if self.queue_in_bytes {
            queue.bytes as f64 / self.mean_packet_bytes
        } else {
            queue.packets as f64
        }
    }

    fn size(&self, packet: &Packet) -> f64 {
        if self.queue_in_bytes {
            packet.size_bytes as f64 / self.mean_packet_bytes
        } else {
            1.0
        }
    }

    pub fn price(&self) -> f64 {
        self.price
    }
}

impl QueuePolicy for Rem {
    fn on_arrival(&mut self, packet: &Packet, queue: &QueueView, now: Time, rng: &mut Rng) -> Verdict {
        self.backlog = self.measure(queue);
        self.catch_up(now);
        // x(t): every arriving packet counts, accepted or not (ns-2 rem.cc `v_count`).
        self.arrivals += self.size(packet);
        let verdict = if self.probability > 0.0 && rng.gen::<f64>() < self.probability {
            super::early::early_signal(self.ecn, packet)
        } else {
            Verdict::Enqueue
        };
        self.last_added = if matches!(verdict, Verdict::Drop(_)) { 0.0 } else { self.size(packet) };
        self.backlog += self.last_added;
        verdict
    }

    fn on_overflow(&mut self) {
        self.backlog -= self.last_added;
        self.last_added = 0.0;
    }

    fn on_dequeue(&mut self, _packet: &Packet, queue: &QueueView, now: Time, _rng: &mut Rng) -> Departure {
        self.catch_up(now);
        self.backlog = self.measure(queue);
        Departure::Send
    }

    fn drop_probability(&self) -> f64 {
        self.probability
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::Ecn;
    use crate::rng::{stream, StreamKind};

    const T: Time = 2_000_000;
    // 15 Mb/s with 500-byte packets: 3750 packets/s, 7.5 per 2 ms period.
    const LINK: LinkContext = LinkContext { rate_bps: 15_000_000, mean_packet_bytes: 500 };

    fn config() -> RemConfig {
        RemConfig {
            limit: Limit::Packets(800),
            gamma: 0.001,
            alpha: 0.1,
            phi: 1.001,
            target_backlog: 20.0,
            update_interval_ns: T,
            ecn: false,
            queue_in_bytes: false,
            mean_packet_bytes: None,
        }
    }

    #[test]
    fn price_update_and_marking_function_at_hand_computed_points() {
        // backlog 120, input 10 packets, capacity 7.5: 0.001 (0.1 * 100 + 2.5) = 0.0125
        let p = price_step(0.0, 0.001, 0.1, 120.0, 20.0, 10.0, 7.5);
        assert!((p - 0.0125).abs() < 1e-15, "{p}");
        // the positive part: an empty queue with no input drives the price to 0, not below
        assert_eq!(price_step(0.001, 0.001, 0.1, 0.0, 20.0, 0.0, 7.5), 0.0);
        // 1 - 1.001^(-p): p = 0 -> 0; p = 693.49 -> 1/2; p = 2302.94 -> 0.9
        assert_eq!(mark_probability(1.001, 0.0), 0.0);
        let half = (2.0f64).ln() / (1.001f64).ln();
        assert!((mark_probability(1.001, half) - 0.5).abs() < 1e-12);
        assert!((mark_probability(1.001, 100.0) - (1.0 - 1.001f64.powf(-100.0))).abs() < 1e-15);
        assert!((mark_probability(1.001, 100.0) - 0.0951174).abs() < 1e-6);
    }

    #[test]
    fn lazy_updates_count_arrivals_per_period_and_see_the_backlog_then() {
        let mut rem = Rem::new(&config(), LINK, "q").unwrap();
        assert!((rem.capacity_per_period - 7.5).abs() < 1e-12);
        let mut rng = stream(1, StreamKind::Queue, 0);
        // 10 arrivals in the first period, leaving 120 packets.
        for i in 0..10u32 {
            rem.on_arrival(&LINK.data_packet(), &LINK.queue_of(110 + i), 100_000 * i as u64, &mut rng);
        }
        // Next event at 3T + 1: updates at T (x = 10, b = 120), 2T and 3T (x = 0, b = 120).
        rem.on_dequeue(&LINK.data_packet(), &LINK.queue_of(119), 3 * T + 1, &mut rng);
        let p1 = price_step(0.0, 0.001, 0.1, 120.0, 20.0, 10.0, 7.5);
        let p2 = price_step(p1, 0.001, 0.1, 120.0, 20.0, 0.0, 7.5);
        let p3 = price_step(p2, 0.001, 0.1, 120.0, 20.0, 0.0, 7.5);
        assert!((rem.price() - p3).abs() < 1e-15, "{} vs {p3}", rem.price());
        assert!((p3 - (0.0125 + 2.0 * 0.0025)).abs() < 1e-15);
        assert!((rem.drop_probability() - mark_probability(1.001, p3)).abs() < 1e-15);
    }

    #[test]
    fn drops_follow_the_marking_probability_and_ecn_marks() {
        let mut c = config();
        c.phi = 2.0;
        c.gamma = 1.0;
        c.alpha = 1.0;
        c.target_backlog = 0.0;
        c.ecn = true;
        let mut rem = Rem::new(&c, LINK, "q").unwrap();
        let mut rng = stream(5, StreamKind::Queue, 0);
        // One period with backlog 1, input 7.5 = capacity: price 1, probability 1/2.
        let mut p = LINK.data_packet();
        p.size_bytes = 500;
        rem.backlog = 1.0;
        rem.arrivals = 7.5;
        rem.on_dequeue(&p, &LINK.queue_of(1), T, &mut rng);
        assert!((rem.drop_probability() - 0.5).abs() < 1e-12);
        let mut ect = LINK.data_packet();
        ect.ecn = Ecn::Ect;
        let n = 100_000;
        let marks =
            (0..n).filter(|_| matches!(rem.on_arrival(&ect, &LINK.queue_of(1), T, &mut rng), Verdict::Mark(_))).count();
        assert!((marks as f64 / n as f64 - 0.5).abs() < 0.01);
    }

    #[test]
    fn invalid_parameters_name_the_field() {
        let mut bad = config();
        bad.phi = 1.0;
        assert!(Rem::new(&bad, LINK, "x.queue").err().unwrap().to_string().contains("x.queue.phi"));
        let mut bad = config();
        bad.update_interval_ns = 0;
        assert!(Rem::new(&bad, LINK, "x.queue").err().unwrap().to_string().contains("x.queue.update_interval_ns"));
    }
}
