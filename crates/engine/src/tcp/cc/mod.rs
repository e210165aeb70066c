//! The congestion-control trait and its registry.
//!
//! An algorithm owns its window law only: the shared sender (`tcp::sender`) does loss
//! detection, fast retransmit/recovery, RTO and ECN bookkeeping, and calls these hooks.
//! Time is passed in, so each window law is unit-tested without the engine.
//! Adding an algorithm is one file implementing [`CongestionControl`] (with its parameter
//! struct, validated in its constructor) plus one variant in [`CcConfig`], one line in
//! [`CcConfig::build`] and one in [`CcConfig::name`].

pub mod aimd;
pub mod compound;
pub mod compound_linux;
pub mod cubic;
pub mod cubic_linux;
pub mod cx;
pub mod cx_highspeed;
pub mod external;
pub mod highspeed;
pub mod highspeed_linux;
pub mod linux;
pub mod pert;
pub mod reno;
pub mod scalable;

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::rng::Rng;
use crate::time::Time;

/// What every algorithm is built from.
pub struct CcInit {
    /// Initial congestion window, segments.
    pub initial_window: f64,
    /// Initial slow-start threshold, segments.
    pub initial_ssthresh: f64,
    /// The flow's own random stream, for algorithms with probabilistic decisions
    /// (Cx-TCP, PERT); deterministic per (seed, flow).
    pub rng: Rng,
}

/// What the sender knows when an ACK acknowledges new data.
#[derive(Clone, Copy, Debug)]
pub struct AckEvent {
    pub now: Time,
    /// Segments newly acknowledged by this ACK (>= 1): the cumulative ACK's advance.
    pub acked_segments: u64,
    /// Segments newly delivered by this ACK: RFC 6937's DeliveredData, the advance of the
    /// cumulative ACK plus the change in SACKed segments (segments SACKed by earlier ACKs and
    /// now covered are not counted again; equal to `acked_segments` without SACK). What ns-3
    /// (`currentDelivered`) and Linux (`acked_sacked`) hand their window laws, except that
    /// with `recovery_exit_credit = cumulative` the ACK ending recovery passes every segment
    /// it covers, as ns-3 does there.
    pub delivered_segments: u64,
    /// RTT sample carried by this ACK (timestamp echo), ns.
    pub rtt_sample_ns: Option<Time>,
    /// Smallest RTT seen so far, ns (0 before the first sample).
    pub min_rtt_ns: Time,
    /// Smoothed RTT (RFC 6298), ns (0 before the first sample).
    pub srtt_ns: Time,
    /// Segments in flight after this ACK.
    pub in_flight: u64,
    /// The ACK carries an ECN echo (only passed when [`CongestionControl::ecn_per_ack`]).
    pub ece: bool,
    /// Oldest unacknowledged segment after this ACK (a round trip ends when it passes the
    /// `high_tx` recorded at the round's start).
    pub snd_una: u64,
    /// One past the highest segment sent so far.
    pub high_tx: u64,
}

/// What the sender knows when it detects congestion (loss, ECN echo or timeout).
#[derive(Clone, Copy, Debug)]
pub struct CongestionEvent {
    pub now: Time,
    /// Segments in flight when congestion was detected (FlightSize, RFC 5681 eq. (4)).
    pub in_flight: u64,
    pub srtt_ns: Time,
    pub min_rtt_ns: Time,
}

/// The window a multiplicative decrease applies to: FlightSize (RFC 5681 eq. (4)), but
/// never more than cwnd. After a long NewReno recovery that kept sending new data on an
/// inflated window, FlightSize can be many times cwnd (measured: 13 884 segments in flight
/// against cwnd = 320 after a 25 s recovery from a slow-start overshoot); Linux uses cwnd
/// (tcp_cubic.c, tcp_highspeed.c, tcp_scalable.c `ssthresh` hooks).
pub fn reduction_base(event: &CongestionEvent, cwnd: f64) -> f64 {
    (event.in_flight as f64).min(cwnd)
}

/// cwnd and ssthresh, segments: the state every window law keeps; the trait's accessors and
/// default responses read and set it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    /// Congestion window (may be fractional).
    pub cwnd: f64,
    /// Slow-start threshold.
    pub ssthresh: f64,
}

impl Window {
    pub fn new(cwnd: f64, ssthresh: f64) -> Self {
        Window { cwnd, ssthresh }
    }
}

