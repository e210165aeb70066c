"""`aqmlab red-config`: seed 003's RED configuration program on the command line."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from aqmlab import units

console = Console(stderr=True)


def _range(text: str, parse, option: str):
    parts = text.split("..")
    if len(parts) > 2:
        raise typer.BadParameter(f"{text!r}: give one value or LOW..HIGH", param_hint=option)
    try:
        values = [parse(part) for part in parts]
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint=option) from None
    low, high = values[0], values[-1]
    if low > high:
        raise typer.BadParameter(f"{text!r}: the range is reversed (low > high)", param_hint=option)
    if low <= 0:
        raise typer.BadParameter(f"{text!r}: values must be greater than zero", param_hint=option)
    from aqmlab.design.red_config import Range

    return Range(low, high)


def red_config(
    rate: Annotated[str, typer.Option(help="Line rate, e.g. 45Mbps.")],
    rtt: Annotated[str, typer.Option(help="Round-trip time without this link's queue: 100ms or 50ms..200ms.")],
    flows: Annotated[str | None, typer.Option(help="Number of flows: 100 or 10..200.")] = None,
    per_flow: Annotated[
        str | None, typer.Option(help="Throughput per flow instead of --flows: 100kbps..1Mbps.")
    ] = None,
    packet_size: Annotated[str, typer.Option(help="Data packet size: 1500B or 500B..1500B.")] = "1500B",
    policy: Annotated[
        str, typer.Option(help="drop-conservative (give --max-p) or delay-conservative (give --max-delay).")
    ] = "drop-conservative",
    max_p: Annotated[
        float | None, typer.Option(help="Drop-conservative: the drop probability at q_max, in (0, 1].")
    ] = None,
    max_delay: Annotated[
        str | None, typer.Option(help="Delay-conservative: the largest queueing delay, e.g. 20ms.")
    ] = None,
    packets_per_ack: Annotated[float, typer.Option(help="b of the PFTK model: 1, or 2 with delayed ACKs.")] = 1.0,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="Also write red-config.toml and the queue/control-law figure red-config.png here."
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace OUT if it exists and is not empty.")] = False,
) -> None:
    """Recommend RED settings from traffic ranges (seed 003 Sections III-IV) and print a queue
    table to paste into a scenario file."""
    from aqmlab.design.red_config import operating_points
    from aqmlab.design.red_config import red_config as configure

    if out is not None:
        from aqmlab.cli_common import refuse_to_overwrite

        refuse_to_overwrite(out, force)
    if (flows is None) == (per_flow is None):
        raise typer.BadParameter("give exactly one of --flows and --per-flow", param_hint="--flows/--per-flow")
    try:
        rate_bps = units.bits_per_second(rate)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--rate") from None
    try:
        delay = units.seconds(max_delay) if max_delay is not None else None
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--max-delay") from None
    try:
        recommendation = configure(
            rate_bps,
            flows=_range(flows, float, "--flows") if flows is not None else None,
            per_flow_bps=_range(per_flow, units.bits_per_second, "--per-flow") if per_flow is not None else None,
            packet_bytes=_range(packet_size, units.bytes_, "--packet-size"),
            rtt_s=_range(rtt, units.seconds, "--rtt"),
            policy=policy,
            max_p=max_p,
            max_delay_s=delay,
            b=packets_per_ack,
        )
    except ValueError as error:
        console.print(f"[bold red]error:[/] {error}", highlight=False)
        raise typer.Exit(2) from None
    table = Table(title=f"RED for {rate} ({policy})")
    table.add_column("parameter")
    table.add_column("value", justify="right")
    for key, value in recommendation.as_dict().items():
        table.add_row(key, f"{value:.4g}" if isinstance(value, float) else str(value))
    for name, (p, q) in operating_points(recommendation).items():
        table.add_row(f"operating point with {name}", f"p = {p:.4g}, q = {q:.4g} packets")
    console.print(table)
    print(recommendation.toml())
    if out is not None:
        import shutil

        from aqmlab.design.plots import plot_design

        if out.exists():
            shutil.rmtree(out) if out.is_dir() else out.unlink()
        out.mkdir(parents=True)
        (out / "red-config.toml").write_text(recommendation.toml() + "\n")
        plot_design(recommendation, out / "red-config.png")
        console.print(f"wrote {out}")
