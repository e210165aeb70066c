//! Compound TCP (CTCP): a Reno loss-based window `cwnd` plus a scalable delay-based window
//! `dwnd` (seed 000 Section II-A1; seed 004 Section II-B, eqs. (6)-(8); Tan, Song, Zhang,
//! Sridharan, INFOCOM 2006; draft-sridharan-tcpm-ctcp-02).
//!
//! - Sending window: `win = min(cwnd + dwnd, awnd)` (seed 004 eq. (6)); the sender applies
//!   the receiver's window `awnd` (`TcpConfig::max_window`), this module returns `cwnd + dwnd`.
//! - Slow start as Reno (RFC 5681 Section 3.1, +1 segment per new ACK); the delay-based
//!   component "is effective only in the congestion avoidance phase" (seed 004 Section II-B).
//! - Congestion avoidance: `cwnd += 1/(cwnd + dwnd)` per new ACK (seed 000 Section II-A1:
//!   "In one RTT, Compound TCP sends cwnd + dwnd packets ... cwnd = cwnd + 1/(cwnd + dwnd)";
//!   the Linux/ns-2 port `tcp_compound.c` does the same: +1 to cwnd per `snd_cwnd = cwnd +
//!   dwnd` ACKs), so cwnd still grows by one segment per round trip.
//! - Once per round trip (a round ends when `snd_una` reaches the `high_tx` recorded at its
//!   start, as `beg_snd_nxt` in `tcp_compound.c`), in congestion avoidance:
//!   `diff = (win/baseRTT − win/RTT)·baseRTT` (seed 004 eq. (7)) and
//!   `dwnd += (α·win^k − 1)⁺` if `diff < γ`, `dwnd = (dwnd − ζ·diff)⁺` if `diff ≥ γ`
//!   (seed 000 Section II-A1; seed 004 eq. (8)).
//!   `baseRTT` is the smallest RTT seen by the flow; `RTT` is the **minimum** of the round's
//!   samples (`tcp_compound.c`, `tcp_compound_pkts_acked`: "min-filter RTT samples from
//!   within an RTT ... to avoid the effects of delayed ACKs"), and a round with fewer than
//!   three samples makes no update (`tcp_compound.c`: `if (ctcp->cntRTT > 2)`).
//! - The window grows through dwnd only while `win ≥ low_wnd` (draft-sridharan-tcpm-ctcp-02:
//!   the delay-based increase applies above `low_wnd` = 41 packets; below it CTCP is Reno).
//!   The retreat branch is always applied (it only removes delay window).
//! - Loss (fast retransmit or ECN echo): `dwnd = (win·(1 − β) − cwnd/2)⁺`, `cwnd = cwnd/2`
//!   (seed 000 Section II-A1; seed 004 eq. (8)); so `win` falls to `max(win·(1 − β), cwnd/2)`.
//! - Timeout: `dwnd = 0` and Reno's timeout (cwnd = 1, ssthresh = FlightSize/2; RFC 5681
//!   Section 3.1 eq. (4)); draft-sridharan-tcpm-ctcp-02: on a retransmission timeout dwnd is
//!   reset to zero.

use serde::{Deserialize, Serialize};

use super::{AckEvent, CongestionControl, CongestionEvent, Window};
use crate::error::Result;
use crate::time::Time;

/// Compound TCP parameters. Defaults are seed 000 Section II-A1's ("The default values of
/// these parameters are: α = 0.125, k = 0.75, β = 0.5, γ̃ = 30, ζ = 0.5"); `low_window` is
/// draft-sridharan-tcpm-ctcp-02's `low_wnd`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CompoundParams {
    /// `paper` (the default: seed 000/004's law, `compound.rs`) or `ns2_linux` (ns-2 2.35
    /// TCP-Linux's `tcp_compound.c` in its integer arithmetic, `compound_linux.rs`; the
    /// port's constants: alpha 1/8, beta 1/2, k 3/4, gamma 30, zeta 1, low_window 41).
    pub definition: CompoundDefinition,
    /// α: scale of the delay window's per-round increase α·win^k.
    pub alpha: f64,
    /// β: multiplicative decrease of the whole window on loss, win → win·(1 − β).
    pub beta: f64,
    /// k: exponent of the per-round increase (0.75: "for computational reasons", a quartic
    /// root; 0.8 would match HighSpeed TCP's response function; `tcp_compound.c`).
    pub k: f64,
    /// γ: early-congestion threshold on diff, packets backlogged by this flow.
    pub gamma: f64,
    /// ζ: how fast dwnd retreats, dwnd −= ζ·diff. The paper's value is 0.5; the Linux/ns-2
    /// port (`tcp_compound.c`, `ETA = 1`) uses 1.
    pub zeta: f64,
    /// low_wnd, packets: the delay window only grows while win ≥ low_window.
    pub low_window: f64,
}

