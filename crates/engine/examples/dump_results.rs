//! Run one resolved scenario (JSON) and write every result column, bit for bit, to a file,
//! so that `benchmarks/scale/golden.py` can hash them and prove an engine change leaves the
//! results bit-identical. Prints the run's CPU-relevant facts (events, wall time) as JSON.
//!     cargo run --release --example dump_results -- SCENARIO.json SEED OUT.bin

use std::io::Write;
use std::time::Instant;

use aqmlab_engine::table::Column;

mod common;

/// Write `column` under `name`: its length, then its values little-endian (floats by their
/// bits, flags as u32, text as length-prefixed UTF-8).
fn write_column(out: &mut Vec<u8>, name: &str, column: Column<'_>) {
    out.extend_from_slice(name.as_bytes());
    let rows = match &column {
        Column::F64(values) => values.len(),
        Column::U64(values) => values.len(),
        Column::U32(values) => values.len(),
        Column::U8(values) => values.len(),
        Column::Bool(values) => values.len(),
        Column::Text(values) => values.len(),
    };
    out.extend_from_slice(&(rows as u64).to_le_bytes());
    match column {
        Column::F64(values) => values.iter().for_each(|v| out.extend_from_slice(&v.to_bits().to_le_bytes())),
        Column::U64(values) => values.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes())),
        Column::U32(values) => values.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes())),
        Column::U8(values) => out.extend_from_slice(values),
        Column::Bool(values) => values.iter().for_each(|&v| out.extend_from_slice(&u32::from(v).to_le_bytes())),
        Column::Text(values) => values.iter().for_each(|v| {
            out.extend_from_slice(&(v.len() as u64).to_le_bytes());
            out.extend_from_slice(v.as_bytes());
        }),
    }
}

fn main() {
    let (json, seed, rest) = common::scenario_from_args("dump_results SCENARIO.json SEED OUT.bin");
    let out_path = &rest[0];
    let mut sim = common::simulation(&json, seed);
    let started = Instant::now();
    sim.run_until(sim.duration());
    let run_s = started.elapsed().as_secs_f64();
    // The binding's hand-over of a complete run (the traces moved out, not cloned).
    let r = sim.take_results().expect("a run to its end hands its results over");
    let mut out = Vec::new();
    let tables = [
        ("lt", r.link_trace.columns()),
        ("ft", r.flow_trace.columns()),
        ("fl", r.flows.columns()),
        ("li", r.links.columns()),
    ];
    for (prefix, columns) in tables {
        for (name, column) in columns {
            write_column(&mut out, &format!("{prefix}.{name}"), column);
        }
    }
    // Packet conservation counters, without the event count (scheduling may change it
    // without changing any result; golden.py records it apart).
    let c = r.counters;
    for value in [c.packets_created, c.packets_delivered, c.packets_dropped, c.packets_queued, c.packets_in_flight] {
        out.extend_from_slice(&value.to_le_bytes());
    }
    std::fs::File::create(out_path)
        .and_then(|mut file| file.write_all(&out))
        .unwrap_or_else(|e| panic!("{out_path}: {e}"));
    println!("{{\"events\": {}, \"run_s\": {run_s}}}", sim.events_processed());
}
