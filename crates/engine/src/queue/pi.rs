//! The PI (proportional-integral) AQM controller of Hollot, Misra, Towsley and Gong,
//! "On Designing Improved Controllers for AQM Routers Supporting TCP Flows", IEEE INFOCOM
//! 2001 (Section V; ns-2 `queue/pi.cc` by the same authors).
//!
//! The instantaneous queue q is sampled every T = 1/f seconds and the drop/mark probability
//! follows the discretised PI law
//!
//!   p(kT) = a (q(kT) - q_ref) - b (q((k-1)T) - q_ref) + p((k-1)T),
//!
//! clamped to [0, 1]. Every arriving packet is dropped (or ECN-marked) with probability p.
//! The paper's design example (N = 60 flows, C = 3750 packets/s, R+ = 0.246 s) gives
//! a = 1.822e-5, b = 1.816e-5, f = 160 Hz and q_ref = 200 packets; these are the defaults.
//! Updates are caught up lazily at packet events ([`super::periodic`]).

use serde::{Deserialize, Serialize};

use super::periodic::Ticker;
use super::{Limit, QueuePolicy, QueueView, Verdict};
use crate::error::Result;
use crate::packet::Packet;
use crate::rng::{Rng, RngCore};
use crate::time::Time;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PiConfig {
    pub limit: Limit,
    /// Coefficient of the current sample (Hollot et al. 2001, Section V: 1.822e-5).
    pub a: f64,
    /// Coefficient of the previous sample (Hollot et al. 2001, Section V: 1.816e-5).
    pub b: f64,
    /// Sampling frequency 1/T, Hz (Hollot et al. 2001, Section V: 160 Hz).
    pub sampling_frequency_hz: f64,
    /// Reference queue length q_ref, packets (bytes when `queue_in_bytes`); paper: 200.
    pub q_ref: f64,
    /// Mark ECN-capable packets instead of dropping them.
    pub ecn: bool,
    /// Sample the queue in bytes (q_ref then in bytes; a and b must be scaled accordingly).
    pub queue_in_bytes: bool,
}

// The queue kind `pi` (registered in `super::QueueConfig`): its buffer limit, its policy.
super::queue_kind!(|config: PiConfig, _link, field| config.limit, Pi::new(config, field));

pub struct Pi {
    a: f64,
    b: f64,
    q_ref: f64,
    ecn: bool,
    queue_in_bytes: bool,
    ticker: Ticker,
    /// p((k-1)T), the probability of the last update.
    p: f64,
    /// q((k-1)T), the queue at the last update (0 before the first: the queue starts empty).
    q_old: f64,
    /// The queue left by the last packet event (what every sample until the next event sees).
    q_now: f64,
    /// What the last accepted arrival added to `q_now` (undone if the buffer overflows).
    last_added: f64,
}

/// One step of the PI law (Hollot et al. 2001, Section V, the discrete-time controller):
/// p(kT) = a (q(kT) - q_ref) - b (q((k-1)T) - q_ref) + p((k-1)T), clamped to [0, 1].
pub fn pi_step(a: f64, b: f64, q_ref: f64, q: f64, q_old: f64, p_old: f64) -> f64 {
    (a * (q - q_ref) - b * (q_old - q_ref) + p_old).clamp(0.0, 1.0)
}

impl Pi {
    pub fn new(config: &PiConfig, field: &str) -> Result<Self> {
        let check = super::params::checker(field);
        check(config.a.is_finite() && config.a >= 0.0, "a", config.a, "a coefficient >= 0")?;
        check(config.b.is_finite() && config.b >= 0.0, "b", config.b, "a coefficient >= 0")?;
        let f = config.sampling_frequency_hz;
        check(f.is_finite() && f > 0.0 && f <= 1e9, "sampling_frequency_hz", f, "a frequency in (0, 1e9] Hz")?;
        check(config.q_ref.is_finite() && config.q_ref >= 0.0, "q_ref", config.q_ref, "a reference queue >= 0")?;
        let period = (1e9 / f).round() as Time;
        Ok(Pi {
            a: config.a,
            b: config.b,
            q_ref: config.q_ref,
            ecn: config.ecn,
            queue_in_bytes: config.queue_in_bytes,
            ticker: Ticker::new(period.max(1)),
            p: 0.0,
            q_old: 0.0,
            q_now: 0.0,
            last_added: 0.0,
        })
    }

