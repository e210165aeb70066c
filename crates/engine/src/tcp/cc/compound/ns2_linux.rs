//! Compound TCP `definition = "ns2_linux"`: ns-2 2.35's TCP-Linux `select_ca compound`
//! (`tcp/linux/src/tcp_compound.c`) integer for integer, with the shared TCP-Linux arithmetic
//! of `cc/linux.rs`. Where it departs from the paper's law (`compound.rs`):
//!
//! - the loss window `cwnd` and the delay window `dwnd` are whole segments, and the sending
//!   window `snd_cwnd = cwnd + dwnd`; every ACK first reconciles them with `snd_cwnd` (after
//!   a reduction: `cwnd = snd_cwnd − dwnd`, or `cwnd = snd_cwnd, dwnd = 0` if either exceeds
//!   it; `tcp_compound_cong_avoid`);
//! - `cwnd` grows by one per ACK while `cwnd <= ssthresh`, else by one per `snd_cwnd` ACKs
//!   (`snd_cwnd_cnt`), only when window-limited;
//! - once per round (`snd_una` past `beg_snd_nxt`), if the round had more than 2 RTT samples:
//!   with `old_wnd` the segments sent in the previous round, `target = (old_wnd·baseRTT << 1)
//!   / minRTT` and `diff = (old_wnd << 1) − target` (half segments, V_PARAM_SHIFT 1);
//!   `diff < γ << 1` (γ = 30): `dwnd += qroot(old_wnd³) >> 3, minus 1` when that is above 1
//!   (α = 1/8, k = 3/4, integer — no growth below old_wnd = 41); otherwise `dwnd −= diff/2`
//!   (ζ = 1), not below 0. γ is a constant (this port has no γ tuning);
//! - ssthresh = max(snd_cwnd >> 1, 2) (`tcp_reno_ssthresh` on the whole window), cwnd =
//!   ssthresh/2 during Recovery (`tcp_reno_min_cwnd`), restored to min(ssthresh, flight + 3)
//!   at its end; a timeout: ssthresh the same, snd_cwnd = 1 (dwnd is cleared by the next
//!   reconciliation);
//! - RTT samples in µs + 1 (`tcp_compound_rtt_calc`); the round's state restarts when the
//!   Open state is entered again (`tcp_compound_state` → `cvegas_enable`).

use crate::tcp::cc::{linux, AckEvent, CongestionControl, CongestionEvent, Window};

/// tcp_compound.c: V_PARAM_SHIFT, TCP_COMPOUND_ALPHA (a shift), TCP_COMPOUND_GAMMA.
const V_PARAM_SHIFT: u32 = 1;
const ALPHA_SHIFT: u32 = 3;
const GAMMA: u32 = 30;

/// tcp_compound.c `qroot` (Newton-Raphson quartic root) with `cdiv64_64`.
pub fn qroot(a: u64) -> u32 {
    let fls64 = |x: u64| 64 - x.leading_zeros();
    let mut x: u32 = 1u32 << (fls64(a) >> 2);
    loop {
        let x1 = x;
        let x3 = (x as u64) * (x as u64) * (x as u64);
        let quotient = cdiv64_64(a, x3) as u32;
        x = ((3u64 * x as u64 + quotient as u64) / 4) as u32;
        if (x1 as i64 - x as i64).abs() <= 1 {
            return x;
        }
    }
}

fn cdiv64_64(mut dividend: u64, divisor: u64) -> u64 {
    let mut d = divisor as u32;
    if divisor > 0xffff_ffff {
        let shift = 64 - (divisor >> 32).leading_zeros();
        d = (divisor >> shift) as u32;
        dividend >>= shift;
    }
    dividend / d as u64
}

pub struct CompoundLinux {
    /// `snd_cwnd` (= cwnd + dwnd after every ACK) and ssthresh.
    state: Window,
    snd_cwnd_cnt: u32,
    /// `struct compound`'s cwnd, dwnd, beg_snd_nxt, beg_snd_una, cntRTT, minRTT, baseRTT (µs).
    cwnd: u32,
    dwnd: u32,
    beg_snd_nxt: u64,
    beg_snd_una: u64,
    cnt_rtt: u32,
    min_rtt: u32,
    base_rtt: u32,
    /// `tcp_compound_init` runs at the first ACK (tcp-linux.cc `initialized_`).
    initialized: bool,
    /// Recovery ended: `cvegas_enable` at the next ACK (it needs snd_nxt).
    reenable: bool,
    loss: linux::LossState,
}

impl CompoundLinux {
    pub fn new(initial_window: f64, initial_ssthresh: f64) -> Self {
        CompoundLinux {
            state: Window::new(initial_window.floor().max(1.0), initial_ssthresh.floor()),
            snd_cwnd_cnt: 0,
            cwnd: 0,
            dwnd: 0,
            beg_snd_nxt: 0,
            beg_snd_una: 0,
            cnt_rtt: 0,
            min_rtt: 0x7fff_ffff,
            base_rtt: 0x7fff_ffff,
            initialized: false,
            reenable: false,
            loss: linux::LossState::default(),
        }
    }

