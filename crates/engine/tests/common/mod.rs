//! Scenario builders shared by the integration tests.
#![allow(dead_code)]

use aqmlab_engine::config::{
    BottleneckConfig, Direction, Dumbbell, FlowGroup, Scenario, StartTimes, StopTimes, Topology, TraceConfig, Traffic,
    Transfer,
};
use aqmlab_engine::queue::droptail::DropTailConfig;
use aqmlab_engine::queue::red::RedConfig;
use aqmlab_engine::queue::{Limit, QueueConfig};
use aqmlab_engine::tcp::TcpConfig;

pub const MS: u64 = 1_000_000;
pub const S: u64 = 1_000_000_000;

pub fn droptail(packets: u32) -> QueueConfig {
    QueueConfig::DropTail(DropTailConfig { limit: Limit::Packets(packets) })
}

pub fn red(min_th: f64, max_th: f64, limit: u32) -> QueueConfig {
    QueueConfig::Red(RedConfig { limit: Limit::Packets(limit), min_th, max_th, q_weight: -1.0, ..RedConfig::default() })
}

pub fn group(count: u32, rtt_ns: u64, access_rate_bps: u64) -> FlowGroup {
    FlowGroup {
        name: "g".into(),
        traffic: Traffic::Tcp { count, tcp: TcpConfig::default(), transfer: Transfer::Bulk },
        rtt_ns,
        rtt_spread_ns: 0,
        path: None,
        access_rate_bps,
        access_queue: droptail(1000),
        receiver_rate_bps: 1_000_000_000,
        direction: Direction::Forward,
        shared_access: false,
        start: StartTimes::Uniform { low_ns: 0, high_ns: S },
        stop: StopTimes::Never,
    }
}

pub fn dumbbell(rate_bps: u64, queue: QueueConfig, groups: Vec<FlowGroup>, duration_ns: u64) -> Scenario {
    Scenario {
        duration_ns,
        measure_start_ns: duration_ns / 2,
        topology: Topology::Dumbbell(Dumbbell {
            bottleneck: BottleneckConfig { rate_bps, delay_ns: MS, queue, reverse_queue: droptail(10_000) },
            groups,
        }),
        trace: TraceConfig::default(),
    }
}
