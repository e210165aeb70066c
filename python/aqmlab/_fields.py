"""Field types shared by the scenario models: unit-string quantities and the base model."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict

from aqmlab import units


def _checked(parse):
    def check(value):
        parse(value)
        return value

    return AfterValidator(check)


def _positive(parse):
    def check(value):
        if parse(value) <= 0:
            raise ValueError(f"{value!r} must be greater than zero")
        return value

    return AfterValidator(check)


Number = int | float | str
Duration = Annotated[Number, _checked(units.seconds)]
PositiveDuration = Annotated[Number, _positive(units.seconds)]
Rate = Annotated[Number, _positive(units.bits_per_second)]
Size = Annotated[Number, _positive(units.bytes_)]
QueueLimit = Annotated[Number, _checked(units.queue_limit)]


class Model(BaseModel):
    """Frozen, and unknown fields are errors (a typo never passes silently)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
