//! The resolved scenario: what the engine runs, in SI base units (nanoseconds, bits per
//! second, bytes, packets). Units strings, defaults and friendly validation live on the
//! Python side (`aqmlab.scenario`); the engine re-checks every value it relies on.

use serde::{Deserialize, Serialize};

use crate::queue::QueueConfig;
use crate::tcp::{CcConfig, RttEstimator, TcpConfig};
use crate::time::Time;

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Simulated time, ns.
    pub duration_ns: Time,
    /// Start of the measurement window, ns (per-flow delivered bytes are snapshotted here).
    pub measure_start_ns: Time,
    pub topology: Topology,
    #[serde(default)]
    pub trace: TraceConfig,
}

// Read once per run: boxing the larger variant would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Topology {
    Dumbbell(Dumbbell),
    /// Routers joined by duplex core links; groups follow router paths (parking lots,
    /// seed 002 Fig. 11's six-router network).
    Network(NetworkConfig),
}

/// A general network: named routers, duplex core links between them, and flow groups whose
/// senders and receivers hang off the first and last router of their path.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkConfig {
    pub routers: Vec<String>,
    pub links: Vec<CoreLink>,
    pub groups: Vec<FlowGroup>,
}

/// A duplex link between two routers: `from` to `to` with `queue`, and back with
/// `reverse_queue`, both at `rate_bps` and `delay_ns`. Both directions are traced, as
/// `name` and `name_reverse`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoreLink {
    pub name: String,
    pub from: String,
    pub to: String,
    pub rate_bps: u64,
    pub delay_ns: Time,
    pub queue: QueueConfig,
    pub reverse_queue: QueueConfig,
}

/// The routers a group's data crosses, first to last.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum RouterPath {
    /// Exactly these routers, each consecutive pair joined by a core link.
    Routers { routers: Vec<String> },
    /// The path of least propagation delay (fewest hops on ties, then link order).
    Shortest { from: String, to: String },
}

/// Dumbbell: each flow's sender has its own access link into the left router; one
/// bottleneck link from the left to the right router; each receiver hangs off the right
/// router on its own link. ACKs return over reverse links of the same rates and delays.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dumbbell {
    pub bottleneck: BottleneckConfig,
    pub groups: Vec<FlowGroup>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BottleneckConfig {
    pub rate_bps: u64,
    /// One-way propagation delay of the bottleneck link, ns.
    pub delay_ns: Time,
    /// Queue discipline of the forward (left to right) bottleneck link.
    pub queue: QueueConfig,
    /// Queue discipline of the reverse (ACK) bottleneck link.
    pub reverse_queue: QueueConfig,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlowGroup {
    pub name: String,
    /// What the group's flows are: TCP flows, UDP constant-bit-rate sources, or web
    /// transfers arriving at random.
    pub traffic: Traffic,
    /// Two-way propagation delay of every flow of the group, ns. It must exceed twice the
    /// delay of the core links on the path; the rest is split equally over the access and
    /// receiver links.
    pub rtt_ns: Time,
    /// Heterogeneous RTTs: each flow's RTT is uniform in [rtt_ns, rtt_ns + rtt_spread_ns]
    /// (seed 001 Table I: uniform in [30, 130] ms). Flows on a shared access link use rtt_ns.
    #[serde(default)]
    pub rtt_spread_ns: Time,
    /// Network topologies only: the routers the group's data crosses.
    #[serde(default)]
    pub path: Option<RouterPath>,
    /// Rate of each sender's access link.
    pub access_rate_bps: u64,
    /// Queue of each sender's access link (sender side).
    pub access_queue: QueueConfig,
    /// Rate of each receiver's link on the right side.
    pub receiver_rate_bps: u64,
    /// Forward: data left to right over the bottleneck. Reverse: data right to left over
    /// the reverse bottleneck link (and the ACKs over the forward one).
    #[serde(default)]
    pub direction: Direction,
    /// All flows of the group share one access link and one receiver link (a server farm
    /// behind one link) instead of one pair each. Web groups always share.
    #[serde(default)]
    pub shared_access: bool,
    /// When the flows start (for web traffic: when arrivals begin).
    pub start: StartTimes,
    /// When bulk TCP flows stop sending new data and UDP sources fall silent (for web
    /// traffic: when arrivals end).
    #[serde(default)]
    pub stop: StopTimes,
}

/// The kind of traffic of a flow group.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Traffic {
    /// `count` TCP flows.
    Tcp { count: u32, tcp: TcpConfig, transfer: Transfer },
    /// `count` UDP sources sending `packet_size_bytes` datagrams at `rate_bps` each
    /// (seed 002 Section V-C; seed 000 Section V-B).
    Udp { count: u32, rate_bps: u64, packet_size_bytes: u32 },
    /// Short TCP transfers arriving as a Poisson process of `arrival_rate_per_s` flows per
    /// second, sizes drawn from `size` (seed 000 Section V-B: 50 flows/s, about 2 Mbps).
    Web { arrival_rate_per_s: f64, size: SizeDistribution, tcp: TcpConfig },
}

