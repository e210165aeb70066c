//! HighSpeed TCP `definition = "ns2_linux"`: ns-2 2.35's TCP-Linux `select_ca highspeed`
//! (`tcp/linux/src/tcp_highspeed.c`, Linux 2.6.22) with the shared TCP-Linux arithmetic of
//! `cc/linux.rs`. Where it departs from `linux_table` (`highspeed.rs`):
//!
//! - the row index `ai` moves only in congestion avoidance, one ACK at a time
//!   (`hstcp_cong_avoid`: `vals[ai-1].cwnd < snd_cwnd <= vals[ai].cwnd`), and the decrease
//!   uses the row last reached (`hstcp_ssthresh` reads `ca->ai`);
//! - a(w) = ai + 1 counted in `snd_cwnd_cnt` (one segment once it reaches cwnd);
//! - b(w) = md/256 of Linux's table (`hstcp_aimd_vals`, "fixed-point MD scaled <<8"), ssthresh
//!   = max(cwnd − (cwnd·md >> 8), 2) on the whole-segment cwnd;
//! - cwnd = ssthresh/2 during Recovery (`.min_cwnd = tcp_reno_min_cwnd`), restored at its end
//!   to min(ssthresh, flight + 3) (`cc/linux.rs`).

use super::RFC3649_TABLE;
use crate::tcp::cc::{linux, AckEvent, CongestionControl, CongestionEvent, Window};

/// `hstcp_aimd_vals[].md` (tcp_highspeed.c lines 18-92): b(w)·256 for the windows of
/// `RFC3649_TABLE`'s first 72 rows (38 … 89053).
pub const LINUX_MD: [u32; 72] = [
    128, 112, 104, 98, 93, 89, 86, 83, 81, 78, 76, 74, 72, 71, 69, 68, 66, 65, 64, 62, 61, 60, 59, 58, 57, 56, 55, 54,
    53, 52, 52, 51, 50, 49, 48, 48, 47, 46, 45, 45, 44, 43, 43, 42, 41, 41, 40, 39, 39, 38, 38, 37, 36, 36, 35, 35, 34,
    33, 33, 32, 32, 31, 30, 30, 29, 28, 28, 27, 26, 26, 25, 24,
];

pub struct HighSpeedLinux {
    state: Window,
    snd_cwnd_cnt: u32,
    /// `struct hstcp`'s `ai`: the table row of the window (0 at `hstcp_init`).
    ai: usize,
    loss: linux::LossState,
}

impl HighSpeedLinux {
    pub fn new(initial_window: f64, initial_ssthresh: f64) -> Self {
        HighSpeedLinux {
            state: Window::new(initial_window.floor().max(1.0), initial_ssthresh.floor()),
            snd_cwnd_cnt: 0,
            ai: 0,
            loss: linux::LossState::default(),
        }
    }

    /// The table row last reached (a(w) = row + 1).
    pub fn row(&self) -> usize {
        self.ai
    }

    fn row_window(row: usize) -> f64 {
        f64::from(RFC3649_TABLE[row].0)
    }

    /// `hstcp_ssthresh`.
    fn linux_ssthresh(&self) -> f64 {
        let cwnd = self.state.cwnd as u64;
        (cwnd - ((cwnd * u64::from(LINUX_MD[self.ai])) >> 8)).max(2) as f64
    }
}

impl CongestionControl for HighSpeedLinux {
    crate::tcp::cc::window_state!();

    /// `hstcp_cong_avoid`, then the end of the Loss state.
    fn on_ack(&mut self, ack: &AckEvent) {
        if ack.acked_segments == 0 {
            return;
        }
        if linux::cwnd_limited(ack, self.state.cwnd) {
            if self.state.cwnd <= self.state.ssthresh {
                linux::slow_start(&mut self.state, &mut self.snd_cwnd_cnt);
            } else {
                let cwnd = self.state.cwnd;
                if cwnd > Self::row_window(self.ai) {
                    while cwnd > Self::row_window(self.ai) && self.ai < LINUX_MD.len() - 1 {
                        self.ai += 1;
                    }
                } else if self.ai > 0 && cwnd <= Self::row_window(self.ai - 1) {
                    while self.ai > 0 && cwnd <= Self::row_window(self.ai - 1) {
                        self.ai -= 1;
                    }
                }
                // "cwnd = cwnd + a(w) / cwnd": snd_cwnd_cnt += ai + 1.
                self.snd_cwnd_cnt += self.ai as u32 + 1;
                if self.snd_cwnd_cnt as f64 >= cwnd {
                    self.snd_cwnd_cnt -= cwnd as u32;
                    self.state.cwnd += 1.0;
                }
            }
        }
        if self.loss.ends_with(ack) {
            linux::leave_reduction(&mut self.state, ack.in_flight);
        }
    }

