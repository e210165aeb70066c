//! CUBIC `definition = "ns2_linux"`: ns-2 2.35's TCP-Linux `select_ca cubic`, i.e. Linux
//! 2.6.22's CUBIC 2.1 (`tcp/linux/src/tcp_cubic.c`) integer for integer, with the shared
//! TCP-Linux arithmetic of `cc/linux.rs` (whole-segment cwnd, `snd_cwnd_cnt`, window-limited
//! growth, `<=` slow start with ABC). Where it departs from RFC 9438 (`cubic.rs`):
//!
//! - growth is "one segment per `cnt` ACKs" (`bictcp_cong_avoid`, lines 295-300), `cnt` from
//!   `bictcp_update` (lines 145-247), recomputed at most every HZ/32 = 31 ms while cwnd is
//!   unchanged (lines 152-154);
//! - the curve's time is t + delay_min, the minimum RTT in ms (line 192), C = bic_scale·10/1024
//!   (`cube_rtt_scale`, line 375), K from a table-and-Newton cube root (`cubic_root`, 98-140);
//! - growth at most `max_increment` = 16 segments per delay_min/0.1 s above the origin
//!   (`min_cnt`, lines 214-221);
//! - `cnt = 50` until the first loss (`loss_cwnd == 0`, line 224-225), and again after every
//!   timeout (`bictcp_state` resets everything on TCP_CA_Loss, lines 331-335);
//! - the TCP-friendly window `tcp_cwnd` grows by one per `(cwnd·beta_scale) >> 3` ACKs
//!   (lines 228-242), beta_scale = 8(1024 + β)/3/(1024 − β) in integers (line 373);
//! - `cnt` is divided by the estimated ACK ratio `delayed_ack >> 4` (line 244): `bictcp_acked`
//!   (lines 340-351) moves it by `acked − (delayed_ack >> 4)` per ACK in the Open state, so
//!   from its initial 2 << 4 = 32 it settles at 31 with one ACK per segment, never at 16 —
//!   the window grows about 31/16 times as fast as the curve asks;
//! - ssthresh = max(cwnd·β/1024, 2) on the whole-segment cwnd, W_max with fast convergence
//!   cwnd·(1024 + β)/2048 (`bictcp_recalc_ssthresh`, lines 305-322); cwnd = ssthresh during
//!   Recovery (CUBIC has no `min_cwnd`).
//!
//! delay_min comes from the ACK's timestamp echo in jiffies (`measure_delay`, lines 251-270:
//! `(tcp_time_stamp − rcv_tsecr) << 3`, samples in the first second of an epoch skipped).

use super::CubicConfig;
use crate::tcp::cc::{linux, AckEvent, CongestionControl, CongestionEvent, Window};
use crate::error::Result;

/// tcp_cubic.c line 20: BICTCP_BETA_SCALE.
const BETA_SCALE: u32 = 1024;
/// Line 27: BICTCP_HZ, time in 2^-10 s.
const BICTCP_HZ: u32 = 10;
/// Line 67: ACK_RATIO_SHIFT.
const ACK_RATIO_SHIFT: u32 = 4;
/// Line 30: max_increment.
const MAX_INCREMENT: u32 = 16;
/// ns-linux-c.h line 40.
const HZ: u32 = 1000;

/// `struct bictcp` (tcp_cubic.c lines 55-69).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Bictcp {
    cnt: u32,
    last_max_cwnd: u32,
    loss_cwnd: u32,
    last_cwnd: u32,
    last_time: u32,
    bic_origin_point: u32,
    bic_k: u32,
    delay_min: u32,
    epoch_start: u32,
    ack_cnt: u32,
    tcp_cwnd: u32,
    delayed_ack: u32,
}

impl Bictcp {
    /// `bictcp_reset` (lines 71-85).
    fn reset() -> Self {
        Bictcp { delayed_ack: 2 << ACK_RATIO_SHIFT, ..Bictcp::default() }
    }
}

