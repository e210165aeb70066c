"""Ctrl-C at safe points: hold a SIGINT back while something must not be torn in half.

Python raises `KeyboardInterrupt` at any bytecode boundary. Around the few steps that must
complete once begun (collecting partial results, renaming a results directory into place),
`held_interrupts()` records a SIGINT instead and lets the caller act on it afterwards.
Only the main thread receives signals; elsewhere the context does nothing.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class Held:
    """What happened while interrupts were held: `pending` is true once a SIGINT came."""

    def __init__(self) -> None:
        self.pending = False
        #: While armed, a SIGINT raises KeyboardInterrupt at once (the default behaviour).
        self.armed = False

    def _handler(self, signum, frame) -> None:
        if self.armed:
            self.armed = False
            self.pending = True
            raise KeyboardInterrupt
        self.pending = True


@contextmanager
def held_interrupts(*, armed: bool = False) -> Iterator[Held]:
    """Record SIGINTs for the duration (raise them at once while `held.armed`). The previous
    handler is restored on exit; the caller decides what a pending interrupt means. Leaves
    signals alone outside the main thread or when the program has its own SIGINT handler."""
    held = Held()
    held.armed = armed
    if threading.current_thread() is not threading.main_thread():
        yield held
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is not signal.default_int_handler:
        yield held
        return
    signal.signal(signal.SIGINT, held._handler)
    try:
        yield held
    finally:
        signal.signal(signal.SIGINT, previous)
