"""Benchmark: a batch of 1,000 parameter points of CTCP-RED with averaging (seed 000 eq. 9),
200 s each at h = τ/20, with aqmlab's batch integrator, against a scipy solve_ivp-based
method of steps on the same system in the same run.

    .venv/bin/python benchmarks/fluid_batch/bench.py [--repeats 5] [--scipy-points 1000] [--out results.json]

The batch is a 40 x 25 grid of γ in [0.01, 0.05] and C̃ in [80, 120] packets/s at τ = 0.171 s
(RED defaults, Compound TCP defaults), history = equilibrium + 10 %. Times are wall-clock and
process CPU time (the CPU time is what one core spends, whatever else runs on the machine).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time

import numpy as np
import scipy
from aqmlab.fluid import get_model, grid, integrate
from aqmlab.machine import describe
from scipy.integrate import solve_ivp

TAU = 0.171
T_END = 200.0


def batch_params():
    return {"tau": TAU, **grid(gamma=np.linspace(0.01, 0.05, 40), C=np.linspace(80.0, 120.0, 25))}


def timed(function):
    wall, cpu = time.perf_counter(), time.process_time()
    value = function()
    return value, time.perf_counter() - wall, time.process_time() - cpu


def run_aqmlab(method: str):
    model = get_model("ctcp-red")
    return integrate(model, batch_params(), t_end=T_END, h=TAU / 20, method=method, record_dt=0.05)


def run_scipy(points: np.ndarray, sample_times: np.ndarray, rtol=1e-6, atol=1e-8):
    """Method of steps with scipy: the whole (sub-)batch as one ODE system per interval
    [kτ, (k+1)τ], delayed values from the previous interval's dense output (RK45)."""
    model = get_model("ctcp-red")
    params = {key: (np.asarray(value)[points] if np.ndim(value) else value) for key, value in batch_params().items()}
    P, size = model.resolve(params)
    Q = model.prepare(P)
    y0 = model.equilibrium(P, size) * 1.1
    model.project(y0, P)
    n = model.n_states
    history = y0.copy()
    previous = None
    samples_t, samples_y = [], []
    t0 = 0.0
    state = y0.reshape(-1).copy()
    intervals = int(round(T_END / TAU))
    for k in range(intervals + 1):
        t1 = min(T_END, t0 + TAU)
        if t1 <= t0:
            break

        def lagged(t, previous=previous):
            s = t - TAU
            if previous is None or s <= 0:
                return history
            return previous(s).reshape(n, size)

        def f(t, flat, lagged=lagged):
            y = flat.reshape(n, size).copy()
            model.project(y, P)
            return model.rhs(t, y, lagged(t)[None], Q).reshape(-1)

        solution = solve_ivp(f, (t0, t1), state, method="RK45", rtol=rtol, atol=atol, dense_output=True)
        last = k == intervals or t1 >= T_END
        grid_t = sample_times[(sample_times >= t0) & ((sample_times < t1) | (last & (sample_times <= t1)))]
        if grid_t.size:
            samples_t.append(grid_t)
            samples_y.append(solution.sol(grid_t).reshape(n, size, -1))
        state = solution.y[:, -1].copy()
        previous = solution.sol
        t0 = t1
    times = np.concatenate(samples_t)
    states = np.concatenate(samples_y, axis=2)  # (n, B, T)
    return times, states