    /// tcp-linux.cc lines 489-497: ssthresh from `hstcp_ssthresh`, cwnd = ssthresh/2.
    fn on_loss(&mut self, _event: &CongestionEvent) {
        let ssthresh = self.linux_ssthresh();
        linux::enter_recovery(&mut self.state, &mut self.snd_cwnd_cnt, ssthresh, linux::MinCwnd::RenoHalf, &mut self.loss);
    }

    fn on_recovery_exit(&mut self, in_flight: u64) {
        linux::leave_reduction(&mut self.state, in_flight);
    }

    fn on_ecn(&mut self, _event: &CongestionEvent) {
        let ssthresh = self.linux_ssthresh();
        linux::on_ecn(&mut self.state, &mut self.snd_cwnd_cnt, ssthresh, &mut self.loss);
    }

    /// tcp-linux.cc `enter_loss`: ssthresh from the hook, cwnd = 1 (`ai` is kept).
    fn on_rto(&mut self, _event: &CongestionEvent) {
        let ssthresh = self.linux_ssthresh();
        linux::enter_loss(&mut self.state, &mut self.snd_cwnd_cnt, ssthresh, &mut self.loss);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::cc::test_events::{self, congestion};

    fn ack(in_flight: u64) -> AckEvent {
        AckEvent { in_flight, high_tx: 1_000_000, ..test_events::ack(1) }
    }

    #[test]
    fn linux_md_is_appendix_b_scaled_by_256() {
        // Linux's md/256 is RFC 3649 Appendix B's b(w) (printed to two decimals) within 0.01.
        for (row, md) in LINUX_MD.iter().enumerate() {
            let b = RFC3649_TABLE[row].2;
            assert!((f64::from(*md) / 256.0 - b).abs() <= 0.01, "row {row}: {md}/256 vs {b}");
        }
    }

    #[test]
    fn reno_below_38_with_whole_segment_halving_and_min_cwnd() {
        // Row 0 (w <= 38): a = 1, one segment per cwnd ACKs; md 128: ssthresh = cwnd − cwnd/2.
        let mut cc = HighSpeedLinux::new(30.0, 10.0);
        for _ in 0..29 {
            cc.on_ack(&ack(30));
        }
        assert_eq!(cc.window(), 30.0);
        cc.on_ack(&ack(30));
        assert_eq!(cc.window(), 31.0);
        cc.on_loss(&congestion(31));
        // 31 − (31·128 >> 8) = 31 − 15 = 16; cwnd during Recovery 16/2 = 8.
        assert_eq!((cc.ssthresh(), cc.window()), (16.0, 8.0));
        cc.on_recovery_exit(6);
        assert_eq!(cc.window(), 9.0, "min(16, 6 + 3)");
    }

    #[test]
    fn row_moves_in_congestion_avoidance_and_sets_the_decrease() {
        let mut cc = HighSpeedLinux::new(120.0, 10.0);
        cc.on_ack(&ack(120));
        assert_eq!(cc.row(), 2, "118 < 120 <= 221");
        // a = 3: snd_cwnd_cnt += 3 per ACK, one segment per 40 ACKs at 120.
        for _ in 0..39 {
            cc.on_ack(&ack(120));
        }
        assert_eq!(cc.window(), 121.0);
        cc.on_loss(&congestion(121));
        // md 104: 121 − (121·104 >> 8) = 121 − 49 = 72.
        assert_eq!(cc.ssthresh(), 72.0);
        // After a timeout the row is kept until congestion avoidance moves it.
        let mut cc = HighSpeedLinux::new(120.0, 10.0);
        cc.on_ack(&ack(120));
        cc.on_rto(&congestion(120));
        assert_eq!((cc.window(), cc.ssthresh(), cc.row()), (1.0, 72.0, 2));
    }

    #[test]
    fn window_limited_only() {
        let mut cc = HighSpeedLinux::new(30.0, 10.0);
        for _ in 0..100 {
            cc.on_ack(&ack(20));
        }
        assert_eq!(cc.window(), 30.0);
    }
}
