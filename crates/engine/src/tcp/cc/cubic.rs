//! CUBIC (RFC 9438; seed 004 Section II-A, eqs. (1)-(5)).
//!
//! Window function (RFC 9438 Section 4.2, Figure 1; seed 004 eq. (1)):
//! `W_cubic(t) = C (t − K)³ + W_max`, with `K = cbrt((W_max − cwnd_epoch)/C)` (RFC 9438
//! Figure 2), which is seed 004's eq. (2) `K = cbrt(W_max β/C)` when `cwnd_epoch = (1 − β)
//! W_max`. Seed 004 writes β for the *reduction* (its β = 1 − β_cubic = 0.3): its eq. (3)
//! `W_tcp(t) = W_max(1 − β) + 3β/(2 − β) · t/RTT` is RFC 9438's Reno-friendly estimate
//! `W_est` (Section 4.3) with α_cubic = 3(1 − β_cubic)/(1 + β_cubic) = 3β/(2 − β) (seed 004
//! eq. (4)), and its eq. (5) is the choice between the Reno-friendly region and the
//! concave/convex growth toward `W_cubic(t + RTT)` (RFC 9438 Sections 4.3-4.5).
//!
//! Slow start is RFC 5681's (RFC 9438 Section 4.10 allows it; HyStart++ is not
//! implemented). Loss recovery is the shared sender's NewReno.

use serde::{Deserialize, Serialize};

use super::{AckEvent, CongestionControl, CongestionEvent, Window};
use crate::error::Result;
use crate::time::Time;

/// Which CUBIC: RFC 9438's, or ns-3 3.44's `TcpCubic` (src/internet/model/tcp-cubic.cc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CubicDefinition {
    /// RFC 9438. The default.
    #[default]
    Rfc9438,
    /// ns-3 3.44 `TcpCubic` (derived from Linux `tcp_cubic.c`), where it departs from RFC 9438:
    /// (1) the Reno-friendly estimate always grows by α_cubic = 3(1 − β)/(1 + β) per window
    /// (`Update`: `m_tcpCwnd++` every `segCwnd * scale >> 3` ACKs, scale = 8(1 + β)/3/(1 − β);
    /// Linux `tcp_friendliness` likewise), never by RFC 9438 Section 4.3's α = 1 once W_est
    /// has reached cwnd_prior; (2) a timeout keeps W_max (`CubicReset` on `CA_LOSS` leaves
    /// `m_lastMaxCwnd`), so the first stage after it approaches the old W_max with K > 0
    /// instead of RFC 9438 Section 4.8's K = 0, W_max = cwnd; (3) the target is W_cubic(t +
    /// minimum RTT) (`t = Now + m_delayMin − m_epochStart`), not t + smoothed RTT.
    Ns3,
    /// ns-2 2.35 TCP-Linux's `tcp_cubic.c` (Linux 2.6.22's CUBIC 2.1) integer for integer:
    /// built as `cubic_linux::CubicLinux` (`CcConfig::build`).
    Ns2Linux,
}

/// CUBIC parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CubicConfig {
    /// `rfc9438` (the default) or `ns3`.
    pub definition: CubicDefinition,
    /// C, segments/s³ (RFC 9438 Section 4.1.1: 0.4; seed 004's scaling factor C_s).
    pub c: f64,
    /// β_cubic, the window kept on a congestion event (RFC 9438 Section 4.1.1: 0.7).
    pub beta: f64,
    /// Fast convergence (RFC 9438 Section 4.7; on by default there).
    pub fast_convergence: bool,
    /// The Reno-friendly region (RFC 9438 Section 4.3; on by default there).
    pub reno_friendly: bool,
}

impl Default for CubicConfig {
    fn default() -> Self {
        CubicConfig {
            definition: CubicDefinition::Rfc9438,
            c: 0.4,
            beta: 0.7,
            fast_convergence: true,
            reno_friendly: true,
        }
    }
}

/// The current congestion-avoidance stage ("epoch", RFC 9438 Section 4.1.2).
#[derive(Clone, Copy, Debug)]
struct Epoch {
    /// t_epoch: when the stage began.
    start: Time,
    /// K, seconds.
    k: f64,
    /// W_max of this stage, segments.
    w_max: f64,
}