pub struct CubicLinux {
    state: Window,
    snd_cwnd_cnt: u32,
    ca: Bictcp,
    /// tcp_cubic.c `beta` (/1024), `fast_convergence`, `tcp_friendliness`.
    beta: u32,
    fast_convergence: bool,
    tcp_friendliness: bool,
    /// Precomputed in `cubictcp_register` (lines 373-394).
    beta_scale: u32,
    cube_rtt_scale: u32,
    cube_factor: u64,
    loss: linux::LossState,
}

/// ns-linux-c.c `fls`: the position of the highest set bit (0 for 0).
fn fls64(x: u64) -> u32 {
    64 - x.leading_zeros()
}

/// ns-linux-c.c `div64_64` (lines 133-149): dividend/divisor with the divisor cut to 32 bits.
fn div64_64(mut dividend: u64, divisor: u64) -> u64 {
    let high = (divisor >> 32) as u32;
    let d = if high != 0 {
        let shift = 32 - high.leading_zeros();
        dividend >>= shift;
        (divisor >> shift) as u32
    } else {
        divisor as u32
    };
    dividend / d as u64
}

/// tcp_cubic.c `cubic_root` (lines 98-140): table lookup then one Newton-Raphson step.
pub fn cubic_root(a: u64) -> u32 {
    const V: [u8; 64] = [
        0, 54, 54, 54, 118, 118, 118, 118, 123, 129, 134, 138, 143, 147, 151, 156, 157, 161, 164, 168, 170, 173, 176,
        179, 181, 185, 187, 190, 192, 194, 197, 199, 200, 202, 204, 206, 209, 211, 213, 215, 217, 219, 221, 222, 224,
        225, 227, 229, 231, 232, 234, 236, 237, 239, 240, 242, 244, 245, 246, 248, 250, 251, 252, 254,
    ];
    let b = fls64(a);
    if b < 7 {
        return (V[a as usize] as u32 + 35) >> 6;
    }
    let b = ((b * 84) >> 8) - 1;
    let shift = (a >> (b * 3)) as usize;
    let mut x = ((V[shift] as u32 + 10) << b) >> 6;
    x = 2u32.wrapping_mul(x).wrapping_add(div64_64(a, x as u64 * (x as u64 - 1)) as u32);
    ((x as u64 * 341) >> 10) as u32
}

impl CubicLinux {
    /// C and β of `config` as tcp_cubic.c's integers: bic_scale = round(C·1024/10), beta =
    /// round(β·1024) (ns2_mapping writes the same `set_ca_param`s).
    pub fn new(config: &CubicConfig, initial_window: f64, initial_ssthresh: f64, field: &str) -> Result<Self> {
        let check = crate::queue::params::checker(field);
        check(config.c.is_finite() && config.c > 0.0, "c", config.c, "a positive number (RFC 9438: 0.4)")?;
        check(config.beta > 0.0 && config.beta < 1.0, "beta", config.beta, "a number in (0, 1) (RFC 9438: 0.7)")?;
        let bic_scale = (config.c * 1024.0 / 10.0).round().max(1.0) as u32;
        let beta = (config.beta * BETA_SCALE as f64).round() as u32;
        check(beta > 0 && beta < BETA_SCALE, "beta", config.beta, "a number whose 1024ths lie in (0, 1024)")?;
        Ok(CubicLinux {
            state: Window::new(initial_window.floor().max(1.0), initial_ssthresh.floor().min(u32::MAX as f64)),
            snd_cwnd_cnt: 0,
            ca: Bictcp::reset(),
            beta,
            fast_convergence: config.fast_convergence,
            tcp_friendliness: config.reno_friendly,
            beta_scale: 8 * (BETA_SCALE + beta) / 3 / (BETA_SCALE - beta),
            cube_rtt_scale: bic_scale * 10,
            cube_factor: (1u64 << (10 + 3 * BICTCP_HZ)) / (bic_scale as u64 * 10),
            loss: linux::LossState::default(),
        })
    }

