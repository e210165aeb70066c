"""Issue 31: queue policies and window laws written in Python give the built-in's results,
bit for bit, with the same seed; a user error gives one message with the user's traceback."""

from __future__ import annotations

import copy
import json

import aqmlab
import pytest
from aqmlab.errors import ScenarioError, SimulationInterrupted, UserCodeError
from extending_scenarios import RED_PARAMS, RED_REFERENCE, differences, dumbbell_60, with_python_aimd, with_python_red


def test_the_guides_python_red_gives_the_built_in_reds_run():
    scenario = dumbbell_60("20s")
    built_in, python = aqmlab.simulate(scenario), aqmlab.simulate(with_python_red(scenario))
    assert built_in.counters["packets_dropped"] > 500, "RED must drop early in this run for the test to mean much"
    assert python.links.column("dropped").to_pylist() == built_in.links.column("dropped").to_pylist()
    assert differences(built_in, python) == []
    # another seed is another run: the policy draws from the link's stream, not its own
    other = aqmlab.simulate(with_python_red(scenario), seed=2)
    assert differences(python, other) != []


def test_the_guides_python_aimd_gives_the_built_in_aimds_run_with_marks_per_ack():
    scenario = dumbbell_60("20s", ecn=True)
    built_in, python = aqmlab.simulate(scenario), aqmlab.simulate(with_python_aimd(scenario))
    assert (
        built_in.links.column("marked").to_pylist()[0] > 100 or max(built_in.links.column("marked").to_pylist()) > 100
    )
    assert differences(built_in, python) == []


def test_both_in_python_with_drops_match_the_built_ins():
    scenario = dumbbell_60("10s")
    both = with_python_aimd(with_python_red(scenario))
    assert differences(aqmlab.simulate(scenario), aqmlab.simulate(both)) == []


RAISES = """
from aqmlab.extensions import ACCEPT, QueuePolicy

class Fragile(QueuePolicy):
    decides_at_arrival = True

    def __init__(self, after=100):
        self.after, self.seen = after, 0

    def on_enqueue(self, queue, packet):
        self.seen += 1
        if self.seen > self.after:
            return self.ratio(queue)
        return ACCEPT

    def ratio(self, queue):
        return 1 / (queue.packets - queue.packets)
"""


def test_a_user_error_in_a_hook_is_one_message_with_the_users_traceback(user_file):
    path = user_file(RAISES)
    scenario = dumbbell_60("5s")
    scenario["topology"]["bottleneck"]["queue"] = {"kind": "python", "policy": f"{path}:Fragile", "limit": "100p"}
    with pytest.raises(UserCodeError) as caught:
        aqmlab.simulate(scenario)
    message = str(caught.value)
    assert message.startswith(f"topology.bottleneck.queue: {path}:Fragile.on_enqueue raised ZeroDivisionError")
    assert " at t = " in message
    # the user's frames, with their lines
    assert f'File "{path}", line 13, in on_enqueue' in message
    assert f'File "{path}", line 17, in ratio' in message
    assert "return 1 / (queue.packets - queue.packets)" in message
    assert isinstance(caught.value.__cause__, ZeroDivisionError)


def test_a_failed_run_in_a_sweep_is_recorded_as_failed_with_the_traceback_and_no_run_folder(user_file, tmp_path):
    from aqmlab.experiments.executors import run_one
    from aqmlab.experiments.store import Study
    from aqmlab.experiments.sweep import Run

    path = user_file(RAISES)
    scenario = dumbbell_60("5s")
    scenario["topology"]["bottleneck"]["queue"] = {"kind": "python", "policy": f"{path}:Fragile", "limit": "100p"}
    study_dir = tmp_path / "study"
    Study(study_dir)
    run = Run(scenario=scenario, seed=1)
    outcome = run_one(run, str(study_dir))
    assert not outcome.ok and "UserCodeError" in outcome.error
    failure = json.loads((study_dir / "failures" / f"{run.id}.json").read_text())
    assert "line 17, in ratio" in failure["traceback"]
    assert not Study(study_dir).is_done(run.id)
    assert not Study(study_dir).run_dir(run.id).exists()


def test_the_cli_run_reports_the_users_traceback_and_writes_nothing(user_file, tmp_path):
    from aqmlab.cli import app
    from typer.testing import CliRunner

    path = user_file(RAISES)
    toml = tmp_path / "fragile.toml"
    toml.write_text(
        'name = "fragile"\nduration = "5s"\n[topology]\nkind = "dumbbell"\n[topology.bottleneck]\n'
        f'rate = "100Mbps"\ndelay = "48ms"\nqueue = {{ kind = "python", policy = "{path}:Fragile", limit = "100p" }}\n'
        '[[topology.groups]]\nname = "reno"\ncount = 20\nrtt = "100ms"\naccess_rate = "10Mbps"\n'
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["run", str(toml), "--out", str(out), "--quiet"])
    assert result.exit_code != 0
    assert "ZeroDivisionError" in result.output and "line 17, in ratio" in result.output
    assert not out.exists() or not any(out.iterdir())