pub struct Cubic {
    definition: CubicDefinition,
    c: f64,
    beta: f64,
    /// α_cubic = 3(1 − β_cubic)/(1 + β_cubic) (RFC 9438 Section 4.3, Figure 4).
    alpha: f64,
    fast_convergence: bool,
    reno_friendly: bool,
    state: Window,
    /// W_max: the window before the last reduction, after fast convergence (0: none yet).
    w_max: f64,
    /// cwnd_prior: cwnd when the last congestion event was detected (RFC 9438 4.1.2).
    cwnd_prior: f64,
    /// W_est, the Reno-friendly estimate (RFC 9438 Section 4.3).
    w_est: f64,
    epoch: Option<Epoch>,
    /// The next stage is the first after a timeout (RFC 9438 Section 4.8).
    after_timeout: bool,
}

impl Cubic {
    /// `field` names the configuration in errors.
    pub fn new(config: &CubicConfig, initial_window: f64, initial_ssthresh: f64, field: &str) -> Result<Self> {
        let check = crate::queue::params::checker(field);
        check(config.c.is_finite() && config.c > 0.0, "c", config.c, "a positive number (RFC 9438: 0.4)")?;
        check(config.beta > 0.0 && config.beta < 1.0, "beta", config.beta, "a number in (0, 1) (RFC 9438: 0.7)")?;
        Ok(Cubic {
            definition: config.definition,
            c: config.c,
            beta: config.beta,
            alpha: 3.0 * (1.0 - config.beta) / (1.0 + config.beta),
            fast_convergence: config.fast_convergence,
            reno_friendly: config.reno_friendly,
            state: Window::new(initial_window, initial_ssthresh),
            w_max: 0.0,
            cwnd_prior: 0.0,
            w_est: initial_window,
            epoch: None,
            after_timeout: false,
        })
    }

    /// K = cbrt((W_max − cwnd_epoch)/C), seconds (RFC 9438 Figure 2; seed 004 eq. (2)).
    pub fn k(&self, w_max: f64, cwnd_epoch: f64) -> f64 {
        ((w_max - cwnd_epoch) / self.c).cbrt()
    }

    /// W_cubic(t) = C (t − K)³ + W_max, t in seconds since the epoch (RFC 9438 Figure 1;
    /// seed 004 eq. (1)), for the current epoch.
    pub fn w_cubic(&self, t: f64) -> Option<f64> {
        self.epoch.map(|e| self.c * (t - e.k).powi(3) + e.w_max)
    }

    /// W_max (after fast convergence) remembered from the last congestion event.
    pub fn w_max(&self) -> f64 {
        self.w_max
    }

    /// K of the current epoch, seconds.
    pub fn epoch_k(&self) -> Option<f64> {
        self.epoch.map(|e| e.k)
    }

    pub fn w_est(&self) -> f64 {
        self.w_est
    }

    fn start_epoch(&mut self, now: Time) {
        let cwnd_epoch = self.state.cwnd;
        let (k, w_max) = if self.after_timeout || self.w_max <= cwnd_epoch {
            // RFC 9438 Section 4.8: the first stage after a timeout uses K = 0 and W_max =
            // cwnd at its start. The same when no congestion event set W_max above the
            // current window (first stage after slow start; Linux tcp_cubic.c
            // bictcp_update: "if (ca->last_max_cwnd <= cwnd) { K = 0; origin = cwnd }").
            (0.0, cwnd_epoch)
        } else {
            (self.k(self.w_max, cwnd_epoch), self.w_max)
        };
        self.w_max = w_max;
        self.after_timeout = false;
        self.epoch = Some(Epoch { start: now, k, w_max });
        // RFC 9438 Section 4.3: W_est = cwnd_epoch at the start of the stage.
        self.w_est = cwnd_epoch;
    }

