//! What the example runners share: reading `SCENARIO.json SEED [more]` from the command line.

use aqmlab_engine::Simulation;

/// The scenario JSON and seed of the command line's `SCENARIO.json SEED`, and the arguments
/// after them; exits with status 2 and `usage` (e.g. `"dump_results SCENARIO.json SEED
/// OUT.bin"`) unless there are as many arguments as `usage` names after the program.
pub fn scenario_from_args(usage: &str) -> (String, u64, Vec<String>) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != usage.split_whitespace().count() - 1 {
        eprintln!("usage: {usage}");
        std::process::exit(2);
    }
    let json = std::fs::read_to_string(&args[0]).unwrap_or_else(|e| panic!("{}: {e}", args[0]));
    let seed: u64 = args[1].parse().expect("SEED must be a non-negative integer");
    (json, seed, args[2..].to_vec())
}

/// The simulation of `json` and `seed`; exits with status 2 and the engine's message if the
/// scenario is invalid.
pub fn simulation(json: &str, seed: u64) -> Simulation {
    Simulation::from_json(json, seed).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    })
}
