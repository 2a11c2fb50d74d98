"""The IVM page's "Hₖ along the greedy steps" chart: its x axis counts steps, so its ticks fall on whole
steps (Plotly's automatic ticks would read 0, 0.5, 1, 1.5, … over four steps)."""
import numpy as np
import pytest

from svmviz.figures import ivm as fig_ivm


def _steps(n_steps: int) -> fig_ivm.StepCurve:
    k = np.arange(n_steps + 1)
    H = 100.0 - np.cumsum(np.r_[0.0, np.full(n_steps, 0.1)])
    ratio = np.r_[np.nan, np.nan, np.full(max(n_steps - 1, 0), 0.5)][: n_steps + 1]
    fields = dict(k=k, H=H, H_score=H - 0.01, n_import=k + 1, ratio=ratio, stop_k=int(k[-1]), r=1, eps=1e-3)
    return fig_ivm.StepCurve(**{f: fields[f] for f in fig_ivm.StepCurve._fields})


@pytest.mark.parametrize("n_steps, dtick", [(4, 1), (9, 1), (10, 2), (24, 3), (120, 13)])
def test_step_axis_ticks_are_whole_steps(n_steps, dtick):
    fig = fig_ivm.plot_steps(_steps(n_steps))
    ax = fig.layout.xaxis
    assert ax.tick0 == 0 and ax.dtick == dtick
    assert float(ax.dtick).is_integer() and (n_steps // ax.dtick) + 1 <= 11  # at most about ten ticks