    /// Apply the updates due at the sampling instants up to `now`, each seeing `q_now`.
    fn catch_up(&mut self, now: Time) {
        for _ in 0..self.ticker.elapsed(now) {
            self.p = pi_step(self.a, self.b, self.q_ref, self.q_now, self.q_old, self.p);
            self.q_old = self.q_now;
        }
    }

    fn measure(&self, queue: &QueueView) -> f64 {
        if self.queue_in_bytes {
            queue.bytes as f64
        } else {
            queue.packets as f64
        }
    }

    pub fn probability(&self) -> f64 {
        self.p
    }
}

impl QueuePolicy for Pi {
    fn on_arrival(&mut self, packet: &Packet, queue: &QueueView, now: Time, rng: &mut Rng) -> Verdict {
        self.q_now = self.measure(queue);
        self.catch_up(now);
        // Hollot et al. 2001, Section V: drop (mark) the arriving packet with probability p.
        let verdict = if self.p > 0.0 && rng.gen::<f64>() < self.p {
            super::early::early_signal(self.ecn, packet)
        } else {
            Verdict::Enqueue
        };
        self.last_added = match verdict {
            Verdict::Drop(_) => 0.0,
            _ if self.queue_in_bytes => packet.size_bytes as f64,
            _ => 1.0,
        };
        self.q_now += self.last_added;
        verdict
    }

    fn on_overflow(&mut self) {
        self.q_now -= self.last_added;
        self.last_added = 0.0;
    }

    fn on_dequeue(&mut self, _packet: &Packet, queue: &QueueView, now: Time, _rng: &mut Rng) -> super::Departure {
        // The packet left at `now`: samples before it still saw it in the queue.
        self.catch_up(now);
        self.q_now = self.measure(queue);
        super::Departure::Send
    }