/// `CongestionControl::state` and `state_mut` for a law that keeps its `Window` in a field
/// (`window_state!()`: named `state`; `window_state!(reno.state)`: a path), inside its
/// `impl CongestionControl` block.
macro_rules! window_state {
    () => {
        $crate::tcp::cc::window_state!(state);
    };
    ($($field:ident).+) => {
        fn state(&self) -> &$crate::tcp::cc::Window {
            &self.$($field).+
        }

        fn state_mut(&mut self) -> &mut $crate::tcp::cc::Window {
            &mut self.$($field).+
        }
    };
}
pub(crate) use window_state;

/// A window law. Most laws supply only `state`, `congestion_avoidance` and `reduced_window`:
/// the defaults do the rest the way RFC 5681 does (slow start, cwnd = ssthresh after a loss,
/// one segment after a timeout).
pub trait CongestionControl: Send + Sync {
    /// The law's cwnd and ssthresh.
    fn state(&self) -> &Window;

    fn state_mut(&mut self) -> &mut Window;

    /// Congestion window, segments (may be fractional).
    fn window(&self) -> f64 {
        self.state().cwnd
    }

    /// Slow-start threshold, segments.
    fn ssthresh(&self) -> f64 {
        self.state().ssthresh
    }

    /// New data was acknowledged outside loss recovery. By default: ACKs that acknowledge
    /// nothing new are ignored, then `ack_signal`, then slow start below ssthresh (RFC 5681
    /// Section 3.1: cwnd grows by at most one SMSS per ACK that acknowledges new data, a
    /// cumulative ACK after a repaired hole is still one ACK), else `congestion_avoidance`.
    fn on_ack(&mut self, ack: &AckEvent) {
        rfc5681::on_ack(self, ack)
    }

    /// A congestion signal the ACK itself carries (a mark answered per ACK, a delay-based
    /// backoff), checked before any growth; true when the law reduced its window (the ACK
    /// then does not grow it). None by default.
    fn ack_signal(&mut self, _ack: &AckEvent) -> bool {
        false
    }

    /// The law's increase for one ACK at cwnd ≥ ssthresh. None by default.
    fn congestion_avoidance(&mut self, _ack: &AckEvent) {}

    /// ssthresh after a congestion event; by default RFC 5681 Section 3.1 eq. (4),
    /// max(FlightSize / 2, 2 SMSS).
    fn reduced_window(&self, event: &CongestionEvent) -> f64 {
        reno::halve_flight(event.in_flight)
    }

    /// A loss was detected by duplicate ACKs; called once per loss episode, on entering
    /// fast retransmit. The window after it is the one used when recovery ends. By default
    /// cwnd = ssthresh = `reduced_window` (RFC 5681 Section 3.2 step 2, RFC 6582 Section 3.2
    /// step 3's full-ACK option 1).
    fn on_loss(&mut self, event: &CongestionEvent) {
        rfc5681::on_loss(self, event)
    }

    /// The retransmission timer expired. By default ssthresh = `reduced_window` and cwnd =
    /// one segment (RFC 5681 Section 3.1, "LW").
    fn on_rto(&mut self, event: &CongestionEvent) {
        rfc5681::on_rto(self, event)
    }

    /// SACK loss recovery ended (the cumulative ACK passed the recovery point); `in_flight`:
    /// snd_nxt − snd_una after that ACK. Nothing by default (cwnd is the `on_loss` window);
    /// the `ns2_linux` definitions restore a window reduced below ssthresh (tcp-linux.cc
    /// lines 459-471, `cc/linux.rs`).
    fn on_recovery_exit(&mut self, _in_flight: u64) {}

    /// An ECN echo arrived (at most once per window, RFC 3168 Section 6.1.2). By default
    /// ECN is treated as a loss, as RFC 3168 requires.
    fn on_ecn(&mut self, event: &CongestionEvent) {
        self.on_loss(event)
    }

    /// True for laws that react to every marked ACK (seed 002's b·w^m per marked ACK): the
    /// sender then hands every new ACK, ECE or not, to `on_ack` with `ece` set, and never
    /// calls `on_ecn`.
    fn ecn_per_ack(&self) -> bool {
        false
    }
}

