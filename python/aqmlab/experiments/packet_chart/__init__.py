"""Stability charts from packet simulations (issue 20, docs/stability.md): the oscillation
criterion (`oscillation`), the noisy bisection (`search`), the axes and their fluid
counterparts (`axes`), the resumable probe store on processes or Dask (`probes`), the chart
with the fluid Hopf overlay (`chart`), its figure (`plot`) and the `aqmlab chart --packet`
command's work (`command`). They sit with the experiments, not in `aqmlab.stability`: they
run simulations on the sweep executors, and the layers run one way
(tests/architecture/test_imports.py)."""

from aqmlab.experiments.packet_chart.chart import PacketChart, packet_chart

__all__ = ["PacketChart", "packet_chart"]