    fn drop_probability(&self) -> f64 {
        self.p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::Ecn;
    use crate::queue::LinkContext;
    use crate::queue::{DropReason, MarkReason};
    use crate::rng::{stream, StreamKind};

    /// 15 Mb/s of 500-byte packets.
    const LINK: LinkContext = LinkContext { rate_bps: 15_000_000, mean_packet_bytes: 500 };

    const T: Time = 6_250_000; // 1/160 Hz

    pub(crate) fn config() -> PiConfig {
        PiConfig {
            limit: Limit::Packets(800),
            a: 1.822e-5,
            b: 1.816e-5,
            sampling_frequency_hz: 160.0,
            q_ref: 200.0,
            ecn: false,
            queue_in_bytes: false,
        }
    }

    #[test]
    fn update_equation_at_hand_computed_points() {
        let (a, b, r) = (1.822e-5, 1.816e-5, 200.0);
        // q: 0 -> 300: 1.822e-5 * 100 + 1.816e-5 * 200 = 1.822e-3 + 3.632e-3
        let p1 = pi_step(a, b, r, 300.0, 0.0, 0.0);
        assert!((p1 - 5.454e-3).abs() < 1e-15, "{p1}");
        // q stays 300: + (a - b) * 100 = 6e-6
        let p2 = pi_step(a, b, r, 300.0, 300.0, p1);
        assert!((p2 - 5.460e-3).abs() < 1e-15, "{p2}");
        // q: 300 -> 100: -1.822e-3 - 1.816e-3
        let p3 = pi_step(a, b, r, 100.0, 300.0, p2);
        assert!((p3 - 1.822e-3).abs() < 1e-15, "{p3}");
        // q: 100 -> 0: -3.644e-3 + 1.816e-3 + 1.822e-3 = -6e-6, clamped to 0
        assert_eq!(pi_step(a, b, r, 0.0, 100.0, p3), 0.0);
        // and clamped to 1 above
        assert_eq!(pi_step(1.0, 0.0, r, 300.0, 0.0, 0.5), 1.0);
    }

    #[test]
    fn periods_are_caught_up_lazily_with_the_queue_seen_then() {
        let mut pi = Pi::new(&config(), "q").unwrap();
        let mut rng = stream(1, StreamKind::Queue, 0);
        // An arrival at 1 ms leaves 300 packets; nothing happens until 3T + 1 ms, so the
        // samples at T, 2T and 3T all see 300.
        pi.on_arrival(&LINK.data_packet(), &LINK.queue_of(299), 1_000_000, &mut rng);
        assert_eq!(pi.probability(), 0.0);
        pi.on_arrival(&LINK.data_packet(), &LINK.queue_of(300), 3 * T + 1_000_000, &mut rng);
        let expected = 5.454e-3 + 6e-6 + 6e-6;
        assert!((pi.probability() - expected).abs() < 1e-15, "{}", pi.probability());
        // Dequeues leave 100 packets at 3T + 2 ms; the sample at 4T sees 100.
        pi.on_dequeue(&LINK.data_packet(), &LINK.queue_of(100), 3 * T + 2_000_000, &mut rng);
        pi.on_arrival(&LINK.data_packet(), &LINK.queue_of(100), 4 * T, &mut rng);
        let expected = expected - 1.822e-3 - 1.816e-3;
        assert!((pi.probability() - expected).abs() < 1e-15, "{}", pi.probability());
    }

    #[test]
    fn arrivals_are_dropped_with_probability_p() {
        let mut c = config();
        c.a = 1e-3;
        c.b = 0.0;
        c.q_ref = 0.0;
        let mut pi = Pi::new(&c, "q").unwrap();
        let mut rng = stream(7, StreamKind::Queue, 0);
        // Queue 250 at the first sample: p = 1e-3 * 250 = 0.25 (b = 0 keeps it there).
        pi.on_arrival(&LINK.data_packet(), &LINK.queue_of(249), 0, &mut rng);
        pi.on_arrival(&LINK.data_packet(), &LINK.queue_of(250), T, &mut rng);
        assert!((pi.probability() - 0.25).abs() < 1e-12);
        let n = 200_000;
        let drops = (0..n)
            .filter(|_| {
                let d =
                    matches!(pi.on_arrival(&LINK.data_packet(), &LINK.queue_of(250), T, &mut rng), Verdict::Drop(_));
                if !d {
                    pi.on_dequeue(&LINK.data_packet(), &LINK.queue_of(250), T, &mut rng);
                }
                d
            })
            .count();
        let rate = drops as f64 / n as f64;
        assert!((rate - 0.25).abs() < 0.005, "{rate}");
    }

    #[test]
    fn ecn_marks_capable_packets_and_invalid_parameters_name_the_field() {
        let mut c = config();
        c.a = 1.0;
        c.ecn = true;
        let mut pi = Pi::new(&c, "q").unwrap();
        let mut rng = stream(1, StreamKind::Queue, 0);
        pi.on_arrival(&LINK.data_packet(), &LINK.queue_of(299), 0, &mut rng);
        pi.on_arrival(&LINK.data_packet(), &LINK.queue_of(300), T, &mut rng);
        assert_eq!(pi.probability(), 1.0);
        let mut ect = LINK.data_packet();
        ect.ecn = Ecn::Ect;
        assert_eq!(pi.on_arrival(&ect, &LINK.queue_of(300), T, &mut rng), Verdict::Mark(MarkReason::Early));
        assert_eq!(
            pi.on_arrival(&LINK.data_packet(), &LINK.queue_of(300), T, &mut rng),
            Verdict::Drop(DropReason::Early)
        );

        let mut bad = config();
        bad.sampling_frequency_hz = 0.0;
        let err = Pi::new(&bad, "topology.bottleneck.queue").err().unwrap().to_string();
        assert!(err.contains("topology.bottleneck.queue.sampling_frequency_hz"), "{err}");
        let mut bad = config();
        bad.a = -1.0;
        assert!(Pi::new(&bad, "q").err().unwrap().to_string().contains("q.a"));
    }
}