    /// `cnt` after the last `bictcp_update`: one segment per `cnt` ACKs.
    pub fn cnt(&self) -> u32 {
        self.ca.cnt
    }

    /// The ACK-ratio estimate `delayed_ack` (packets per ACK << 4).
    pub fn delayed_ack(&self) -> u32 {
        self.ca.delayed_ack
    }

    /// `measure_delay` (lines 251-270); `now_j` in jiffies.
    fn measure_delay(&mut self, ack: &AckEvent, now_j: u32) {
        let Some(rtt) = ack.rtt_sample_ns else { return };
        // rcv_tsecr = round(ts_echo · 1000) (tcp-linux.cc line 187).
        let tsecr = ((ack.now.saturating_sub(rtt) + 500_000) / 1_000_000) as u32;
        if tsecr == 0 || (now_j.wrapping_sub(self.ca.epoch_start) as i32) < HZ as i32 {
            return;
        }
        let delay = (now_j.wrapping_sub(tsecr) << 3).max(1);
        if self.ca.delay_min == 0 || self.ca.delay_min > delay {
            self.ca.delay_min = delay;
        }
    }

    /// `bictcp_update` (lines 145-247) at cwnd `cwnd`, time `now_j`.
    fn update(&mut self, cwnd: u32, now_j: u32) {
        let ca = &mut self.ca;
        ca.ack_cnt = ca.ack_cnt.wrapping_add(1);
        if ca.last_cwnd == cwnd && (now_j.wrapping_sub(ca.last_time) as i32) <= (HZ / 32) as i32 {
            return;
        }
        ca.last_cwnd = cwnd;
        ca.last_time = now_j;
        if ca.epoch_start == 0 {
            ca.epoch_start = now_j;
            ca.ack_cnt = 1;
            ca.tcp_cwnd = cwnd;
            if ca.last_max_cwnd <= cwnd {
                ca.bic_k = 0;
                ca.bic_origin_point = cwnd;
            } else {
                ca.bic_k = cubic_root(self.cube_factor.wrapping_mul((ca.last_max_cwnd - cwnd) as u64));
                ca.bic_origin_point = ca.last_max_cwnd;
            }
        }
        // Line 192: t = ((tcp_time_stamp + (delay_min >> 3) − epoch_start) << BICTCP_HZ) / HZ.
        let t = (now_j.wrapping_add(ca.delay_min >> 3).wrapping_sub(ca.epoch_start) << BICTCP_HZ) / HZ;
        let offs = ca.bic_k.abs_diff(t) as u64;
        // Line 201: delta = (cube_rtt_scale · offs³) >> (10 + 3·BICTCP_HZ), in 64 bits.
        let delta = ((self.cube_rtt_scale as u64).wrapping_mul(offs).wrapping_mul(offs).wrapping_mul(offs)
            >> (10 + 3 * BICTCP_HZ)) as u32;
        let bic_target = if t < ca.bic_k {
            ca.bic_origin_point.wrapping_sub(delta)
        } else {
            ca.bic_origin_point.wrapping_add(delta)
        };
        ca.cnt = if bic_target > cwnd { cwnd / (bic_target - cwnd) } else { 100 * cwnd };
        if ca.delay_min > 0 {
            // Lines 214-221: max increment = Smax · rtt / 0.1 s.
            let min_cnt = (cwnd * HZ * 8) / (10 * MAX_INCREMENT * ca.delay_min);
            if ca.cnt < min_cnt && t >= ca.bic_k {
                ca.cnt = min_cnt;
            }
        }
        if ca.loss_cwnd == 0 {
            // Line 224: "slow start and low utilization".
            ca.cnt = 50;
        }
        if self.tcp_friendliness {
            // Lines 228-242.
            let delta = (cwnd * self.beta_scale) >> 3;
            while ca.ack_cnt > delta {
                ca.ack_cnt -= delta;
                ca.tcp_cwnd += 1;
            }
            if ca.tcp_cwnd > cwnd {
                let max_cnt = cwnd / (ca.tcp_cwnd - cwnd);
                if ca.cnt > max_cnt {
                    ca.cnt = max_cnt;
                }
            }
        }
        ca.cnt = (ca.cnt << ACK_RATIO_SHIFT) / ca.delayed_ack;
        if ca.cnt == 0 {
            ca.cnt = 1;
        }
    }

