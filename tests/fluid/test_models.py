"""Every fluid model: its equilibrium is a fixed point, and started near it (where the model is
stable) the integration stays near it and approaches it."""

from __future__ import annotations

import numpy as np
import pytest
from aqmlab.fluid import MODELS, FluidError, get_model, integrate

# (model, options, parameters for a stable batch of two points, t_end (s or map steps), h)
STABLE = {
    "ctcp-red": ({}, {"C": 100, "tau": 0.171, "gamma": [0.05, 0.1]}, 60.0, None),
    "ctcp-red-noavg": ({}, {"C": 100, "tau": [0.1, 0.2]}, 60.0, None),
    "ctcp-threshold": ({}, {"q_th": [15, 30]}, 150.0, None),
    "cx-tcp": ({}, {"p_max": [0.05, 0.06]}, 20.0, None),
    "cx-tcp-network": ({}, {"p_max": [0.05, 0.08]}, 30.0, None),
    "primal-dual": ({}, {"alpha": [0.25, 0.5]}, 8.0, 0.004),
    "ecn": ({}, {"kappa": [0.5, 1.0]}, 40.0, None),
    "ecn-network": ({}, {"kappa": [0.5, 1.0]}, 40.0, None),
    "red-map": ({}, {"w": [0.002, 0.01]}, 4000, None),
}

# option variants whose equilibria are checked too
VARIANTS = [(name, {}) for name in MODELS] + [
    ("ctcp-red", {"tcp": "reno"}),
    ("ctcp-red", {"tcp": "illinois"}),
    ("ctcp-red", {"tcp": "africa"}),
    ("ctcp-red", {"tcp": "power"}),
    ("ctcp-red", {"red_law": "piecewise"}),
    ("ctcp-red-noavg", {"tcp": "reno", "red_law": "piecewise"}),
    ("ctcp-threshold", {"tcp": "reno"}),
    ("primal-dual", {"link": "ered-aq"}),
    ("primal-dual", {"link": "red"}),
    ("primal-dual", {"feedback": "probabilistic"}),
    ("ecn", {"resource": "overflow"}),
    ("ecn", {"resource": "gaussian"}),
    ("ecn-network", {"resource": "overflow"}),
    ("ecn-network", {"resource": "gaussian"}),
    ("red-map", {"control": "recommended"}),
    ("cx-tcp", {"rtts": "0.1,0.3", "counts": "150,150"}),  # heterogeneous RTTs
    (
        "cx-tcp-network",
        {"routing": "1 1 0; 0 1 1; 1 0 0; 0 0 1", "rtts": "0.1,0.1,0.05,0.05", "capacities": "1000,2000,1500"},
    ),
]


def test_every_registered_model_is_covered():
    assert set(STABLE) == set(MODELS)


@pytest.mark.parametrize(
    "name,options", VARIANTS, ids=[f"{n}-{'-'.join(o.values()) or 'default'}" for n, o in VARIANTS]
)
def test_equilibrium_is_a_fixed_point(name, options):
    model = get_model(name, **options)
    params = STABLE[name][1] if not options else {}
    P, size = model.resolve(params)
    y = model.equilibrium(P, size)
    assert y.shape == (model.n_states, size)
    assert np.all(np.isfinite(y))
    assert np.max(model.residual(y, P)) < 1e-9


@pytest.mark.parametrize("name", list(STABLE))
def test_integration_from_near_equilibrium_stays_near(name):
    options, params, t_end, h = STABLE[name]
    model = get_model(name, **options)
    P, size = model.resolve(params)
    eq = model.equilibrium(P, size)
    kwargs = {} if model.kind == "map" else {"h": h}
    result = integrate(model, params, t_end=t_end, history="perturbed", perturbation=0.02, **kwargs)
    assert result.states.shape[0] == size == 2
    scale = np.maximum(1.0, np.abs(eq.T))[:, None, :]  # (B, 1, n)
    deviation = np.abs(result.states - eq.T[:, None, :]) / scale
    assert np.all(np.isfinite(deviation))
    # stays near: never more than 25 % away (the start is 2 % away; cx-tcp-network's equilibrium
    # queues are below one packet, so its transient is allowed one packet) ...
    assert deviation.max() < (1.0 if name == "cx-tcp-network" else 0.25), deviation.max()
    # ... and ends closer than it started
    assert np.all(deviation[:, -1, :].max(axis=1) < 0.02), deviation[:, -1, :]


