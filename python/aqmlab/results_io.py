"""Reading and writing result directories: packet-level run directories and reproduction
records. One module for the CLI (`aqmlab run`), the reproduction runner and the report, so
none of them imports another's internals.

* `write_run(results, out, force=...)`: a run directory (Parquet tables, `scenario.json`,
  `summary.json`) with its figures, all or nothing (`Results.save`); `figures=False` leaves
  the figures to `draw_figures`, so the data need not wait for them (`aqmlab run`).
* `draw_figures(results, out)`: the figures into a written run directory, each whole or absent.
* `write_json` / `read_json`: a JSON file written atomically and durably (a reader never
  sees half of it; the temporary file never outlives a failure).
* `write_reproduction` / `read_reproduction`: a reproduction's `reproduction.json` (what the
  paper states, what aqmlab measured, the criterion and the verdict of every claim).
"""

from __future__ import annotations

import json
import os
import tempfile
from contextlib import suppress
from pathlib import Path
from typing import Any

from aqmlab._fsio import file_mode, write_atomic
from aqmlab.errors import ResultsError
from aqmlab.results import Results

REPRODUCTION_FILE = "reproduction.json"


def write_run(results: Results, out: str | Path, *, force: bool, figures: bool = True) -> Path:
    """Data, summary and (unless not `figures`) figures of one packet-level run into `out`,
    all or nothing."""

    def draw(staging: Path) -> None:
        from aqmlab.plots import plot_run

        for link in figure_links(results):
            plot_run(results, staging / figure_name(link), link=link)

    return results.save(out, overwrite=force, extra=draw if figures else None)


def figure_links(results: Results) -> list[str | None]:
    """The traced links that get a figure: the main link (None), then the other summarised ones."""
    return [None, *list(results.summary_records())[1:]]  # partial results may have no summaries


def figure_name(link: str | None) -> str:
    return "figure.png" if link is None else f"figure-{link}.png"


def draw_figures(results: Results, out: str | Path) -> list[Path]:
    """The run's figures into the run directory `out` (already written): each is drawn into a
    hidden temporary file beside it and renamed into place, so a figure is whole or absent
    and an interruption (KeyboardInterrupt) leaves no temporary file. Not listed in `run.json`."""
    from aqmlab.plots import plot_run

    out = Path(out)
    written = []
    for link in figure_links(results):
        path = out / figure_name(link)
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp.png", dir=out)
        try:
            os.close(fd)
            plot_run(results, name, link=link)
            os.chmod(name, file_mode())
            os.replace(name, path)
        except BaseException:
            with suppress(OSError):
                os.unlink(name)
            raise
        written.append(path)
    return written


def write_json(path: str | Path, value: Any) -> Path:
    """`value` as indented JSON at `path`, replaced atomically."""
    return write_atomic(path, json.dumps(value, indent=2, default=str) + "\n")


def read_json(path: str | Path) -> Any:
    path = Path(path)
    if not path.is_file():
        raise ResultsError(f"{path} does not exist")
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as error:
        raise ResultsError(f"{path} is not valid JSON: {error}") from error


def write_reproduction(directory: str | Path, record: dict[str, Any]) -> Path:
    return write_json(Path(directory) / REPRODUCTION_FILE, record)


def read_reproduction(directory: str | Path) -> dict[str, Any]:
    """The record of a reproduction directory (`reproduction.json`)."""
    return read_json(Path(directory) / REPRODUCTION_FILE)


def is_reproduction(directory: str | Path) -> bool:
    return (Path(directory) / REPRODUCTION_FILE).is_file()
