"""Pert: the scenario model of `kind = "pert"`, in a module of its own so that its class
is created only when a scenario names the kind (the registry `aqmlab.congestion.CC_KINDS`; issue 28)."""

from typing import Literal

from pydantic import Field, model_validator

from aqmlab import units
from aqmlab._fields import Duration, PositiveDuration
from aqmlab.congestion import _Algorithm


class Pert(_Algorithm):
    """PERT, Probabilistic Early Response TCP (Bhandarkar, Reddy, Zhang, Loguinov, "Emulating
    AQM from end hosts", SIGCOMM 2007): Reno, plus an early response (cwnd × (1 − `beta`))
    with a gentle-RED probability of the queueing delay srtt − minimum RTT: 0 below `t_min`,
    linear to `p_max` at `t_max`, linear to 1 at 2·`t_max`; at most once per round trip.
    srtt has history weight `srtt_weight` per ACK.

    Defaults (the paper's; checked against the ns-3 port `TcpPertRed`): Tmin 5 ms, Tmax
    10 ms, pmax 0.05, srtt weight 0.99, β 0.35. See docs/congestion/pert.md."""

    kind: Literal["pert"] = "pert"
    """Selects PERT (Bhandarkar et al., SIGCOMM 2007)."""
    t_min: Duration = "5ms"
    """Queueing delay (srtt − minimum RTT) below which PERT never responds early."""
    t_max: PositiveDuration = "10ms"
    """Queueing delay at which the early-response probability reaches `p_max`; it then rises
    linearly to 1 at 2·t_max (gentle RED's shape); must be above `t_min`."""
    p_max: float = Field(default=0.05, gt=0.0, le=1.0)
    """Early-response probability at `t_max`."""
    srtt_weight: float = Field(default=0.99, ge=0.0, lt=1.0)
    """History weight of PERT's smoothed RTT per ACK: srtt = w·srtt + (1 − w)·sample."""
    beta: float = Field(default=0.35, gt=0.0, lt=1.0)
    """Fraction of cwnd given up in an early response: cwnd × (1 − beta); losses still halve."""

    @model_validator(mode="after")
    def _check(self) -> "Pert":
        if not 0.0 <= units.seconds(self.t_min) < units.seconds(self.t_max):
            raise ValueError(f"t_max ({self.t_max}) must be above t_min ({self.t_min}), and t_min not negative")
        return self
