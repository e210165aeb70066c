//! Scalable TCP, in two definitions chosen by [`ScalableDefinition`].
//!
//! - `kelly` (the default): T. Kelly, "Scalable TCP: improving performance in highspeed wide
//!   area networks", ACM CCR 33(2), 2003. In congestion avoidance above the legacy window:
//!   cwnd += a per ACK (a = 0.01), and a loss sets cwnd to (1 − b) cwnd (b = 0.125) —
//!   multiplicative increase, multiplicative decrease, so the time to recover from a loss is
//!   ln(1/(1 − b))/ln(1 + a) ≈ 13.4 round trips whatever the window. At or below the legacy
//!   window `low_window` (Kelly's lwnd, 16 segments) the flow behaves as Reno (+1/cwnd per
//!   ACK, halve on loss). In seed 002's general law (Section IV-A) this is n = 0, m = 1.
//! - `ns3`: ns-3 3.44 `TcpScalable` (src/internet/model/tcp-scalable.cc) and Linux
//!   `net/ipv4/tcp_scalable.c`: one segment per min(cwnd, AIFactor) ACKs in congestion
//!   avoidance (`CongestionAvoidance`: w = min(segCwnd, m_aiFactor); Linux:
//!   `tcp_cong_avoid_ai(tp, min(cwnd, TCP_SCALABLE_AI_CNT))`), i.e. +1/min(cwnd, 1/a) per ACK
//!   with AIFactor = 1/a, and always (1 − b) of the window on a loss (`GetSsThresh`:
//!   segCwnd·(1 − m_mdFactor); Linux: cwnd − cwnd>>3), at least 2 segments. No legacy
//!   window: below 1/a segments the increase is Reno's, and every loss removes b. ns-3's
//!   default AIFactor is 50 (Linux's before 2017, "to account for delayed ack"); Linux now
//!   uses 100 = 1/a with Kelly's a = 0.01.
//! - `ns2_linux`: ns-2 2.35's TCP-Linux `select_ca scalable` (`tcp/linux/src/tcp_scalable.c`,
//!   Linux 2.6.22) with its integer arithmetic (`cc/linux.rs`): in congestion avoidance
//!   `snd_cwnd_cnt++` per ACK and one segment once it *exceeds* min(cwnd, 1/a) — one per
//!   min(cwnd, 1/a) + 1 ACKs; ssthresh = max(cwnd − ⌊b·cwnd⌋, 2) (`cwnd − (cwnd >> 3)`: no
//!   reduction at all below 8 segments); during Recovery cwnd = ssthresh/2 (`.min_cwnd =
//!   tcp_reno_min_cwnd`), restored at its end to min(ssthresh, flight + 3).

use serde::{Deserialize, Serialize};

use super::{linux, AckEvent, CongestionControl, CongestionEvent, Window, CcInit, CcKind};
use crate::error::Result;

/// Which Scalable TCP: Kelly's (legacy window) or ns-3's and Linux's (+1 per min(cwnd, 1/a) ACKs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScalableDefinition {
    /// Kelly 2003: Reno at or below `low_window`, +a per ACK and ×(1 − b) above it.
    #[default]
    Kelly,
    /// ns-3 `TcpScalable` and Linux `tcp_scalable.c`: +1/min(cwnd, 1/a) per ACK, ×(1 − b) always.
    Ns3,
    /// ns-2 2.35 TCP-Linux's `tcp_scalable.c` (Linux 2.6.22) in whole segments (`cc/linux.rs`).
    Ns2Linux,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ScalableConfig {
    /// `kelly` (the default) or `ns3`.
    pub definition: ScalableDefinition,
    /// Increase per ACK, segments (Kelly 2003: a = 0.01; Linux TCP_SCALABLE_AI_CNT = 100).
    pub a: f64,
    /// Fraction of the window removed on a loss (Kelly 2003: b = 0.125; Linux cwnd >> 3).
    pub b: f64,
    /// Legacy window lwnd, segments: Reno at or below it (Kelly 2003: 16). Unused by `ns3`.
    pub low_window: f64,
}

