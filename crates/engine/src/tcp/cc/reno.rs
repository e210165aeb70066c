//! Reno window law (RFC 5681): slow start, congestion avoidance, halving on loss.
//! Loss recovery itself (NewReno, RFC 6582, or Tahoe) is done by the shared sender.

use super::{AckEvent, CongestionControl, CongestionEvent};

pub struct Reno {
    cwnd: f64,
    ssthresh: f64,
}

impl Reno {
    pub fn new(initial_window: f64, initial_ssthresh: f64) -> Self {
        Reno { cwnd: initial_window, ssthresh: initial_ssthresh }
    }

    /// An early (delay-based) reduction of Reno-family variants such as Cx-TCP and PERT:
    /// cwnd and ssthresh both become `window`, so a reduction in slow start ends it.
    pub fn reduce_to(&mut self, window: f64) {
        self.cwnd = window;
        self.ssthresh = window;
    }
}

/// ssthresh = max(FlightSize / 2, 2 * SMSS): RFC 5681 Section 3.1, eq. (4).
pub fn halve_flight(in_flight: u64) -> f64 {
    (in_flight as f64 / 2.0).max(2.0)
}

impl CongestionControl for Reno {
    fn window(&self) -> f64 {
        self.cwnd
    }

    fn ssthresh(&self) -> f64 {
        self.ssthresh
    }

    fn on_ack(&mut self, ack: &AckEvent) {
        if ack.acked_segments == 0 {
            return;
        }
        if self.cwnd < self.ssthresh {
            // RFC 5681 Section 3.1: slow start increments cwnd by at most SMSS per ACK that
            // acknowledges new data (a cumulative ACK after a repaired hole is still one ACK).
            self.cwnd += 1.0;
        } else {
            // RFC 5681 Section 3.1 eq. (3): congestion avoidance, cwnd += SMSS*SMSS/cwnd per
            // ACK (ns-2's `opencwnd`: 1/cwnd per new ACK).
            self.cwnd += 1.0 / self.cwnd;
        }
    }

    fn on_loss(&mut self, event: &CongestionEvent) {
        // RFC 5681 Section 3.2 steps 2-3 / RFC 6582 Section 3.2 step 2: ssthresh = FlightSize/2;
        // the window after recovery is ssthresh (RFC 6582 Section 3.2 step 3, full ACK, option 1).
        self.ssthresh = halve_flight(event.in_flight);
        self.cwnd = self.ssthresh;
    }

    fn on_rto(&mut self, event: &CongestionEvent) {
        // RFC 5681 Section 3.1 eq. (4) and "LW": after a timeout cwnd = 1 segment.
        self.ssthresh = halve_flight(event.in_flight);
        self.cwnd = 1.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ack(n: u64) -> AckEvent {
        AckEvent {
            now: 0,
            acked_segments: n,
            delivered_segments: n,
            rtt_sample_ns: None,
            min_rtt_ns: 0,
            srtt_ns: 0,
            in_flight: 0,
            ece: false,
            snd_una: 0,
            high_tx: 0,
        }
    }

    fn congestion(in_flight: u64) -> CongestionEvent {
        CongestionEvent { now: 0, in_flight, srtt_ns: 0, min_rtt_ns: 0 }
    }

    #[test]
    fn slow_start_doubles_per_round_trip() {
        let mut reno = Reno::new(2.0, 1e9);
        // one round: 2 ACKs of one segment -> cwnd 4; next round 4 ACKs -> 8
        for _ in 0..2 {
            reno.on_ack(&ack(1));
        }
        assert_eq!(reno.window(), 4.0);
        for _ in 0..4 {
            reno.on_ack(&ack(1));
        }
        assert_eq!(reno.window(), 8.0);
        // RFC 5681 Section 3.1: a cumulative ACK of many segments still adds one segment.
        reno.on_ack(&ack(1000));
        assert_eq!(reno.window(), 9.0);
    }

    #[test]
    fn congestion_avoidance_adds_about_one_segment_per_round_trip() {
        let mut reno = Reno::new(10.0, 10.0);
        for _ in 0..10 {
            reno.on_ack(&ack(1));
        }
        assert!((reno.window() - 10.95).abs() < 0.05, "{}", reno.window());
    }

    #[test]
    fn loss_halves_flight_and_timeout_resets_to_one() {
        let mut reno = Reno::new(20.0, 1e9);
        reno.on_loss(&congestion(20));
        assert_eq!((reno.window(), reno.ssthresh()), (10.0, 10.0));
        reno.on_rto(&congestion(3));
        assert_eq!((reno.window(), reno.ssthresh()), (1.0, 2.0));
    }
}