/// The trait's default responses, callable by a law that overrides one for some of its
/// definitions only.
pub mod rfc5681 {
    use super::{AckEvent, CongestionControl, CongestionEvent};

    /// `CongestionControl::on_ack`'s default.
    pub fn on_ack<C: CongestionControl + ?Sized>(cc: &mut C, ack: &AckEvent) {
        if ack.acked_segments == 0 || cc.ack_signal(ack) {
            return;
        }
        let state = cc.state_mut();
        if state.cwnd < state.ssthresh {
            state.cwnd += 1.0;
        } else {
            cc.congestion_avoidance(ack);
        }
    }

    /// `CongestionControl::on_loss`'s default.
    pub fn on_loss<C: CongestionControl + ?Sized>(cc: &mut C, event: &CongestionEvent) {
        let reduced = cc.reduced_window(event);
        let state = cc.state_mut();
        state.ssthresh = reduced;
        state.cwnd = reduced;
    }

    /// `CongestionControl::on_rto`'s default.
    pub fn on_rto<C: CongestionControl + ?Sized>(cc: &mut C, event: &CongestionEvent) {
        let reduced = cc.reduced_window(event);
        let state = cc.state_mut();
        state.ssthresh = reduced;
        state.cwnd = 1.0;
    }
}

/// Events for the window laws' unit tests.
#[cfg(test)]
pub(crate) mod test_events {
    use super::{AckEvent, CongestionEvent};

    /// An ACK of `segments` new segments at time 0, without RTT sample or mark.
    pub fn ack(segments: u64) -> AckEvent {
        AckEvent {
            now: 0,
            acked_segments: segments,
            delivered_segments: segments,
            rtt_sample_ns: None,
            min_rtt_ns: 0,
            srtt_ns: 0,
            in_flight: 0,
            ece: false,
            snd_una: 0,
            high_tx: 0,
        }
    }

    /// A congestion event (loss, timeout, ECN echo) with `in_flight` segments outstanding.
    pub fn congestion(in_flight: u64) -> CongestionEvent {
        CongestionEvent { now: 0, in_flight, srtt_ns: 0, min_rtt_ns: 0 }
    }
}

/// Scenario description of a congestion-control algorithm.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum CcConfig {
    Reno,
    /// Cx-TCP (seed 001 Algorithm 1): Reno with the per-ACK delay backoff of Fig. 1.
    Cx(cx::CxParams),
    /// PERT (Bhandarkar et al., SIGCOMM 2007): probabilistic early response to delay.
    Pert(pert::PertParams),
    /// Delay-based HighSpeed TCP (seed 001 Section V-B): RFC 3649 with the Cx backoff.
    CxHighspeed(cx_highspeed::CxHighSpeedConfig),
    /// Compound TCP (seed 000 Section II-A1; seed 004 eqs. (6)-(8)); parameters inline:
    /// `{"kind": "compound", "alpha": 0.125, ...}`, each defaulting to the paper's value.
    Compound(compound::CompoundParams),
    /// CUBIC (RFC 9438; seed 004 eqs. (1)-(5)).
    Cubic(cubic::CubicConfig),
    /// HighSpeed TCP (RFC 3649).
    #[serde(rename = "highspeed")]
    HighSpeed(highspeed::HighSpeedConfig),
    /// Scalable TCP (Kelly 2003).
    Scalable(scalable::ScalableConfig),
    /// The general law a·wⁿ per unmarked ACK, b·wᵐ per marked ACK (seed 002 Section IV-A).
    Aimd(aimd::AimdConfig),
    /// Seed 000 Table I, TCP Illinois: α_max/w, β_min·w.
    IllinoisLike(aimd::IllinoisLikeConfig),
    /// Seed 000 Table I, AFRICA TCP: HighSpeed's a(w)/w, w·b(w).
    AfricaLike(highspeed::HighSpeedConfig),
    /// A window law implemented outside the engine, e.g. a Python class (`external.rs`).
    Python(external::ExternalCcConfig),
}

