"""Type stub of the private Rust extension module `aqmlab._engine` (crates/py).

Use `aqmlab.simulate`; this module is the thin binding beneath it.
"""

from collections.abc import Iterator
from typing import Any

from aqmlab.errors import ScenarioError as ScenarioError

__version__: str

# ScenarioError is `aqmlab.errors.ScenarioError` itself (an AqmlabError and a ValueError): the
# binding looks the class up when it loads, so engine errors and Python errors are one type.

class EngineColumn:
    """A numeric result column, shared with the engine's results without a copy: NumPy reads
    it through `__array_interface__` (f64, u32, u64, u8 or bool, native byte order); also a
    read-only sequence of Python numbers."""

    @property
    def __array_interface__(self) -> dict[str, Any]: ...
    def __len__(self) -> int: ...
    def __getitem__(self, index: int) -> float | int | bool: ...
    def __iter__(self) -> Iterator[float | int | bool]: ...
    def tolist(self) -> list[float | int | bool]: ...

class Simulation:
    """One packet-level run of a resolved scenario.

    `scenario_json` is the resolved scenario (SI base units: *_ns in integer nanoseconds,
    *_bps in bits per second, sizes in bytes, limits in packets or bytes), as produced by
    `aqmlab.scenario.Scenario.resolved()`. The run is a pure function of (scenario, seed).
    """

    def __init__(self, scenario_json: str, seed: int) -> None: ...
    @property
    def now_ns(self) -> int: ...
    @property
    def duration_ns(self) -> int: ...
    @property
    def propagation_rtts_ns(self) -> list[int]:
        """Each flow's two-way propagation delay (ns), in flow order: with an RTT spread, the
        RTT drawn for the flow."""
    @property
    def finished(self) -> bool: ...
    @property
    def events_processed(self) -> int: ...
    @property
    def work(self) -> int:
        """Events processed plus packets created so far."""
    def set_work_limit(self, limit: int) -> None:
        """Stop for good once `work` reaches `limit` (aqmlab.workload's guard)."""
    @property
    def work_limit_reached(self) -> bool: ...
    def run_until(self, t_ns: int) -> bool:
        """Advance the simulation to min(t_ns, duration) or the work limit; releases the GIL,
        taking it back every 65536 units of work to run signal handlers (Ctrl-C raises
        KeyboardInterrupt here, the simulation left between two events); returns `finished`.
        A run with Python hooks (`aqmlab.extensions`) keeps the GIL, and raises
        `aqmlab.errors.UserCodeError` (the user's traceback in its message) once a hook raised."""
    def results(self) -> dict[str, Any]:
        """Columns of the run so far: each numeric column an `EngineColumn` over the engine's
        own results (no copy; `np.asarray` takes it through `__array_interface__`, read-only,
        and the array keeps the results alive), so the binding needs neither NumPy nor pyarrow.
        A complete run (`finished`, no event left at its end) hands its traces over by move, not
        copy, once (`Simulation::take_results`); every later call returns the same results. A
        run that can go on (stepped, interrupted, stopped by the work limit) hands over a copy.

        Keys (each table's columns in the order of `crates/engine/src/trace.rs`):
          "link_trace": dict[str, EngineColumn] - one row per (sample time, monitored link):
              time_s f64, link u32, queue_packets f64, queue_bytes f64, average_queue f64
              (NaN if the policy keeps none), drop_probability f64 (NaN if none),
              arrivals f64, drops f64, marks f64, departures f64, departed_bytes f64 (all
              per interval ending at time_s), utilisation f64 (departed bits / (rate * interval)),
              virtual_queue f64 (NaN unless the policy keeps one), sojourn_s f64 (mean
              queueing time of the packets that departed in the interval; NaN if none).
          "flow_trace": dict[str, EngineColumn] - one row per (sample time, traced flow):
              time_s f64, flow u32, cwnd f64 (segments), ssthresh f64, srtt_s f64 (NaN before
              the first sample), rtt_s f64 (last sample, NaN before the first).
          "flows": dict[str, EngineColumn] - one row per flow: flow u32, group u32, core_links
              (str list: the traced links its data crosses, comma-separated),
              start_s f64, end_s f64 (NaN unless a finite transfer completed),
              bytes_delivered f64 (payload bytes delivered in order to the receiver),
              bytes_delivered_at_measure_start f64, segments_sent f64, retransmits f64,
              timeouts f64, fast_recoveries f64, ecn_reductions f64, rtt_mean_s f64.
          "links": dict[str, EngineColumn] - one row per link: link u32, role (str list:
              "bottleneck", "bottleneck_reverse", "access", "access_reverse", "receiver",
              "receiver_reverse", "core", "core_reverse"), name (str list: "bottleneck", a
              network link's name or its reverse, or the edge role), monitored bool, rate_bps f64,
              delay_s f64, arrivals, enqueued, dropped, marked, departures, dropped_on_dequeue (f64
              totals; arrivals = enqueued + dropped - dropped_on_dequeue).
          "counters": dict[str, int] - packets_created, packets_delivered, packets_dropped,
              packets_queued, packets_in_flight (conservation: created = delivered +
              dropped + queued + in_flight), events.
        """