def test_unknown_model_option_and_parameter_are_named():
    with pytest.raises(FluidError, match="allowed: .*ctcp-red"):
        get_model("no-such-model")
    with pytest.raises(FluidError, match="tcp = 'cubicc'; allowed: compound, reno"):
        get_model("ctcp-red", tcp="cubicc")
    with pytest.raises(FluidError, match="option 'speed' is not an option of model ecn; allowed: resource"):
        get_model("ecn", speed=1)
    model = get_model("ctcp-red")
    with pytest.raises(FluidError, match="'gama' is not a parameter of model ctcp-red; allowed: .*gamma"):
        model.resolve({"gama": 0.1})
    with pytest.raises(FluidError, match="gamma = 'x' .* is not a number"):
        model.resolve({"gamma": "x"})
    with pytest.raises(FluidError, match="gamma = 2 .* out of range; allowed: \\(0, 1\\]"):
        model.resolve({"gamma": 2.0})
    with pytest.raises(FluidError, match="b_max must exceed b_min"):
        model.resolve({"b_min": 600.0})
    with pytest.raises(FluidError, match="same number of values"):
        model.resolve({"gamma": [0.1, 0.2], "tau": [0.1, 0.2, 0.3]})


def test_cx_tcp_has_two_equilibria_as_in_lemma_4_1():
    # The homogeneous example after Lemma 4.1: one equilibrium in region A, one in region B.
    model = get_model("cx-tcp")
    P, size = model.resolve({})
    eq, regions = model.equilibria(P, size)
    assert list(regions[:2, 0]) == ["A", "B"]
    for row in range(2):
        assert np.max(model.residual(eq[row], P)) < 1e-9
    delays = eq[:2, -1, 0] / P["C"]
    assert P["delta_min"] < delays[0] <= P["delta_th"] < delays[1] < P["delta_max"]
    # Lemma 4.3: the region-B equilibrium is unstable: started 1 % from it the queue leaves.
    result = integrate(model, {}, history=eq[1] * 1.01, t_end=30.0)
    assert abs(result.final()[0, -1] - eq[1, -1, 0]) > 0.3 * eq[1, -1, 0]


def test_red_map_uses_a_given_queue_law():
    """Seed 003 II-D: the map takes any queue law G; with the PFTK law of aqmlab.design (Fig. 8's
    RED: p_max = 0.1, q_min = 12.5, q_max = 37.5, B = 75, 500-byte packets) the operating point is
    the intersection q = G(H(q)) and the map converges to it."""
    from aqmlab.design import pftk, queue_law

    law = queue_law.QueueLaw(rate_bps=1.5e6, flows=8, rtt_s=0.1, buffer_packets=75, tcp=pftk.TcpModel(packet_bytes=500))
    model = get_model("red-map")
    custom = type(model)(queue_law=law.queue)
    P, size = custom.resolve({"w": 0.05})
    eq = custom.equilibrium(P, size)
    q = eq[0, 0]
    assert 12.5 < q < 37.5
    assert law.queue(np.array([eq[2, 0]]))[0] == pytest.approx(q, rel=1e-9)
    result = integrate(custom, {"w": 0.05}, t_end=600, history="perturbed", perturbation=0.2)
    assert result.final()[0, 1] == pytest.approx(q, rel=1e-3)
    # the built-in square-root law gives a different operating point for the same link
    assert abs(model.equilibrium(*model.resolve({"w": 0.05, "n": 8}))[0, 0] - q) > 0.1