    /// RFC 9438 Sections 4.6-4.7: W_max (fast convergence), cwnd_prior and ssthresh.
    fn congestion(&mut self, event: &CongestionEvent) {
        // RFC 9438 Section 4.7, Figure 6: fast convergence lowers W_max when the window at
        // this event is below the previous W_max.
        self.w_max = if self.fast_convergence && self.state.cwnd < self.w_max {
            self.state.cwnd * (1.0 + self.beta) / 2.0
        } else {
            self.state.cwnd
        };
        self.cwnd_prior = self.state.cwnd;
        // RFC 9438 Section 4.6, Figure 5: ssthresh = flight_size · β_cubic, at least 2 SMSS.
        // The window reduced is min(FlightSize, cwnd) (`reduction_base`): RFC 9438 notes that
        // implementations use cwnd (Linux tcp_cubic.c: cwnd · β).
        self.state.ssthresh = (super::reduction_base(event, self.state.cwnd) * self.beta).max(2.0);
        self.epoch = None;
    }
}

impl CongestionControl for Cubic {
    super::window_state!();

    /// (RFC 9438 Section 4.10 / RFC 5681 Section 3.1: slow start, one segment per ACK, is
    /// the trait's default.)
    fn congestion_avoidance(&mut self, ack: &AckEvent) {
        if self.epoch.is_none() {
            self.start_epoch(ack.now);
        }
        let epoch = self.epoch.expect("epoch started");
        let t = (ack.now - epoch.start) as f64 * 1e-9;
        let rtt_ns = if self.definition == CubicDefinition::Ns3 && ack.min_rtt_ns > 0 {
            // ns-3 TcpCubic::Update: t = Now + m_delayMin − m_epochStart (the minimum RTT).
            ack.min_rtt_ns
        } else if ack.srtt_ns > 0 {
            ack.srtt_ns
        } else {
            ack.rtt_sample_ns.unwrap_or(0)
        };
        let rtt = rtt_ns as f64 * 1e-9;
        // RFC 9438 Section 4.2, Figure 3: target = W_cubic(t + RTT) bounded to
        // [cwnd, 1.5 cwnd]; RTT is the smoothed round-trip time.
        let target = (self.c * (t + rtt - epoch.k).powi(3) + epoch.w_max).clamp(self.state.cwnd, 1.5 * self.state.cwnd);
        // RFC 9438 Section 4.3, Figure 4: W_est += α_cubic · segments_acked / cwnd, with
        // α_cubic = 1 once W_est has reached cwnd_prior (seed 004 eqs. (3)-(4)).
        // ns-3 (and Linux tcp_cubic.c): α_cubic throughout.
        let alpha =
            if self.definition == CubicDefinition::Rfc9438 && self.w_est >= self.cwnd_prior { 1.0 } else { self.alpha };
        self.w_est += alpha * ack.acked_segments as f64 / self.state.cwnd;
        let w_cubic_t = self.c * (t - epoch.k).powi(3) + epoch.w_max;
        if self.reno_friendly && w_cubic_t < self.w_est {
            // RFC 9438 Section 4.3 (seed 004 eq. (5), first case): Reno-friendly region,
            // cwnd = W_est.
            self.state.cwnd = self.w_est;
        } else {
            // RFC 9438 Sections 4.4-4.5 (seed 004 eq. (5), second and third cases): concave
            // and convex regions, cwnd += (target − cwnd)/cwnd per ACK.
            self.state.cwnd += (target - self.state.cwnd) / self.state.cwnd;
        }
    }

    fn on_loss(&mut self, event: &CongestionEvent) {
        self.congestion(event);
        // RFC 9438 Section 4.6, Figure 5: cwnd = max(ssthresh, 2) on a loss.
        self.state.cwnd = self.state.ssthresh;
        self.after_timeout = false;
    }

