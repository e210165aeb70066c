"""Queue policies and window laws written in Python (docs/extending.md).

A scenario uses them by reference, so that it stays a small serialisable file and sweep
workers (local processes, Dask) can import them::

    queue = { kind = "python", policy = "my_red.py:MyRed", limit = "2084p", params = { max_p = 0.1 } }
    cc = { kind = "python", law = "mypackage.laws:Aimd", params = { a = 1.0 } }

A reference is ``"module:Class"`` (a module on ``sys.path``) or ``"path/file.py:Class"``
(absolute, or relative to the working directory). ``params`` are the class's keyword
arguments. The engine calls the hooks on the links and flows that use the class:

- `QueuePolicy.on_enqueue(queue, packet)` at every arrival, returning ACCEPT (or None), MARK,
  DROP_EARLY or DROP_FORCED; optionally `on_dequeue(queue, packet)` for the head about to be
  sent (then `decides_at_arrival` must stay False), `on_overflow()`, and for the link traces
  `average_queue()` and `drop_probability()`. `queue.uniform()` draws from the link's own
  random stream, the one a built-in policy on that link draws from.
- `WindowLaw.on_ack(ack)`, `on_loss(event)`, `on_timeout(event)`, `on_ecn(event)` update
  `self.cwnd` and `self.ssthresh` (segments); `self.rng.uniform()` is the flow's own stream.

An exception in a hook fails the run with one `aqmlab.errors.UserCodeError` whose message
ends with the user's traceback; nothing of the run is kept.
"""

from __future__ import annotations

import enum
import hashlib
import importlib
import importlib.util
import inspect
import sys
import traceback
from pathlib import Path
from typing import Any

from aqmlab.errors import ScenarioError, UserCodeError

__all__ = [
    "ACCEPT",
    "DROP_EARLY",
    "DROP_FORCED",
    "MARK",
    "QueuePolicy",
    "Verdict",
    "WindowLaw",
    "load_class",
    "powi",
]


class Verdict(enum.IntEnum):
    """What a queue policy decides for a packet (at arrival, or at the head at dequeue)."""

    ACCEPT = 0
    """Queue it (at dequeue: send it)."""
    MARK = 1
    """Queue it with CE set; a packet that is not ECN-capable is dropped instead (RFC 3168 §5)."""
    DROP_EARLY = 2
    """An early, probabilistic drop (counted as `dropped_early`)."""
    DROP_FORCED = 3
    """A forced drop, e.g. RED above max_th (counted as `dropped_forced`)."""


ACCEPT, MARK, DROP_EARLY, DROP_FORCED = Verdict.ACCEPT, Verdict.MARK, Verdict.DROP_EARLY, Verdict.DROP_FORCED


