//! The resolved scenario: what the engine runs, in SI base units (nanoseconds, bits per
//! second, bytes, packets). Units strings, defaults and friendly validation live on the
//! Python side (`aqmlab.scenario`); the engine re-checks every value it relies on.

use serde::{Deserialize, Serialize};

use crate::queue::QueueConfig;
use crate::tcp::TcpConfig;
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
}

impl Default for TraceConfig {
    fn default() -> Self {
        TraceConfig { interval_ns: 10_000_000, flows: 100 }
    }
}