impl Default for CompoundParams {
    fn default() -> Self {
        CompoundParams {
            definition: CompoundDefinition::Paper,
            alpha: 0.125,
            beta: 0.5,
            k: 0.75,
            gamma: 30.0,
            zeta: 0.5,
            low_window: 41.0,
        }
    }
}

impl CompoundParams {
    /// Check every parameter; `field` names the configuration (e.g. `groups.0.tcp.cc`).
    pub fn validate(&self, field: &str) -> Result<()> {
        let bounded = crate::queue::params::checker(field);
        // Every parameter is finite besides its bound.
        let check =
            |name: &str, value: f64, ok: bool, allowed: &str| bounded(ok && value.is_finite(), name, value, allowed);
        check("alpha", self.alpha, self.alpha > 0.0, "a number > 0 (seed 000: 0.125)")?;
        check("beta", self.beta, self.beta > 0.0 && self.beta < 1.0, "a number in (0, 1) (seed 000: 0.5)")?;
        check("k", self.k, self.k > 0.0 && self.k <= 1.0, "a number in (0, 1] (seed 000: 0.75)")?;
        check("gamma", self.gamma, self.gamma > 0.0, "packets > 0 (seed 000: 30)")?;
        check("zeta", self.zeta, self.zeta > 0.0, "a number > 0 (seed 000: 0.5; Linux port: 1)")?;
        check("low_window", self.low_window, self.low_window >= 0.0, "packets >= 0 (CTCP draft: 41)")?;
        if self.definition == CompoundDefinition::Ns2Linux {
            // tcp_compound.c's constants (TCP_COMPOUND_ALPHA 3 as a shift, BETA 1, GAMMA 30,
            // ZETA 1; the quartic root of w³; integer growth from 41 segments).
            let port = [
                ("alpha", self.alpha, 0.125),
                ("beta", self.beta, 0.5),
                ("k", self.k, 0.75),
                ("gamma", self.gamma, 30.0),
                ("zeta", self.zeta, 1.0),
                ("low_window", self.low_window, 41.0),
            ];
            for (name, value, constant) in port {
                bounded(
                    value == constant,
                    name,
                    value,
                    &format!("{constant} with definition ns2_linux (tcp_compound.c)"),
                )?;
            }
        }
        Ok(())
    }
}

/// Which Compound TCP: the papers' law or ns-2 2.35 TCP-Linux's port.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CompoundDefinition {
    /// Seed 000 Section II-A1 / seed 004 eqs. (6)-(8) (this file). The default.
    #[default]
    Paper,
    /// ns-2 2.35 TCP-Linux's `tcp_compound.c` (`compound_linux.rs`).
    Ns2Linux,
}

/// Fewest RTT samples in a round for a delay-based update (`tcp_compound.c`: `cntRTT > 2`).
const MIN_ROUND_SAMPLES: u32 = 3;

pub struct Compound {
    params: CompoundParams,
    /// cwnd (the loss-based component) and ssthresh.
    state: Window,
    dwnd: f64,
    /// `high_tx` at the start of the current round; the round ends when `snd_una` reaches it.
    round_end: Option<u64>,
    /// Smallest RTT sample of the current round, ns.
    round_min_rtt: Time,
    round_samples: u32,
}

impl Compound {
    pub fn new(params: CompoundParams, initial_window: f64, initial_ssthresh: f64, field: &str) -> Result<Self> {
        params.validate(field)?;
        Ok(Compound {
            params,
            state: Window::new(initial_window, initial_ssthresh),
            dwnd: 0.0,
            round_end: None,
            round_min_rtt: Time::MAX,
            round_samples: 0,
        })
    }

    /// The loss-based component, segments.
    pub fn cwnd(&self) -> f64 {
        self.state.cwnd
    }

    /// The delay-based component, segments.
    pub fn dwnd(&self) -> f64 {
        self.dwnd
    }