class QueuePolicy:
    """Base of a queue policy written in Python. Subclass it and define `on_enqueue`.

    The engine's queue does the FIFO, the buffer limit and the counting; the policy only
    decides. `queue` (an `aqmlab._engine.QueueState`) has `now` (s), `packets`, `bytes`,
    `idle_time` (s the queue has been empty, 0 if it is not), `link_rate_bps` and
    `uniform()`; `packet` (an `aqmlab._engine.PacketView`) has `flow`, `size` (bytes),
    `seq`, `is_ack`, `ecn_capable` and `enqueued_at` (s). Both are valid during the call only.
    """

    decides_at_arrival: bool = False
    """True if the policy decides only in `on_enqueue` and reads nothing that changes between a
    packet's arrival and its departure: the link is then computed without events (Lindley's
    recursion, crates/engine/src/queue/mod.rs), much faster. A policy with `on_dequeue` must
    keep False."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # The one hook every policy needs, required where the class is written (the engine
        # never has to call a base method that can only fail).
        super().__init_subclass__(**kwargs)
        if not callable(getattr(cls, "on_enqueue", None)):
            raise TypeError(f"{cls.__name__} must define on_enqueue(self, queue, packet) (a QueuePolicy)")


class WindowLaw:
    """Base of a congestion-control window law written in Python.

    The engine's shared TCP sender does loss detection, recovery, RTO and ECN bookkeeping and
    calls the hooks; the law keeps `self.cwnd` and `self.ssthresh` (segments, set by the engine
    to the flow's initial values before the first hook). The defaults are RFC 5681's: slow
    start and +1/cwnd per ACK (Section 3.1), ssthresh = max(FlightSize/2, 2) on a loss (eq.
    (4)) with cwnd = ssthresh (Section 3.2), cwnd = 1 after a timeout (Section 3.1), and an ECN
    echo treated as a loss (RFC 3168 Section 6.1.2).
    """

    ecn_per_ack: bool = False
    """True: every new ACK reaches `on_ack` with `ack.ece` set when it echoes a mark (needs
    `ecn_echo = "per_packet"`), and `on_ecn` is never called."""

    cwnd: float
    ssthresh: float

    def on_ack(self, ack: Any) -> None:
        """New data acknowledged (`ack.now`, `acked`, `delivered`, `rtt`, `min_rtt`, `srtt`,
        `in_flight`, `ece`; times in s)."""
        if ack.acked == 0:
            return
        if self.cwnd < self.ssthresh:
            self.cwnd += 1.0  # RFC 5681 Section 3.1 slow start: at most one SMSS per ACK
        else:
            self.cwnd += 1.0 / self.cwnd  # RFC 5681 Section 3.1 congestion avoidance, eq. (3)

    def on_loss(self, event: Any) -> None:
        """Three duplicate ACKs (`event.now`, `in_flight`, `srtt`, `min_rtt`)."""
        self.ssthresh = self.cwnd = max(event.in_flight / 2, 2.0)  # RFC 5681 eq. (4), Section 3.2

    def on_timeout(self, event: Any) -> None:
        self.ssthresh = max(event.in_flight / 2, 2.0)  # RFC 5681 eq. (4)
        self.cwnd = 1.0  # RFC 5681 Section 3.1: the loss window

    def on_ecn(self, event: Any) -> None:
        self.on_loss(event)  # RFC 3168 Section 6.1.2: as a loss, at most once per window


def powi(x: float, n: int) -> float:
    """x**n rounded exactly as the engine rounds it: Rust's `f64::powi` is LLVM's `powi`, which
    calls compiler-builtins' `__powidf2`, square and multiply from the lowest bit of |n|
    (Python's `x ** n` calls C's `pow`, which may differ in the last bit). A port of a built-in
    policy uses it to give the built-in's results bit for bit; tests/extending checks it
    against the engine's own `powi`."""
    result, power = 1.0, abs(n)
    while True:
        if power & 1:
            result *= x
        power >>= 1
        if power == 0:
            return 1.0 / result if n < 0 else result
        x *= x


_loaded_files: dict[str, Any] = {}


def load_class(reference: str, base: type, field: str = "class") -> type:
    """The class a reference ``"module:Class"`` or ``"path/file.py:Class"`` names, checked to
    be a subclass of `base`. Errors are `ScenarioError`s naming `field`; an exception raised
    while importing the user's module is chained (its traceback is kept)."""
    allowed = f'"module:Class" or "path/file.py:Class" naming a subclass of aqmlab.extensions.{base.__name__}'
    if not isinstance(reference, str) or ":" not in reference:
        raise ScenarioError(f"{field} = {reference!r}; allowed: {allowed}")
    where, _, name = reference.rpartition(":")
    if not where or not name.isidentifier():
        raise ScenarioError(f"{field} = {reference!r}; allowed: {allowed}")
    try:
        module = _import_file(where) if where.endswith(".py") else importlib.import_module(where)
    except (ImportError, OSError) as error:
        raise ScenarioError(f"{field} = {reference!r}: cannot import {where}: {error}; allowed: {allowed}") from error
    except Exception as error:
        raise ScenarioError(f"{field} = {reference!r}: importing {where} raised {error!r}") from error
    cls = getattr(module, name, None)
    if not (isinstance(cls, type) and issubclass(cls, base)):
        found = "nothing" if cls is None else repr(cls)
        raise ScenarioError(f"{field} = {reference!r}: {where} has {found} named {name}; allowed: {allowed}")
    return cls


def _import_file(path: str) -> Any:
    """Import a Python file once per process under a name made from its absolute path."""
    file = Path(path).expanduser().resolve()
    if not file.is_file():
        raise FileNotFoundError(f"no file {file}")
    key = str(file)
    if key not in _loaded_files:
        name = f"aqmlab_user_{file.stem}_{hashlib.sha1(key.encode()).hexdigest()[:8]}"
        spec = importlib.util.spec_from_file_location(name, file)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses and pickling look the module up by name
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
        _loaded_files[key] = module
    return _loaded_files[key]


def _instantiate(cls: type, params: dict[str, Any], field: str) -> Any:
    """`cls(**params)`; params the constructor does not take are a `ScenarioError` naming the
    field (an exception raised inside the constructor is the user's, with its traceback)."""
    try:
        inspect.signature(cls).bind(**params)
    except TypeError as error:
        raise ScenarioError(
            f"{field.rpartition('.')[0]}.params = {params!r}: {cls.__name__}({', '.join(params)}) does not "
            f"fit its constructor {cls.__name__}{inspect.signature(cls)}: {error}"
        ) from error
    return cls(**params)


def _build_queue_policy(reference: str, params: dict[str, Any], field: str) -> QueuePolicy:
    """The engine's factory (crates/py/src/hooks/queue.rs) builds each link's policy here."""
    cls = load_class(reference, QueuePolicy, field)
    if "on_dequeue" in dir(cls) and cls.decides_at_arrival:
        raise ScenarioError(
            f"{field} = {reference!r}: {cls.__name__} defines on_dequeue but declares decides_at_arrival = True; "
            "allowed: decides_at_arrival = False for a policy that acts at dequeue"
        )
    return _instantiate(cls, params, field)


def _build_window_law(reference: str, params: dict[str, Any], field: str) -> WindowLaw:
    """The engine's factory (crates/py/src/hooks/cc.rs) builds each flow's law here."""
    return _instantiate(load_class(reference, WindowLaw, field), params, field)


def _hook_error(error: BaseException, hook: str, field: str, at_s: float) -> Exception:
    """The one exception a failed hook becomes: where, when, and the user's traceback (a
    `ScenarioError` from building it, e.g. a reference that names no class, stays one)."""
    if isinstance(error, ScenarioError):
        return error
    trace = "".join(traceback.format_exception(error)).rstrip()
    when = f" at t = {at_s:.6f} s" if at_s > 0 else ""
    failure = UserCodeError(f"{field}: {hook} raised {type(error).__name__}: {error}{when}\n{trace}")
    failure.__cause__ = error
    return failure