/// The window law `scalable` (registered in `super::CcConfig`).
impl CcKind for ScalableConfig {
    fn build(&self, init: CcInit, field: &str) -> Result<Box<dyn CongestionControl>> {
        Ok(Box::new(Scalable::new(self, init.initial_window, init.initial_ssthresh, field)?))
    }

    fn growth_bounds(&self, max_window: f64) -> Vec<(&'static str, f64, f64, f64)> {
        vec![("a", self.a, 0.0, 1.0), ("low_window", self.low_window, 0.0, max_window)]
    }
}

impl Default for ScalableConfig {
    fn default() -> Self {
        ScalableConfig { definition: ScalableDefinition::Kelly, a: 0.01, b: 0.125, low_window: 16.0 }
    }
}

pub struct Scalable {
    definition: ScalableDefinition,
    a: f64,
    b: f64,
    low_window: f64,
    state: Window,
    /// `ns2_linux`: Linux's `snd_cwnd_cnt`.
    snd_cwnd_cnt: u32,
    /// `ns2_linux`: TCP-Linux's Loss state after a timeout.
    loss: linux::LossState,
}

impl Scalable {
    pub fn new(config: &ScalableConfig, initial_window: f64, initial_ssthresh: f64, field: &str) -> Result<Self> {
        let check = crate::queue::params::checker(field);
        check(config.a.is_finite() && config.a > 0.0, "a", config.a, "a positive increase per ACK (Kelly 2003: 0.01)")?;
        check(config.b > 0.0 && config.b < 1.0, "b", config.b, "a fraction in (0, 1) (Kelly 2003: 0.125)")?;
        check(
            config.low_window.is_finite() && config.low_window >= 0.0,
            "low_window",
            config.low_window,
            "a window >= 0 segments (Kelly 2003: 16)",
        )?;
        Ok(Scalable {
            definition: config.definition,
            a: config.a,
            b: config.b,
            low_window: config.low_window,
            state: Window::new(initial_window, initial_ssthresh),
            snd_cwnd_cnt: 0,
            loss: linux::LossState::default(),
        })
    }

    /// `ns2_linux`: tcp_scalable.c `tcp_scalable_ssthresh`, `max(snd_cwnd − (snd_cwnd >>
    /// TCP_SCALABLE_MD_SCALE), 2)`, as `cwnd − ⌊b·cwnd⌋` on the whole-segment cwnd.
    fn linux_ssthresh(&self) -> f64 {
        let cwnd = self.state.cwnd.floor();
        (cwnd - (self.b * cwnd).floor()).max(2.0)
    }

    /// `ns2_linux`: tcp_scalable.c `tcp_scalable_cong_avoid` for one ACK.
    fn linux_on_ack(&mut self, ack: &AckEvent) {
        if linux::cwnd_limited(ack, self.state.cwnd) {
            if self.state.cwnd <= self.state.ssthresh {
                linux::slow_start(&mut self.state, &mut self.snd_cwnd_cnt);
            } else {
                // `snd_cwnd_cnt++; if (snd_cwnd_cnt > min(snd_cwnd, TCP_SCALABLE_AI_CNT))`.
                self.snd_cwnd_cnt += 1;
                if self.snd_cwnd_cnt as f64 > self.state.cwnd.min((1.0 / self.a).round()) {
                    self.state.cwnd += 1.0;
                    self.snd_cwnd_cnt = 0;
                }
            }
        }
        if self.loss.ends_with(ack) {
            linux::leave_reduction(&mut self.state, ack.in_flight);
        }
    }
}

impl CongestionControl for Scalable {
    super::window_state!();

    fn on_ack(&mut self, ack: &AckEvent) {
        if self.definition != ScalableDefinition::Ns2Linux {
            return super::rfc5681::on_ack(self, ack);
        }
        if ack.acked_segments > 0 {
            self.linux_on_ack(ack);
        }
    }