def test_a_window_law_that_leaves_a_bad_window_fails_the_run(user_file):
    path = user_file(
        "from aqmlab.extensions import WindowLaw\n\n"
        "class Broken(WindowLaw):\n"
        "    def on_ack(self, ack):\n"
        "        self.cwnd = float('nan')\n"
    )
    scenario = dumbbell_60("5s")
    scenario["topology"]["groups"][0]["tcp"]["cc"] = {"kind": "python", "law": f"{path}:Broken"}
    with pytest.raises(
        UserCodeError,
        match=r"topology.groups\[0\].traffic.tcp.cc: .*:Broken.on_ack raised ValueError: "
        r"on_ack left cwnd = NaN; allowed: a finite number > 0",
    ):
        aqmlab.simulate(scenario)


@pytest.mark.parametrize(
    ("reference", "expected"),
    [
        ("no_such_module_xyz:Red", "cannot import no_such_module_xyz"),
        ("aqmlab.extensions:Verdict", 'allowed: "module:Class" or "path/file.py:Class" naming a subclass'),
        ("/no/such/file.py:Red", "no file /no/such/file.py"),
    ],
)
def test_bad_references_are_scenario_errors_naming_the_field(reference, expected):
    scenario = dumbbell_60("1s")
    scenario["topology"]["bottleneck"]["queue"] = {"kind": "python", "policy": reference}
    with pytest.raises(ScenarioError, match="topology.bottleneck.queue.policy") as caught:
        aqmlab.simulate(scenario)
    assert expected in str(caught.value)


def test_a_reference_without_a_class_is_refused_by_the_scenario_model():
    scenario = dumbbell_60("1s")
    scenario["topology"]["bottleneck"]["queue"] = {"kind": "python", "policy": "my_red.py"}
    with pytest.raises(ScenarioError, match="policy"):
        aqmlab.simulate(scenario)


def test_bad_params_name_the_field(user_file):
    scenario = dumbbell_60("1s")
    scenario["topology"]["bottleneck"]["queue"] = {
        "kind": "python",
        "policy": RED_REFERENCE,
        "params": {"max_pp": 0.1},
    }
    with pytest.raises(ScenarioError, match=r"topology.bottleneck.queue.params = \{'max_pp': 0.1\}: PythonRed"):
        aqmlab.simulate(scenario)


DEQUEUE = '''
from aqmlab.extensions import ACCEPT, DROP_EARLY, QueuePolicy

class HeadDrop(QueuePolicy):
    """Drops every head that waited longer than `target` seconds (a sojourn-time policy)."""

    def __init__(self, target=0.005):
        self.target = target

    def on_enqueue(self, queue, packet):
        return ACCEPT

    def on_dequeue(self, queue, packet):
        return DROP_EARLY if queue.now - packet.enqueued_at > self.target else ACCEPT
'''


def test_a_policy_acting_at_dequeue_runs_on_an_event_driven_link(user_file):
    path = user_file(DEQUEUE)
    scenario = dumbbell_60("10s")
    scenario["topology"]["bottleneck"]["queue"] = {"kind": "python", "policy": f"{path}:HeadDrop", "limit": "2084p"}
    results = aqmlab.simulate(scenario)
    bottleneck = results.links.to_pylist()[[r["role"] for r in results.links.to_pylist()].index("bottleneck")]
    assert bottleneck["dropped_on_dequeue"] > 0
    assert bottleneck["dropped_on_dequeue"] == bottleneck["dropped"]
    sojourn = results.link_trace.filter(results.link_trace["link"].to_numpy() == bottleneck["link"])["sojourn_s"]
    assert max(x for x in sojourn.to_pylist() if x == x) < 0.005 + 0.0002  # target + one packet time
    declared = DEQUEUE.replace(
        "class HeadDrop(QueuePolicy):", "class HeadDrop(QueuePolicy):\n    decides_at_arrival = True"
    )
    path = user_file(declared, "declared.py")
    scenario = copy.deepcopy(scenario)
    scenario["topology"]["bottleneck"]["queue"]["policy"] = f"{path}:HeadDrop"
    with pytest.raises(ScenarioError, match="defines on_dequeue but declares decides_at_arrival = True"):
        aqmlab.simulate(scenario)