    /// `bictcp_recalc_ssthresh` (lines 305-322) on the whole-segment cwnd.
    fn recalc_ssthresh(&mut self) -> f64 {
        let cwnd = self.state.cwnd as u32;
        self.ca.epoch_start = 0;
        self.ca.last_max_cwnd = if cwnd < self.ca.last_max_cwnd && self.fast_convergence {
            (cwnd * (BETA_SCALE + self.beta)) / (2 * BETA_SCALE)
        } else {
            cwnd
        };
        self.ca.loss_cwnd = cwnd;
        ((cwnd * self.beta) / BETA_SCALE).max(2) as f64
    }
}

impl CongestionControl for CubicLinux {
    crate::tcp::cc::window_state!();

    /// tcp-linux.cc `recv`: `pkts_acked` (`bictcp_acked`, Open state only), then
    /// `bictcp_cong_avoid` (lines 272-303), then the end of the Loss state.
    fn on_ack(&mut self, ack: &AckEvent) {
        if ack.acked_segments == 0 {
            return;
        }
        let now_j = linux::jiffies(ack.now);
        if !self.loss.active() {
            // bictcp_acked: delayed_ack += cnt − (delayed_ack >> 4), in u32.
            let cnt = (ack.acked_segments as u32).wrapping_sub(self.ca.delayed_ack >> ACK_RATIO_SHIFT);
            self.ca.delayed_ack = self.ca.delayed_ack.wrapping_add(cnt);
            // bictcp_cong_avoid's measure_delay runs for ACKs of the Open state (`data_acked`).
            self.measure_delay(ack, now_j);
        }
        if linux::cwnd_limited(ack, self.state.cwnd) {
            if self.state.cwnd <= self.state.ssthresh {
                linux::slow_start(&mut self.state, &mut self.snd_cwnd_cnt);
            } else {
                let cwnd = self.state.cwnd as u32;
                self.update(cwnd, now_j);
                if self.snd_cwnd_cnt >= self.ca.cnt {
                    self.state.cwnd += 1.0;
                    self.snd_cwnd_cnt = 0;
                } else {
                    self.snd_cwnd_cnt += 1;
                }
            }
        }
        if self.loss.ends_with(ack) {
            linux::leave_reduction(&mut self.state, ack.in_flight);
        }
    }

    /// tcp-linux.cc lines 489-497: ssthresh from `bictcp_recalc_ssthresh`, cwnd = ssthresh.
    fn on_loss(&mut self, _event: &CongestionEvent) {
        let ssthresh = self.recalc_ssthresh();
        linux::enter_recovery(&mut self.state, &mut self.snd_cwnd_cnt, ssthresh, linux::MinCwnd::None, &mut self.loss);
    }

    fn on_recovery_exit(&mut self, in_flight: u64) {
        linux::leave_reduction(&mut self.state, in_flight);
    }

