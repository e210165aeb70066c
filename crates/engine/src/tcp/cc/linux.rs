//! Linux 2.6.22's window arithmetic as ns-2 2.35's TCP-Linux runs it (`tcp/tcp-linux.cc`,
//! `tcp/linux/src/tcp_cong.c`, `tcp/linux/ns-linux-c.h`, `tcp/linux/ns-linux-param.c`): the
//! part every `definition = "ns2_linux"` law shares.
//!
//! - cwnd and ssthresh are whole segments (`u32 snd_cwnd`, `snd_ssthresh`); growth is counted
//!   in `snd_cwnd_cnt`, one call of the law's `cong_avoid` per ACK that acknowledges new data.
//! - `cong_avoid` does nothing unless the flow is window-limited: ns-linux-c.h line 31,
//!   `tcp_is_cwnd_limited(sk, in_flight) ((in_flight) >= (sk)->snd_cwnd)`, with tcp-linux.cc
//!   `recv`'s `prior_in_flight` (line 349, before the ACK is processed).
//! - Slow start while `snd_cwnd <= snd_ssthresh` (`<=`, so the first ACK after a reduction to
//!   ssthresh still adds one): tcp_cong.c `tcp_slow_start` with ns-2's `sysctl_tcp_abc = 1`
//!   (ns-linux-param.c line 20): one segment per ACK that acknowledges at least one MSS.
//! - Entering Recovery (tcp-linux.cc `tcp_fastretrans_alert`, lines 489-499): ssthresh = the
//!   law's `ssthresh` hook on `snd_cwnd`, `snd_cwnd_cnt = 0`, and cwnd = the law's `min_cwnd`
//!   hook if it has one (Scalable, HighSpeed, Compound: tcp_cong.c `tcp_reno_min_cwnd`,
//!   ssthresh/2), else ssthresh.
//! - Leaving Recovery or Loss (`highest_ack_ >= recover_`, lines 459-471): if cwnd <
//!   ssthresh, cwnd = ssthresh and then `tcp_moderate_cwnd` (lines 443-446): cwnd =
//!   min(cwnd, packets_in_flight() + `tcp_max_burst` (3, ns-linux-param.c line 24)), the
//!   scoreboard cleared first, so packets_in_flight() is snd_nxt − snd_una.
//! - A timeout (`enter_loss`, lines 517-533): ssthresh = the hook, cwnd = 1, `snd_cwnd_cnt = 0`,
//!   state Loss until the ACK of everything sent before it (`recover_ = maxseq_`).

use super::{AckEvent, Window};

/// tcp-linux.cc `tcp_moderate_cwnd`: `tcp_max_burst` (ns-linux-param.c line 24: 3).
pub const MAX_BURST: u64 = 3;

/// Jiffies at `now` (ns): tcp-linux.cc line 319, `tcp_time_stamp = trunc(now · JIFFY_RATIO)`,
/// JIFFY_RATIO = HZ = 1000 (ns-linux-util.h line 29, ns-linux-c.h line 40).
pub fn jiffies(now_ns: u64) -> u32 {
    (now_ns / 1_000_000) as u32
}

/// `tcp_is_cwnd_limited(sk, prior_in_flight)` (ns-linux-c.h line 31): the flight before this
/// ACK (snd_nxt − snd_una after it, plus what it acknowledged) at least cwnd. ns-2's
/// `packets_in_flight()` also leaves SACKed and lost segments out; the law sees no scoreboard.
pub fn cwnd_limited(ack: &AckEvent, cwnd: f64) -> bool {
    (ack.in_flight + ack.acked_segments) as f64 >= cwnd
}

/// tcp_cong.c `tcp_slow_start` with `sysctl_tcp_abc = 1` and `sysctl_tcp_max_ssthresh = 0`:
/// `snd_cwnd_cnt += snd_cwnd`, then one segment per `snd_cwnd` counted — one per ACK.
pub fn slow_start(state: &mut Window, snd_cwnd_cnt: &mut u32) {
    let cwnd = state.cwnd as u32;
    *snd_cwnd_cnt += cwnd;
    let mut cwnd = cwnd;
    while *snd_cwnd_cnt >= cwnd {
        *snd_cwnd_cnt -= cwnd;
        cwnd += 1;
    }
    state.cwnd = cwnd as f64;
}

/// tcp-linux.cc lines 459-471: leaving Recovery or Loss with cwnd below ssthresh, cwnd =
/// min(ssthresh, `in_flight` + tcp_max_burst) (`tcp_moderate_cwnd`).
pub fn leave_reduction(state: &mut Window, in_flight: u64) {
    if state.cwnd < state.ssthresh {
        state.cwnd = state.ssthresh.min((in_flight + MAX_BURST) as f64);
    }
}

/// How a law's window starts Recovery (tcp-linux.cc lines 489-497: `snd_ssthresh =
/// ssthresh(sk)`, `snd_cwnd_cnt = 0`, `snd_cwnd = min_cwnd(sk)` or ssthresh).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MinCwnd {
    /// `.min_cwnd = tcp_reno_min_cwnd` (Compound, HighSpeed, Scalable): ssthresh/2.
    RenoHalf,
    /// No `min_cwnd` (CUBIC): ssthresh.
    None,
}

/// Entering Recovery on a loss with the hook's `ssthresh`. Recovery replaces a Loss state still
/// open (tcp-linux.cc line 479, `case TCP_CA_Loss: //let it through`, then line 507
/// `tcp_set_ca_state(TCP_CA_Recovery)`): its end is then Recovery's (`on_recovery_exit`).
pub fn enter_recovery(
    state: &mut Window,
    snd_cwnd_cnt: &mut u32,
    ssthresh: f64,
    min_cwnd: MinCwnd,
    loss: &mut LossState,
) {
    loss.leave();
    state.ssthresh = ssthresh;
    state.cwnd = match min_cwnd {
        MinCwnd::RenoHalf => (ssthresh / 2.0).floor(),
        MinCwnd::None => ssthresh,
    };
    *snd_cwnd_cnt = 0;
}

