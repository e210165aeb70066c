"""A stopping signal that lands inside a callback Python cannot propagate from (a weakref
callback, as importlib's module-lock cleanup is) is delivered again, not lost (issue 29's
random-instant signal tests met it: the run went on and printed "Exception ignored")."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = textwrap.dedent(
    """
    import os, signal, sys, time, weakref
    from aqmlab import _signals
    if sys.argv[1] == "install":
        _signals.install()
    else:  # the same handler without the redelivery
        signal.signal(signal.SIGTERM, _signals.as_interrupt)

    class Box:
        pass

    def callback(ref):
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(100):  # the handler runs here, inside the callback
            pass

    box = Box()
    ref = weakref.ref(box, callback)
    try:
        del box
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            pass
        print("went on")
    except KeyboardInterrupt:
        print("stopped by", signal.Signals(_signals.last_signal).name)
    """
)


def run(mode: str) -> subprocess.CompletedProcess:
    env = {"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-c", PROGRAM, mode], capture_output=True, text=True, env=env, timeout=60)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_signal_raised_inside_a_weakref_callback_still_stops_the_program():
    done = run("install")
    assert done.stdout.strip() == "stopped by SIGTERM", done.stdout + done.stderr
    assert "Exception ignored" not in done.stderr, done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_without_the_redelivery_the_signal_is_lost():
    # What the test above guards against: Python prints the interrupt and goes on.
    done = run("handler-only")
    assert done.stdout.strip() == "went on"
    assert "Exception ignored" in done.stderr
