"""Web traffic and finite transfers in the ns-2 program (issue 27, the referee column).

**Web groups** (`traffic.kind = 'web'`). aqmlab's web source (crates/engine/src/topology.rs
`group_flows`, `Traffic::Web`) starts one fresh TCP transfer per arrival of a Poisson process
of `arrival_rate` transfers/s, with sizes from `size` (`draw_size`: Pareto x_m / U^(1/shape)
with x_m = mean (shape - 1) / shape, exponential -mean ln U, or fixed; rounded up, >= 1 byte),
every transfer of the group sharing one access and one receiver link. ns-2 has no generator of
that model (PackMime-HTTP, PagePool/WebTraf are other models; Application/Traffic/Pareto is an
on/off source), so the same model is drawn here, in Python, from the same distributions
(`draw_transfers`, numpy seeded from the ns-2 run's seed and the group's index: aqmlab's
distribution, not aqmlab's draws), and ns-2 runs each transfer in its own TCP:
- per arrival, an idle ns-2 TCP agent of the group's type (`ns2_mapping.tcp_agent`) and its
  sink, reset to a fresh connection (`$agent reset`, `$sink reset`: tcp.cc TcpAgent::reset,
  tcp-sink.cc Acker::reset: sequence numbers, cwnd = windowInit_, ssthresh, RTT estimator),
  send the transfer's bytes (`$ftp send BYTES`: apps/app.cc Application::send ->
  tcp.cc TcpAgent::sendmsg, which counts ceil(BYTES / packetSize_) full segments: ns-2's
  one-way TCP has no partial last segment, aqmlab's has — the transfer carries up to one
  segment more on the wire);
- when it is done (tcp.cc TcpAgent::recv_newack_helper: `highest_ack_ >= curseq_ - 1` calls
  finish(), i.e. the agent's Tcl `done`), a `W` record is written and the pair goes back to
  the group's pool. Agents are reused as ns-2's own WebTraf reuses them (tcl/webcache/
  webtraf.tcl, `recycle`: reset and back to the pool), but only after `quarantine_s` idle — more
  than twice the longest a packet can stay in the network (the RTT plus draining every queue
  on the path) — so no stale packet of an earlier transfer reaches a reset agent. A fresh pair
  per transfer would cost ns-2 one agent pair per transfer (250 000 in seed 004's runs); the
  pool holds about arrival_rate x (transfer time + quarantine).
Records: `W <group> <arrival s> <done s> <bytes>` per completed transfer. Web transfers are
not rows of the flows table (`F` records): aqmlab's flows table has one row per transfer, ns-2's
has the long-lived and UDP flows only; `completed_transfers` reads the `W` records.

**Finite transfers** (`topology.groups[].transfer = {kind: 'finite', size}`): the flow's FTP
sends `size` bytes at its start instead of `start` (an infinite backlog), and its completion
time is recorded from the same `done` callback: `D <flow> <done s>`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

#: A web group's transfers are drawn from numpy's generator seeded with (run seed, this tag,
#: group index): independent streams per group, repeatable per seed.
WEB_STREAM_TAG = 0x77656221


@dataclass(frozen=True)
class Transfers:
    """One web group's transfers: arrival times (s) and application bytes."""

    arrivals_s: np.ndarray
    sizes_bytes: np.ndarray


def draw_size(size: dict[str, Any], rng: np.random.Generator, n: int) -> np.ndarray:
    """`n` transfer sizes (bytes, >= 1) of the resolved `size` table, as topology.rs draw_size."""
    u = 1.0 - rng.random(n)  # in (0, 1], as the engine's 1 - gen::<f64>()
    kind = size["kind"]
    if kind == "pareto":
        shape = float(size["shape"])
        scale = float(size["mean_bytes"]) * (shape - 1.0) / shape
        raw = scale / u ** (1.0 / shape)
    elif kind == "exponential":
        raw = -float(size["mean_bytes"]) * np.log(u)
    elif kind == "fixed":
        raw = np.full(n, float(size["bytes"]))
    else:
        raise ValueError(f"traffic.size.kind = {kind!r}: pareto, exponential or fixed")
    return np.maximum(np.ceil(raw), 1.0).astype(np.int64)


def draw_transfers(traffic: dict[str, Any], first_s: float, last_s: float, seed: int, group: int) -> Transfers:
    """Poisson arrivals of rate `arrival_rate_per_s` in [first_s, last_s) (exponential gaps, as
    topology.rs group_flows) and one size per arrival."""
    rate = float(traffic["arrival_rate_per_s"])
    rng = np.random.default_rng([seed, WEB_STREAM_TAG, group])
    expected = max(0.0, (last_s - first_s) * rate)
    chunks = []
    t = first_s
    while True:
        gaps = rng.exponential(1.0 / rate, int(expected + 10 * math.sqrt(expected) + 16))
        times = t + np.cumsum(gaps)
        chunks.append(times[times < last_s])
        if times[-1] >= last_s:
            break
        t = float(times[-1])
    arrivals = np.concatenate(chunks)
    return Transfers(arrivals, draw_size(traffic["size"], rng, arrivals.size))


def web_window(group: dict[str, Any], duration_s: float, where: str) -> tuple[float, float]:
    """When the group's arrivals begin and end (s): a fixed start; never or a fixed stop."""
    start, stop = group["start"], group["stop"]
    if start["kind"] != "fixed":
        raise ValueError(f"{where}.start.kind = {start['kind']!r}: web arrivals begin at a fixed time")
    if stop["kind"] == "never":
        return start["at_ns"] / 1e9, duration_s
    if stop["kind"] == "fixed":
        return start["at_ns"] / 1e9, min(stop["at_ns"] / 1e9, duration_s)
    raise ValueError(f"{where}.stop.kind = {stop['kind']!r}: web arrivals end never or at a fixed time")