    fn on_rto(&mut self, event: &CongestionEvent) {
        // RFC 9438 Section 4.8: on a timeout ssthresh is set with β_cubic as in Section 4.6,
        // cwnd follows RFC 5681 (one segment); the next stage starts with K = 0 and W_max =
        // cwnd at its start (`start_epoch`).
        self.congestion(event);
        self.state.cwnd = 1.0;
        // ns-3 TcpCubic::CubicReset keeps m_lastMaxCwnd: the next stage has K > 0 toward it.
        self.after_timeout = self.definition == CubicDefinition::Rfc9438;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::cc::test_events::congestion;

    const MS: Time = 1_000_000;

    fn cubic(config: CubicConfig, cwnd: f64, ssthresh: f64) -> Cubic {
        Cubic::new(&config, cwnd, ssthresh, "cc").unwrap()
    }

    fn ack(now: Time, srtt: Time) -> AckEvent {
        AckEvent {
            now,
            acked_segments: 1,
            delivered_segments: 1,
            rtt_sample_ns: Some(srtt),
            min_rtt_ns: srtt,
            srtt_ns: srtt,
            in_flight: 0,
            ece: false,
            snd_una: 0,
            high_tx: 0,
        }
    }

    /// One round trip of ACKs: cwnd ACKs spread evenly over `rtt` from `start`.
    fn round(cc: &mut Cubic, start: Time, rtt: Time) -> Time {
        let n = cc.window().floor().max(1.0) as u64;
        for i in 0..n {
            cc.on_ack(&ack(start + rtt * i / n, rtt));
        }
        start + rtt
    }

    #[test]
    fn multiplicative_decrease_by_beta() {
        // RFC 9438 Section 4.6: ssthresh = cwnd = 0.7 · FlightSize.
        let mut cc = cubic(CubicConfig::default(), 100.0, 1e9);
        cc.on_loss(&congestion(100));
        assert!((cc.window() - 70.0).abs() < 1e-12 && (cc.ssthresh() - 70.0).abs() < 1e-12);
        assert_eq!(cc.w_max(), 100.0);
        let mut cc = cubic(CubicConfig { beta: 0.5, ..CubicConfig::default() }, 100.0, 1e9);
        cc.on_loss(&congestion(100));
        assert_eq!(cc.window(), 50.0);
        // never below two segments
        cc.on_loss(&congestion(2));
        assert_eq!(cc.window(), 2.0);
    }

    /// CUBIC without its Reno-friendly region, after a loss at a window (and flight) of `w`.
    fn pure_cubic_after_loss_at(w: f64) -> Cubic {
        let mut cc = cubic(CubicConfig { reno_friendly: false, ..CubicConfig::default() }, w, 1e9);
        cc.on_loss(&congestion(w as u64));
        cc
    }

    /// Slow start back to ssthresh, one ACK a millisecond, then one more ACK (the first of the
    /// new stage); returns the window that stage starts from.
    fn slow_start_then_one_ack(cc: &mut Cubic) -> f64 {
        let mut now = 0;
        while cc.window() < cc.ssthresh() {
            cc.on_ack(&ack(now, 100 * MS));
            now += MS;
        }
        let start = cc.window();
        cc.on_ack(&ack(now, 100 * MS));
        start
    }

    #[test]
    fn k_and_window_function_against_the_formulas() {
        let mut cc = pure_cubic_after_loss_at(100.0);
        let t0 = 5_000 * MS;
        cc.on_ack(&ack(t0, 100 * MS));
        // K = cbrt(W_max (1 − β_cubic)/C) = cbrt(100 · 0.3 / 0.4) (seed 004 eq. (2) with its
        // β = 0.3; RFC 9438 Figure 2 with cwnd_epoch = 70).
        let k = (100.0_f64 * 0.3 / 0.4).cbrt();
        assert!((cc.epoch_k().unwrap() - k).abs() < 1e-12, "{:?} vs {k}", cc.epoch_k());
        for t in [0.0, 1.0, k / 2.0, k, k + 1.0, 2.0 * k, 3.0 * k] {
            let w = 0.4 * (t - k).powi(3) + 100.0;
            assert!((cc.w_cubic(t).unwrap() - w).abs() < 1e-9, "t = {t}");
        }
        assert!((cc.w_cubic(0.0).unwrap() - 70.0).abs() < 1e-9, "W(0) = cwnd_epoch");
        assert!((cc.w_cubic(k).unwrap() - 100.0).abs() < 1e-9, "W(K) = W_max");
    }

    #[test]
    fn window_follows_the_cubic_curve_in_time() {
        // Concave then convex growth, ACKs at cwnd per RTT: cwnd(t) tracks W_cubic(t) within a
        // segment or two (it moves toward W_cubic(t + RTT) during each round trip).
        let mut cc = pure_cubic_after_loss_at(1000.0);
        let rtt = 50 * MS;
        let t0 = 1_000 * MS;
        let mut now = t0;
        let k = (1000.0_f64 * 0.3 / 0.4).cbrt();
        while (now - t0) as f64 * 1e-9 < 1.5 * k {
            now = round(&mut cc, now, rtt);
            let t = (now - t0) as f64 * 1e-9;
            let w = 0.4 * (t - k).powi(3) + 1000.0;
            assert!((cc.window() - w).abs() < 0.02 * w, "t = {t:.2}: cwnd {} vs W(t) {w}", cc.window());
        }
        assert!(cc.window() > 1000.0, "convex region beyond W_max");
    }

    #[test]
    fn reno_friendly_region_takes_over_at_small_rtt() {
        // W_max = 20 segments and RTT = 1 ms: K = cbrt(20 · 0.3/0.4) = 2.47 s, while Reno
        // would grow α_cubic = 0.53 segments per millisecond. cwnd = W_est (RFC 9438 4.3).
        let mut cc = cubic(CubicConfig::default(), 20.0, 1e9);
        cc.on_loss(&congestion(20));
        assert_eq!(cc.window(), 14.0);
        let rtt = MS;
        let mut now = 10_000 * MS;
        // W_est grows by α·(ACKs)/cwnd: with about cwnd ACKs per round, ≈ α per RTT.
        let mut expected = 14.0;
        for _ in 0..5 {
            let n = cc.window().floor() as u64;
            let before = cc.window();
            now = round(&mut cc, now, rtt);
            // each ACK adds α/cwnd with cwnd growing during the round
            let mut w = before;
            for _ in 0..n {
                w += 3.0 * 0.3 / 1.7 / w;
            }
            expected = w;
            assert!((cc.window() - expected).abs() < 1e-9, "{} vs {expected}", cc.window());
            let t = 1e-9 * (now - 10_000 * MS) as f64;
            assert!(cc.w_cubic(t).unwrap() < cc.window(), "the cubic curve is below the Reno estimate");
        }
        assert!(expected > 16.0);
        // Once W_est reaches cwnd_prior = 20, α_cubic becomes 1 (RFC 9438 Section 4.3).
        while cc.window() < 20.0 {
            now = round(&mut cc, now, rtt);
        }
        let before = cc.window();
        round(&mut cc, now, rtt);
        let n = before.floor();
        assert!((cc.window() - before - n / before).abs() < 0.05, "α = 1: {} -> {}", before, cc.window());
        // Without the Reno-friendly region the same flow follows the (slow) cubic curve.
        let mut slow = pure_cubic_after_loss_at(20.0);
        let mut now = 10_000 * MS;
        for _ in 0..5 {
            now = round(&mut slow, now, rtt);
        }
        assert!(slow.window() < 14.2, "{}", slow.window());
    }

    #[test]
    fn fast_convergence_lowers_w_max() {
        let mut cc = cubic(CubicConfig::default(), 100.0, 1e9);
        cc.on_loss(&congestion(100));
        assert_eq!(cc.w_max(), 100.0);
        // A loss before regaining W_max: W_max = cwnd (1 + β)/2 (RFC 9438 Section 4.7).
        let mut now = 0;
        while cc.window() < 80.0 {
            now = round(&mut cc, now, 100 * MS);
        }
        let w = cc.window();
        cc.on_loss(&congestion(w as u64));
        assert!((cc.w_max() - w * 1.7 / 2.0).abs() < 1e-9, "{} vs {}", cc.w_max(), w * 0.85);
        // Without fast convergence W_max = cwnd.
        let mut plain = cubic(CubicConfig { fast_convergence: false, ..CubicConfig::default() }, 100.0, 1e9);
        plain.on_loss(&congestion(100));
        let mut now = 0;
        while plain.window() < 80.0 {
            now = round(&mut plain, now, 100 * MS);
        }
        let w = plain.window();
        plain.on_loss(&congestion(w as u64));
        assert_eq!(plain.w_max(), w);
    }

    #[test]
    fn timeout_restarts_from_one_segment_with_k_zero() {
        let mut cc = pure_cubic_after_loss_at(100.0);
        cc.on_rto(&congestion(60));
        // RFC 9438 Section 4.8: ssthresh = 0.7 · FlightSize, cwnd = 1 (RFC 5681).
        assert_eq!(cc.window(), 1.0);
        assert!((cc.ssthresh() - 42.0).abs() < 1e-12);
        let start = slow_start_then_one_ack(&mut cc);
        assert_eq!(cc.epoch_k(), Some(0.0));
        // W_cubic(t) = C t³ + cwnd_epoch
        assert!((cc.w_cubic(2.0).unwrap() - (0.4 * 8.0 + start)).abs() < 1e-9);
    }

    fn ns3() -> CubicConfig {
        CubicConfig { definition: CubicDefinition::Ns3, ..CubicConfig::default() }
    }

    /// `definition = "ns3"` against ns-3 3.44's TcpCubic (tcp-cubic.cc).
    #[test]
    fn ns3_definition_keeps_alpha_cubic_past_cwnd_prior() {
        // TcpCubic::Update: m_tcpCwnd++ every segCwnd·scale >> 3 ACKs, scale = 8(1 + β)/3/(1 − β)
        // (15 at β = 0.7): α ≈ 8/15 segment per window at every window, also once the
        // estimate has passed cwnd_prior (RFC 9438 Section 4.3 then uses α = 1).
        for (config, alpha) in [(ns3(), 3.0 * 0.3 / 1.7), (CubicConfig::default(), 1.0)] {
            let mut cc = cubic(config.clone(), 20.0, 1e9);
            cc.on_loss(&congestion(20));
            let (rtt, mut now) = (MS, 10_000 * MS);
            while cc.window() < 20.5 {
                now = round(&mut cc, now, rtt);
            }
            let before = cc.window();
            round(&mut cc, now, rtt);
            let n = before.floor();
            let gain = cc.window() - before;
            assert!((gain - alpha * n / before).abs() < 0.05, "{:?}: +{gain} per window", config.definition);
        }
    }

    #[test]
    fn ns3_definition_keeps_w_max_after_a_timeout_and_aims_one_min_rtt_ahead() {
        // TcpCubic::CubicReset (CongestionStateSet(CA_LOSS)) leaves m_lastMaxCwnd: the first
        // stage after the timeout has K = cbrt((W_max − cwnd)/C) > 0, not RFC 9438 4.8's K = 0.
        let mut cc = cubic(CubicConfig { reno_friendly: false, ..ns3() }, 100.0, 1e9);
        cc.on_loss(&congestion(100));
        cc.on_rto(&congestion(60));
        assert_eq!((cc.window(), cc.ssthresh()), (1.0, 0.7 * 60.0));
        let start = slow_start_then_one_ack(&mut cc);
        // Fast convergence at the timeout: W_max = 70·(1 + β)/2 = 59.5 (cwnd 70 < W_max 100).
        assert!((cc.w_max() - 59.5).abs() < 1e-9, "{}", cc.w_max());
        assert!((cc.epoch_k().unwrap() - ((59.5 - start) / 0.4).cbrt()).abs() < 1e-9);
        // Target W_cubic(t + minimum RTT) (t = Now + m_delayMin − m_epochStart): with the
        // smoothed RTT at 300 ms and the minimum at 100 ms, the first ACK of a stage moves cwnd
        // by (W_cubic(0.1 s) − cwnd)/cwnd.
        let mut cc = cubic(CubicConfig { reno_friendly: false, ..ns3() }, 100.0, 1e9);
        cc.on_loss(&congestion(100));
        let event = AckEvent { min_rtt_ns: 100 * MS, ..ack(0, 300 * MS) };
        cc.on_ack(&event);
        let w_cubic = cc.w_cubic(0.1).unwrap();
        assert!((cc.window() - (70.0 + (w_cubic - 70.0) / 70.0)).abs() < 1e-9);
        let serde: CubicConfig = serde_json::from_str(r#"{"definition": "ns3"}"#).unwrap();
        assert_eq!(serde, ns3());
    }

    #[test]
    fn invalid_parameters_name_the_field() {
        let err = Cubic::new(&CubicConfig { beta: 1.0, ..CubicConfig::default() }, 2.0, 1e9, "groups[0].tcp.cc")
            .err()
            .unwrap();
        assert!(err.to_string().contains("groups[0].tcp.cc.beta"), "{err}");
        let err = Cubic::new(&CubicConfig { c: 0.0, ..CubicConfig::default() }, 2.0, 1e9, "cc").err().unwrap();
        assert!(err.to_string().contains("cc.c"), "{err}");
    }
}
