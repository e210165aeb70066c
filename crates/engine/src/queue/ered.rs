//! Exponential RED (seed 002 Section IV-B/C; Liu, Başar, Srikant): mark or drop with a
//! probability that is an exponential function of the length of a *virtual* queue served
//! at γ·C beside the real queue.
//!
//! Reconstructed equations (the extraction of seed 002 lost its symbols; see
//! `/work/shared/seeds/README.md` and `docs/queues/ered.md`):
//! - virtual queue (Remark 3): d b̃/dt = y − γ·C, b̃ ≥ 0, with 0 < γ < 1;
//! - link law (34): ṗ = (α / C) · p · (y − γ·C) … realised at the packet level by the
//!   marking profile (35):
//!   p(b̃) = 0 for b̃ < b_min, p_min · exp(κ (b̃ − b_min)) for b_min ≤ b̃ ≤ b_max, 1 above,
//!   with b_max = b_min + ln(p_max / p_min) / κ (p(b_max) = p_max ≤ 1);
//! - κ = α / (C · D), D the round-trip time the gain is normalised by: eq. (34) written with
//!   time in units of D (the only reading in which α is a pure number, as Theorem III.2's
//!   delay-free bound α ≤ 1/2 requires); with p = p_min e^{κ(b̃ − b_min)}, ṗ = κ p ḃ̃ =
//!   (α/(C·D)) p (y − γC). D = the largest RTT of the flows through the link; the fluid model
//!   `primal-dual` uses the same κ, and its Hopf α for Scalable TCP at one RTT (Fig. 10's
//!   setting) is 1.05, the paper's "α = 1 is the critical point". The paper's large-capacity
//!   numbers (p* = 0.0442 at b̃* ≈ 27 000, κ p* = 7.36·10⁻⁶) instead imply D = 50 ms = half its
//!   maximum RTT: a factor 2 the text does not explain (docs/queues/ered.md). D is the
//!   parameter `delay_scale_ns` (no default in the Python model);
//! - E-RED-aq (Section IV-C, eq. (37)): the profile is applied to the EWMA
//!   b̂ ← (1 − w) b̂ + w b̃, sampled at every arrival (as ns-2's RED samples its average).

use serde::{Deserialize, Serialize};

use super::{DropReason, Limit, LinkContext, MarkReason, QueuePolicy, QueueView, Verdict};
use crate::error::Result;
use crate::packet::{Ecn, Packet};
use crate::rng::{Rng, RngCore};
use crate::time::{to_secs, Time, NANOS_PER_SEC};

/// A fluid virtual queue, in bytes, served at a fixed rate (seed 002 Remark 3; AVQ and
/// REDvq use the same device). Updated lazily from the time of each arrival, so its state
/// is a pure function of the arrival times.
#[derive(Clone, Debug)]
pub(crate) struct VirtualQueue {
    bytes: f64,
    /// Service rate, bytes per second.
    rate: f64,
    last: Time,
    /// When the virtual queue last became empty (for RED's idle-time correction).
    empty_since: Option<Time>,
}

impl VirtualQueue {
    pub(crate) fn new(rate_bytes_per_s: f64) -> Self {
        VirtualQueue { bytes: 0.0, rate: rate_bytes_per_s, last: 0, empty_since: Some(0) }
    }

    /// Serve the queue from the last update until `now`: b̃ ← max(0, b̃ − γC (now − last)).
    pub(crate) fn drain(&mut self, now: Time) {
        if now <= self.last {
            return;
        }
        let served = self.rate * to_secs(now - self.last);
        if self.bytes <= served {
            if self.empty_since.is_none() {
                let empty_at = self.last + (self.bytes / self.rate * NANOS_PER_SEC as f64).ceil() as Time;
                self.empty_since = Some(empty_at.min(now));
            }
            self.bytes = 0.0;
        } else {
            self.bytes -= served;
        }
        self.last = now;
    }

    pub(crate) fn add(&mut self, bytes: f64) {
        self.bytes += bytes;
        if self.bytes > 0.0 {
            self.empty_since = None;
        }
    }