    fn start_round(&mut self, high_tx: u64) {
        self.round_end = Some(high_tx);
        self.round_min_rtt = Time::MAX;
        self.round_samples = 0;
    }

    /// The once-per-round delay-window update (seed 000 Section II-A1; seed 004 eqs. (7)-(8)).
    fn update_dwnd(&mut self, base_rtt: Time) {
        if self.round_samples < MIN_ROUND_SAMPLES || base_rtt == 0 || self.round_min_rtt == Time::MAX {
            return;
        }
        let p = &self.params;
        let win = self.state.cwnd + self.dwnd;
        let rtt = self.round_min_rtt.max(base_rtt) as f64;
        let base = base_rtt as f64;
        // Seed 004 eq. (7): Diff = (Expected − Actual)·BaseRTT, Expected = win/BaseRTT,
        // Actual = win/RTT: the packets this flow keeps in the bottleneck queue.
        let diff = (win / base - win / rtt) * base;
        if diff < p.gamma {
            // Seed 000 Section II-A1 / seed 004 eq. (8): dwnd += (α·win^k − 1)⁺ when diff < γ,
            // only above low_wnd (draft-sridharan-tcpm-ctcp-02).
            if win >= p.low_window {
                self.dwnd += (p.alpha * win.powf(p.k) - 1.0).max(0.0);
            }
        } else {
            // Seed 000 Section II-A1 / seed 004 eq. (8): dwnd = (dwnd − ζ·diff)⁺ when diff ≥ γ.
            self.dwnd = (self.dwnd - p.zeta * diff).max(0.0);
        }
    }
}

impl CongestionControl for Compound {
    super::window_state!();

    fn window(&self) -> f64 {
        // Seed 004 eq. (6): win = min(cwnd + dwnd, awnd); awnd is applied by the sender.
        self.state.cwnd + self.dwnd
    }

    fn on_ack(&mut self, ack: &AckEvent) {
        if ack.acked_segments == 0 {
            return;
        }
        if let Some(rtt) = ack.rtt_sample_ns {
            self.round_min_rtt = self.round_min_rtt.min(rtt);
            self.round_samples += 1;
        }
        if self.state.cwnd < self.state.ssthresh {
            // RFC 5681 Section 3.1: slow start, +1 segment per new ACK (as Reno).
            self.state.cwnd += 1.0;
        } else {
            // Seed 000 Section II-A1: cwnd = cwnd + 1/(cwnd + dwnd) per ACK in congestion
            // avoidance (one segment per round trip of cwnd + dwnd ACKs).
            self.state.cwnd += 1.0 / (self.state.cwnd + self.dwnd);
        }
        match self.round_end {
            None => self.start_round(ack.high_tx),
            Some(end) if ack.snd_una >= end => {
                // A round trip ended: every segment sent before the round began is acknowledged
                // (`tcp_compound.c`: `after(ack, beg_snd_nxt)`). Seed 004 Section II-B: the
                // delay-based component is effective only in congestion avoidance.
                if self.state.cwnd >= self.state.ssthresh {
                    self.update_dwnd(ack.min_rtt_ns);
                }
                self.start_round(ack.high_tx);
            }
            Some(_) => {}
        }
    }

    fn on_loss(&mut self, _event: &CongestionEvent) {
        // Seed 000 Section II-A1 / seed 004 eq. (8), loss: dwnd = (win·(1 − β) − cwnd/2)⁺ and
        // cwnd halves (at least 2 segments, RFC 5681 eq. (4)); ssthresh = the new cwnd, so
        // cwnd resumes in congestion avoidance after recovery.
        let win = self.state.cwnd + self.dwnd;
        let half = self.state.cwnd / 2.0;
        self.dwnd = (win * (1.0 - self.params.beta) - half).max(0.0);
        self.state.cwnd = half.max(2.0);
        self.state.ssthresh = self.state.cwnd;
        // Samples taken before and during recovery are stale (`tcp_compound.c`,
        // `ctcp_enable` on return to the Open state): a new round starts with the next ACK.
        self.round_end = None;
    }