impl CcConfig {
    /// The registry: build the algorithm of this configuration; `field` names the
    /// scenario field of the configuration in errors about its parameters.
    pub fn build(&self, init: CcInit, field: &str) -> Result<Box<dyn CongestionControl>> {
        let (w, ss) = (init.initial_window, init.initial_ssthresh);
        Ok(match self {
            CcConfig::Reno => Box::new(reno::Reno::new(w, ss)),
            CcConfig::Cubic(c) if c.definition == cubic::CubicDefinition::Ns2Linux => {
                Box::new(cubic_linux::CubicLinux::new(c, w, ss, field)?)
            }
            CcConfig::Cubic(c) => Box::new(cubic::Cubic::new(c, w, ss, field)?),
            CcConfig::HighSpeed(c) if c.definition == highspeed::HighSpeedDefinition::Ns2Linux => {
                c.validate(field)?;
                Box::new(highspeed_linux::HighSpeedLinux::new(w, ss))
            }
            CcConfig::HighSpeed(c) => Box::new(highspeed::HighSpeed::new(c, w, ss, field)?),
            CcConfig::Scalable(c) => Box::new(scalable::Scalable::new(c, w, ss, field)?),
            CcConfig::Aimd(c) => Box::new(aimd::Aimd::new(aimd::Law::power(c, field)?, w, ss)),
            CcConfig::IllinoisLike(c) => Box::new(aimd::Aimd::new(aimd::Law::illinois_like(c, field)?, w, ss)),
            CcConfig::AfricaLike(c) => Box::new(aimd::Aimd::new(aimd::Law::africa_like(c, field)?, w, ss)),
            CcConfig::Cx(params) => {
                Box::new(cx::Cx::new(init.initial_window, init.initial_ssthresh, params, init.rng, field)?)
            }
            CcConfig::CxHighspeed(config) => Box::new(cx_highspeed::CxHighSpeed::new(
                config,
                init.initial_window,
                init.initial_ssthresh,
                init.rng,
                field,
            )?),
            CcConfig::Pert(params) => {
                Box::new(pert::Pert::new(init.initial_window, init.initial_ssthresh, params, init.rng, field)?)
            }
            CcConfig::Compound(params) if params.definition == compound::CompoundDefinition::Ns2Linux => {
                params.validate(field)?;
                Box::new(compound_linux::CompoundLinux::new(init.initial_window, init.initial_ssthresh))
            }
            CcConfig::Compound(params) => {
                Box::new(compound::Compound::new(params.clone(), init.initial_window, init.initial_ssthresh, field)?)
            }
            CcConfig::Python(c) => external::LAWS.build(c, init, field)?,
        })
    }