def machine():
    return describe(
        numpy=np.__version__,
        scipy=scipy.__version__,
        platform=platform.platform(),
        load_average_at_start=os.getloadavg(),
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--scipy-points", type=int, default=1000, help="points integrated by the scipy method")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    report = {
        "machine": machine(),
        "command": " ".join([os.path.basename(sys.executable)] + sys.argv),
        "system": "ctcp-red (compound, affine RED), 1000 points (40 gamma x 25 C), tau = 0.171 s, 200 s, h = tau/20",
        "steps": int(round(T_END / (TAU / 20))),
    }
    results = {}
    for method in ("rk4", "rk3"):
        walls, cpus = [], []
        for _ in range(args.repeats):
            result, wall, cpu = timed(lambda method=method: run_aqmlab(method))
            walls.append(wall)
            cpus.append(cpu)
        results[method] = result
        report[f"aqmlab_{method}"] = {
            "wall_s": walls,
            "cpu_s": cpus,
            "median_wall_s": statistics.median(walls),
            "median_cpu_s": statistics.median(cpus),
        }
        print(
            f"aqmlab {method}: median wall {statistics.median(walls):.2f} s, "
            f"median CPU {statistics.median(cpus):.2f} s "
            f"over {args.repeats} runs",
            flush=True,
        )
    points = np.arange(1000) if args.scipy_points >= 1000 else np.linspace(0, 999, args.scipy_points).astype(int)
    sample_times = results["rk4"].times
    (times, states), wall, cpu = timed(lambda: run_scipy(points, sample_times))
    report["scipy_batch"] = {
        "points": int(points.size),
        "wall_s": wall,
        "cpu_s": cpu,
        "method": "solve_ivp RK45 rtol 1e-6 atol 1e-8, method of steps over intervals of tau, "
        "the sub-batch as one ODE system",
    }
    print(f"scipy method of steps ({points.size} points as one system): wall {wall:.2f} s, CPU {cpu:.2f} s", flush=True)
    # per-point scipy (how one usually writes it), a few points, extrapolated to 1000
    few = np.linspace(0, 999, 5).astype(int)
    cpus = []
    for point in few:
        _, wall1, cpu1 = timed(lambda point=point: run_scipy(np.array([point]), sample_times))
        cpus.append(cpu1)
    report["scipy_per_point"] = {
        "points_timed": few.tolist(),
        "cpu_s_each": cpus,
        "extrapolated_cpu_s_for_1000": 1000 * statistics.mean(cpus),
    }
    print(
        f"scipy one point at a time: {statistics.mean(cpus):.3f} s CPU per point -> "
        f"{1000 * statistics.mean(cpus):.0f} s for 1000 (extrapolated)",
        flush=True,
    )
    # agreement on the last 50 s: mean and amplitude of w
    reference = results["rk4"]
    assert np.array_equal(times, reference.times)
    tail = times >= T_END - 50
    w_scipy = states[0][:, tail]
    w_ours = reference.state("w")[points][:, reference.times >= T_END - 50]
    agreement = {
        "max_abs_diff_mean_w": float(np.max(np.abs(w_scipy.mean(1) - w_ours.mean(1)))),
        "max_abs_diff_amplitude_w": float(np.max(np.abs(np.ptp(w_scipy, 1) / 2 - np.ptp(w_ours, 1) / 2))),
        "max_abs_diff_rk3_rk4_w": float(np.max(np.abs(results["rk3"].state("w") - reference.state("w")))),
        "oscillating_points_amplitude_over_0.1": int(np.sum(np.ptp(w_ours, 1) / 2 > 0.1)),
    }
    # accuracy against a tight scipy reference (rtol 1e-10) on a few points, whole trajectory of w
    few = np.array([0, 333, 666, 999])
    ref_times, ref_states = run_scipy(few, sample_times, rtol=1e-10, atol=1e-10)
    assert np.array_equal(ref_times, reference.times)
    agreement["reference"] = "solve_ivp RK45 rtol = atol = 1e-10, points " + ", ".join(map(str, few))
    agreement["max_abs_err_w_aqmlab_rk4_vs_reference"] = float(
        np.max(np.abs(reference.state("w")[few] - ref_states[0]))
    )
    agreement["max_abs_err_w_aqmlab_rk3_vs_reference"] = float(
        np.max(np.abs(results["rk3"].state("w")[few] - ref_states[0]))
    )
    if points.size == 1000:
        agreement["max_abs_err_w_scipy_rtol1e-6_vs_reference"] = float(np.max(np.abs(states[0][few] - ref_states[0])))
    report["agreement"] = agreement
    print(json.dumps(agreement, indent=2))
    text = json.dumps(report, indent=2)
    if args.out:
        with open(args.out, "w") as handle:
            handle.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