def drain_s(queue: dict[str, Any], rate_bps: float, packet_bytes: int) -> float:
    """The longest a packet waits in `queue` (a full buffer drained at `rate_bps`)."""
    limit = queue.get("limit", {})
    held = limit["bytes"] if "bytes" in limit else limit.get("packets", 0) * packet_bytes
    return held * 8.0 / rate_bps


def quarantine_s(rtt_s: float, path_drains_s: list[float]) -> float:
    """Idle time before a web agent is reused: twice the longest a packet stays in the network
    (its RTT plus every queue on the path drained), at least 1 s."""
    return max(1.0, 2.0 * (rtt_s + sum(path_drains_s)))


def tcl_list(values: np.ndarray, fmt: str) -> str:
    return "{" + " ".join(fmt % v for v in values) + "}"


def web_group_tcl(
    g: int, agent: str, sink: str, settings: list[tuple[str, str]], transfers: Transfers, quarantine: float
) -> list[tuple[str, str]]:
    """Tcl lines of web group `g` (its shared sender `$ws(g)` and receiver `$wr(g)` exist):
    the transfers' lists, the pool and the arrival chain (module docstring)."""
    setup = "; ".join(f"$a {setting}" for setting, _ in settings)
    lines = [
        (f"set wt({g}) {tcl_list(transfers.arrivals_s, '%.9f')}", "arrival times (web_traffic.draw_transfers)"),
        (f"set wb({g}) {tcl_list(transfers.sizes_bytes, '%d')}", "transfer sizes, bytes"),
        (f"set wqh({g}) 0; set wqt({g}) 0; set wn({g}) 0; set wquar({g}) {quarantine!r}", "idle pool (a FIFO)"),
        (
            f"proc web_new_{g} {{}} {{\n"
            "    global ns ws wr wa wk wapp wn\n"
            f"    set id {g}.[incr wn({g})]\n"
            f"    set a [new {agent}]; set k [new {sink}]\n"
            + (f"    {setup}\n" if setup else "")
            + f"    $a set fid_ [expr 1000000 + {g}]\n"
            f"    $ns attach-agent $ws({g}) $a; $ns attach-agent $wr({g}) $k; $ns connect $a $k\n"
            "    set wa($id) $a; set wk($id) $k; set wapp($id) [$a attach-app FTP]\n"
            f'    $a proc done {{}} "web_done {g} $id"\n'
            "    return $id\n"
            "}",
            f"a new {agent} + {sink} pair of the group (tcp_agent)",
        ),
    ]
    return lines


#: The group-independent procedures (arrival chain, pool, completion record). The idle pool is
#: a FIFO in an array (`wqa(g,k)`, head `wqh`, tail `wqt`): `lappend` to an ever-growing list
#: copied it on every completion here (quadratic: a 30-s run of seed 004's Fig. 4 took 14.8 s
#: of CPU with the list, 3.1 s with the array, the same 830 agents).
WEB_PROCS = (
    "proc web_arrive {g i} {\n"
    "    global ns wt wb wqa wqh wqt wquar wa wk wapp wstart wbytes\n"
    '    set now [$ns now]; set id ""\n'
    "    if {$wqh($g) < $wqt($g)} {\n"
    "        set head $wqa($g,$wqh($g))\n"
    "        if {[lindex $head 1] + $wquar($g) <= $now} {\n"
    "            set id [lindex $head 0]; unset wqa($g,$wqh($g)); incr wqh($g)\n"
    "            $wa($id) reset; $wk($id) reset\n"
    "        }\n"
    "    }\n"
    '    if {$id == ""} { set id [web_new_$g] }\n'
    "    set wstart($id) $now; set wbytes($id) [lindex $wb($g) $i]\n"
    "    $wapp($id) send $wbytes($id)\n"
    "    incr i\n"
    '    if {$i < [llength $wt($g)]} { $ns at [lindex $wt($g) $i] "web_arrive $g $i" }\n'
    "}\n"
    "proc web_done {g id} {\n"
    "    global ns out wqa wqt wstart wbytes\n"
    "    set now [$ns now]\n"
    '    puts $out "W $g $wstart($id) $now $wbytes($id)"\n'
    "    set wqa($g,$wqt($g)) [list $id $now]; incr wqt($g)\n"
    "}"
)


def finite_start(flow: int, size_bytes: int, start_s: float) -> list[tuple[str, str]]:
    """A finite transfer: `size_bytes` sent at the start, its completion recorded (`D`)."""
    return [
        (f'$a({flow}) proc done {{}} {{ global ns out; puts $out "D {flow} [$ns now]" }}', "completion time"),
        (f'$ns at {start_s!r} "$app({flow}) send {size_bytes}"', "transfer.size (ceil(size / packetSize_) segments)"),
    ]


# --- Reading the records -----------------------------------------------------------------


def completed_transfers(text: str) -> dict[int, np.ndarray]:
    """Per web group: completed transfers as rows (arrival s, done s, bytes) from `W` records."""
    rows: dict[int, list[list[float]]] = {}
    for line in text.splitlines():
        if line.startswith("W "):
            words = line.split()
            rows.setdefault(int(words[1]), []).append([float(w) for w in words[2:5]])
    return {g: np.array(r, dtype=float).reshape(-1, 3) for g, r in rows.items()}


def completion_times(text: str, flows: int) -> np.ndarray:
    """Per flow: the completion time (s) of its finite transfer from `D` records, NaN if none."""
    done = np.full(flows, math.nan)
    for line in text.splitlines():
        if line.startswith("D "):
            words = line.split()
            done[int(words[1])] = float(words[2])
    return done