    fn on_loss(&mut self, event: &CongestionEvent) {
        if self.definition != ScalableDefinition::Ns2Linux {
            return super::rfc5681::on_loss(self, event);
        }
        // tcp-linux.cc lines 489-497: cwnd = `min_cwnd` = tcp_reno_min_cwnd = ssthresh/2.
        let ssthresh = self.linux_ssthresh();
        linux::enter_recovery(&mut self.state, &mut self.snd_cwnd_cnt, ssthresh, linux::MinCwnd::RenoHalf, &mut self.loss);
    }

    fn on_recovery_exit(&mut self, in_flight: u64) {
        if self.definition == ScalableDefinition::Ns2Linux {
            linux::leave_reduction(&mut self.state, in_flight);
        }
    }

    fn on_ecn(&mut self, event: &CongestionEvent) {
        if self.definition != ScalableDefinition::Ns2Linux {
            return self.on_loss(event);
        }
        let ssthresh = self.linux_ssthresh();
        linux::on_ecn(&mut self.state, &mut self.snd_cwnd_cnt, ssthresh, &mut self.loss);
    }

    fn on_rto(&mut self, event: &CongestionEvent) {
        if self.definition != ScalableDefinition::Ns2Linux {
            return super::rfc5681::on_rto(self, event);
        }
        let ssthresh = self.linux_ssthresh();
        linux::enter_loss(&mut self.state, &mut self.snd_cwnd_cnt, ssthresh, &mut self.loss);
    }

    fn congestion_avoidance(&mut self, ack: &AckEvent) {
        // (Slow start is RFC 5681's, the trait's default: Kelly 2003 keeps it.)
        if self.definition == ScalableDefinition::Ns3 {
            // ns-3 TcpScalable::CongestionAvoidance (`m_ackCnt += segmentsAcked`, one segment
            // each time m_ackCnt reaches w = min(segCwnd, m_aiFactor)), Linux
            // tcp_cong_avoid_ai(tp, min(cwnd, AI_CNT), acked): one segment per min(cwnd,
            // AIFactor = 1/a) segments *delivered* (ns-3's segmentsAcked comes from
            // currentDelivered, Linux's acked from acked_sacked), so an ACK covering two
            // segments (delayed ACKs) counts twice.
            self.state.cwnd += ack.delivered_segments as f64 / self.state.cwnd.min(1.0 / self.a);
        } else if self.state.cwnd <= self.low_window {
            // Legacy window: Reno congestion avoidance (RFC 5681 eq. (3)).
            self.state.cwnd += 1.0 / self.state.cwnd;
        } else {
            // Kelly 2003: cwnd = cwnd + a for each ACK received in congestion avoidance.
            self.state.cwnd += self.a;
        }
    }