    pub fn name(&self) -> &'static str {
        match self {
            CcConfig::Reno => "reno",
            CcConfig::Cx(_) => "cx",
            CcConfig::Pert(_) => "pert",
            CcConfig::CxHighspeed(_) => "cx_highspeed",
            CcConfig::Compound(_) => "compound",
            CcConfig::Cubic(_) => "cubic",
            CcConfig::HighSpeed(_) => "highspeed",
            CcConfig::Scalable(_) => "scalable",
            CcConfig::Aimd(_) => "aimd",
            CcConfig::IllinoisLike(_) => "illinois_like",
            CcConfig::AfricaLike(_) => "africa_like",
            CcConfig::Python(_) => "python",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_default_and_unknown_fields_are_rejected() {
        let cx: CcConfig = serde_json::from_str(r#"{"kind": "cx"}"#).unwrap();
        assert_eq!(cx, CcConfig::Cx(cx::CxParams::default()));
        let cx: CcConfig = serde_json::from_str(r#"{"kind": "cx", "p_max": 0.1}"#).unwrap();
        assert_eq!(cx, CcConfig::Cx(cx::CxParams { p_max: 0.1, ..cx::CxParams::default() }));
        assert_eq!(cx.name(), "cx");
        let pert: CcConfig = serde_json::from_str(r#"{"kind": "pert", "beta": 0.5}"#).unwrap();
        assert_eq!(pert, CcConfig::Pert(pert::PertParams { beta: 0.5, ..pert::PertParams::default() }));
        assert_eq!(pert.name(), "pert");
        assert!(serde_json::from_str::<CcConfig>(r#"{"kind": "cx", "pmax": 0.1}"#).is_err());
        assert!(serde_json::from_str::<CcConfig>(r#"{"kind": "pert", "p": 0.1}"#).is_err());
        let json = serde_json::to_string(&cx).unwrap();
        assert_eq!(serde_json::from_str::<CcConfig>(&json).unwrap(), cx);
    }

    #[test]
    fn build_names_the_field_of_invalid_parameters() {
        let init = || CcInit {
            initial_window: 2.0,
            initial_ssthresh: 1e9,
            rng: crate::rng::stream(1, crate::rng::StreamKind::Flow, 0),
        };
        let bad = CcConfig::Cx(cx::CxParams { p_max: 2.0, ..cx::CxParams::default() });
        let message = bad.build(init(), "groups[0].tcp.cc").err().unwrap().to_string();
        assert!(message.contains("groups[0].tcp.cc.p_max"), "{message}");
        let bad = CcConfig::Pert(pert::PertParams { beta: 0.0, ..pert::PertParams::default() });
        let message = bad.build(init(), "groups[0].tcp.cc").err().unwrap().to_string();
        assert!(message.contains("groups[0].tcp.cc.beta"), "{message}");
    }

    #[test]
    fn compound_is_registered_with_inline_parameters_and_defaults() {
        let config: CcConfig = serde_json::from_str(r#"{"kind": "compound", "alpha": 0.25}"#).unwrap();
        assert_eq!(config, CcConfig::Compound(compound::CompoundParams { alpha: 0.25, ..Default::default() }));
        assert_eq!(config.name(), "compound");
        let bare: CcConfig = serde_json::from_str(r#"{"kind": "compound"}"#).unwrap();
        assert_eq!(bare, CcConfig::Compound(Default::default()));
        // round trip: what Python's model_dump() writes is what the engine reads
        let json = serde_json::to_string(&config).unwrap();
        assert_eq!(serde_json::from_str::<CcConfig>(&json).unwrap(), config);
        assert!(serde_json::from_str::<CcConfig>(r#"{"kind": "compound", "alfa": 1}"#).is_err());
        let init = CcInit {
            initial_window: 2.0,
            initial_ssthresh: 1e9,
            rng: crate::rng::stream(1, crate::rng::StreamKind::Flow, 0),
        };
        let bad = CcConfig::Compound(compound::CompoundParams { gamma: 0.0, ..Default::default() });
        let error = bad.build(init, "groups.0.tcp.cc").err().expect("rejected").to_string();
        assert!(error.contains("groups.0.tcp.cc.gamma"), "{error}");
    }

    #[test]
    fn configurations_parse_by_name_or_with_parameters() {
        let by_name: CcConfig = serde_json::from_str(r#"{"kind": "cubic"}"#).unwrap();
        assert_eq!(by_name, CcConfig::Cubic(cubic::CubicConfig::default()));
        let with: CcConfig = serde_json::from_str(r#"{"kind": "cubic", "c": 0.2}"#).unwrap();
        assert_eq!(with, CcConfig::Cubic(cubic::CubicConfig { c: 0.2, ..Default::default() }));
        let hs: CcConfig = serde_json::from_str(r#"{"kind": "highspeed", "low_window": 30}"#).unwrap();
        assert_eq!(hs.name(), "highspeed");
        let aimd: CcConfig = serde_json::from_str(r#"{"kind": "aimd", "a": 0.01, "n": 0}"#).unwrap();
        assert_eq!(aimd, CcConfig::Aimd(aimd::AimdConfig { a: 0.01, n: 0.0, b: 0.5, m: 1.0 }));
        for kind in ["reno", "cubic", "highspeed", "scalable", "aimd", "illinois_like", "africa_like"] {
            let config: CcConfig = serde_json::from_str(&format!(r#"{{"kind": "{kind}"}}"#)).unwrap();
            assert_eq!(config.name(), kind);
            let round_trip: CcConfig = serde_json::from_str(&serde_json::to_string(&config).unwrap()).unwrap();
            assert_eq!(round_trip, config);
        }
        assert!(
            serde_json::from_str::<CcConfig>(r#"{"kind": "cubic", "gamma": 1}"#).is_err(),
            "unknown fields are refused"
        );
    }

    #[test]
    fn invalid_parameters_are_reported_with_the_field() {
        let init = || CcInit {
            initial_window: 2.0,
            initial_ssthresh: 1e9,
            rng: crate::rng::stream(1, crate::rng::StreamKind::Flow, 0),
        };
        let config = CcConfig::Scalable(scalable::ScalableConfig { b: 0.0, ..Default::default() });
        let err = config.build(init(), "topology.groups[0].tcp.cc").err().unwrap();
        assert!(err.to_string().contains("topology.groups[0].tcp.cc.b"), "{err}");
    }
}
