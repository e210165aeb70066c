"""The general primal-dual algorithm with TCP sources and E-RED/RED links: seed 002
Sections III-IV, reconstructed (the extraction lost almost every symbol; see
shared/seeds/README.md and docs/fluid.md for what is reconstructed).

Routes r over links l (routing matrix), round-trip time T_r = T^f_{rl} + T^b_{lr} for every
link l of route r (forward delay source→link, backward delay link→source).

* Source law, eq. (31) (general TCP window law, a·w^n per unmarked ACK, b·w^m per marked ACK):
      ẇ_r = x_r(t − T_r) [a w_r^n (1 − q_r(t)) − b w_r^m q_r(t)],   x_r = w_r/T_r    (31)-(32)
  with the route price q_r(t) = Σ_{l∈r} p_l(t − T^b_{lr}) (linear price feedback, eq. 9), or
  1 − Π_{l∈r}(1 − p_l(t − T^b_{lr})) (probabilistic feedback, eq. 36: option feedback='probabilistic').
* Link rate, eq. (8): y_l(t) = Σ_{r∋l} x_r(t − T^f_{rl}).
* Virtual queue of capacity γ c_l (Remark 3): v̇_l = y_l − γ c_l, held at 0.
* Link laws (option ``link``):
  - 'ered-iq' (eq. 35): p_l = p_min·exp(α (v_l − b_min)/(c_l D)) between the thresholds (0 below
    b_min, 1 where the exponential reaches 1), so that ṗ_l = (α/(c_l D)) p_l (y_l − γ c_l): eq. (34)
    with time in units of the round-trip time D (α a pure number, as in Theorem III.2's
    delay-free bound). D = `delay_scale`, by default the largest route RTT (times rtt_scale);
    the packet engine's E-RED uses the same κ = α/(C·D) (docs/queues/ered.md). Linearised at
    one link with N equal Reno routes of RTT T = D the loop is
    L(s) = G·A·e^{−sT}/(sT (sT + A)), G = αγ/(2(1 − p*)), A = ŵp*: its Hopf point is
    α = 2(1 − p*)/γ · G_c(A) with G_c between 1 (A → 0) and π/2 (A → ∞); for Scalable TCP
    G = αγ/(1 − p*), half that α;
  - 'ered-aq' (eqs. 37-38): the same on the average r_l, ṙ_l = K (v_l − r_l) with
    K = −ln(1 − w_q)/δ (the continuous EWMA of eq. 38);
  - 'red': the RED law of seed 000 eq. (6) on the averaged virtual queue r_l.

Equilibrium (every link a bottleneck, the paper's active-link assumption): y_l = γ c_l and
a w^n (1 − q_r) = b w^m q_r; solved numerically (scipy fsolve) for w and the link prices, then
v_l (and r_l = v_l) from the link law.
Defaults: one link of 1250 packets/s shared by three Reno routes (a = 1, n = −1, b = 1/2,
m = 1) with RTTs 40, 80, 120 ms, forward delay = half the RTT, γ = 0.95, α = 0.5 (Theorem
III.2's sufficient condition is α ≤ 1/2 for Reno), p_min = 1e-4 at b_min = 0, D = 120 ms.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import fsolve

from aqmlab.fluid.models._util import floats, routing
from aqmlab.fluid.models.base import FluidError, FluidModel, Param
from aqmlab.fluid.models.red_laws import RED_PARAMS, check_thresholds, red_inverse, red_probability
from aqmlab.fluid.models.window_laws import Power

LINKS = ("ered-iq", "ered-aq", "red")
FEEDBACK = ("linear", "probabilistic")
W_FLOOR = 1e-3


class PrimalDual(FluidModel):
    name = "primal-dual"
    title = "General primal-dual TCP + E-RED/RED network (seed 002 Sections III-IV, reconstructed)"
    source = "seed 002 eqs. (8)-(9), (22)-(23), (31)-(38) (reconstructed)"
    options = {
        "link": ("ered-iq", ", ".join(LINKS)),
        "feedback": ("linear", ", ".join(FEEDBACK)),
        "routing": ("1; 1; 1", "routes x links 0/1 matrix"),
        "rtts": ("0.04,0.08,0.12", "route round-trip times T_r, s"),
        "forward": ("", "forward delays T^f (routes x links matrix, s); default T_r/2"),
        "capacities": ("1250", "link capacities c_l, packets/s"),
    }

    def __init__(
        self,
        link="ered-iq",
        feedback="linear",
        routing_matrix="1; 1; 1",
        rtts="0.04,0.08,0.12",
        forward=None,
        capacities="1250",
        **kw,
    ):
        if "routing" in kw:
            routing_matrix = kw.pop("routing")
        if kw:
            raise FluidError(
                f"option {next(iter(kw))!r} is not an option of primal-dual; allowed: {', '.join(self.options)}"
            )
        if link not in LINKS:
            raise FluidError(f"link = {link!r}; allowed: {', '.join(LINKS)}")
        if feedback not in FEEDBACK:
            raise FluidError(f"feedback = {feedback!r}; allowed: {', '.join(FEEDBACK)}")
        self.link, self.feedback = link, feedback
        self.A = routing("routing", routing_matrix)
        R, L = self.A.shape
        self.rtts = floats("rtts", rtts, length=R)
        self.capacities = floats("capacities", capacities, length=L)
        if forward is None or (isinstance(forward, str) and not forward.strip()):
            self.forward = np.outer(self.rtts / 2.0, np.ones(L))
        else:
            self.forward = _matrix(forward)
            if (
                self.forward.shape != (R, L)
                or np.any(self.forward < 0)
                or np.any((self.forward >= self.rtts[:, None]) & (self.A > 0))
            ):
                raise FluidError(f"forward has shape {self.forward.shape}; allowed: ({R}, {L}) delays in [0, T_r)")
        self.backward = self.rtts[:, None] - self.forward  # T^b_{lr} = T_r − T^f_{rl}
        self.pairs = [(r, link_index) for r in range(R) for link_index in range(L) if self.A[r, link_index]]
        self.option_values = {
            "link": link,
            "feedback": feedback,
            "routing": self.A.tolist(),
            "rtts": self.rtts.tolist(),
            "forward": self.forward.tolist(),
            "capacities": self.capacities.tolist(),
        }
        averaged = link != "ered-iq"
        self.state_names = (
            tuple(f"w{r}" for r in range(R))
            + tuple(f"v{link_index}" for link_index in range(L))
            + (tuple(f"r{link_index}" for link_index in range(L)) if averaged else ())
        )
        self.units = ("packets",) * len(self.state_names)
        self.delay_names = (
            tuple(f"T{r}" for r in range(R))
            + tuple(f"Tf{r}_{link_index}" for r, link_index in self.pairs)
            + tuple(f"Tb{r}_{link_index}" for r, link_index in self.pairs)
        )
        self.tcp = Power()
        self.params = {
            **Power.params,
            "gamma": Param(0.95, "1", "virtual-queue capacity fraction γ (Remark 3)", 0.0, 1.0, low_open=True),
            "rtt_scale": Param(1.0, "1", "multiplies every delay (for delay sweeps)", 0.0, low_open=True),
        }
        if link in ("ered-iq", "ered-aq"):
            self.params.update(
                {
                    "alpha": Param(
                        0.5, "1", "E-RED adaptation gain α (eq. 34; α <= 1/2 suffices for Reno)", 0.0, low_open=True
                    ),
                    "delay_scale": Param(
                        0.0,
                        "s",
                        "E-RED normalising RTT D of κ = α/(c·D); 0 = the largest route RTT times rtt_scale",
                        0.0,
                    ),
                    "p_min": Param(
                        1e-4, "1", "E-RED marking probability at the lower threshold (eq. 35)", 0.0, 1.0, low_open=True
                    ),
                    "b_min": Param(0.0, "packets", "E-RED lower threshold on the virtual queue (eq. 35)", 0.0),
                }
            )
        else:
            self.params.update(RED_PARAMS)
        if averaged:
            self.params.update(
                {
                    "wq": Param(0.002, "1", "EWMA weight w per sample (eq. 37)", 0.0, 1.0, low_open=True),
                    "sample": Param(0.001, "s", "EWMA sampling interval δ (eq. 37)", 0.0, low_open=True),
                }
            )

    def check(self, P):
        if self.link == "red":
            check_thresholds(P)

    # ---- structure -------------------------------------------------------------------------
    def delays(self, P):
        s = P["rtt_scale"]
        return (
            [s * T for T in self.rtts]
            + [s * self.forward[r, link] for r, link in self.pairs]
            + [s * self.backward[r, link] for r, link in self.pairs]
        )

    def phase_delay(self, P):
        return P["rtt_scale"] * float(self.rtts.min())

    def delay_scale(self, P):
        """The normalising RTT D of E-RED's κ = α/(c·D): `delay_scale`, or the largest route RTT."""
        given = P["delay_scale"]
        return np.where(np.asarray(given) > 0, given, P["rtt_scale"] * float(self.rtts.max()))

    def price(self, z, link: int, P):
        """Marking probability of link `link` from its (virtual or averaged) queue z."""
        if self.link == "red":
            return red_probability("piecewise", z, P)  # seed 000 eq. (6) on the average
        exponent = np.minimum(P["alpha"] * (z - P["b_min"]) / (self.capacities[link] * self.delay_scale(P)), 700.0)
        return np.where(z < P["b_min"], 0.0, np.minimum(P["p_min"] * np.exp(exponent), 1.0))  # eq. (35)

    def rhs(self, t, y, lag, P):
        R, L = self.A.shape
        scale = P["rtt_scale"]
        rtt = self.rtts[:, None] * scale
        z_index = R + L if self.link != "ered-iq" else R  # which state the link law reads
        dy = np.empty_like(y)
        n_pairs = len(self.pairs)
        # route prices q_r(t) from p_l(t − T^b_{lr}) (eq. 9 or eq. 36)
        # *_like(y): so that the Taylor arithmetic of the stability tools (stability/jets.py) runs through
        q = np.zeros_like(y[:R]) if self.feedback == "linear" else np.ones_like(y[:R])
        y_links = np.zeros_like(y[R : R + L])
        for k, (r, link) in enumerate(self.pairs):
            back = lag[R + n_pairs + k]
            p_l = self.price(back[z_index + link], link, P)  # p_l(t − T^b_{lr})
            if self.feedback == "linear":
                q[r] += p_l  # eq. (9)
            else:
                q[r] *= 1.0 - p_l  # eq. (36)
            y_links[link] += lag[R + k][r] / rtt[r]  # eq. (8): x_r(t − T^f_{rl})
        if self.feedback == "probabilistic":
            q = 1.0 - q
        w = y[:R]
        x_delayed = np.stack([lag[r][r] for r in range(R)]) / rtt  # x_r(t − T_r)
        dy[:R] = x_delayed * (self.tcp.increase(w, P) * (1.0 - q) - self.tcp.decrease(w, P) * q)  # eq. (31)
        v = y[R : R + L]
        dv = y_links - P["gamma"] * self.capacities[:, None]  # virtual queue, capacity γ c
        dy[R : R + L] = np.where(v <= 0.0, np.maximum(dv, 0.0), dv)
        if self.link != "ered-iq":
            K = -np.log1p(-np.asarray(P["wq"])) / P["sample"]  # K = −ln(1 − w)/δ, eq. (38)
            dy[R + L :] = K * (v - y[R + L :])  # eq. (38)
        return dy

    def bounds(self, P):
        R, L = self.A.shape
        n = self.n_states
        low = np.zeros((n, 1))
        low[:R] = W_FLOOR
        return low, np.full((n, 1), np.inf)

    def equilibrium(self, P, size):
        R, L = self.A.shape
        out = np.empty((self.n_states, size))
        for b in range(size):
            P1 = {key: (float(value[b]) if np.ndim(value) else value) for key, value in P.items()}
            rtt = self.rtts * P1["rtt_scale"]
            target = P1["gamma"] * self.capacities

            def route_price(prices):
                if self.feedback == "linear":
                    return self.A @ prices
                return 1.0 - np.exp(self.A @ np.log1p(-np.minimum(prices, 1 - 1e-15)))

            def residual(s, P1=P1, rtt=rtt, target=target):
                w = np.exp(s[:R])
                prices = np.exp(s[R:])
                q = route_price(prices)
                source = (self.tcp.increase(w, P1) * (1 - q) - self.tcp.decrease(w, P1) * q) / self.tcp.increase(w, P1)
                load = self.A.T @ (w / rtt) / target - 1.0
                return np.concatenate([source, load])

            w0 = target.min() * rtt / max(1.0, self.A.sum(axis=0).max())
            guess = np.concatenate([np.log(w0), np.full(L, math.log(1e-3))])
            s, info, ier, message = fsolve(residual, guess, xtol=1e-14, full_output=True)
            if not np.max(np.abs(residual(s))) < 1e-10:
                raise FluidError(
                    f"primal-dual: equilibrium not found at point {b} ({message.strip()}); allowed: "
                    "networks in which every link is a bottleneck"
                )
            w, prices = np.exp(s[:R]), np.exp(s[R:])
            if self.link == "red":
                z = red_inverse("piecewise", prices, P1)
            else:
                if np.any(prices < P1["p_min"]):
                    raise FluidError(
                        f"primal-dual: an equilibrium price {prices.min():.3g} is below p_min = {P1['p_min']:g}; "
                        "allowed: p_min below the equilibrium marking probability"
                    )
                kappa = P1["alpha"] / (self.capacities * self.delay_scale(P1))
                z = P1["b_min"] + np.log(prices / P1["p_min"]) / kappa  # eq. (35) inverted
            out[:R, b] = w
            out[R : R + L, b] = z
            if self.link != "ered-iq":
                out[R + L :, b] = z
        return out

    def outputs(self, states, P):
        R, L = self.A.shape
        start = R + L if self.link != "ered-iq" else R
        return {f"p{link}": self.price(states[:, start + link, :], link, P) for link in range(L)}


def _matrix(value) -> np.ndarray:
    if isinstance(value, str):
        value = [row.replace(",", " ").split() for row in value.replace("/", ";").split(";") if row.strip()]
    try:
        return np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise FluidError(f"forward = {value!r}; allowed: a routes x links matrix of seconds") from None
