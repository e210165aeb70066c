"""Window increase/decrease pairs i(w), d(w) of the general TCP window law
ẇ = [i(w)(1 − p(t−τ)) − d(w) p(t−τ)] w(t−τ)/τ (seed 000 eq. 1).

* compound: i = α w^(k−1), d = β w (seed 000 eq. 2 and Table I; α = 0.125, k = 0.75, β = 0.5)
* reno: i = 1/w, d = w/2 (Table I)
* illinois: i = α_max/w, d = β_min w (Table I; α_max = 10, β_min = 0.125)
* africa: i = a(w)/w, d = w b(w) with the HighSpeed-TCP functions of Table I,
  b(w) = −0.4 (log w − log 38)/(log 83000 − log 38) + 0.5 and
  a(w) = 0.156 w^0.8 b(w)/(2 − b(w)) (= 0.156 w² b(w)/((2 − b(w)) w^1.2) as printed).
  Table I does not say what happens outside [38, 83000] packets; here w is clamped into that
  range inside b(w) (so b stays in [0.1, 0.5]), a(w) uses the formula as printed.
* power: i = a w^n, d = b w^m (seed 002 Section IV-A; Reno: n = −1, m = 1; Scalable: n = 0, m = 1).
"""

from __future__ import annotations

import math

import numpy as np

from aqmlab.fluid.models.base import FluidError, Param, bisect_batch

__all__ = ["WINDOW_LAWS", "WindowLaw", "window_law"]


class WindowLaw:
    name = ""
    params: dict[str, Param] = {}

    def increase(self, w, P):
        raise NotImplementedError

    def decrease(self, w, P):
        raise NotImplementedError


class Compound(WindowLaw):
    name = "compound"
    params = {
        "alpha": Param(0.125, "1", "Compound TCP increase parameter α (seed 000 Table I)", 0.0, low_open=True),
        "k": Param(0.75, "1", "Compound TCP exponent k (seed 000 Table I)", 0.0, 2.0, low_open=True),
        "beta": Param(0.5, "1", "Compound TCP decrease parameter β (seed 000 Table I)", 0.0, 1.0, low_open=True),
    }

    def increase(self, w, P):
        return P["alpha"] * w ** (P["k"] - 1.0)  # i(w) = α w^(k−1), seed 000 eq. (2)

    def decrease(self, w, P):
        return P["beta"] * w  # d(w) = β w, seed 000 eq. (2)


class Reno(WindowLaw):
    name = "reno"
    params: dict[str, Param] = {}

    def increase(self, w, P):
        return 1.0 / w  # Table I: i(w) = 1/w

    def decrease(self, w, P):
        return 0.5 * w  # Table I: d(w) = w/2


class Illinois(WindowLaw):
    name = "illinois"
    params = {
        "alpha_max": Param(10.0, "1", "TCP Illinois α_max (seed 000 Table I)", 0.0, low_open=True),
        "beta_min": Param(0.125, "1", "TCP Illinois β_min (seed 000 Table I)", 0.0, 1.0, low_open=True),
    }

    def increase(self, w, P):
        return P["alpha_max"] / w  # Table I

    def decrease(self, w, P):
        return P["beta_min"] * w  # Table I


class Africa(WindowLaw):
    name = "africa"
    params: dict[str, Param] = {}
    _low, _high = math.log(38.0), math.log(83000.0)

    def _b(self, w):
        logw = np.log(np.clip(w, 38.0, 83000.0))
        return -0.4 * (logw - self._low) / (self._high - self._low) + 0.5  # Table I, b(w)

    def increase(self, w, P):
        b = self._b(w)
        return 0.156 * w**0.8 * b / (2.0 - b) / w  # Table I: i = a(w)/w

    def decrease(self, w, P):
        return w * self._b(w)  # Table I: d = w b(w)


class Power(WindowLaw):
    name = "power"
    params = {
        "a": Param(1.0, "1", "increase a: window grows by a·w^n per unmarked ACK (seed 002 IV-A)", 0.0, low_open=True),
        "n": Param(-1.0, "1", "increase exponent n (Reno −1, Scalable 0)", -4.0, 4.0),
        "b": Param(0.5, "1", "decrease b: window falls by b·w^m per marked ACK (seed 002 IV-A)", 0.0, low_open=True),
        "m": Param(1.0, "1", "decrease exponent m (Reno and Scalable 1)", -4.0, 4.0),
    }

    def increase(self, w, P):
        return P["a"] * w ** P["n"]  # seed 002 (31): a·w^n

    def decrease(self, w, P):
        return P["b"] * w ** P["m"]  # seed 002 (31): b·w^m


WINDOW_LAWS = {law.name: law for law in (Compound, Reno, Illinois, Africa, Power)}


def window_law(name: str) -> WindowLaw:
    try:
        return WINDOW_LAWS[name]()
    except KeyError:
        raise FluidError(f"tcp = {name!r}; allowed: {', '.join(WINDOW_LAWS)}") from None


def queue_equilibrium_window(law: WindowLaw, P, size: int):
    """w* and p* of a window law feeding a queue: i(w*)(1 − p*) = d(w*) p* and
    w*(1 − p*) = C̃τ (seed 000 eq. 10), solved as i(w) C̃τ = d(w)(w − C̃τ) for w > C̃τ."""
    ctau = np.broadcast_to(np.asarray(P["C"] * P["tau"], dtype=float), (size,))

    def g(w):
        return law.increase(w, P) * ctau - law.decrease(w, P) * (w - ctau)

    high = 2.0 * ctau
    for _ in range(200):
        positive = g(high) > 0
        if not positive.any():
            break
        high = np.where(positive, 2.0 * high, high)
    w = bisect_batch(g, ctau * (1 + 1e-15), high, what="window equilibrium (seed 000 eq. 10)")
    return w, 1.0 - ctau / w