    /// tcp-linux.cc `enter_loss`: ssthresh from the hook, cwnd = 1, then `bictcp_state(Loss)`
    /// resets the whole CUBIC state (W_max and loss_cwnd included).
    fn on_rto(&mut self, _event: &CongestionEvent) {
        let ssthresh = self.recalc_ssthresh();
        linux::enter_loss(&mut self.state, &mut self.snd_cwnd_cnt, ssthresh, &mut self.loss);
        self.ca = Bictcp::reset();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::cc::test_events::{self, congestion};

    const MS: u64 = 1_000_000;

    /// Congestion avoidance at cwnd 100 (ssthresh 50) after `acks` ACKs of a full window, one
    /// per nanosecond from t = 10 µs: the state and the next instant.
    fn in_avoidance_at_100(acks: u64) -> (CubicLinux, crate::time::Time) {
        let mut cc = cubic(100.0, 50.0);
        let mut now = 10_000;
        for _ in 0..acks {
            cc.on_ack(&ack(now, 100.0));
            now += 1;
        }
        (cc, now)
    }

    fn cubic(cwnd: f64, ssthresh: f64) -> CubicLinux {
        CubicLinux::new(&CubicConfig::default(), cwnd, ssthresh, "cc").unwrap()
    }

    /// One ACK of one segment at `now_ms` with a 20-ms RTT sample, cwnd-limited.
    fn ack(now_ms: u64, cwnd: f64) -> AckEvent {
        AckEvent {
            now: now_ms * MS,
            rtt_sample_ns: Some(20 * MS),
            in_flight: cwnd as u64,
            high_tx: 1_000_000,
            ..test_events::ack(1)
        }
    }

    #[test]
    fn cube_root_as_the_kernel_computes_it() {
        // Exact cubes and the table's small values (tcp_cubic.c cubic_root, avg error 0.2 %).
        assert_eq!(cubic_root(0), 0);
        assert_eq!(cubic_root(1), 1);
        assert_eq!(cubic_root(27), 3);
        for x in [1_000u64, 1 << 30, 123_456_789, 1 << 45] {
            let exact = (x as f64).cbrt();
            let got = cubic_root(x) as f64;
            assert!((got - exact).abs() <= 0.01 * exact + 1.0, "cbrt({x}) = {got}, exact {exact}");
        }
    }

    #[test]
    fn register_time_constants() {
        // β 717/1024 (aqmlab's 0.7): beta_scale = 8·1741/3/307 = 15; bic_scale 41 → 410.
        let cc = cubic(10.0, 5.0);
        assert_eq!((cc.beta, cc.beta_scale, cc.cube_rtt_scale), (717, 15, 410));
        assert_eq!(cc.cube_factor, (1u64 << 40) / 410);
        // Linux's default β 819: beta_scale 23.
        let linux = CubicLinux::new(&CubicConfig { beta: 0.8, ..CubicConfig::default() }, 2.0, 1e9, "cc").unwrap();
        assert_eq!((linux.beta, linux.beta_scale), (819, 23));
    }

    #[test]
    fn ssthresh_and_fast_convergence_in_integers() {
        let mut cc = cubic(100.0, 1e9);
        cc.on_loss(&congestion(100));
        // 100·717/1024 = 70.02 → 70; W_max = 100.
        assert_eq!((cc.window(), cc.ssthresh()), (70.0, 70.0));
        assert_eq!((cc.ca.last_max_cwnd, cc.ca.loss_cwnd), (100, 100));
        // A loss below W_max: W_max = 70·1741/2048 = 59 (59.5 truncated).
        cc.on_loss(&congestion(70));
        assert_eq!(cc.ca.last_max_cwnd, 59);
        assert_eq!(cc.window(), 49.0, "70·717/1024 = 49.01");
        // Small windows: 6·717/1024 = 4.2 → 4; never below 2.
        let mut small = cubic(6.0, 1e9);
        small.on_loss(&congestion(6));
        assert_eq!(small.window(), 4.0);
        let mut two = cubic(2.0, 1e9);
        two.on_loss(&congestion(2));
        assert_eq!(two.window(), 2.0);
    }

    #[test]
    fn ack_ratio_estimate_settles_at_31_with_one_ack_per_segment() {
        let mut cc = cubic(10.0, 5.0);
        assert_eq!(cc.delayed_ack(), 32);
        for k in 0..100 {
            cc.on_ack(&ack(1000 + k, 10.0));
        }
        // delayed_ack += 1 − (delayed_ack >> 4): 32 → 31, then 1 − 1 = 0 for ever.
        assert_eq!(cc.delayed_ack(), 31);
        // An ACK of 5 segments moves it by 5 − 1.
        cc.on_ack(&AckEvent { acked_segments: 5, delivered_segments: 5, ..ack(2000, 10.0) });
        assert_eq!(cc.delayed_ack(), 35);
    }

    #[test]
    fn cnt_fifty_before_the_first_loss_halved_by_the_ack_ratio() {
        // Congestion avoidance before any loss: cnt = 50, then ·16/31 = 25; one segment per
        // 26 ACKs (the counter reaches cnt, then the next ACK adds the segment).
        let (mut cc, mut now) = in_avoidance_at_100(40);
        assert_eq!(cc.delayed_ack(), 31);
        let start = cc.window();
        let mut acks = 0;
        while cc.window() == start {
            cc.on_ack(&ack(now, cc.window()));
            now += 1;
            acks += 1;
        }
        assert_eq!(cc.cnt(), 50 * 16 / 31);
        assert!(acks <= 26, "{acks} ACKs for one segment");
    }

    #[test]
    fn concave_growth_toward_w_max_after_a_loss() {
        // Loss at 100: ssthresh 70, W_max 100, K = cbrt(cube_factor·30) ≈ 1024·cbrt(30/0.4)
        // = 4.22 s in 1/1024 s. Right after the loss the target is far above: cnt small.
        let (mut cc, now) = in_avoidance_at_100(20);
        assert_eq!(cc.window(), 100.0);
        cc.on_loss(&congestion(100));
        // ssthresh = 70 = cwnd: the first ACK is slow start (cwnd <= ssthresh), then CUBIC.
        cc.on_ack(&ack(now, 70.0));
        assert_eq!(cc.window(), 71.0);
        cc.on_ack(&ack(now + 1, 71.0));
        let k_seconds = cc.ca.bic_k as f64 / 1024.0;
        assert!((k_seconds - (29.0_f64 / 0.4).cbrt()).abs() < 0.05, "K = {k_seconds} s (W_max − cwnd = 29)");
        assert_eq!(cc.ca.bic_origin_point, 100);
        // One second on, the curve W(t) = 0.4 (t − K)³ + 100 is about 88: far above, so cnt
        // is small; the TCP-friendly window (≈ 71 + 0.53/RTT) does not lower it.
        let mut t = now + 2;
        while t < now + 1000 {
            cc.on_ack(&ack(t, cc.window()));
            t += 1;
        }
        let w = cc.window();
        assert!(w > 80.0 && w < 100.0, "cwnd {w} after 1 s of 1-ms ACKs");
    }

    #[test]
    fn timeout_resets_the_cubic_state_and_the_loss_state_ends_with_moderation() {
        let mut cc = cubic(100.0, 1e9);
        cc.on_loss(&congestion(100));
        cc.on_rto(&congestion(70));
        assert_eq!((cc.window(), cc.ssthresh()), (1.0, 49.0));
        assert_eq!(cc.ca, Bictcp::reset(), "bictcp_state(TCP_CA_Loss) → bictcp_reset");
        let at = |snd_una, in_flight| AckEvent { snd_una, high_tx: 30, in_flight, ..ack(20_000, 1.0) };
        cc.on_ack(&at(10, 1));
        assert_eq!(cc.window(), 2.0);
        cc.on_ack(&at(30, 2));
        assert_eq!(cc.window(), 5.0, "min(ssthresh 49, flight 2 + 3)");
    }

    #[test]
    fn window_limited_only() {
        let mut cc = cubic(10.0, 5.0);
        for k in 0..200 {
            cc.on_ack(&AckEvent { in_flight: 5, ..ack(1000 + k, 10.0) });
        }
        assert_eq!(cc.window(), 10.0);
    }
}
