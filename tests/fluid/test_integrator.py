"""The batch DDE integrator: convergence order against an exact solution, batch consistency,
per-point delays, zero delays, projections, determinism, input errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
from aqmlab.fluid import FluidError, FluidModel, Param, get_model, integrate
from scipy.integrate import solve_ivp


class LinearDelay(FluidModel):
    """x'(t) = -a x(t - tau): a user-defined model through the public protocol."""

    name = "linear-delay"
    state_names = ("x",)
    delay_names = ("tau",)
    params = {"a": Param(1.0, "1/s", "gain"), "tau": Param(1.0, "s", "delay", 0.0)}

    def delays(self, P):
        return [P["tau"]]

    def rhs(self, t, y, lag, P):
        return -P["a"] * lag[0]

    def equilibrium(self, P, size):
        return np.zeros((1, size))


def exact(t: float) -> float:
    """x' = -x(t-1), x = 1 for t <= 0: on [n-1, n] x = sum_{k=0}^{n} (-1)^k (t-k+1)^k / k!."""
    n = int(math.floor(t)) + 1
    return sum((-1) ** k * (t - k + 1) ** k / math.factorial(k) for k in range(n + 1) if t - k + 1 >= 0)


def test_exact_solution_is_right():
    # spot checks of the piecewise polynomial: 1 - t on [0, 1], then 1 - t + (t-1)^2/2
    assert exact(0.5) == pytest.approx(0.5)
    assert exact(1.5) == pytest.approx(1 - 1.5 + 0.125)
    # and it satisfies the equation (central difference)
    for t in (2.3, 3.7, 4.2):
        assert (exact(t + 1e-6) - exact(t - 1e-6)) / 2e-6 == pytest.approx(-exact(t - 1), abs=1e-6)


@pytest.mark.parametrize("method,order", [("rk4", 4), ("rk3", 3)])
def test_convergence_order_on_linear_delay_equation(method, order):
    steps = [1 / 10, 1 / 20, 1 / 40, 1 / 80]
    errors = []
    for h in steps:
        result = integrate(LinearDelay(), {}, t_end=5.0, h=h, history=np.ones(1), method=method, record_dt=h)
        truth = np.array([exact(t) for t in result.times])
        errors.append(np.max(np.abs(result.state("x")[0] - truth)))
    rates = [math.log2(errors[i] / errors[i + 1]) for i in range(len(errors) - 1)]
    assert errors[-1] < (2e-8 if method == "rk4" else 1e-6)
    assert min(rates) > order - 0.3, (errors, rates)


class Nonlinear(FluidModel):
    """x'(t) = -x(t) + 2 x(t-1)/(1 + x(t-1)^2): the right-hand side depends on the current state
    too, so the Runge-Kutta stages matter (for x' = -x(t-1) RK4 and RK3 both reduce to Simpson's
    rule on the Hermite history)."""

    name = "nonlinear-delay"
    state_names = ("x",)
    delay_names = ("tau",)
    params = {"tau": Param(1.0, "s", "delay", 0.0)}

    def delays(self, P):
        return [P["tau"]]

    def rhs(self, t, y, lag, P):
        return -y + 2.0 * lag[0] / (1.0 + lag[0] ** 2)

    def equilibrium(self, P, size):
        return np.ones((1, size))


@pytest.mark.parametrize("method,order", [("rk4", 4), ("rk3", 3)])
def test_convergence_order_with_state_dependence(method, order):
    # zero delay: x' = -x, exact e^{-t}
    errors = []
    for h in (1 / 10, 1 / 20, 1 / 40, 1 / 80):
        result = integrate(LinearDelay(), {"tau": 0.0}, t_end=5.0, h=h, history=np.ones(1), method=method, record_dt=h)
        errors.append(np.max(np.abs(result.state("x")[0] - np.exp(-result.times))))
    rates = [math.log2(errors[i] / errors[i + 1]) for i in range(3)]
    assert min(rates) > order - 0.2, (errors, rates)
    # nonlinear delay equation: differences of successive halvings shrink by 2^order
    solutions = [
        integrate(Nonlinear(), {}, t_end=5.0, h=h, history=np.full(1, 0.3), method=method, record_dt=0.1).state("x")[0]
        for h in (1 / 10, 1 / 20, 1 / 40, 1 / 80, 1 / 160)
    ]
    differences = [np.max(np.abs(solutions[i] - solutions[i + 1])) for i in range(4)]
    rates = [math.log2(differences[i] / differences[i + 1]) for i in range(3)]
    assert min(rates) > order - 0.2, (differences, rates)


def test_delay_not_a_multiple_of_the_step_is_still_accurate():
    result = integrate(LinearDelay(), {}, t_end=5.0, h=1 / 37.3, history=np.ones(1))
    truth = np.array([exact(t) for t in result.times])
    assert np.max(np.abs(result.state("x")[0] - truth)) < 1e-4


