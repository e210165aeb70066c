"""What every `aqmlab` command shares: one grammar for options, ranges, outputs and overwriting.

- Parameters `--set NAME=VALUE` (`-s`), model options `--option NAME=VALUE` (`-O`), both
  repeatable.
- A range is `LOW..HIGH` (`45..450`, `50ms..200ms`, `tau=0.05..0.3`); a list is `a,b,c`.
- `--out DIR` (`-o`) is always the directory that receives the command's files; every
  command that writes has one, with a default under `aqmlab-out/`.
- One overwrite rule: an existing, non-empty output is refused; `--force` replaces it
  (`aqmlab sweep` also continues a study with `--resume`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import typer

#: Where commands write when no --out is given.
DEFAULT_OUT = Path("aqmlab-out")


def console():
    """The stderr console (progress, messages); results go to stdout."""
    from rich.console import Console

    return Console(stderr=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """One line on stderr, `error: ...`, and exit `code` (2: bad input)."""
    from rich.markup import escape

    console().print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def refuse_to_overwrite(out: Path, force: bool, *, what: str = "") -> None:
    """The one overwrite rule: an existing, non-empty OUT (a directory, or a file) is refused
    unless --force. Hidden entries (staging folders and temporary files a killed writer left)
    do not count: such a folder is written into."""
    if force or not out.exists():
        return
    if out.is_dir() and not any(not entry.name.startswith(".") for entry in out.iterdir()):
        return
    fail(f"{out} exists{' and is not empty' if out.is_dir() else ''}{what}; pass --force to replace it")


def assignment(text: str, option: str) -> tuple[str, str]:
    """'NAME=VALUE' -> (name, value)."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        fail(f"{option} {text!r}; allowed: NAME=VALUE")
    return name.strip(), value.strip()


def assignments(items: list[str] | None, option: str) -> dict[str, str]:
    return dict(assignment(item, option) for item in items or [])


def parse_range(text: str, option: str, parse: Callable[[str], Any] = float) -> tuple[Any, Any]:
    """'LOW..HIGH' -> (low, high), each through `parse`; a single value is (v, v)."""
    parts = text.split("..")
    if len(parts) > 2 or any(not part.strip() for part in parts):
        fail(f"{option} {text!r}; allowed: a value or a range LOW..HIGH")
    try:
        values = [parse(part.strip()) for part in parts]
    except ValueError as error:
        guess = text.replace(":", "..") if ":" in text and ".." not in text else None
        hint = f"; did you mean {guess!r}?" if guess else ""
        fail(f"{option} {text!r}: {error}; allowed: a value or a range LOW..HIGH{hint}")
    low, high = values[0], values[-1]
    if isinstance(low, float) and not (math.isfinite(low) and math.isfinite(high)):
        fail(f"{option} {text!r}; allowed: finite values")
    if low > high:
        fail(f"{option} {text!r}: the range is reversed (LOW > HIGH)")
    return low, high


def named_range(text: str, option: str, *, need_range: bool = True) -> tuple[str, tuple[float, float] | None]:
    """'NAME=LOW..HIGH' -> (name, (low, high)); with `need_range=False`, also 'NAME' -> (name, None)."""
    if "=" not in text:
        if need_range:
            fail(f"{option} {text!r}; allowed: NAME=LOW..HIGH")
        return text.strip(), None
    name, value = assignment(text, option)
    low, high = parse_range(value, option)
    if not low < high:
        fail(f"{option} {text!r}; allowed: NAME=LOW..HIGH with LOW < HIGH")
    return name, (low, high)
