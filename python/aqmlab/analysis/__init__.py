"""Measures shared by experiments, reproductions and stability: signal metrics of traces
(`metrics`), the packet scenario → fluid model mapping (`fluid_mapping`) and confidence
intervals over seeds (`statistics`). A lower layer: it imports neither `experiments` nor
`reproduce`."""