    /// The window after a congestion event at w = min(FlightSize, cwnd), at least two segments
    /// (the trait's `on_loss` sets cwnd = ssthresh to it, its `on_rto` cwnd = 1: RFC 5681
    /// Section 3.1, ssthresh from the Scalable decrease, as Linux's one ssthresh hook).
    fn reduced_window(&self, event: &CongestionEvent) -> f64 {
        if self.definition == ScalableDefinition::Ns2Linux {
            return self.linux_ssthresh();
        }
        let w = super::reduction_base(event, self.state.cwnd);
        let kept = if self.definition == ScalableDefinition::Ns3 {
            // ns-3 TcpScalable::GetSsThresh: segCwnd·(1 − m_mdFactor) at every window.
            (1.0 - self.b) * w
        } else if w <= self.low_window {
            // Legacy TCP below lwnd (Kelly 2003): halve (RFC 5681 eq. (4)).
            w / 2.0
        } else {
            // Kelly 2003: cwnd = cwnd − b·cwnd on a loss.
            (1.0 - self.b) * w
        };
        kept.max(2.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::cc::test_events::congestion;

    fn ack() -> AckEvent {
        super::super::test_events::ack(1)
    }

    #[test]
    fn per_ack_law_and_window_independent_recovery() {
        let mut cc = Scalable::new(&ScalableConfig::default(), 200.0, 200.0, "cc").unwrap();
        cc.on_ack(&ack());
        assert!((cc.window() - 200.01).abs() < 1e-12, "a = 0.01 per ACK");
        cc.on_loss(&congestion(200));
        assert!((cc.window() - 175.0).abs() < 1e-12, "b = 0.125");
        // Recovery from (1 − b) w back to w takes the same number of round trips at any w:
        // each round of cwnd ACKs multiplies the window by about 1 + a.
        for w0 in [100.0, 1_000.0, 10_000.0] {
            let mut cc = Scalable::new(&ScalableConfig::default(), w0, w0, "cc").unwrap();
            cc.on_loss(&congestion(w0 as u64));
            let mut rounds = 0;
            while cc.window() < w0 {
                let n = cc.window().floor() as u64;
                for _ in 0..n {
                    cc.on_ack(&ack());
                }
                rounds += 1;
            }
            // ln(1/0.875)/ln(1.01) = 13.42
            assert!((13..=15).contains(&rounds), "w {w0}: {rounds} round trips");
        }
    }

    #[test]
    fn legacy_reno_below_the_low_window() {
        let mut cc = Scalable::new(&ScalableConfig::default(), 10.0, 10.0, "cc").unwrap();
        cc.on_ack(&ack());
        assert!((cc.window() - 10.1).abs() < 1e-12, "+1/cwnd");
        let mut cc = Scalable::new(&ScalableConfig::default(), 100.0, 100.0, "cc").unwrap();
        cc.on_loss(&congestion(16));
        assert_eq!(cc.window(), 8.0, "halved at lwnd");
        let mut cc = Scalable::new(&ScalableConfig::default(), 100.0, 100.0, "cc").unwrap();
        cc.on_loss(&congestion(17));
        assert!((cc.window() - 17.0 * 0.875).abs() < 1e-12);
        let mut cc = Scalable::new(&ScalableConfig::default(), 100.0, 100.0, "cc").unwrap();
        cc.on_rto(&congestion(40));
        assert_eq!((cc.window(), cc.ssthresh()), (1.0, 35.0));
        cc.on_ack(&ack());
        assert_eq!(cc.window(), 2.0, "slow start after a timeout");
    }

    fn ns3() -> ScalableConfig {
        ScalableConfig { definition: ScalableDefinition::Ns3, ..ScalableConfig::default() }
    }

    /// Segments added by one round trip of ⌊w⌋ ACKs from window w.
    fn round_trip_gain(config: &ScalableConfig, w: f64) -> f64 {
        let mut cc = Scalable::new(config, w, w, "cc").unwrap();
        for _ in 0..w as u64 {
            cc.on_ack(&ack());
        }
        cc.window() - w
    }

    #[test]
    fn ns3_definition_adds_one_segment_per_min_cwnd_100_acks() {
        // ns-3 TcpScalable with AIFactor = 1/a = 100: below 100 segments one per cwnd ACKs
        // (+1 per round trip, Reno's increase, where Kelly adds 0.01 per ACK above lwnd = 16);
        // above, one per 100 ACKs (+w/100 per round trip, as Kelly's +0.01 per ACK). The window
        // grows during the round trip, so 1/cwnd per ACK adds a little less than 1 at small w.
        for (w, ns3_gain, kelly_gain) in [(10.0, 1.0, 1.0), (18.0, 1.0, 0.18), (50.0, 1.0, 0.5), (400.0, 4.0, 4.0)] {
            let gain = round_trip_gain(&ns3(), w);
            assert!((gain - ns3_gain).abs() < 0.05 * ns3_gain, "ns3 at {w}: +{gain}");
            let gain = round_trip_gain(&ScalableConfig::default(), w);
            assert!((gain - kelly_gain).abs() < 0.05 * kelly_gain, "kelly at {w}: +{gain}");
        }
        // Per ACK exactly: 1/min(cwnd, 100).
        let mut cc = Scalable::new(&ns3(), 18.0, 18.0, "cc").unwrap();
        cc.on_ack(&ack());
        assert!((cc.window() - (18.0 + 1.0 / 18.0)).abs() < 1e-12);
        // ns-3 counts segments (`m_ackCnt += segmentsAcked`), Linux too (tcp_cong_avoid_ai(tp,
        // w, acked)): an ACK of two segments (delayed ACKs) adds 2/18; Kelly's law is per ACK.
        let mut cc = Scalable::new(&ns3(), 18.0, 18.0, "cc").unwrap();
        cc.on_ack(&AckEvent { acked_segments: 2, delivered_segments: 2, ..ack() });
        assert!((cc.window() - (18.0 + 2.0 / 18.0)).abs() < 1e-12);
        let mut kelly = Scalable::new(&ScalableConfig::default(), 200.0, 200.0, "cc").unwrap();
        kelly.on_ack(&AckEvent { acked_segments: 2, delivered_segments: 2, ..ack() });
        assert!((kelly.window() - 200.01).abs() < 1e-12);
        // AIFactor follows a: a = 0.02 is ns-3's default AIFactor 50.
        let fifty = ScalableConfig { a: 0.02, ..ns3() };
        let mut cc = Scalable::new(&fifty, 200.0, 200.0, "cc").unwrap();
        cc.on_ack(&ack());
        assert!((cc.window() - 200.02).abs() < 1e-12);
    }

    #[test]
    fn ns3_definition_always_multiplies_by_seven_eighths() {
        // ns-3 GetSsThresh: max(2, segCwnd·(1 − 0.125)) at every window, no halving below lwnd.
        for w in [8u64, 16, 18, 100] {
            let mut cc = Scalable::new(&ns3(), 200.0, 200.0, "cc").unwrap();
            cc.on_loss(&congestion(w));
            assert!((cc.window() - 0.875 * w as f64).abs() < 1e-12, "w {w}: {}", cc.window());
        }
        let mut cc = Scalable::new(&ns3(), 200.0, 200.0, "cc").unwrap();
        cc.on_loss(&congestion(2));
        assert_eq!(cc.window(), 2.0, "at least two segments");
        // Kelly halves at the legacy window.
        let mut kelly = Scalable::new(&ScalableConfig::default(), 200.0, 200.0, "cc").unwrap();
        kelly.on_loss(&congestion(16));
        assert_eq!(kelly.window(), 8.0);
        let parsed: ScalableConfig = serde_json::from_str(r#"{"definition": "ns3"}"#).unwrap();
        assert_eq!(parsed, ns3());
        assert!(serde_json::from_str::<ScalableConfig>(r#"{"definition": "linux"}"#).is_err());
    }

    fn ns2_linux(cwnd: f64, ssthresh: f64) -> Scalable {
        let config = ScalableConfig { definition: ScalableDefinition::Ns2Linux, a: 0.02, ..ScalableConfig::default() };
        Scalable::new(&config, cwnd, ssthresh, "cc").unwrap()
    }

    /// An ACK of one segment with `in_flight` segments outstanding after it.
    fn ack_in_flight(in_flight: u64) -> AckEvent {
        AckEvent { in_flight, ..ack() }
    }

    #[test]
    fn ns2_linux_counts_whole_segments_and_only_when_window_limited() {
        // tcp_scalable.c: snd_cwnd_cnt++ per ACK, one segment once it exceeds min(cwnd, 50):
        // at cwnd 6, the 7th ACK adds it.
        let mut cc = ns2_linux(6.0, 3.0);
        for k in 1..=7 {
            cc.on_ack(&ack_in_flight(6));
            assert_eq!(cc.window(), if k < 7 { 6.0 } else { 7.0 }, "ACK {k}");
        }
        // At cwnd 200 one segment per 51 ACKs (TCP_SCALABLE_AI_CNT = 50 = 1/a).
        let mut cc = ns2_linux(200.0, 100.0);
        for _ in 0..50 {
            cc.on_ack(&ack_in_flight(200));
        }
        assert_eq!(cc.window(), 200.0);
        cc.on_ack(&ack_in_flight(200));
        assert_eq!(cc.window(), 201.0);
        // tcp_is_cwnd_limited: a flight (before the ACK) below cwnd grows nothing.
        let mut cc = ns2_linux(6.0, 3.0);
        for _ in 0..20 {
            cc.on_ack(&ack_in_flight(4));
        }
        assert_eq!(cc.window(), 6.0);
        // Slow start while cwnd <= ssthresh (so at cwnd = ssthresh too): one per ACK.
        let mut cc = ns2_linux(6.0, 6.0);
        cc.on_ack(&ack_in_flight(6));
        assert_eq!(cc.window(), 7.0);
        cc.on_ack(&ack_in_flight(7));
        assert_eq!(cc.window(), 7.0, "congestion avoidance from 7 > ssthresh");
    }

    #[test]
    fn ns2_linux_reduction_in_whole_segments_with_min_cwnd_during_recovery() {
        // ssthresh = max(cwnd − (cwnd >> 3), 2): nothing removed below 8 segments.
        for (cwnd, ssthresh) in [(6.0, 6.0), (7.0, 7.0), (8.0, 7.0), (17.0, 15.0), (2.0, 2.0), (1.0, 2.0)] {
            let mut cc = ns2_linux(cwnd, 1e9);
            cc.on_loss(&congestion(100));
            assert_eq!(cc.ssthresh(), ssthresh, "cwnd {cwnd}");
            // During Recovery cwnd = tcp_reno_min_cwnd = ssthresh/2, in whole segments.
            assert_eq!(cc.window(), (ssthresh / 2.0).floor(), "cwnd {cwnd}");
        }
        // Leaving Recovery: cwnd = min(ssthresh, flight + 3).
        let mut cc = ns2_linux(17.0, 1e9);
        cc.on_loss(&congestion(17));
        cc.on_recovery_exit(5);
        assert_eq!(cc.window(), 8.0);
        cc.on_recovery_exit(5);
        assert_eq!(cc.window(), 8.0, "min(ssthresh, flight + 3) again");
        let mut cc = ns2_linux(17.0, 1e9);
        cc.on_loss(&congestion(17));
        cc.on_recovery_exit(40);
        assert_eq!(cc.window(), 15.0);
        // An ECN echo: ssthresh from the hook, cwnd = ssthresh (no Recovery end in aqmlab's ECN).
        let mut cc = ns2_linux(17.0, 1e9);
        cc.on_ecn(&congestion(17));
        assert_eq!((cc.window(), cc.ssthresh()), (15.0, 15.0));
    }

    #[test]
    fn ns2_linux_timeout_and_loss_state_end() {
        let mut cc = ns2_linux(17.0, 1e9);
        cc.on_rto(&congestion(17));
        assert_eq!((cc.window(), cc.ssthresh()), (1.0, 15.0));
        // Slow start in Loss; the ACK of everything outstanding at the timeout (high_tx 30)
        // ends it with cwnd = min(ssthresh, flight + 3).
        let at = |snd_una, in_flight| AckEvent { snd_una, high_tx: 30, in_flight, ..ack() };
        cc.on_ack(&at(11, 1));
        assert_eq!(cc.window(), 2.0);
        cc.on_ack(&at(30, 4));
        assert_eq!(cc.window(), 7.0, "3 + 1 by slow start, then min(15, 4 + 3)");
    }

    #[test]
    fn invalid_parameters_name_the_field() {
        let err =
            Scalable::new(&ScalableConfig { b: 1.5, ..ScalableConfig::default() }, 2.0, 1e9, "g.cc").err().unwrap();
        assert!(err.to_string().contains("g.cc.b"), "{err}");
        let err =
            Scalable::new(&ScalableConfig { a: -1.0, ..ScalableConfig::default() }, 2.0, 1e9, "g.cc").err().unwrap();
        assert!(err.to_string().contains("g.cc.a"), "{err}");
    }
}