/// Transfer sizes of web traffic.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum SizeDistribution {
    /// Pareto with shape `shape` (> 1) and mean `mean_bytes`: heavy-tailed, as web objects.
    Pareto { mean_bytes: f64, shape: f64 },
    /// Exponential with mean `mean_bytes`.
    Exponential { mean_bytes: f64 },
    /// Every transfer has `bytes`.
    Fixed { bytes: u64 },
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    #[default]
    Forward,
    Reverse,
}

/// Start times of the flows of a group.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum StartTimes {
    /// Independent and uniform in [low, high].
    Uniform { low_ns: Time, high_ns: Time },
    /// All at the same instant.
    Fixed { at_ns: Time },
    /// Flow i of the group at `first_ns + i * spacing_ns` (seed 001 Table I: flows enter
    /// one by one at 0.5 s intervals).
    Staggered { first_ns: Time, spacing_ns: Time },
}

/// Stop times of the flows of a group.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum StopTimes {
    /// Flows run to the end (or until a finite transfer completes).
    #[default]
    Never,
    /// All at the same instant.
    Fixed { at_ns: Time },
    /// Flow i of the group at `first_ns + i * spacing_ns` (seed 001 Table I: flows leave at
    /// 5 s intervals).
    Staggered { first_ns: Time, spacing_ns: Time },
}

/// What a TCP flow sends.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Transfer {
    /// Long-lived: always has data.
    Bulk,
    /// A finite transfer of `bytes`; its completion time is recorded.
    Finite { bytes: u64 },
}

/// What the sampled traces record.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceConfig {
    /// Sampling interval, ns.
    pub interval_ns: Time,
    /// cwnd/RTT are traced for the first `flows` flows (in flow order).
    pub flows: u32,
    /// Per-packet trace of chosen links and flows (`packet_trace`); none if absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packets: Option<crate::packet_trace::PacketTraceConfig>,
}

impl Default for TraceConfig {
    fn default() -> Self {
        TraceConfig { interval_ns: 10_000_000, flows: 100, packets: None }
    }
}

// --- Upper bounds ---------------------------------------------------------------------------
// The Python models (aqmlab.scenario and its parts) enforce the same bounds with friendlier
// messages; the engine re-checks them so no resolved scenario can overflow its arithmetic or
// make one event do unbounded work (issue 17).

/// Largest value of any time field, ns (1e8 s, about three years): sums of a few such times
/// stay far below u64::MAX (1.8e19 ns).
pub const MAX_TIME_NS: Time = 100_000_000_000_000_000;
/// Largest link or source rate, bits per second (10 Tb/s).
pub const MAX_RATE_BPS: u64 = 10_000_000_000_000;
/// Largest initial or maximum window, segments. One event sends at most this many packets
/// (a sender opening its whole window), so it bounds the work of any single event.
pub const MAX_WINDOW_SEGMENTS: f64 = 1e7;
/// Largest initial slow-start threshold, segments (the default is 1e9: "none").
pub const MAX_SSTHRESH_SEGMENTS: f64 = 1e9;
/// Largest packet on the wire, bytes (the IPv4 maximum).
pub const MAX_PACKET_BYTES: u32 = 65_535;
/// Largest flow count of one group.
pub const MAX_FLOWS_PER_GROUP: u32 = 1_000_000;
/// Largest finite transfer or mean transfer size, bytes (1 PB).
pub const MAX_TRANSFER_BYTES: f64 = 1e15;
/// Largest web arrival rate, flows per second.
pub const MAX_ARRIVAL_RATE_PER_S: f64 = 1e6;

