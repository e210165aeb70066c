//! aqmlab-engine: a packet-level discrete-event simulator for TCP congestion control and
//! active queue management. Pure Rust; the Python binding lives in `crates/py`.
//!
//! Layout: [`time`] (integer-nanosecond clock), [`event`] (event queue), [`packet`],
//! [`link`], [`queue`] (queue disciplines behind one trait), [`tcp`] (sender/receiver and
//! the congestion-control trait), [`topology`] (builders), [`trace`] (columnar results),
//! [`sim`] (the event loop), [`config`] (the resolved scenario).

pub mod config;
pub mod error;
pub mod event;
pub mod external;
pub mod fields;
pub mod link;
pub mod packet;
pub mod packet_trace;
pub mod queue;
pub mod registry;
pub mod rng;
pub mod route;
pub mod sim;
pub mod table;
pub mod tcp;
pub mod time;
pub mod topology;
pub mod trace;
pub mod udp;

pub use error::{EngineError, Result};

// The integration tests' scenario builders (`tests/common`), shared with unit tests.
#[cfg(test)]
extern crate self as aqmlab_engine;
pub use sim::Simulation;