    pub fn dwnd(&self) -> u32 {
        self.dwnd
    }

    /// `cvegas_enable`.
    fn enable(&mut self, snd_nxt: u64) {
        self.beg_snd_nxt = snd_nxt;
        self.cnt_rtt = 0;
        self.min_rtt = 0x7fff_ffff;
    }

    /// `tcp_compound_rtt_calc`, `usrtt` in µs.
    fn rtt_calc(&mut self, usrtt: u32) {
        let vrtt = usrtt.wrapping_add(1);
        self.base_rtt = self.base_rtt.min(vrtt);
        self.min_rtt = self.min_rtt.min(vrtt);
        self.cnt_rtt += 1;
    }

    /// The once-per-round update of `tcp_compound_cong_avoid`.
    fn round(&mut self, snd_nxt: u64) {
        let old_wnd = self.beg_snd_nxt.wrapping_sub(self.beg_snd_una) as u32;
        self.beg_snd_una = self.beg_snd_nxt;
        self.beg_snd_nxt = snd_nxt;
        if self.cnt_rtt > 2 {
            let rtt = self.min_rtt;
            let target = (old_wnd.wrapping_mul(self.base_rtt) << V_PARAM_SHIFT) / rtt;
            let diff = (old_wnd << V_PARAM_SHIFT).wrapping_sub(target);
            let dwnd = self.dwnd;
            self.dwnd = if diff < (GAMMA << V_PARAM_SHIFT) {
                let win3 = (old_wnd as u64) * (old_wnd as u64) * (old_wnd as u64);
                let x = qroot(win3) >> ALPHA_SHIFT;
                x.saturating_sub(1) + dwnd
            } else if (dwnd << V_PARAM_SHIFT) < diff {
                0
            } else {
                ((dwnd << V_PARAM_SHIFT) - diff) >> V_PARAM_SHIFT
            };
        }
        self.cnt_rtt = 0;
        self.min_rtt = 0x7fff_ffff;
    }

    /// `tcp_reno_ssthresh` on snd_cwnd.
    fn reno_ssthresh(&self) -> f64 {
        ((self.state.cwnd as u32) >> 1).max(2) as f64
    }
}

impl CongestionControl for CompoundLinux {
    crate::tcp::cc::window_state!();

    fn on_ack(&mut self, ack: &AckEvent) {
        if ack.acked_segments == 0 {
            return;
        }
        if !self.initialized {
            // tcp_compound_init: baseRTT unknown, round from snd_nxt, dwnd 0, cwnd = snd_cwnd.
            self.initialized = true;
            self.enable(ack.high_tx);
            self.cwnd = self.state.cwnd as u32;
        }
        if self.reenable {
            self.reenable = false;
            self.enable(ack.high_tx);
        }
        if let Some(rtt) = ack.rtt_sample_ns {
            self.rtt_calc(((rtt + 500) / 1000) as u32);
        }
        self.cong_avoid(ack);
        if self.loss.ends_with(ack) {
            linux::leave_reduction(&mut self.state, ack.in_flight);
            self.enable(ack.high_tx);
        }
    }

    /// tcp-linux.cc lines 489-497: ssthresh = snd_cwnd/2, snd_cwnd = ssthresh/2 in Recovery.
    fn on_loss(&mut self, _event: &CongestionEvent) {
        let ssthresh = self.reno_ssthresh();
        linux::enter_recovery(&mut self.state, &mut self.snd_cwnd_cnt, ssthresh, linux::MinCwnd::RenoHalf, &mut self.loss);
    }

    fn on_recovery_exit(&mut self, in_flight: u64) {
        linux::leave_reduction(&mut self.state, in_flight);
        self.reenable = true;
    }

    fn on_ecn(&mut self, _event: &CongestionEvent) {
        let ssthresh = self.reno_ssthresh();
        linux::on_ecn(&mut self.state, &mut self.snd_cwnd_cnt, ssthresh, &mut self.loss);
    }

    /// tcp-linux.cc `enter_loss`: ssthresh = snd_cwnd/2, snd_cwnd = 1.
    fn on_rto(&mut self, _event: &CongestionEvent) {
        let ssthresh = self.reno_ssthresh();
        linux::enter_loss(&mut self.state, &mut self.snd_cwnd_cnt, ssthresh, &mut self.loss);
    }
}