def test_a_sweep_varies_a_python_policys_params_in_worker_processes(tmp_path):
    from aqmlab.experiments.runner import run_sweep
    from aqmlab.experiments.sweep import Sweep

    base = with_python_red(dumbbell_60("5s"))
    sweep = Sweep.from_dict(
        {"name": "python-red", "base": base, "grid": {"topology.bottleneck.queue.params.max_p": [0.05, 0.5]}}
    )
    study = run_sweep(sweep, tmp_path / "study", workers=2)
    runs = sweep.runs()
    assert all(study.is_done(run.id) for run in runs)
    table = study.table()
    assert table.num_rows >= 2
    # the same run as in this process, by id
    local = aqmlab.simulate(runs[0].scenario, seed=runs[0].seed)
    assert local.scenario.topology.bottleneck.queue.params == {**RED_PARAMS, "ecn": False, "max_p": 0.05}


def test_an_error_in_the_constructor_is_reported_with_the_traceback_before_the_run(user_file):
    path = user_file(
        "from aqmlab.extensions import QueuePolicy\n\n"
        "class Picky(QueuePolicy):\n"
        "    def __init__(self, q_th=0):\n"
        "        if q_th <= 0:\n"
        "            raise ValueError(f'q_th = {q_th}; allowed: a threshold > 0')\n\n"
        "    def on_enqueue(self, queue, packet):\n"
        "        return None\n"
    )
    scenario = dumbbell_60("1s")
    scenario["topology"]["bottleneck"]["queue"] = {"kind": "python", "policy": f"{path}:Picky"}
    with pytest.raises(UserCodeError) as caught:
        aqmlab.simulate(scenario)
    message = str(caught.value)
    assert message.startswith(
        f"topology.bottleneck.queue.policy: {path}:Picky (building it) raised ValueError: q_th = 0"
    )
    assert f'File "{path}", line 6, in __init__' in message


def test_declaring_decides_at_arrival_selects_the_event_free_link_and_changes_no_result(user_file):
    # The same Python RED on an event-driven link (transmission-complete events, `Queue::dequeue`)
    # and on the event-free one (Lindley's recursion): the same run, fewer events.
    path = user_file(
        f"import sys\nsys.path.insert(0, {str(RED_REFERENCE.rpartition('/')[0])!r})\n"
        "from python_red import PythonRed\n\n"
        "class EventDrivenRed(PythonRed):\n"
        "    decides_at_arrival = False\n"
    )
    event_free = with_python_red(dumbbell_60("10s"))
    event_driven = copy.deepcopy(event_free)
    event_driven["topology"]["bottleneck"]["queue"]["policy"] = f"{path}:EventDrivenRed"
    a, b = aqmlab.simulate(event_free), aqmlab.simulate(event_driven)
    assert differences(a, b) == []
    assert a.counters["events"] < b.counters["events"]


def test_extensions_powi_rounds_as_the_engines_powi():
    import random

    from aqmlab import _engine
    from aqmlab.extensions import powi

    draw = random.Random(31)
    for _ in range(20000):
        x = draw.choice([1.0 - draw.random() * 1e-3, draw.uniform(0.0, 2.0), draw.uniform(-3.0, 3.0)])
        n = draw.choice([0, 1, 2, 3, draw.randrange(-40, 40), draw.randrange(0, 100000)])
        assert powi(x, n) == _engine.powi(x, n) or (
            powi(x, n) != powi(x, n) and _engine.powi(x, n) != _engine.powi(x, n)
        )
    assert powi(0.998, 101) != 0.998**101  # where C's pow rounds otherwise, the engine's rounding wins


def test_ctrl_c_inside_a_hook_is_an_interrupt_not_a_user_error(user_file):
    # Python runs its signal handlers inside the hook's code: a Ctrl-C landing there must stop
    # the run as Ctrl-C does anywhere else (partial results), not be blamed on the user's code.
    path = user_file(RAISES.replace("return self.ratio(queue)", "raise KeyboardInterrupt"))
    scenario = dumbbell_60("5s")
    scenario["topology"]["bottleneck"]["queue"] = {"kind": "python", "policy": f"{path}:Fragile", "limit": "100p"}
    with pytest.raises(SimulationInterrupted) as caught:
        aqmlab.simulate(scenario)
    assert 0 < caught.value.partial.end_s < 5


def test_a_policy_without_on_enqueue_is_refused_where_it_is_written():
    from aqmlab.extensions import QueuePolicy

    with pytest.raises(TypeError, match=r"Silent must define on_enqueue\(self, queue, packet\)"):

        class Silent(QueuePolicy):
            decides_at_arrival = True