    fn on_rto(&mut self, event: &CongestionEvent) {
        // draft-sridharan-tcpm-ctcp-02: after a timeout dwnd = 0; cwnd as Reno
        // (RFC 5681 Section 3.1 eq. (4): ssthresh = max(FlightSize/2, 2), cwnd = 1).
        self.dwnd = 0.0;
        self.state.ssthresh = super::reno::halve_flight(event.in_flight);
        self.state.cwnd = 1.0;
        self.round_end = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Time = 1_000_000;
    const BASE: Time = 100 * MS;

    /// A flow on an idealised path: one ACK per segment, every RTT sample equal to the
    /// round's `rtt`; the sender sends after each ACK is processed (so the ACK carries the
    /// `high_tx` from before its own transmissions, as in `TcpSender::on_new_ack`).
    struct Path {
        una: u64,
        high_tx: u64,
        /// Where the current round ends: as the algorithm's own round detection.
        boundary: u64,
    }

    impl Path {
        fn new(cc: &Compound) -> Self {
            Path { una: 0, high_tx: cc.window().floor() as u64, boundary: 0 }
        }

        fn ack(&self, rtt: Time) -> AckEvent {
            AckEvent {
                now: 0,
                acked_segments: 1,
                delivered_segments: 1,
                rtt_sample_ns: Some(rtt),
                min_rtt_ns: BASE,
                srtt_ns: rtt,
                in_flight: self.high_tx - self.una,
                ece: false,
                snd_una: self.una,
                high_tx: self.high_tx,
            }
        }

        /// Acknowledge segments until the round trip ends (`snd_una` reaches the `high_tx`
        /// recorded when the round began).
        fn round(&mut self, cc: &mut Compound, rtt: Time) {
            loop {
                self.una += 1;
                cc.on_ack(&self.ack(rtt));
                let pre_send = self.high_tx;
                self.high_tx = self.high_tx.max(self.una + cc.window().floor() as u64);
                if self.una >= self.boundary {
                    self.boundary = pre_send;
                    return;
                }
            }
        }
    }

    fn congestion(in_flight: u64) -> CongestionEvent {
        CongestionEvent { now: 0, in_flight, srtt_ns: BASE, min_rtt_ns: BASE }
    }

    fn compound(window: f64, ssthresh: f64) -> Compound {
        Compound::new(CompoundParams::default(), window, ssthresh, "tcp.cc").unwrap()
    }

    /// A path whose first ACK has opened the algorithm's round tracking.
    fn primed(cc: &mut Compound) -> Path {
        let mut path = Path::new(cc);
        path.round(cc, BASE);
        path
    }

    /// A flow from a window of 100 in congestion avoidance after `rounds` round trips at
    /// RTT = baseRTT (no queueing: dwnd grows every round).
    fn rounds_without_queueing(rounds: usize) -> (Compound, Path) {
        let mut cc = compound(100.0, 100.0);
        let mut path = primed(&mut cc);
        for _ in 0..rounds {
            path.round(&mut cc, BASE);
        }
        (cc, path)
    }

    #[test]
    fn defaults_are_the_papers_values() {
        let p = CompoundParams::default();
        assert_eq!((p.alpha, p.beta, p.k, p.gamma, p.zeta, p.low_window), (0.125, 0.5, 0.75, 30.0, 0.5, 41.0));
    }

    #[test]
    fn invalid_parameters_name_the_field() {
        for (params, field) in [
            (CompoundParams { alpha: 0.0, ..Default::default() }, "tcp.cc.alpha"),
            (CompoundParams { beta: 1.0, ..Default::default() }, "tcp.cc.beta"),
            (CompoundParams { k: 1.5, ..Default::default() }, "tcp.cc.k"),
            (CompoundParams { gamma: -1.0, ..Default::default() }, "tcp.cc.gamma"),
            (CompoundParams { zeta: f64::NAN, ..Default::default() }, "tcp.cc.zeta"),
            (CompoundParams { low_window: -1.0, ..Default::default() }, "tcp.cc.low_window"),
        ] {
            let error = Compound::new(params, 2.0, 1e9, "tcp.cc").err().expect("rejected").to_string();
            assert!(error.contains(field), "{error}");
        }
    }

    #[test]
    fn slow_start_is_reno_and_leaves_dwnd_alone() {
        // RFC 5681 Section 3.1: +1 segment per new ACK; no delay window outside congestion
        // avoidance (seed 004 Section II-B), even with RTT = baseRTT and win far above low_wnd.
        let mut cc = compound(2.0, 1e9);
        let mut path = Path::new(&cc);
        for _ in 0..10 {
            path.round(&mut cc, BASE);
        }
        assert_eq!(cc.window(), 2.0 + path.una as f64);
        assert!(cc.window() > 200.0, "{}", cc.window());
        assert_eq!(cc.dwnd(), 0.0);
    }

    /// cwnd's growth over a round of `acks` ACKs at window between `win` and `win + 1`
    /// (seed 000 Section II-A1: +1/(cwnd + dwnd) per ACK; dwnd changes only at round ends).
    fn assert_reno_round(growth: f64, acks: u64, win: f64) {
        let (low, high) = (acks as f64 / (win + 1.0), acks as f64 / win);
        assert!(growth >= low - 1e-9 && growth <= high + 1e-9, "cwnd grew {growth}, expected [{low}, {high}]");
    }

    #[test]
    fn without_queueing_dwnd_grows_by_alpha_win_to_the_k_per_round_trip() {
        // RTT = baseRTT: diff = 0 < γ every round, so per round trip (seed 000 Section II-A1)
        // dwnd += α·win^k − 1 (win at the round's end), and cwnd grows by about one segment.
        let mut cc = compound(100.0, 100.0);
        let mut path = primed(&mut cc);
        let p = CompoundParams::default();
        for _ in 0..8 {
            let (cwnd0, dwnd0, una0) = (cc.cwnd(), cc.dwnd(), path.una);
            path.round(&mut cc, BASE);
            assert_reno_round(cc.cwnd() - cwnd0, path.una - una0, cwnd0 + dwnd0);
            let win = cc.cwnd() + dwnd0;
            let expected = dwnd0 + p.alpha * win.powf(p.k) - 1.0;
            assert!((cc.dwnd() - expected).abs() < 1e-9, "dwnd {} expected {expected}", cc.dwnd());
        }
        // eight rounds: dwnd alone added more than 8·(α·100^k − 1) = 18.6 segments
        assert!(cc.dwnd() > 8.0 * (0.125 * 100f64.powf(0.75) - 1.0), "{}", cc.dwnd());
    }

    #[test]
    fn below_low_wnd_the_delay_window_does_not_grow() {
        // win = 30 < low_wnd = 41: Compound is Reno (cwnd + ~1 per round, dwnd stays 0).
        let mut cc = compound(30.0, 30.0);
        let mut path = primed(&mut cc);
        for _ in 0..5 {
            let (cwnd0, una0) = (cc.cwnd(), path.una);
            path.round(&mut cc, BASE);
            assert_reno_round(cc.cwnd() - cwnd0, path.una - una0, cwnd0);
        }
        assert_eq!(cc.dwnd(), 0.0);
        // with low_window = 0 the same flow grows dwnd by (α·win^k − 1)⁺ (> 0 once win > 16)
        let params = CompoundParams { low_window: 0.0, ..Default::default() };
        let mut cc = Compound::new(params, 30.0, 30.0, "tcp.cc").unwrap();
        let mut path = primed(&mut cc);
        path.round(&mut cc, BASE);
        let win = cc.cwnd();
        assert!((cc.dwnd() - (0.125 * win.powf(0.75) - 1.0)).abs() < 1e-9);
    }

    #[test]
    fn dwnd_retreats_by_zeta_diff_when_diff_reaches_gamma() {
        let (mut cc, mut path) = rounds_without_queueing(10);
        let dwnd0 = cc.dwnd();
        assert!(dwnd0 > 30.0, "{dwnd0}");
        // RTT = 1.5 baseRTT: diff = win·(1 − 1/1.5) = win/3 ≥ γ = 30 for win ≥ 90.
        let rtt = BASE * 3 / 2;
        path.round(&mut cc, rtt);
        let win = cc.cwnd() + dwnd0;
        let diff = (win / BASE as f64 - win / rtt as f64) * BASE as f64;
        assert!(diff >= 30.0);
        assert!((cc.dwnd() - (dwnd0 - 0.5 * diff)).abs() < 1e-6, "dwnd {} expected {}", cc.dwnd(), dwnd0 - 0.5 * diff);
        // repeated queueing drives dwnd to 0, never below; cwnd keeps its Reno growth
        let cwnd = cc.cwnd();
        for _ in 0..5 {
            path.round(&mut cc, rtt);
        }
        assert_eq!(cc.dwnd(), 0.0);
        assert!(cc.cwnd() > cwnd + 4.5);
    }

    #[test]
    fn diff_just_below_gamma_still_increases() {
        // win = 120 at RTT = baseRTT·120/91: diff = 120·(1 − 91/120) = 29 < 30.
        let params = CompoundParams { low_window: 0.0, ..Default::default() };
        let mut cc = Compound::new(params, 120.0, 120.0, "tcp.cc").unwrap();
        let mut path = primed(&mut cc);
        let (cwnd0, dwnd0) = (cc.cwnd(), cc.dwnd());
        let rtt = BASE * 120 / 91;
        path.round(&mut cc, rtt);
        let win = cc.cwnd() + dwnd0;
        let diff = win * (1.0 - BASE as f64 / rtt as f64);
        assert!(diff < 30.0 && diff > 28.0, "{diff}");
        assert!((cc.dwnd() - (0.125 * win.powf(0.75) - 1.0)).abs() < 1e-9);
        assert!(cc.cwnd() > cwnd0);
    }

    #[test]
    fn a_round_with_fewer_than_three_samples_makes_no_update() {
        let params = CompoundParams { low_window: 0.0, ..Default::default() };
        let mut cc = Compound::new(params, 20.0, 20.0, "tcp.cc").unwrap();
        // one cumulative ACK per round (e.g. after stretch ACKs): two samples per round
        let mut ack = AckEvent {
            now: 0,
            acked_segments: 1,
            delivered_segments: 1,
            rtt_sample_ns: Some(BASE),
            min_rtt_ns: BASE,
            srtt_ns: BASE,
            in_flight: 0,
            ece: false,
            snd_una: 1,
            high_tx: 20,
        };
        cc.on_ack(&ack); // opens the round ending at 20
        ack.snd_una = 20;
        ack.high_tx = 40;
        cc.on_ack(&ack); // ends it with 2 samples
        assert_eq!(cc.dwnd(), 0.0);
    }

    #[test]
    fn loss_sets_dwnd_to_win_times_one_minus_beta_minus_half_cwnd() {
        let (mut cc, _) = rounds_without_queueing(6);
        let (cwnd, dwnd) = (cc.cwnd(), cc.dwnd());
        let win = cwnd + dwnd;
        cc.on_loss(&congestion(win as u64));
        assert_eq!(cc.cwnd(), cwnd / 2.0);
        assert!((cc.dwnd() - (win * 0.5 - cwnd / 2.0)).abs() < 1e-9);
        assert!((cc.window() - win / 2.0).abs() < 1e-9, "win halves with β = 1/2");
        assert_eq!(cc.ssthresh(), cwnd / 2.0, "cwnd continues in congestion avoidance");
        // β = 0.3: win → 0.7·win; with dwnd = 0 the floor is cwnd/2 (dwnd cannot go negative)
        let params = CompoundParams { beta: 0.3, ..Default::default() };
        let mut cc = Compound::new(params, 40.0, 40.0, "tcp.cc").unwrap();
        cc.on_loss(&congestion(40));
        assert_eq!((cc.cwnd(), cc.dwnd()), (20.0, 40.0 * 0.7 - 20.0));
    }

    #[test]
    fn loss_with_no_delay_window_is_reno_halving() {
        let mut cc = compound(30.0, 30.0);
        cc.on_loss(&congestion(30));
        assert_eq!((cc.cwnd(), cc.dwnd(), cc.window(), cc.ssthresh()), (15.0, 0.0, 15.0, 15.0));
    }

    #[test]
    fn timeout_clears_dwnd_and_restarts_from_one_segment() {
        let (mut cc, path) = rounds_without_queueing(4);
        assert!(cc.dwnd() > 0.0);
        cc.on_rto(&congestion(140));
        assert_eq!((cc.cwnd(), cc.dwnd(), cc.ssthresh()), (1.0, 0.0, 70.0));
        // slow start follows, as Reno
        cc.on_ack(&path.ack(BASE));
        assert_eq!(cc.window(), 2.0);
    }

    #[test]
    fn params_deserialize_with_defaults_and_reject_unknown_fields() {
        let p: CompoundParams = serde_json::from_str(r#"{"alpha": 0.25}"#).unwrap();
        assert_eq!(p, CompoundParams { alpha: 0.25, ..Default::default() });
        assert!(serde_json::from_str::<CompoundParams>(r#"{"alhpa": 0.25}"#).is_err());
    }
}
