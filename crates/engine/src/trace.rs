//! Sampled columnar traces and per-flow records. Nothing is printed from the hot path:
//! samples are appended to column vectors at a fixed interval.

/// One row per (sample time, monitored link); per-interval counts end at `time_s`.
#[derive(Default, Debug, Clone)]
pub struct LinkTrace {
    pub time_s: Vec<f64>,
    pub link: Vec<u32>,
    pub queue_packets: Vec<f64>,
    pub queue_bytes: Vec<f64>,
    pub average_queue: Vec<f64>,
    pub drop_probability: Vec<f64>,
    pub arrivals: Vec<f64>,
    pub drops: Vec<f64>,
    pub marks: Vec<f64>,
    pub departures: Vec<f64>,
    pub departed_bytes: Vec<f64>,
    pub utilisation: Vec<f64>,
    /// The policy's virtual queue (E-RED, AVQ), NaN for policies without one.
    pub virtual_queue: Vec<f64>,
    /// Mean queueing (sojourn) time of the packets that departed in the interval, s.
    pub sojourn_s: Vec<f64>,
}

/// One row per (sample time, traced flow).
#[derive(Default, Debug, Clone)]
pub struct FlowTrace {
    pub time_s: Vec<f64>,
    pub flow: Vec<u32>,
    pub cwnd: Vec<f64>,
    pub ssthresh: Vec<f64>,
    pub srtt_s: Vec<f64>,
    pub rtt_s: Vec<f64>,
}

/// Rows reserved up front at most (larger traces grow as needed).
const MAX_RESERVED_ROWS: usize = 1 << 24;

impl LinkTrace {
    /// Room for `rows` samples, so the columns never reallocate (and never double in size).
    pub fn with_capacity(rows: usize) -> Self {
        let rows = rows.min(MAX_RESERVED_ROWS);
        let column = || Vec::with_capacity(rows);
        LinkTrace {
            time_s: column(),
            link: Vec::with_capacity(rows),
            queue_packets: column(),
            queue_bytes: column(),
            average_queue: column(),
            drop_probability: column(),
            arrivals: column(),
            drops: column(),
            marks: column(),
            departures: column(),
            departed_bytes: column(),
            utilisation: column(),
            virtual_queue: column(),
            sojourn_s: column(),
        }
    }
}

impl FlowTrace {
    /// Room for `rows` samples, so the columns never reallocate (and never double in size).
    pub fn with_capacity(rows: usize) -> Self {
        let rows = rows.min(MAX_RESERVED_ROWS);
        let column = || Vec::with_capacity(rows);
        FlowTrace {
            time_s: column(),
            flow: Vec::with_capacity(rows),
            cwnd: column(),
            ssthresh: column(),
            srtt_s: column(),
            rtt_s: column(),
        }
    }
}

/// One row per flow, at the end of the run (or at the time results are taken).
#[derive(Default, Debug, Clone)]
pub struct FlowRecords {
    pub flow: Vec<u32>,
    pub group: Vec<u32>,
    /// The traced (core) links the flow's data crosses, comma-separated, in order.
    pub core_links: Vec<String>,
    pub start_s: Vec<f64>,
    pub end_s: Vec<f64>,
    pub bytes_delivered: Vec<f64>,
    pub bytes_delivered_at_measure_start: Vec<f64>,
    pub segments_sent: Vec<f64>,
    pub retransmits: Vec<f64>,
    pub timeouts: Vec<f64>,
    pub fast_recoveries: Vec<f64>,
    pub ecn_reductions: Vec<f64>,
    pub rtt_mean_s: Vec<f64>,
}

/// One row per link.
#[derive(Default, Debug, Clone)]
pub struct LinkRecords {
    pub link: Vec<u32>,
    pub role: Vec<&'static str>,
    pub name: Vec<String>,
    pub rate_bps: Vec<f64>,
    pub delay_s: Vec<f64>,
    pub monitored: Vec<bool>,
    pub arrivals: Vec<f64>,
    pub enqueued: Vec<f64>,
    pub dropped: Vec<f64>,
    pub marked: Vec<f64>,
    pub departures: Vec<f64>,
    pub dropped_on_dequeue: Vec<f64>,
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
    pub packet_trace: Option<crate::packet_trace::PacketTrace>,
}
