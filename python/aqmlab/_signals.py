"""Ctrl-C, SIGTERM and SIGHUP at safe points: hold them back while something must not be torn
in half.

Python raises `KeyboardInterrupt` at any bytecode boundary on a SIGINT. The `aqmlab` command
(`install()`) makes SIGTERM and SIGHUP do the same, so a `kill` or a closed terminal stops a
run like Ctrl-C does: partial results are written and marked partial, staging folders are
removed, and the exit code is 128 + the signal (`exit_code()`). Around the few steps that
must complete once begun (collecting partial results, renaming a results directory into
place), `held_interrupts()` records such a signal instead and lets the caller act on it
afterwards. Only the main thread receives signals; elsewhere the context does nothing.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: The signals that stop aqmlab like Ctrl-C (where `install()` was called).
STOPPING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

#: The last stopping signal received (None before any).
last_signal: int | None = None
#: In a worker process: a signal while no task runs (`busy` false) ends the process quietly
#: instead of printing a KeyboardInterrupt traceback from the pool's machinery.
exit_when_idle = False
busy = False


def as_interrupt(signum, frame) -> None:
    """A handler: the signal is a Ctrl-C (KeyboardInterrupt), and `last_signal` remembers it."""
    global last_signal
    last_signal = signum
    if exit_when_idle and not busy:
        exit_now(128 + signum)
    raise KeyboardInterrupt


def install() -> None:
    """SIGINT, SIGTERM and SIGHUP raise KeyboardInterrupt (where not ignored or taken over)."""
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in STOPPING:
        if signal.getsignal(signum) in (signal.SIG_DFL, signal.default_int_handler):
            signal.signal(signum, as_interrupt)
    if sys.unraisablehook is not _redeliver_lost_interrupt:
        global _previous_unraisablehook
        _previous_unraisablehook = sys.unraisablehook
        sys.unraisablehook = _redeliver_lost_interrupt


_previous_unraisablehook = sys.unraisablehook


def _redeliver_lost_interrupt(unraisable) -> None:
    """A stopping signal whose KeyboardInterrupt was raised where Python cannot propagate it
    (a weakref or garbage-collector callback, such as importlib's module-lock cleanup) would
    be printed as "Exception ignored in ..." and the program would go on as if no signal had
    come. Deliver it again instead, 5 ms later (a SIGALRM from a one-shot timer), when the
    callback has returned and the KeyboardInterrupt propagates as usual."""
    if issubclass(unraisable.exc_type, KeyboardInterrupt) and last_signal is not None and hasattr(signal, "setitimer"):
        signal.signal(signal.SIGALRM, _lost_signal_again)
        signal.setitimer(signal.ITIMER_REAL, 0.005)
        return
    _previous_unraisablehook(unraisable)


def _lost_signal_again(signum, frame) -> None:
    as_interrupt(last_signal, frame)


def exit_code() -> int:
    """128 + the signal that stopped the program (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP)."""
    return 128 + (last_signal or signal.SIGINT)


def exit_now(code: int) -> None:
    """Flush stdout and stderr and end the process with `code` at once."""
    import os
    import sys

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def _ours(handler) -> bool:
    return handler is signal.default_int_handler or handler is as_interrupt


class Held:
    """What happened while interrupts were held: `pending` is true once a stopping signal came."""

    def __init__(self) -> None:
        self.pending = False
        #: While armed, a signal raises KeyboardInterrupt at once (the default behaviour).
        self.armed = False
        self.signum: int | None = None

    def _handler(self, signum, frame) -> None:
        global last_signal
        last_signal = self.signum = signum
        if self.armed:
            self.armed = False
            self.pending = True
            raise KeyboardInterrupt
        self.pending = True


@contextmanager
def held_interrupts(*, armed: bool = False) -> Iterator[Held]:
    """Record SIGINTs (and SIGTERM/SIGHUP where `install()` made them interrupts) for the
    duration; raise them at once while `held.armed`. The previous handlers are restored on
    exit; the caller decides what a pending interrupt means. Leaves signals alone outside
    the main thread and where the program has its own handler."""
    held = Held()
    held.armed = armed
    if threading.current_thread() is not threading.main_thread():
        yield held
        return
    previous = {signum: signal.getsignal(signum) for signum in STOPPING}
    taken = [signum for signum, handler in previous.items() if _ours(handler)]
    for signum in taken:
        signal.signal(signum, held._handler)
    try:
        yield held
    finally:
        for signum in taken:
            signal.signal(signum, previous[signum])