    pub(crate) fn bytes(&self) -> f64 {
        self.bytes
    }

    pub(crate) fn empty_since(&self) -> Option<Time> {
        self.empty_since
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EredConfig {
    pub limit: Limit,
    /// Virtual capacity factor γ: the virtual queue is served at γ·C (seed 002 Remark 3;
    /// Section V uses 0.95, Section V-D 0.9).
    pub gamma: f64,
    /// Link adaptation gain α of eq. (34) (Section V: α = 1; α ≤ 1/2 is the sufficient
    /// stability condition for Reno; α = 8 was unstable).
    pub alpha: f64,
    /// Marking probability at b̃ = b_min (Section V-A: 0.0005; 0.00067 in the large-delay case).
    pub p_min: f64,
    /// Marking probability at b̃ = b_max, which fixes b_max (Section V: 0.1).
    pub p_max: f64,
    /// Lower virtual-queue threshold b_min, packets (bytes when `queue_in_bytes`);
    /// Section V: 1/5 of the real buffer limit.
    pub b_min: f64,
    /// Normalising round-trip time D of the exponent κ = α / (C · D), ns: the largest RTT of
    /// the flows through the link (docs/queues/ered.md).
    pub delay_scale_ns: Time,
    /// E-RED-aq: apply the profile to the EWMA of the virtual queue (Section IV-C);
    /// false is E-RED-iq.
    pub averaged: bool,
    /// EWMA weight w of E-RED-aq (Section V-B: 0.001).
    pub q_weight: f64,
    /// Mark ECN-capable packets instead of dropping them (the paper marks).
    pub ecn: bool,
    /// Measure the virtual queue and b_min in bytes.
    pub queue_in_bytes: bool,
    /// Bytes per packet for expressing the virtual queue in packets and C in packets/s.
    pub mean_packet_bytes: u32,
}

// The queue kind `ered` (registered in `super::QueueConfig`): its buffer limit, its policy.
super::queue_kind!(|config: EredConfig, link, field| config.limit, Ered::new(config, link, field));

/// The E-RED marking profile, eq. (35) as reconstructed: 0 below b_min, p_min·e^{κ(q−b_min)}
/// up to b_max, 1 above.
pub fn exponential_profile(q: f64, b_min: f64, b_max: f64, p_min: f64, kappa: f64) -> f64 {
    if q < b_min {
        0.0
    } else if q <= b_max {
        (p_min * (kappa * (q - b_min)).exp()).min(1.0)
    } else {
        1.0
    }
}

pub struct Ered {
    vq: VirtualQueue,
    /// Bytes per unit of the queue measure (1 in byte mode, the mean packet size otherwise).
    unit_bytes: f64,
    b_min: f64,
    b_max: f64,
    p_min: f64,
    kappa: f64,
    averaged: bool,
    q_weight: f64,
    ecn: bool,
    average: f64,
    probability: f64,
}

impl Ered {
    pub fn new(config: &EredConfig, link: LinkContext, field: &str) -> Result<Self> {
        let check = super::params::checker(field);
        check(config.gamma > 0.0 && config.gamma <= 1.0, "gamma", config.gamma, "a factor in (0, 1]")?;
        check(config.alpha > 0.0 && config.alpha.is_finite(), "alpha", config.alpha, "a gain > 0")?;
        check(config.p_min > 0.0 && config.p_min < 1.0, "p_min", config.p_min, "a probability in (0, 1)")?;
        check(
            config.p_max > config.p_min && config.p_max <= 1.0,
            "p_max",
            config.p_max,
            "a probability in (p_min, 1]",
        )?;
        check(config.b_min >= 0.0 && config.b_min.is_finite(), "b_min", config.b_min, "a threshold >= 0")?;
        check(config.delay_scale_ns > 0, "delay_scale_ns", config.delay_scale_ns as f64, "a delay > 0 ns")?;
        check(config.q_weight > 0.0 && config.q_weight <= 1.0, "q_weight", config.q_weight, "a weight in (0, 1]")?;
        check(config.mean_packet_bytes > 0, "mean_packet_bytes", config.mean_packet_bytes as f64, "a size > 0 bytes")?;
        let unit_bytes = if config.queue_in_bytes { 1.0 } else { config.mean_packet_bytes as f64 };
        // C in queue units per second (packets/s, or bytes/s in byte mode).
        let capacity = link.rate_bps as f64 / 8.0 / unit_bytes;
        // Reconstructed exponent: dp/db̃ = κ p with κ = α / (C · D), so ṗ = (α / (C D)) p (y − γC).
        let kappa = config.alpha / (capacity * to_secs(config.delay_scale_ns));
        // p(b_max) = p_max: b_max = b_min + ln(p_max / p_min) / κ.
        let b_max = config.b_min + (config.p_max / config.p_min).ln() / kappa;
        Ok(Ered {
            vq: VirtualQueue::new(config.gamma * link.rate_bps as f64 / 8.0),
            unit_bytes,
            b_min: config.b_min,
            b_max,
            p_min: config.p_min,
            kappa,
            averaged: config.averaged,
            q_weight: config.q_weight,
            ecn: config.ecn,
            average: 0.0,
            probability: 0.0,
        })
    }

    pub fn kappa(&self) -> f64 {
        self.kappa
    }

    pub fn b_max(&self) -> f64 {
        self.b_max
    }

    fn virtual_length(&self) -> f64 {
        self.vq.bytes() / self.unit_bytes
    }
}

impl QueuePolicy for Ered {
    fn decides_at_arrival(&self) -> bool {
        true
    }
    fn on_arrival(&mut self, packet: &Packet, _queue: &QueueView, now: Time, rng: &mut Rng) -> Verdict {
        // Virtual queue served at γC since the last arrival (Remark 3).
        self.vq.drain(now);
        let q = self.virtual_length();
        // E-RED-aq, eq. (37): b̂ ← (1 − w) b̂ + w b̃ at each sample (here: each arrival).
        self.average = (1.0 - self.q_weight) * self.average + self.q_weight * q;
        let measure = if self.averaged { self.average } else { q };
        // Marking profile, eq. (35).
        self.probability = exponential_profile(measure, self.b_min, self.b_max, self.p_min, self.kappa);
        let verdict = if self.probability > 0.0 && (self.probability >= 1.0 || rng.gen::<f64>() < self.probability) {
            let forced = measure > self.b_max;
            match (self.ecn && packet.ecn != Ecn::NotEct, forced) {
                (true, false) => Verdict::Mark(MarkReason::Early),
                (true, true) => Verdict::Mark(MarkReason::Forced),
                (false, false) => Verdict::Drop(DropReason::Early),
                (false, true) => Verdict::Drop(DropReason::Forced),
            }
        } else {
            Verdict::Enqueue
        };
        // Every arrival is offered load y of the link law (34): it enters the virtual queue
        // whether it is marked, dropped here or dropped by the real buffer.
        self.vq.add(packet.size_bytes as f64);
        verdict
    }

    fn average_queue(&self) -> f64 {
        if self.averaged {
            self.average
        } else {
            f64::NAN
        }
    }

    fn drop_probability(&self) -> f64 {
        self.probability
    }

    fn virtual_queue(&self) -> f64 {
        self.virtual_length()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, StreamKind};

    /// 100 Mb/s of 1250-byte packets: C = 10 000 packets/s.
    const LINK: LinkContext = LinkContext { rate_bps: 100_000_000, mean_packet_bytes: 1250 };

    fn config() -> EredConfig {
        EredConfig {
            limit: Limit::Packets(30),
            gamma: 0.95,
            alpha: 1.0,
            p_min: 0.0005,
            p_max: 0.1,
            b_min: 6.0,
            delay_scale_ns: 50_000_000,
            averaged: false,
            q_weight: 0.001,
            ecn: true,
            queue_in_bytes: false,
            mean_packet_bytes: 1250,
        }
    }

    fn packet(ecn: Ecn) -> Packet {
        Packet::test_data(1250, ecn, 0)
    }

    const VIEW: QueueView = QueueView { packets: 0, bytes: 0, idle_since: None, link_rate_bps: 100_000_000 };

    #[test]
    fn exponent_and_upper_threshold_follow_the_reconstruction() {
        let e = Ered::new(&config(), LINK, "q").unwrap();
        // κ = α / (C D) = 1 / (10 000 · 0.05) = 1/500 per packet.
        assert!((e.kappa() - 1.0 / 500.0).abs() < 1e-15);
        // b_max = b_min + ln(p_max/p_min)/κ = 6 + 500 ln 200.
        assert!((e.b_max() - (6.0 + 500.0 * 200f64.ln())).abs() < 1e-9);
        // The paper's large-capacity numbers (Section V-A): p* = 0.0442 at b̃* ≈ 27 000 from
        // p_min = 0.0005, b_min = 60, i.e. κ = ln(0.0442/0.0005)/26 940 = 1/6010 per packet; at
        // 1 Gb/s of 1040-byte packets (120 192 packets/s) that is D = 1/(κ C) = 50 ms, half the
        // scenario's 100 ms maximum RTT that the normalisation gives (κ = 1/12 019, p* = 0.0047).
        let kappa_paper = (0.0442f64 / 0.0005).ln() / (27_000.0 - 60.0);
        let c_gig = 1e9 / 8.0 / 1040.0;
        assert!((1.0 / (kappa_paper * c_gig) - 0.050).abs() < 0.0005);
        assert!((kappa_paper * 0.0442 - 7.36e-6).abs() < 0.01e-6); // the paper's 7.36·10⁻⁶
        let gig = LinkContext { rate_bps: 1_000_000_000, mean_packet_bytes: 1040 };
        let c = EredConfig {
            b_min: 60.0,
            mean_packet_bytes: 1040,
            limit: Limit::Packets(300),
            delay_scale_ns: 100_000_000,
            ..config()
        };
        let e = Ered::new(&c, gig, "q").unwrap();
        assert!((e.kappa() - 1.0 / (c_gig * 0.1)).abs() < 1e-15);
        let p = exponential_profile(27_000.0, 60.0, e.b_max(), 0.0005, e.kappa());
        assert!((p - 0.0005 * (26_940.0 / (c_gig * 0.1)).exp()).abs() < 1e-12, "{p}");
    }

    #[test]
    fn marking_frequency_follows_the_exponential_profile() {
        // Hold the virtual queue at a known length (re-fill it at one instant) and count marks.
        let e0 = Ered::new(&config(), LINK, "q").unwrap();
        for &q in &[3.0, 6.0, 300.0, 900.0, 2000.0, 2700.0, 3000.0] {
            let mut e = Ered::new(&config(), LINK, "q").unwrap();
            let mut rng = stream(5, StreamKind::Queue, q as u64);
            let expected = exponential_profile(q, 6.0, e0.b_max(), 0.0005, e0.kappa());
            let n = 200_000;
            let mut marks = 0;
            for _ in 0..n {
                e.vq = VirtualQueue::new(e.vq.rate);
                e.vq.add(q * 1250.0);
                if let Verdict::Mark(_) = e.on_arrival(&packet(Ecn::Ect), &VIEW, 0, &mut rng) {
                    marks += 1;
                }
                assert!((e.drop_probability() - expected).abs() < 1e-12);
            }
            let rate = marks as f64 / n as f64;
            let sd = (expected * (1.0 - expected) / n as f64).sqrt();
            assert!((rate - expected).abs() <= 4.0 * sd + 1e-12, "q {q}: rate {rate}, profile {expected}");
            if q >= 6.0 {
                // log-linear in q: ln p = ln p_min + κ (q − b_min)
                assert!((expected.ln() - (0.0005f64.ln() + (q - 6.0) / 500.0)).abs() < 1e-9 || expected == 1.0);
            }
        }
        assert_eq!(exponential_profile(3.0, 6.0, e0.b_max(), 0.0005, e0.kappa()), 0.0);
        assert_eq!(exponential_profile(e0.b_max() + 1.0, 6.0, e0.b_max(), 0.0005, e0.kappa()), 1.0);
        assert!((exponential_profile(e0.b_max(), 6.0, e0.b_max(), 0.0005, e0.kappa()) - 0.1).abs() < 1e-12);
    }

    #[test]
    fn virtual_queue_drains_at_gamma_c() {
        let mut e = Ered::new(&config(), LINK, "q").unwrap();
        let mut rng = stream(1, StreamKind::Queue, 0);
        // 100 packets arrive at t = 0 (below b_min they are never marked until 6 are queued;
        // ECN keeps every packet in the virtual queue).
        for _ in 0..100 {
            e.on_arrival(&packet(Ecn::Ect), &VIEW, 0, &mut rng);
        }
        assert!((e.virtual_queue() - 100.0).abs() < 1e-9);
        // γC = 9 500 packets/s: after 5 ms, 47.5 packets served; the arrival then adds one.
        e.on_arrival(&packet(Ecn::Ect), &VIEW, 5_000_000, &mut rng);
        assert!((e.virtual_queue() - (100.0 - 47.5 + 1.0)).abs() < 1e-9, "{}", e.virtual_queue());
        // Empty after 53.5 / 9500 s more; stays at zero, then holds only the new arrival.
        e.on_arrival(&packet(Ecn::Ect), &VIEW, 20_000_000, &mut rng);
        assert!((e.virtual_queue() - 1.0).abs() < 1e-9);
        let empty_at = 5_000_000 + (53.5 / 9500.0 * 1e9f64).ceil() as Time;
        assert_eq!(e.vq.empty_since(), None);
        let mut vq = VirtualQueue::new(9500.0 * 1250.0);
        vq.add(53.5 * 1250.0);
        vq.last = 5_000_000;
        vq.drain(20_000_000);
        assert_eq!(vq.empty_since(), Some(empty_at));
    }

    #[test]
    fn averaged_variant_uses_the_ewma_of_the_virtual_queue() {
        let mut c = config();
        c.averaged = true;
        c.q_weight = 0.5;
        let mut e = Ered::new(&c, LINK, "q").unwrap();
        let mut rng = stream(1, StreamKind::Queue, 0);
        e.vq.add(3000.0 * 1250.0);
        e.on_arrival(&packet(Ecn::Ect), &VIEW, 0, &mut rng);
        // b̂ = 0.5 · 0 + 0.5 · 3000 = 1500: the probability is the profile at 1500, not at 3000.
        assert!((e.average_queue() - 1500.0).abs() < 1e-9);
        let expected = exponential_profile(1500.0, 6.0, e.b_max(), 0.0005, e.kappa());
        assert!((e.drop_probability() - expected).abs() < 1e-12);
    }

    #[test]
    fn every_arrival_enters_the_virtual_queue() {
        let mut c = config();
        c.ecn = false;
        let mut e = Ered::new(&c, LINK, "q").unwrap();
        let mut rng = stream(1, StreamKind::Queue, 0);
        e.vq.add(4000.0 * 1250.0); // above b_max: p = 1
        assert_eq!(e.on_arrival(&packet(Ecn::Ect), &VIEW, 0, &mut rng), Verdict::Drop(DropReason::Forced));
        assert!((e.virtual_queue() - 4001.0).abs() < 1e-9);
        let mut e = Ered::new(&config(), LINK, "q").unwrap();
        e.on_arrival(&packet(Ecn::Ect), &VIEW, 0, &mut rng);
        e.on_overflow();
        assert_eq!(e.virtual_queue(), 1.0);
    }

    #[test]
    fn rejects_bad_parameters_naming_the_field() {
        let mut c = config();
        c.p_max = 0.0001;
        let err = Ered::new(&c, LINK, "topology.bottleneck.queue").err().unwrap().to_string();
        assert!(err.contains("topology.bottleneck.queue.p_max"), "{err}");
        let mut c = config();
        c.gamma = 1.2;
        let err = Ered::new(&c, LINK, "q").err().unwrap().to_string();
        assert!(err.contains("q.gamma"), "{err}");
    }
}
