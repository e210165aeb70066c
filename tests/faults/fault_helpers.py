"""Shared helpers of the fault-injection suite: a tiny scenario and sweep, the CLI in-process
and as a subprocess, file damage, and one-line error checks."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from aqmlab.cli import app
from robust_helpers import short, to_toml
from typer.testing import CliRunner

ROOT = Path(__file__).parents[2]


def tiny(duration: str = "0.5s") -> dict:
    data = short("seed000-fig6-rtt10.toml", duration)
    data["topology"]["groups"][0]["count"] = 2
    return data


def scenario_file(directory: Path, duration: str = "0.5s", *, busy: bool = False) -> Path:
    """A tiny scenario (2 flows: 60 s simulated in 0.03 s); `busy`: the example's own flows
    (on a quiet machine with issue 28's engine: 60 s in about 0.13 s, 300 s in about 0.6 s,
    3000 s in about 6 s; a test that needs its signal to land mid-simulation takes a run
    several seconds long, not one tuned to today's engine speed)."""
    path = directory / "tiny.toml"
    path.write_text(to_toml(short("seed000-fig6-rtt10.toml", duration) if busy else tiny(duration)))
    return path


def sweep_spec(seeds=(1, 2, 3), duration: str = "0.5s", *, busy: bool = False) -> dict:
    base = short("seed000-fig6-rtt10.toml", duration) if busy else tiny(duration)
    return {"name": "faults", "base": base, "seeds": list(seeds)}


def sweep_file(directory: Path, seeds=(1, 2, 3), duration: str = "0.5s", *, busy: bool = False) -> Path:
    path = directory / "sweep.toml"
    path.write_text(to_toml(sweep_spec(seeds, duration, busy=busy)))
    return path


def cli(*args: str):
    """The CLI in this process: (exit code, output)."""
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.output


def env() -> dict[str, str]:
    return {**os.environ, "MPLBACKEND": "Agg"}


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "aqmlab.cli", *(str(a) for a in args)]


def _default_stop_signals() -> None:
    """In the child: SIGTERM and SIGHUP at their defaults. A test run under `nohup` (or any
    launcher that ignores them) would otherwise hand the CLI an ignored SIGHUP, which it rightly
    keeps ignored (`aqmlab.cli`: an inherited SIG_IGN is respected), and the test would see a
    complete run instead of a stopped one."""
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)


def spawn(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        command(*args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env(),
        preexec_fn=_default_stop_signals,
    )


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(command(*args), capture_output=True, text=True, env=env(), timeout=timeout)


def assert_one_error_line(output: str, *needles: str) -> None:
    """Exactly one `error:` line, no traceback, and every needle in that line."""
    lines = [line for line in output.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "Traceback" not in output, output
    for needle in needles:
        assert needle in lines[0], (needle, output)


def flip_byte(path: Path, at: float = 0.5) -> None:
    data = bytearray(path.read_bytes())
    data[int(len(data) * at)] ^= 0x01
    path.write_bytes(bytes(data))


def truncate(path: Path, keep: float = 0.5) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])


def tree_bytes(directory: Path, *, skip=("run.json", "scenario.json", "figure")) -> dict[str, bytes]:
    """Every file under `directory` (relative path -> bytes), without those that record wall
    times or render differently (`skip` prefixes of the file name)."""
    return {
        p.relative_to(directory).as_posix(): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file() and not p.name.startswith(skip)
    }


def hidden_entries(directory: Path) -> list[str]:
    return sorted(p.relative_to(directory).as_posix() for p in directory.rglob(".*"))