def test_batch_equals_single_runs_with_per_point_delays():
    model = LinearDelay()
    a = [0.5, 1.0, 1.4]
    tau = [1.0, 0.8, 1.3]
    batch = integrate(model, {"a": a, "tau": tau}, t_end=10.0, h=0.02, history=np.ones(1), record_dt=0.1)
    for i in range(3):
        single = integrate(model, {"a": a[i], "tau": tau[i]}, t_end=10.0, h=0.02, history=np.ones(1), record_dt=0.1)
        np.testing.assert_allclose(batch.states[i], single.states[0], rtol=1e-12, atol=1e-14)


def test_history_function_is_used_for_negative_times():
    # history x(t) = cos(t) for t <= 0: on [0, 1] x' = -cos(t - 1), x = 1 - sin(t - 1) - sin(1)
    result = integrate(
        LinearDelay(), {}, t_end=1.0, h=0.01, history=lambda t: np.cos(np.atleast_1d(t))[None, :], record_dt=0.01
    )
    truth = 1.0 - np.sin(result.times - 1.0) - math.sin(1.0)
    np.testing.assert_allclose(result.state("x")[0], truth, atol=1e-9)


def test_zero_delay_matches_scipy_ode():
    model = get_model("ecn-network")
    P, size = model.resolve({"tau": 0.0})
    eq = model.equilibrium(P, size)[:, 0]
    start = eq * 1.3
    result = integrate(model, {"tau": 0.0}, t_end=5.0, h=0.002, history=start, record_dt=0.5)

    def f(t, x):
        return model.rhs(t, x[:, None], x[None, :, None], P)[:, 0]

    reference = solve_ivp(f, (0, 5.0), start, t_eval=result.times, rtol=1e-11, atol=1e-11)
    np.testing.assert_allclose(result.states[0], reference.y.T, rtol=1e-7)


def test_projection_keeps_queue_inside_buffer():
    # RED without averaging, far from equilibrium with a small buffer: q must stay in [0, B].
    model = get_model("ctcp-red-noavg")
    result = integrate(
        model, {"tau": 0.3, "buffer": 150.0, "b_max": 140.0}, t_end=60.0, history=[200.0, 0.0], record_dt=0.01
    )
    q = result.state("q")
    assert q.min() == 0.0 and q.max() == 150.0  # both boundaries are reached and respected
    p = result.state("p")
    assert p.min() >= 0.0 and p.max() <= 1.0


def test_deterministic():
    model = get_model("ctcp-red")
    params = {"tau": 0.171, "gamma": [0.028, 0.04]}
    one = integrate(model, params, t_end=20.0)
    two = integrate(model, params, t_end=20.0)
    assert np.array_equal(one.states, two.states)


def test_step_longer_than_delay_and_bad_inputs_are_rejected():
    model = LinearDelay()
    with pytest.raises(FluidError, match="longer than the delay"):
        integrate(model, {"tau": 0.1}, t_end=1.0, h=0.2)
    with pytest.raises(FluidError, match="t_end"):
        integrate(model, {}, t_end=-1.0)
    with pytest.raises(FluidError, match="method = 'euler'"):
        integrate(model, {}, t_end=1.0, method="euler")
    with pytest.raises(FluidError, match="history has shape"):
        integrate(model, {}, t_end=1.0, history=np.ones(3))


def test_result_tables_and_helpers():
    model = get_model("ecn")
    result = integrate(model, {"kappa": [1.0, 2.0]}, t_end=20.0, record_dt=0.1)
    table = result.to_arrow()
    assert table.num_rows == 2 * result.times.size
    assert set(table.column_names) == {"point", "t", "x", "p"}
    summary = result.summary().to_pydict()
    assert summary["kappa"] == [1.0, 2.0]
    assert result.to_polars().height == table.num_rows
    lagged = result.lagged("x")
    assert np.isnan(lagged[0, 0]) and np.isfinite(lagged[0, -1])


def test_mixed_zero_and_positive_delays_in_one_batch():
    # point 0 has no delay (an ODE: x' = -a x), point 1 a delay; each equals its single run
    model = LinearDelay()
    batch = integrate(model, {"tau": [0.0, 1.0]}, t_end=4.0, h=0.05, history=np.ones(1), record_dt=0.05)
    ode = integrate(model, {"tau": 0.0}, t_end=4.0, h=0.05, history=np.ones(1), record_dt=0.05)
    dde = integrate(model, {"tau": 1.0}, t_end=4.0, h=0.05, history=np.ones(1), record_dt=0.05)
    np.testing.assert_allclose(batch.states[0], ode.states[0], rtol=1e-13)
    np.testing.assert_allclose(batch.states[1], dde.states[0], rtol=1e-13)
    np.testing.assert_allclose(ode.state("x")[0], np.exp(-ode.times), rtol=1e-6)
