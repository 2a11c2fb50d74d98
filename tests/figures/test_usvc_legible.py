"""The Unbiased SVC charts read as they should: the right-hand CE axes have round ticks of their own, and
every legend entry is drawn in a colour that shows on the white page."""
from __future__ import annotations

import numpy as np

from svmviz.data import make_dataset
from svmviz.figures import usvc as F
from svmviz.usvc import IRWLSClassifier


def _figures():
    ds = make_dataset("usvc_A", n=120, seed=1)
    tr = F.compute_trajectory(IRWLSClassifier(C=10.0, loss="smooth_step").fit(ds.X, ds.y))
    surf = F.compute_error_surface(ds.X, ds.y, loss="smooth_step", n_th=21, n_w=11, w_max=15.0)
    view = F.compute_scenario_view("A", n_sample=2000, th=np.linspace(0, 1, 11))
    return (F.plot_scenario(view), F.plot_error_surface(surf, tr, n_steps=4),
            F.plot_ce_profiles([surf], ce_theory=view.ce_theory, th_theory=view.th))


def test_the_right_hand_ce_axes_place_their_own_round_ticks_without_a_second_grid():
    scenario, _, profiles = _figures()
    for fig in (scenario, profiles):
        # plotly's "sync" would put the right axis's ticks on the left axis's grid (0.035, 0.232, 0.43)
        assert fig.layout.yaxis2.tickmode == "auto" and fig.layout.yaxis2.showgrid is False


def test_every_legend_entry_shows_on_the_white_page():
    for fig in _figures():
        for t in fig.data:
            if t.type != "scatter" or t.showlegend is False or "lines" not in (t.mode or ""):
                continue
            assert (t.line.color or "").lower() not in ("white", "#fff", "#ffffff"), t.name


def test_the_profile_locus_stays_white_on_the_map_and_one_legend_entry_toggles_it():
    _, surface, _ = _figures()
    profile = [t for t in surface.data if t.name == "min over w (profile)"]
    drawn = [t for t in profile if t.x is not None and len(t.x) and t.x[0] is not None]
    listed = [t for t in profile if t.showlegend is not False]
    assert len(drawn) == 1 and drawn[0].line.color == "white" and len(listed) == 1
    assert drawn[0].legendgroup == listed[0].legendgroup == "profile"
