"""Reading and writing result directories: packet-level run directories and reproduction
records. One module for the CLI (`aqmlab run`), the reproduction runner and the report, so
none of them imports another's internals.

* `write_run(results, out, force=...)`: a run directory (Parquet tables, `scenario.json`,
  `summary.json`) with its figures, all or nothing (`Results.save`).
* `write_json` / `read_json`: a JSON file written atomically and durably (a reader never
  sees half of it; the temporary file never outlives a failure).
* `write_reproduction` / `read_reproduction`: a reproduction's `reproduction.json` (what the
  paper states, what aqmlab measured, the criterion and the verdict of every claim).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from aqmlab._fsio import write_atomic
from aqmlab.errors import ResultsError
from aqmlab.results import Results

REPRODUCTION_FILE = "reproduction.json"


def write_run(results: Results, out: str | Path, *, force: bool) -> Path:
    """Data, summary and figures of one packet-level run into `out`, all or nothing."""
    from aqmlab.plots import plot_run

    def figures(staging: Path) -> None:
        plot_run(results, staging / "figure.png")
        for link in list(results.summary_records())[1:]:  # partial results may have no summaries
            plot_run(results, staging / f"figure-{link}.png", link=link)

    return results.save(out, overwrite=force, extra=figures)


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
