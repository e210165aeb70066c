//! Issue 17: upper bounds, work slices and the work limit, and arithmetic that cannot wrap.

mod common;

use aqmlab_engine::config::{BottleneckConfig, Scenario, StartTimes, Topology, Traffic, MAX_TIME_NS};
use aqmlab_engine::sim::Stop;
use aqmlab_engine::tcp::cc::scalable::ScalableConfig;
use aqmlab_engine::tcp::{CcConfig, TcpConfig};
use aqmlab_engine::Simulation;
use common::*;

fn scenario() -> Scenario {
    dumbbell(10_000_000, droptail(100), vec![group(4, 20 * MS, 100_000_000)], 2 * S)
}

#[test]
fn a_run_cut_into_small_slices_is_identical_to_a_straight_run() {
    let mut straight = Simulation::new(&scenario(), 7).unwrap();
    straight.run_until(2 * S);
    let mut sliced = Simulation::new(&scenario(), 7).unwrap();
    let mut slices = 0;
    while sliced.run_for(2 * S, 499) == Stop::Slice {
        slices += 1;
    }
    assert!(slices > 10, "{slices} slices");
    assert!(sliced.finished());
    assert_eq!(sliced.counters(), straight.counters());
    let (a, b) = (sliced.results(), straight.results());
    assert_eq!(a.link_trace.queue_packets, b.link_trace.queue_packets);
    assert_eq!(a.flows.bytes_delivered, b.flows.bytes_delivered);
}

#[test]
fn the_work_limit_stops_a_run_for_good_between_events() {
    let mut sim = Simulation::new(&scenario(), 7).unwrap();
    sim.set_work_limit(5_000);
    assert_eq!(sim.run_for(2 * S, u64::MAX), Stop::WorkLimit);
    assert!(sim.work_limit_reached() && !sim.finished());
    let work = sim.work();
    assert!((5_000..5_100).contains(&work), "{work}");
    assert_eq!(sim.run_for(2 * S, u64::MAX), Stop::WorkLimit);
    assert_eq!(sim.work(), work);
    let c = sim.counters();
    assert_eq!(c.packets_created, c.packets_delivered + c.packets_dropped + c.packets_queued + c.packets_in_flight);
}

fn tcp(s: &mut Scenario) -> &mut TcpConfig {
    match &mut s.topology {
        Topology::Dumbbell(d) => match &mut d.groups[0].traffic {
            Traffic::Tcp { tcp, .. } => tcp,
            _ => unreachable!(),
        },
        _ => unreachable!(),
    }
}

fn bottleneck(s: &mut Scenario) -> &mut BottleneckConfig {
    match &mut s.topology {
        Topology::Dumbbell(d) => &mut d.bottleneck,
        _ => unreachable!(),
    }
}

type Change = fn(&mut Scenario);

#[test]
fn windows_rates_and_times_above_the_bounds_are_refused() {
    let cases: [(&str, Change); 6] = [
        ("initial_window", |s| tcp(s).initial_window = 1e300),
        ("max_window", |s| tcp(s).max_window = f64::NAN),
        ("cc.a", |s| tcp(s).cc = CcConfig::Scalable(ScalableConfig { a: 1e300, ..ScalableConfig::default() })),
        ("rate_bps", |s| bottleneck(s).rate_bps = u64::MAX),
        ("duration_ns", |s| s.duration_ns = MAX_TIME_NS + 1),
        ("last flow", |s| {
            if let Topology::Dumbbell(d) = &mut s.topology {
                d.groups[0].start = StartTimes::Staggered { first_ns: 0, spacing_ns: MAX_TIME_NS };
            }
        }),
    ];
    for (field, change) in cases {
        let mut s = scenario();
        change(&mut s);
        let error = Simulation::new(&s, 1).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(error.contains(field), "{field}: {error}");
    }
}

#[test]
fn a_complete_run_hands_its_traces_over_by_move_once_with_the_results_a_copy_gives() {
    let mut sim = Simulation::new(&scenario(), 7).unwrap();
    sim.run_for(S, u64::MAX);
    assert!(sim.take_results().is_none(), "a run that can go on keeps its traces");
    sim.run_until(2 * S);
    let copied = sim.results();
    let moved = sim.take_results().expect("the results of a complete run");
    assert!(!moved.link_trace.time_s.is_empty() && !moved.flow_trace.time_s.is_empty());
    assert_eq!(format!("{moved:?}"), format!("{copied:?}")); // Debug: NaN equals NaN
    assert!(sim.take_results().is_none(), "the traces are taken once");
}

#[test]
#[should_panic(expected = "moved out by take_results")]
fn asking_for_a_copy_once_the_traces_were_moved_out_is_an_error_not_an_empty_trace() {
    let mut sim = Simulation::new(&scenario(), 7).unwrap();
    sim.run_until(2 * S);
    sim.take_results().unwrap();
    sim.results();
}
