"""Issue 29 items 2 and 3 (no integrity check; one damaged summary breaks the study): every
file of a run and its summary carry checksums; `study`, `report` and `summary` name damaged
runs and keep reading the rest; `--resume` recomputes or rewrites exactly what is damaged or
missing, byte-identical to a clean sweep."""

from __future__ import annotations

import json
import shutil

import pytest
from aqmlab.experiments import Study, Sweep, run_sweep
from aqmlab.results import Results
from fault_helpers import (
    assert_one_error_line,
    cli,
    flip_byte,
    hidden_entries,
    sweep_file,
    sweep_spec,
    tree_bytes,
    truncate,
)

SEEDS = (1, 2, 3, 4, 5)


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """A clean study of five runs (the reference for byte-identical recovery)."""
    out = tmp_path_factory.mktemp("clean") / "study"
    run_sweep(Sweep.from_dict(sweep_spec(SEEDS)), out, workers=1)
    return out


def damaged_copy(clean, tmp_path):
    out = tmp_path / "study"
    shutil.copytree(clean, out)
    ids = sorted(Study(out).done_ids())
    study = Study(out)
    truncate(study.run_dir(ids[0]) / "link_trace.parquet")
    flip_byte(study.run_dir(ids[1]) / "link_trace.parquet")
    flip_byte(study.summary_path(ids[2]))
    study.summary_path(ids[3]).unlink()
    return out, ids


def test_study_report_and_summary_name_damaged_runs_and_read_the_rest(clean, tmp_path):
    out, ids = damaged_copy(clean, tmp_path)
    code, output = cli("study", out)
    assert code == 1 and "Traceback" not in output, output
    assert "4 damaged run(s)" in output and all(i in output for i in ids[:4]), output
    assert f"{out}: 1 rows" in output  # the intact run is still shown
    assert "link_trace.parquet is damaged" in output and "summary" in output
    code, output = cli("report", out)
    assert code == 1 and "Traceback" not in output and "4 damaged run(s)" in output, output
    assert "Damaged runs" in (out / "report.html").read_text()
    code, output = cli("summary", out / "runs" / ids[1])
    assert code == 2
    assert_one_error_line(output, ids[1], "link_trace.parquet is damaged (checksum mismatch)")
    with pytest.raises(Exception, match="damaged"):
        Results.load(out / "runs" / ids[0])


def test_resume_recomputes_damaged_runs_and_rewrites_summaries(clean, tmp_path):
    out, ids = damaged_copy(clean, tmp_path)
    sweep = sweep_file(tmp_path, SEEDS)
    code, output = cli("sweep", sweep, "--out", out, "--resume", "--workers", "1")
    assert code == 0, output
    assert f"recomputing run {ids[0]}" in output and f"recomputing run {ids[1]}" in output, output
    assert f"rewrote the damaged summary of run {ids[2]}" in output, output
    assert f"rewrote the missing summary of run {ids[3]}" in output, output
    assert ids[4] not in output.split("5 of 5 runs done")[0]  # the intact run is left alone
    assert "5 of 5 runs done" in output
    assert tree_bytes(out) == tree_bytes(clean)
    assert not hidden_entries(out)
    code, output = cli("study", out)
    assert code == 0 and "warning:" not in output, output


def test_a_damaged_run_json_or_study_json_is_one_line(clean, tmp_path):
    out = tmp_path / "study"
    shutil.copytree(clean, out)
    run_id = sorted(Study(out).done_ids())[0]
    manifest = out / "runs" / run_id / "run.json"
    record = json.loads(manifest.read_text())
    record["seed"] = 99  # a change the JSON parser cannot see
    manifest.write_text(json.dumps(record))
    code, output = cli("study", out)
    assert code == 1 and f"{run_id}: run run.json is damaged (checksum mismatch)" in output, output
    (out / "study.json").write_text("{")
    code, output = cli("report", out)
    assert code == 2
    assert_one_error_line(output, "study.json is not valid JSON")
    code, output = cli("sweep", sweep_file(tmp_path, SEEDS), "--out", out, "--resume", "--workers", "1")
    assert code == 2
    assert_one_error_line(output, "study.json is damaged")