impl CompoundLinux {
    /// `tcp_compound_cong_avoid` (`ack` = snd_una in segments).
    fn cong_avoid(&mut self, ack: &AckEvent) {
        let snd_cwnd = self.state.cwnd as u32;
        if self.cwnd + self.dwnd > snd_cwnd {
            if self.cwnd > snd_cwnd || self.dwnd > snd_cwnd {
                self.cwnd = snd_cwnd;
                self.dwnd = 0;
            } else {
                self.cwnd = snd_cwnd - self.dwnd;
            }
        }
        if !linux::cwnd_limited(ack, self.state.cwnd) {
            return;
        }
        let mut inc = false;
        if f64::from(self.cwnd) <= self.state.ssthresh {
            inc = true;
        } else if self.snd_cwnd_cnt < snd_cwnd {
            self.snd_cwnd_cnt += 1;
        }
        if self.snd_cwnd_cnt >= snd_cwnd {
            inc = true;
            self.snd_cwnd_cnt = 0;
        }
        if inc {
            self.cwnd += 1;
        }
        if ack.snd_una > self.beg_snd_nxt {
            self.round(ack.high_tx);
        }
        self.state.cwnd = f64::from(self.cwnd + self.dwnd);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::cc::test_events::{self, congestion};

    const MS: u64 = 1_000_000;

    #[test]
    fn quartic_root_as_the_port_computes_it() {
        for w in [10u64, 40, 41, 100, 1000, 5000] {
            let exact = ((w * w * w) as f64).powf(0.25);
            let got = qroot(w * w * w) as f64;
            assert!((got - exact).abs() <= 1.0 + 0.01 * exact, "qroot({w}³) = {got}, exact {exact}");
        }
        // α·w^k − 1 in integers: (qroot(w³) >> 3) − 1 is 0 below w = 41 (x = 1), 1 from about 41.
        assert_eq!(qroot(40 * 40 * 40) >> 3, 1);
        assert!(qroot(50 * 50 * 50) >> 3 >= 2);
    }

    /// Drive `rounds` rounds of `w` ACKs each at RTT `rtt_ms` (base RTT `base_ms` first).
    fn drive(cc: &mut CompoundLinux, una: &mut u64, rounds: usize, rtt_ms: u64) {
        for _ in 0..rounds {
            let w = cc.window() as u64;
            for _ in 0..w {
                *una += 1;
                let high_tx = *una + cc.window() as u64;
                let in_flight = cc.window() as u64;
                cc.on_ack(&AckEvent {
                    rtt_sample_ns: Some(rtt_ms * MS),
                    snd_una: *una,
                    high_tx,
                    in_flight,
                    ..test_events::ack(1)
                });
            }
        }
    }

    #[test]
    fn delay_window_grows_only_from_41_segments_without_queueing() {
        // Small window, no queueing: dwnd stays 0 (x = qroot(w³) >> 3 = 1), cwnd + 1 per round.
        let mut cc = CompoundLinux::new(20.0, 10.0);
        let mut una = 0;
        drive(&mut cc, &mut una, 5, 100);
        assert_eq!(cc.dwnd(), 0);
        assert!((24.0..=26.0).contains(&cc.window()), "{}", cc.window());
        // Above 41 segments a round without queueing adds qroot(w³)/8 − 1 to dwnd.
        let mut cc = CompoundLinux::new(60.0, 10.0);
        let mut una = 0;
        drive(&mut cc, &mut una, 4, 100);
        assert!(cc.dwnd() >= 2, "dwnd {}", cc.dwnd());
    }

    /// cwnd 100 after three rounds at the base RTT (100 ms): the delay window has grown.
    fn grown_at_base_rtt() -> (CompoundLinux, u64) {
        let mut cc = CompoundLinux::new(100.0, 10.0);
        let mut una = 0;
        drive(&mut cc, &mut una, 3, 100);
        (cc, una)
    }

    #[test]
    fn delay_window_retreats_by_diff_over_two_when_queueing() {
        let (mut cc, mut una) = grown_at_base_rtt();
        let grown = cc.dwnd();
        assert!(grown > 0);
        // RTT 200 ms against base 100 ms: diff = old_wnd (half segments: 2·old_wnd − old_wnd),
        // far above γ: dwnd −= diff/2 → 0.
        drive(&mut cc, &mut una, 3, 200);
        assert_eq!(cc.dwnd(), 0);
    }

    #[test]
    fn reduction_on_the_whole_window_and_reconciliation() {
        let (mut cc, _) = grown_at_base_rtt();
        let win = cc.window();
        cc.on_loss(&congestion(win as u64));
        let ssthresh = ((win as u32) >> 1) as f64;
        assert_eq!(cc.ssthresh(), ssthresh);
        assert_eq!(cc.window(), (ssthresh / 2.0).floor(), "tcp_reno_min_cwnd during Recovery");
        cc.on_recovery_exit(1000);
        assert_eq!(cc.window(), ssthresh);
        cc.on_rto(&congestion(10));
        assert_eq!(cc.window(), 1.0);
    }
}