fn at_most_time(field: impl FnOnce() -> String, value: Time) -> crate::Result<()> {
    if value > MAX_TIME_NS {
        return Err(crate::EngineError::invalid(field(), value, format!("at most {MAX_TIME_NS} ns (1e8 s)")));
    }
    Ok(())
}

fn rate_in_range(field: impl FnOnce() -> String, value: u64) -> crate::Result<()> {
    if value == 0 || value > MAX_RATE_BPS {
        return Err(crate::EngineError::invalid(
            field(),
            value,
            format!("a rate in [1, {MAX_RATE_BPS}] bits per second"),
        ));
    }
    Ok(())
}

/// `low <= value <= high`, which also rejects NaN.
fn float_in_range(field: impl FnOnce() -> String, value: f64, low: f64, high: f64, what: &str) -> crate::Result<()> {
    if !(low..=high).contains(&value) {
        return Err(crate::EngineError::invalid(field(), value, format!("{what} in [{low}, {high}]")));
    }
    Ok(())
}

impl Scenario {
    /// Check the upper bounds of every time, rate, window, size and count field (lower bounds
    /// and consistency are checked where each part is built).
    pub fn check_bounds(&self) -> crate::Result<()> {
        at_most_time(|| "duration_ns".into(), self.duration_ns)?;
        at_most_time(|| "trace.interval_ns".into(), self.trace.interval_ns)?;
        let (groups, prefix) = match &self.topology {
            Topology::Dumbbell(d) => {
                rate_in_range(|| "topology.bottleneck.rate_bps".into(), d.bottleneck.rate_bps)?;
                at_most_time(|| "topology.bottleneck.delay_ns".into(), d.bottleneck.delay_ns)?;
                (&d.groups, "topology.groups")
            }
            Topology::Network(n) => {
                for (i, link) in n.links.iter().enumerate() {
                    rate_in_range(|| format!("topology.links[{i}].rate_bps"), link.rate_bps)?;
                    at_most_time(|| format!("topology.links[{i}].delay_ns"), link.delay_ns)?;
                }
                (&n.groups, "topology.groups")
            }
        };
        for (g, group) in groups.iter().enumerate() {
            group.check_bounds(&format!("{prefix}[{g}]"))?;
        }
        Ok(())
    }
}

impl FlowGroup {
    fn check_bounds(&self, field: &str) -> crate::Result<()> {
        at_most_time(|| format!("{field}.rtt_ns"), self.rtt_ns)?;
        at_most_time(|| format!("{field}.rtt_spread_ns"), self.rtt_spread_ns)?;
        rate_in_range(|| format!("{field}.access_rate_bps"), self.access_rate_bps)?;
        rate_in_range(|| format!("{field}.receiver_rate_bps"), self.receiver_rate_bps)?;
        let count = match &self.traffic {
            Traffic::Tcp { count, tcp, transfer } => {
                check_tcp_bounds(tcp, &format!("{field}.traffic.tcp"))?;
                if let Transfer::Finite { bytes } = transfer {
                    float_in_range(
                        || format!("{field}.traffic.transfer.bytes"),
                        *bytes as f64,
                        1.0,
                        MAX_TRANSFER_BYTES,
                        "a size",
                    )?;
                }
                *count
            }
            Traffic::Udp { count, rate_bps, packet_size_bytes } => {
                rate_in_range(|| format!("{field}.traffic.rate_bps"), *rate_bps)?;
                if *packet_size_bytes == 0 || *packet_size_bytes > MAX_PACKET_BYTES {
                    return Err(crate::EngineError::invalid(
                        format!("{field}.traffic.packet_size_bytes"),
                        packet_size_bytes,
                        format!("a size in [1, {MAX_PACKET_BYTES}] bytes"),
                    ));
                }
                *count
            }
            Traffic::Web { arrival_rate_per_s, size, tcp } => {
                check_tcp_bounds(tcp, &format!("{field}.traffic.tcp"))?;
                float_in_range(
                    || format!("{field}.traffic.arrival_rate_per_s"),
                    *arrival_rate_per_s,
                    f64::MIN_POSITIVE,
                    MAX_ARRIVAL_RATE_PER_S,
                    "a rate (flows per second)",
                )?;
                let mean = match size {
                    SizeDistribution::Pareto { mean_bytes, .. } | SizeDistribution::Exponential { mean_bytes } => {
                        *mean_bytes
                    }
                    SizeDistribution::Fixed { bytes } => *bytes as f64,
                };
                float_in_range(|| format!("{field}.traffic.size"), mean, 1.0, MAX_TRANSFER_BYTES, "a size in bytes")?;
                1
            }
        };
        if count > MAX_FLOWS_PER_GROUP {
            return Err(crate::EngineError::invalid(
                format!("{field}.traffic.count"),
                count,
                format!("at most {MAX_FLOWS_PER_GROUP} flows"),
            ));
        }
        let last = u64::from(count.saturating_sub(1));
        for (what, times) in [("start", self.start.bounds()), ("stop", self.stop.bounds())] {
            if let Some((first, spacing)) = times {
                at_most_time(|| format!("{field}.{what}"), first)?;
                at_most_time(|| format!("{field}.{what}.spacing_ns"), spacing)?;
                let latest = spacing.checked_mul(last).and_then(|t| t.checked_add(first)).unwrap_or(Time::MAX);
                at_most_time(|| format!("{field}.{what} (of the last flow)"), latest)?;
            }
        }
        Ok(())
    }
}

