//! Sampled columnar traces and per-flow records. Nothing is printed from the hot path:
//! samples are appended to column vectors at a fixed interval.

use crate::packet_trace::PacketTrace;
use crate::table::table;

table! {
    /// One row per (sample time, monitored link); per-interval counts end at `time_s`.
    pub struct LinkTrace {
        time_s: f64,
        link: u32,
        queue_packets: f64,
        queue_bytes: f64,
        average_queue: f64,
        drop_probability: f64,
        arrivals: f64,
        drops: f64,
        marks: f64,
        departures: f64,
        departed_bytes: f64,
        utilisation: f64,
        /// The policy's virtual queue (E-RED, AVQ), NaN for policies without one.
        virtual_queue: f64,
        /// Mean queueing (sojourn) time of the packets that departed in the interval, s.
        sojourn_s: f64,
    }
}

table! {
    /// One row per (sample time, traced flow).
    pub struct FlowTrace {
        time_s: f64,
        flow: u32,
        cwnd: f64,
        ssthresh: f64,
        srtt_s: f64,
        rtt_s: f64,
    }
}

table! {
    /// One row per flow, at the end of the run (or at the time results are taken).
    pub struct FlowRecords {
        flow: u32,
        group: u32,
        /// The traced (core) links the flow's data crosses, comma-separated, in order.
        core_links: String,
        start_s: f64,
        end_s: f64,
        bytes_delivered: f64,
        bytes_delivered_at_measure_start: f64,
        segments_sent: f64,
        retransmits: f64,
        timeouts: f64,
        fast_recoveries: f64,
        ecn_reductions: f64,
        rtt_mean_s: f64,
    }
}

table! {
    /// One row per link.
    pub struct LinkRecords {
        link: u32,
        role: &'static str,
        name: String,
        monitored: bool,
        rate_bps: f64,
        delay_s: f64,
        arrivals: f64,
        enqueued: f64,
        dropped: f64,
        marked: f64,
        departures: f64,
        dropped_on_dequeue: f64,
    }
}

/// Packet conservation: created = delivered + dropped + queued + in_flight.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counters {
    pub packets_created: u64,
    pub packets_delivered: u64,
    pub packets_dropped: u64,
    pub packets_queued: u64,
    pub packets_in_flight: u64,
    pub events: u64,
}

/// Everything a run produced so far.
#[derive(Debug, Clone)]
pub struct Results {
    pub link_trace: LinkTrace,
    pub flow_trace: FlowTrace,
    pub flows: FlowRecords,
    pub links: LinkRecords,
    pub counters: Counters,
    /// The per-packet trace, if the scenario asked for one (`trace.packets`).
    pub packet_trace: Option<PacketTrace>,
}
