"""TcpGroup (and the Share of its mix): the scenario model of `kind = "tcp"`, in a module of its
own so that its classes are created only when a scenario names the kind (the registry
`aqmlab.traffic.GROUP_KINDS`; issue 28)."""

from typing import Any, Literal

from pydantic import Field, model_validator

from aqmlab._fields import Model, default_of
from aqmlab.congestion import CongestionControl
from aqmlab.kinds.transfer_bulk import Bulk
from aqmlab.traffic import Transfer, _Group, split_by_share
from aqmlab.transport import Tcp


def _kind_by_name(data: Any, field: str) -> Any:
    """`field = "name"` read as `field = { kind = "name" }`: a kind with its defaults."""
    if isinstance(data, dict) and isinstance(data.get(field), str):
        return {**data, field: {"kind": data[field]}}
    return data


class Share(Model):
    """A share of a mixed group: this fraction of its flows runs `cc`."""

    share: float = Field(gt=0.0, le=1.0)
    """Fraction of the group's flows in this share; the shares of a mix add up to 1."""
    cc: CongestionControl
    """Congestion control of this share: a name (`"cubic"`) or a table with `kind` and
    parameters."""

    @model_validator(mode="before")
    @classmethod
    def _cc_shorthand(cls, data: Any) -> Any:
        return _kind_by_name(data, "cc")


class TcpGroup(_Group):
    """`count` TCP flows; with `mix`, split by share among algorithms (seed 004: 80 %
    Compound, 20 % CUBIC), each share becoming its own group named `name/algorithm`."""

    kind: Literal["tcp"] = "tcp"
    """Selects TCP flows (the default kind of a group)."""
    count: int = Field(ge=1, le=1_000_000)
    """Number of TCP flows in the group."""
    tcp: Tcp = Field(default_factory=default_of(Tcp))
    """TCP settings of every flow: congestion control, packet size, timers, ECN, SACK."""
    transfer: Transfer = Field(default_factory=default_of(Bulk))
    """What each flow sends: `"bulk"` (always has data) or `{ kind = "finite", size }`."""
    mix: list[Share] | None = Field(default=None, min_length=1)
    """Split the flows among congestion controls by share (largest-remainder rounding), each
    share replacing `tcp.cc` and becoming a group `name/algorithm` (seed 004: 80 % Compound,
    20 % CUBIC)."""

    @model_validator(mode="before")
    @classmethod
    def _transfer_shorthand(cls, data: Any) -> Any:
        return _kind_by_name(data, "transfer")

    @model_validator(mode="after")
    def _check_mix(self) -> "TcpGroup":
        if self.mix is not None:
            total = sum(share.share for share in self.mix)
            if abs(total - 1.0) > 1e-9:
                raise ValueError(f"mix shares must add up to 1, not {total:g}")
            kinds = [share.cc.kind for share in self.mix]
            if len(set(kinds)) != len(kinds):
                raise ValueError(f"each algorithm may appear once in mix; got {kinds}")
        return self

    def resolved_groups(self) -> list[dict[str, Any]]:
        if self.mix is None:
            parts = [(self.name, self.count, self.tcp)]
        else:
            counts = split_by_share(self.count, [share.share for share in self.mix])
            parts = [
                (f"{self.name}/{share.cc.kind}", count, self.tcp.model_copy(update={"cc": share.cc}))
                for share, count in zip(self.mix, counts, strict=True)
                if count > 0
            ]
        return [
            {
                "name": name,
                "traffic": {"kind": "tcp", "count": count, "tcp": tcp.resolved(), "transfer": self.transfer.resolved()},
                **self._links(),
            }
            for name, count, tcp in parts
        ]