# Python hooks (`aqmlab.extensions`, crates/py/src/hooks/): what the engine passes to a queue
# policy or window law written in Python. Valid during the call only.

class QueueState:
    """The queue at a decision of a Python queue policy."""

    @property
    def now(self) -> float:
        """Simulated time, s."""
    @property
    def packets(self) -> int:
        """Packets queued, not counting the packet decided on."""
    @property
    def bytes(self) -> int: ...
    @property
    def idle_time(self) -> float:
        """Seconds since the queue became empty (0 when it is not empty)."""
    @property
    def link_rate_bps(self) -> int: ...
    def uniform(self) -> float:
        """Uniform in [0, 1) from the link's own random stream (a built-in policy's draw)."""

class PacketView:
    """The packet a Python queue policy decides on."""

    @property
    def flow(self) -> int: ...
    @property
    def size(self) -> int:
        """Bytes on the wire."""
    @property
    def seq(self) -> int: ...
    @property
    def is_ack(self) -> bool: ...
    @property
    def ecn_capable(self) -> bool: ...
    @property
    def enqueued_at(self) -> float:
        """When it entered the queue, s."""

class AckView:
    """An ACK of new data, as a Python window law's `on_ack` sees it (times in s)."""

    @property
    def now(self) -> float: ...
    @property
    def acked(self) -> int: ...
    @property
    def delivered(self) -> int: ...
    @property
    def rtt(self) -> float | None: ...
    @property
    def min_rtt(self) -> float: ...
    @property
    def srtt(self) -> float: ...
    @property
    def in_flight(self) -> int: ...
    @property
    def ece(self) -> bool: ...

class CongestionView:
    """A loss, timeout or ECN echo, as a Python window law sees it (times in s)."""

    @property
    def now(self) -> float: ...
    @property
    def in_flight(self) -> int: ...
    @property
    def srtt(self) -> float: ...
    @property
    def min_rtt(self) -> float: ...

class RandomStream:
    """A random stream of the engine (a Python window law's `self.rng`: the flow's own)."""

    def uniform(self) -> float: ...

def powi(x: float, n: int) -> float:
    """x**n as the engine computes it (Rust's `f64::powi`)."""

def scenario_fields() -> dict[str, list[str]]:
    """Struct name -> the field names the engine reads, for every struct of the resolved
    scenario (crates/engine/src/fields.rs): what the Python declarations are tested against."""

def registered_kinds() -> dict[str, dict[str, str]]:
    """Registry ("queue", "cc") -> kind -> the engine struct its configuration is read into, for
    every kind of the engine's registries (crates/engine/src/registry.rs)."""

def with_engine_defaults(scenario_json: str) -> str:
    """The resolved scenario as the engine reads it, serialised back: every field it leaves out
    filled with the engine's default (what the Python declarations' defaults are tested against)."""
