"""The Criteria studies page's cost figures: timed warm (no compilation inside a replicate's seconds),
the run's grid stated as the slider sets it, and one time estimate from the prompt to the progress bar."""
from __future__ import annotations

import time

import pytest

from svmviz.studies import load_spec, tasks
from svmviz.ui.studies import small_spec
from tests.apptest_utils import assert_clean, page_path


def test_each_process_runs_the_criteria_once_untimed_before_timing_them(monkeypatch):
    import svmviz.tuning as tuning

    calls = []
    real = tuning.criteria_surface

    def recording(X, *a, **kw):
        calls.append(X.shape[0])
        return real(X, *a, **kw)

    monkeypatch.setattr(tuning, "criteria_surface", recording)
    monkeypatch.setattr(tasks, "_WARM", set())
    spec = small_spec(load_spec("wahba2001_standard"), 3, 4)
    tasks.run_task(spec, 0, 0)
    n = spec.datasets[0].n
    assert calls == [tasks.WARM_POINTS, n], calls  # the warm-up first, then the timed surface
    tasks.run_task(spec, 0, 1)
    assert calls == [tasks.WARM_POINTS, n, n], calls  # once per process and criteria set


def test_the_warm_up_is_what_makes_the_first_replicate_as_dear_as_the_others(monkeypatch):
    """The seconds of replicate 0 exclude the warm-up: a warm-up that sleeps does not reach them."""
    monkeypatch.setattr(tasks, "_WARM", set())
    real = tasks.warm_svm

    def slow(*a, **kw):
        time.sleep(0.5)
        return real(*a, **kw)

    monkeypatch.setattr(tasks, "warm_svm", slow)
    spec = small_spec(load_spec("wahba2001_standard"), 2, 4)
    table = tasks.run_task(spec, 0, 0)
    assert float(table.loc[table["criterion"] == "gacv", "seconds"].iloc[0]) < 0.5


def test_studies_page_states_the_grid_the_slider_sets_and_how_seconds_are_timed():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(page_path("7_Criteria_studies.py"), default_timeout=120).run()
    assert_clean(at)
    text = " ".join(c.value for c in at.caption)
    grid = at.slider(key="studies_grid").value
    assert f"each on a {grid} × {grid} grid of (σ, λ) (the spec's: 30 × 30)" in text
    assert "timed warm" in text
    at.slider(key="studies_grid").set_value(6).run()
    assert "each on a 6 × 6 grid" in " ".join(c.value for c in at.caption)


class _FakeJob:
    def __init__(self, done, total, elapsed):
        self.done, self.total, self.message = done, total, ""
        self.started = time.monotonic() - elapsed
        self.compiling = False  # numba is not compiling for it: its time left is the pace's


@pytest.mark.parametrize("frac", [0.03, 0.1])
def test_progress_bar_starts_from_the_prompts_estimate(frac):
    from svmviz.ui.compute import _progress_line, format_seconds

    estimate = 68 * 60.0  # the prompt: "about 68 min"
    elapsed = 8.0  # the first steps run fast: their rate alone extrapolates to ~4 min
    _, line = _progress_line("Exact LOO…", _FakeJob(int(frac * 1000), 1000, elapsed), estimate)
    left = line.split(", ~")[1].split(" left")[0]
    minutes = float(left.split()[0]) * (60 if left.endswith("h") else 1)
    assert 0.6 * 68 <= minutes <= 68, (line, format_seconds(estimate))


def test_progress_bar_follows_the_measured_rate_near_the_end():
    from svmviz.ui.compute import _progress_line

    _, line = _progress_line("x", _FakeJob(990, 1000, 600.0), 68 * 60.0)
    assert "~" in line
    left = line.split(", ~")[1].split(" left")[0]
    seconds = float(left.split()[0]) * (60 if left.endswith("min") else 1)
    assert seconds < 0.1 * 68 * 60  # 1 % left: the estimate has come down to the measured pace