/// An ECN echo: TCP-Linux enters Recovery as on a loss (FLAG_ECE, lines 483-503); aqmlab's
/// ECN response has no recovery end to restore ssthresh at, so cwnd = ssthresh at once (the
/// window Recovery ends with).
pub fn on_ecn(state: &mut Window, snd_cwnd_cnt: &mut u32, ssthresh: f64, loss: &mut LossState) {
    enter_recovery(state, snd_cwnd_cnt, ssthresh, MinCwnd::None, loss);
}

/// A timeout (`enter_loss`, lines 517-533): ssthresh from the hook, cwnd = 1, the Loss state.
pub fn enter_loss(state: &mut Window, snd_cwnd_cnt: &mut u32, ssthresh: f64, loss: &mut LossState) {
    state.ssthresh = ssthresh;
    state.cwnd = 1.0;
    *snd_cwnd_cnt = 0;
    loss.enter();
}

/// TCP-Linux's Loss state after a timeout (tcp-linux.cc `enter_loss`: `recover_ = maxseq_`;
/// left in `tcp_fastretrans_alert` once `highest_ack_ >= recover_`). The law learns the
/// highest segment sent from the first ACK after the timeout (nothing new is sent before
/// everything outstanding is resent, so it is the one at the timeout).
#[derive(Clone, Copy, Debug, Default)]
pub struct LossState {
    /// In Loss; `Some(recover)` once the first ACK told the highest segment sent.
    active: bool,
    recover: Option<u64>,
}

impl LossState {
    pub fn enter(&mut self) {
        *self = LossState { active: true, recover: None };
    }

    pub fn active(&self) -> bool {
        self.active
    }

    /// Recovery replaced the Loss state (`enter_recovery`).
    pub fn leave(&mut self) {
        *self = LossState::default();
    }

    /// After the law's growth on this ACK: true when it ends the Loss state (the caller then
    /// applies `leave_reduction`).
    pub fn ends_with(&mut self, ack: &AckEvent) -> bool {
        if !self.active {
            return false;
        }
        let recover = *self.recover.get_or_insert(ack.high_tx.saturating_sub(1));
        // snd_una is one past highest_ack_: highest_ack_ >= recover_.
        if ack.snd_una > recover {
            self.active = false;
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::cc::test_events;

    #[test]
    fn slow_start_adds_one_segment_per_ack_with_abc() {
        let mut state = Window::new(4.0, 10.0);
        let mut cnt = 0;
        slow_start(&mut state, &mut cnt);
        assert_eq!((state.cwnd, cnt), (5.0, 0));
        // A leftover count from congestion avoidance is kept modulo cwnd.
        let mut cnt = 3;
        slow_start(&mut state, &mut cnt);
        assert_eq!((state.cwnd, cnt), (6.0, 3));
    }

    #[test]
    fn window_limited_counts_the_flight_before_the_ack() {
        let ack = AckEvent { in_flight: 9, ..test_events::ack(1) };
        assert!(cwnd_limited(&ack, 10.0));
        assert!(!cwnd_limited(&ack, 11.0));
    }

    #[test]
    fn leaving_a_reduction_moderates_to_the_flight_plus_three() {
        let mut state = Window::new(5.0, 10.0);
        leave_reduction(&mut state, 4);
        assert_eq!(state.cwnd, 7.0, "min(ssthresh 10, 4 + 3)");
        let mut state = Window::new(5.0, 10.0);
        leave_reduction(&mut state, 20);
        assert_eq!(state.cwnd, 10.0);
        let mut state = Window::new(12.0, 10.0);
        leave_reduction(&mut state, 0);
        assert_eq!(state.cwnd, 12.0, "only below ssthresh");
    }

    #[test]
    fn loss_state_ends_when_everything_sent_before_it_is_acknowledged() {
        let mut loss = LossState::default();
        let ack = |snd_una, high_tx| AckEvent { snd_una, high_tx, ..test_events::ack(1) };
        assert!(!loss.ends_with(&ack(5, 20)));
        loss.enter();
        assert!(!loss.ends_with(&ack(5, 20)), "recover_ = 19");
        assert!(!loss.ends_with(&ack(19, 22)));
        assert!(loss.ends_with(&ack(20, 22)));
        assert!(!loss.active());
    }

    /// A loss marked in the Loss state starts Recovery (tcp-linux.cc line 479, "let it
    /// through"): the Loss state is over, and no later ACK ends it a second time.
    #[test]
    fn recovery_replaces_the_loss_state() {
        let mut loss = LossState::default();
        let ack = |snd_una, high_tx| AckEvent { snd_una, high_tx, ..test_events::ack(1) };
        let mut state = Window::new(8.0, 20.0);
        let mut cnt = 0;
        enter_loss(&mut state, &mut cnt, 10.0, &mut loss);
        assert!(!loss.ends_with(&ack(5, 20)));
        enter_recovery(&mut state, &mut cnt, 2.0, MinCwnd::RenoHalf, &mut loss);
        assert!(!loss.active());
        assert!(!loss.ends_with(&ack(20, 22)), "the Loss state ended with the Recovery");
        assert_eq!((state.cwnd, state.ssthresh), (1.0, 2.0));
    }

    #[test]
    fn jiffies_truncate_to_milliseconds() {
        assert_eq!(jiffies(1_999_999), 1);
        assert_eq!(jiffies(2_000_000), 2);
    }
}
