"""The criteria panels' layout: one panel to a row unless two are asked for, the rows' gap in pixels,
the shared legend at the figure's bottom edge."""
from __future__ import annotations

import json

import numpy as np
import pytest

import svmviz.figures.tuning as F


@pytest.fixture(scope="module")
def contours():
    from svmviz import data as _data
    from svmviz.tuning import criteria_surface

    ds = _data.make_dataset("wahba2001", n=60, seed=2)
    surf = criteria_surface(ds.X, ds.y, np.logspace(-4, -0.5, 5), np.logspace(-1, 1, 4), L=(1.0, 1.0),
                            p_true=ds.p_true(ds.X), loo=False)
    return [F.compute_contour(surf, k) for k in ("gckl", "gacv", "misclass")]


def _domains(lay: dict, axis: str) -> list:
    return sorted(tuple(lay[k]["domain"]) for k in lay if k.startswith(axis) and "domain" in lay[k])


def test_one_panel_to_a_row_by_default(contours):
    lay = json.loads(F.plot_contour_panels(contours).to_json())["layout"]
    assert _domains(lay, "xaxis") == [(0.0, 1.0)] * 3
    ys = _domains(lay, "yaxis")
    plot_height = lay["height"] - lay["margin"]["t"] - lay["margin"]["b"]
    for (lo, _), (_, hi) in zip(ys[1:], ys[:-1]):  # the gap between two rows, in pixels
        assert (lo - hi) * plot_height == pytest.approx(F.ROW_GAP_PX)
    assert lay["legend"]["yref"] == "container" and lay["legend"]["y"] == 0.0


def test_two_panels_to_a_row_on_request(contours):
    lay = json.loads(F.plot_contour_panels(contours, columns=2).to_json())["layout"]
    xs = _domains(lay, "xaxis")
    assert len(set(xs)) == 2 and len(set(_domains(lay, "yaxis"))) == 2  # two rows of two
    assert min(x[1] for x in xs) + F.PANEL_GAP == pytest.approx(max(x[0] for x in xs))


@pytest.mark.parametrize("columns", [0, 3, 1.5])
def test_columns_other_than_one_or_two_are_refused(contours, columns):
    with pytest.raises(ValueError, match="columns must be 1 or 2"):
        F.plot_contour_panels(contours, columns=columns)
