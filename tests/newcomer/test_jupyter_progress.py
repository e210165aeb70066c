"""Progress in Jupyter without ipywidgets (issue 30 item 6): a text bar, not rich's
"install ipywidgets" warning."""

from __future__ import annotations

import warnings

import rich.console
from aqmlab import progress


def test_a_notebook_without_ipywidgets_gets_a_text_bar(monkeypatch):
    monkeypatch.setattr(rich.console, "_is_jupyter", lambda: True)
    monkeypatch.setattr(progress, "_have_ipywidgets", lambda: False)
    assert rich.console.Console().is_jupyter  # what rich would use, and warn about
    console = progress._console()
    assert not console.is_jupyter
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # rich's warning would fail here
        with progress.simulation_bar("run", 2.0) as update:
            update(1.0, 2.0)
            update(2.0, 2.0)


def test_with_ipywidgets_rich_keeps_its_widget(monkeypatch):
    monkeypatch.setattr(rich.console, "_is_jupyter", lambda: True)
    monkeypatch.setattr(progress, "_have_ipywidgets", lambda: True)
    assert progress._console().is_jupyter
