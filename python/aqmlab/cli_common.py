"""What every `aqmlab` command shares: error output, the overwrite rule, option grammar."""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

import typer


def console():
    """The stderr console (progress, messages); results go to stdout."""
    from rich.console import Console

    return Console(stderr=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """One line on stderr, `error: ...`, and exit `code` (2: bad input)."""
    console().print(f"[bold red]error:[/] {message}", highlight=False)
    raise typer.Exit(code)


def refuse_to_overwrite(out: Path, force: bool) -> None:
    """The one overwrite rule: an existing non-empty OUT is refused unless --force."""
    if force or not out.exists():
        return
    if out.is_dir() and not any(out.iterdir()):
        return
    fail(f"{out} exists and is not empty; pass --force to replace it")