impl StartTimes {
    /// The latest start time as (first, spacing): flow i starts no later than first + i spacing.
    fn bounds(&self) -> Option<(Time, Time)> {
        Some(match *self {
            StartTimes::Uniform { low_ns, high_ns } => (low_ns.max(high_ns), 0),
            StartTimes::Fixed { at_ns } => (at_ns, 0),
            StartTimes::Staggered { first_ns, spacing_ns } => (first_ns, spacing_ns),
        })
    }
}

impl StopTimes {
    fn bounds(&self) -> Option<(Time, Time)> {
        match *self {
            StopTimes::Never => None,
            StopTimes::Fixed { at_ns } => Some((at_ns, 0)),
            StopTimes::Staggered { first_ns, spacing_ns } => Some((first_ns, spacing_ns)),
        }
    }
}

fn check_tcp_bounds(tcp: &TcpConfig, field: &str) -> crate::Result<()> {
    float_in_range(|| format!("{field}.initial_window"), tcp.initial_window, 1.0, MAX_WINDOW_SEGMENTS, "a window")?;
    float_in_range(|| format!("{field}.max_window"), tcp.max_window, 1.0, MAX_WINDOW_SEGMENTS, "a window")?;
    float_in_range(
        || format!("{field}.initial_ssthresh"),
        tcp.initial_ssthresh,
        2.0,
        MAX_SSTHRESH_SEGMENTS,
        "a threshold",
    )?;
    if tcp.packet_size_bytes > MAX_PACKET_BYTES {
        return Err(crate::EngineError::invalid(
            format!("{field}.packet_size_bytes"),
            tcp.packet_size_bytes,
            format!("at most {MAX_PACKET_BYTES} bytes"),
        ));
    }
    check_cc_bounds(&tcp.cc, &format!("{field}.cc"))?;
    at_most_time(|| format!("{field}.min_rto_ns"), tcp.min_rto_ns)?;
    at_most_time(|| format!("{field}.initial_rto_ns"), tcp.initial_rto_ns)?;
    at_most_time(|| format!("{field}.max_rto_ns"), tcp.max_rto_ns)?;
    at_most_time(|| format!("{field}.delayed_ack_timeout_ns"), tcp.delayed_ack_timeout_ns)?;
    if tcp.rtt_estimator != RttEstimator::Rfc6298 && tcp.timer_tick_ns.is_none_or(|tick| tick == 0) {
        // ns-2's estimator counts in ticks: say which (tcpTick_ 10 ms in Agent/TCP, 1 ms in
        // Agent/TCP/Linux after select_ca) rather than assume one.
        return Err(crate::EngineError::invalid(
            format!("{field}.timer_tick_ns"),
            "none",
            "a tick (ns-2's tcpTick_) with rtt_estimator ns2 or ns2_linux",
        ));
    }
    Ok(())
}

/// Upper bounds of the window laws' increase rates and window thresholds (the same as the
/// Python models', declared by each kind: `CcKind::growth_bounds`): with the window bound they
/// keep every per-ACK increase finite.
fn check_cc_bounds(cc: &CcConfig, field: &str) -> crate::Result<()> {
    for (name, value, low, high) in cc.kind().growth_bounds(MAX_WINDOW_SEGMENTS) {
        float_in_range(|| format!("{field}.{name}"), value, low, high, "a value")?;
    }
    Ok(())
}
