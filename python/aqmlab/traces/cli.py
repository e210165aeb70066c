"""`aqmlab trace RUN_DIR --format ns2|pcap|parquet`: a run's per-packet trace as ns-2 trace
lines, a pcap capture or the Parquet table (docs/results.md, "Per-packet traces")."""

from __future__ import annotations

import shutil
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from aqmlab.cli_common import fail, refuse_to_overwrite
from aqmlab.errors import AqmlabError


class Format(str, Enum):
    ns2 = "ns2"
    pcap = "pcap"
    parquet = "parquet"


class CapturePoint(str, Enum):
    dequeue = "dequeue"
    enqueue = "enqueue"
    receive = "receive"


#: File name in the run directory by default, per format.
DEFAULT_NAMES = {Format.ns2: "packet_trace.tr", Format.pcap: "packet_trace.pcap", Format.parquet: None}


def trace_command(
    directory: Annotated[Path, typer.Argument(help="A run directory written by `aqmlab run`.")],
    format: Annotated[Format, typer.Option("--format", "-f", help="ns2 trace lines, pcap, or the Parquet table.")] = (
        Format.ns2
    ),
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Output file (default: packet_trace.tr / .pcap in the run directory)."),
    ] = None,
    link: Annotated[
        list[str] | None, typer.Option("--link", help="pcap: capture on this link (repeatable; default: every one).")
    ] = None,
    at: Annotated[
        CapturePoint, typer.Option("--at", help="pcap: capture as packets leave the queue, reach it, or arrive.")
    ] = CapturePoint.dequeue,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing output file.")] = False,
) -> None:
    """Write a run's per-packet trace (recorded when its scenario sets trace.packets)."""
    from aqmlab.results import PACKET_TRACE, Results
    from aqmlab.traces import write_ns2, write_pcap

    source = directory / f"{PACKET_TRACE}.parquet"
    if format is Format.parquet and out is None:
        typer.echo(source)
        return
    target = out if out is not None else directory / DEFAULT_NAMES[format]
    try:
        if not directory.is_dir():
            fail(f"{directory} is not a run directory")
        results = Results.load(directory)
        if results.packet_trace is None:
            fail(
                f"{directory} holds no per-packet trace: its scenario sets no trace.packets; add e.g. "
                'trace.packets = { links = ["bottleneck"] } and run it again'
            )
        refuse_to_overwrite(target, force)
        if format is Format.ns2:
            write_ns2(results.packet_trace, target)
        elif format is Format.pcap:
            write_pcap(results.packet_trace, target, at=at.value, links=link)
        else:
            shutil.copyfile(source, target)
    except AqmlabError as error:
        fail(str(error))
    typer.echo(target)
