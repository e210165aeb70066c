//! Run one resolved scenario (JSON) and write every result column, bit for bit, to a file,
//! so that `benchmarks/scale/golden.py` can hash them and prove an engine change leaves the
//! results bit-identical. Prints the run's CPU-relevant facts (events, wall time) as JSON.
//!     cargo run --release --example dump_results -- SCENARIO.json SEED OUT.bin

use std::io::Write;
use std::time::Instant;

use aqmlab_engine::Simulation;

fn floats(out: &mut Vec<u8>, name: &str, column: &[f64]) {
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(&(column.len() as u64).to_le_bytes());
    for value in column {
        out.extend_from_slice(&value.to_bits().to_le_bytes());
    }
}

fn ints(out: &mut Vec<u8>, name: &str, column: &[u32]) {
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(&(column.len() as u64).to_le_bytes());
    for value in column {
        out.extend_from_slice(&value.to_le_bytes());
    }
}

fn strings<S: AsRef<str>>(out: &mut Vec<u8>, name: &str, column: &[S]) {
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(&(column.len() as u64).to_le_bytes());
    for value in column {
        out.extend_from_slice(&(value.as_ref().len() as u64).to_le_bytes());
        out.extend_from_slice(value.as_ref().as_bytes());
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: dump_results SCENARIO.json SEED OUT.bin");
        std::process::exit(2);
    }
    let json = std::fs::read_to_string(&args[1]).unwrap_or_else(|e| panic!("{}: {e}", args[1]));
    let seed: u64 = args[2].parse().expect("SEED must be a non-negative integer");
    let mut sim = Simulation::from_json(&json, seed).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let started = Instant::now();
    sim.run_until(sim.duration());
    let run_s = started.elapsed().as_secs_f64();
    let r = sim.results();
    let mut out = Vec::new();
    let t = &r.link_trace;
    floats(&mut out, "lt.time_s", &t.time_s);
    ints(&mut out, "lt.link", &t.link);
    for (name, column) in [
        ("lt.queue_packets", &t.queue_packets),
        ("lt.queue_bytes", &t.queue_bytes),
        ("lt.average_queue", &t.average_queue),
        ("lt.drop_probability", &t.drop_probability),
        ("lt.arrivals", &t.arrivals),
        ("lt.drops", &t.drops),
        ("lt.marks", &t.marks),
        ("lt.departures", &t.departures),
        ("lt.departed_bytes", &t.departed_bytes),
        ("lt.utilisation", &t.utilisation),
        ("lt.virtual_queue", &t.virtual_queue),
        ("lt.sojourn_s", &t.sojourn_s),
    ] {
        floats(&mut out, name, column);
    }
    let f = &r.flow_trace;
    floats(&mut out, "ft.time_s", &f.time_s);
    ints(&mut out, "ft.flow", &f.flow);
    for (name, column) in
        [("ft.cwnd", &f.cwnd), ("ft.ssthresh", &f.ssthresh), ("ft.srtt_s", &f.srtt_s), ("ft.rtt_s", &f.rtt_s)]
    {
        floats(&mut out, name, column);
    }
    let fl = &r.flows;
    ints(&mut out, "fl.flow", &fl.flow);
    ints(&mut out, "fl.group", &fl.group);
    strings(&mut out, "fl.core_links", &fl.core_links);
    for (name, column) in [
        ("fl.start_s", &fl.start_s),
        ("fl.end_s", &fl.end_s),
        ("fl.bytes_delivered", &fl.bytes_delivered),
        ("fl.bytes_delivered_at_measure_start", &fl.bytes_delivered_at_measure_start),
        ("fl.segments_sent", &fl.segments_sent),
        ("fl.retransmits", &fl.retransmits),
        ("fl.timeouts", &fl.timeouts),
        ("fl.fast_recoveries", &fl.fast_recoveries),
        ("fl.ecn_reductions", &fl.ecn_reductions),
        ("fl.rtt_mean_s", &fl.rtt_mean_s),
    ] {
        floats(&mut out, name, column);
    }
    let l = &r.links;
    ints(&mut out, "li.link", &l.link);
    strings(&mut out, "li.role", &l.role);
    strings(&mut out, "li.name", &l.name);
    let monitored: Vec<u32> = l.monitored.iter().map(|&m| u32::from(m)).collect();
    ints(&mut out, "li.monitored", &monitored);
    for (name, column) in [
        ("li.rate_bps", &l.rate_bps),
        ("li.delay_s", &l.delay_s),
        ("li.arrivals", &l.arrivals),
        ("li.enqueued", &l.enqueued),
        ("li.dropped", &l.dropped),
        ("li.marked", &l.marked),
        ("li.departures", &l.departures),
        ("li.dropped_on_dequeue", &l.dropped_on_dequeue),
    ] {
        floats(&mut out, name, column);
    }
    // Packet conservation counters, without the event count (scheduling may change it
    // without changing any result; golden.py records it apart).
    let c = r.counters;
    for value in [c.packets_created, c.packets_delivered, c.packets_dropped, c.packets_queued, c.packets_in_flight] {
        out.extend_from_slice(&value.to_le_bytes());
    }
    std::fs::File::create(&args[3])
        .and_then(|mut file| file.write_all(&out))
        .unwrap_or_else(|e| panic!("{}: {e}", args[3]));
    println!("{{\"events\": {}, \"run_s\": {run_s}}}", sim.events_processed());
}
