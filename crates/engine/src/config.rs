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

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Topology {
    Dumbbell(Dumbbell),
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
    pub count: u32,
    pub tcp: TcpConfig,
    /// Two-way propagation delay of every flow of the group, ns. It must exceed twice the
    /// bottleneck delay; the rest is split equally over the access and receiver links.
    pub rtt_ns: Time,
    /// Rate of each sender's access link.
    pub access_rate_bps: u64,
    /// Queue of each sender's access link (sender side).
    pub access_queue: QueueConfig,
    /// Rate of each receiver's link on the right side.
    pub receiver_rate_bps: u64,
    pub start: StartTimes,
    pub transfer: Transfer,
}

/// Start times of the flows of a group.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum StartTimes {
    /// Independent and uniform in [low, high].
    Uniform { low_ns: Time, high_ns: Time },
    /// All at the same instant.
    Fixed { at_ns: Time },
}

/// What a flow sends.
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
