"""Issue 29 item 5 (output directories): a mount point and a pre-created folder are written
into, not replaced, and keep their mode; files and folders get the user's umask; --force
means the same in `run` and `sweep` (a file is replaced too); `sweep --resume --out FILE`
is one line."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest
from fault_helpers import assert_one_error_line, cli, hidden_entries, scenario_file, sweep_file


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def umask_002():
    previous = os.umask(0o002)
    yield
    os.umask(previous)


def test_a_pre_created_folder_keeps_its_mode_and_files_get_the_umask(tmp_path, umask_002):
    out = tmp_path / "shared"
    out.mkdir()
    os.chmod(out, 0o2775)
    code, output = cli("run", scenario_file(tmp_path), "-q", "--out", out)
    assert code == 0, output
    assert mode(out) == 0o2775
    assert {mode(p) for p in out.iterdir()} == {0o664} and not hidden_entries(out)
    code, output = cli("run", scenario_file(tmp_path), "-q", "--out", out, "--force")
    assert code == 0 and mode(out) == 0o2775, output

    study = tmp_path / "study"
    study.mkdir()
    os.chmod(study, 0o2775)
    code, output = cli("sweep", sweep_file(tmp_path), "--out", study, "--workers", "1")
    assert code == 0, output
    assert mode(study) == 0o2775 and mode(study / "study.json") == 0o664
    runs = list((study / "runs").iterdir())
    assert runs and {mode(p) for p in runs} == {0o775}
    assert {mode(p) for p in runs[0].iterdir()} == {0o664}
    assert {mode(p) for p in (study / "summaries").iterdir()} == {0o664}
    code, output = cli("sweep", sweep_file(tmp_path), "--out", study, "--workers", "1", "--force")
    assert code == 0 and mode(study) == 0o2775, output


@pytest.fixture
def mount_point(tmp_path):
    """A tmpfs mounted at tmp_path/mnt (where permitted: root, or a user namespace)."""
    point = tmp_path / "mnt"
    point.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64m,mode=0755", "tmpfs", str(point)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    yield point
    subprocess.run(["umount", str(point)], check=True)


def test_a_mount_point_is_written_into(tmp_path, mount_point):
    assert os.path.ismount(mount_point)
    code, output = cli("run", scenario_file(tmp_path), "-q", "--out", mount_point)
    assert code == 0 and (mount_point / "run.json").is_file(), output
    code, output = cli("run", scenario_file(tmp_path), "-q", "--out", mount_point)
    assert code == 2
    assert_one_error_line(output, str(mount_point), "--force")
    code, output = cli("run", scenario_file(tmp_path), "-q", "--out", mount_point, "--force")
    assert code == 0 and os.path.ismount(mount_point) and not hidden_entries(mount_point), output
    assert cli("summary", mount_point)[0] == 0
    code, output = cli("sweep", sweep_file(tmp_path), "--out", mount_point, "--workers", "1", "--force")
    assert code == 0 and os.path.ismount(mount_point) and (mount_point / "study.json").is_file(), output
    assert not (mount_point / "run.json").exists()


def test_force_means_the_same_in_run_and_sweep(tmp_path):
    for command in (["run", scenario_file(tmp_path), "-q"], ["sweep", sweep_file(tmp_path), "--workers", "1"]):
        out = tmp_path / f"{command[0]}-file"
        out.write_text("not results")
        code, output = cli(*command, "--out", out)
        assert code == 2 and out.read_text() == "not results"
        assert_one_error_line(output, str(out), "exists", "--force")
        code, output = cli(*command, "--out", out, "--force")
        assert code == 0 and out.is_dir(), output


def test_resume_into_a_file_is_one_line(tmp_path):
    out = tmp_path / "file"
    out.write_text("x")
    code, output = cli("sweep", sweep_file(tmp_path), "--out", out, "--resume")
    assert code == 2 and out.read_text() == "x"
    assert_one_error_line(output, str(out), "is a file, not a study directory")
