"""`aqmlab chart`: the stability layer's chart command with the packet-chart runner of the
experiments wired in (`--packet`), so that aqmlab.stability does not import aqmlab.experiments."""

from __future__ import annotations

from aqmlab.experiments.packet_chart.command import run_packet_chart
from aqmlab.stability import cli as stability_cli
from aqmlab.stability.cli import chart_command

stability_cli.PACKET_CHART = run_packet_chart

__all__ = ["chart_command"]
