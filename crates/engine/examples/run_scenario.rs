//! Run one resolved scenario (JSON, as `aqmlab validate` prints it) in a bare process and
//! report wall time, events, bottleneck departures and peak memory as JSON.
//! Used by `benchmarks/dumbbell-60/bench.py`:
//!     cargo run --release --example run_scenario -- SCENARIO.json SEED

use std::time::Instant;

mod common;

/// Peak resident set size of this process, MiB (Linux `VmHWM`).
fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn main() {
    let (json, seed, _) = common::scenario_from_args("run_scenario SCENARIO.json SEED");
    let setup = Instant::now();
    let mut sim = common::simulation(&json, seed);
    let setup_s = setup.elapsed().as_secs_f64();
    let started = Instant::now();
    sim.run_until(sim.duration());
    let run_s = started.elapsed().as_secs_f64();
    let events = sim.events_processed();
    // Peak memory of the run itself.
    let peak = peak_rss_mib();
    // As the binding hands a complete run over: the traces moved out, not copied.
    let results = sim.take_results().expect("a run to its end hands its results over");
    let departures = results.links.departures[0];
    let drops = results.links.dropped[0];
    println!(
        "{{\"setup_s\": {setup_s}, \"run_s\": {run_s}, \"events\": {events}, \"bottleneck_departures\": {departures}, \
         \"bottleneck_drops\": {drops}, \"bottleneck_packets_per_s\": {}, \"peak_rss_mib\": {}}}",
        departures / run_s,
        peak.map_or("null".to_string(), |m| format!("{m:.2}"))
    );
}
