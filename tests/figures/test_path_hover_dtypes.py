"""The coefficient-path chart's hover data are sent as float32 / int32 (they are most of the chart's
bytes at every rerun), and still name the right point and its coordinates."""
from __future__ import annotations

import json

import numpy as np
import pytest

from svmviz import data
from svmviz.figures import path as figs
from svmviz.path import nu_path

from tests.apptest_utils import decode


@pytest.mark.parametrize("two_d", [True, False])
def test_coef_path_hover_data_are_compact_and_exact(two_d):
    ds = data.banana(n=120, seed=1)
    p = nu_path(ds.X, ds.y, kernel="rbf", sigma=1.0)
    cp = figs.compute_coef_paths(p)
    X = ds.X if two_d else None
    spec = json.loads(figs.plot_coef_paths(cp, X=X).to_json())
    lines = [t for t in spec["data"] if str(t.get("name", "")).startswith("αᵢyᵢ")]
    assert len(lines) == 2
    for t, c in zip(lines, (-1, 1)):
        assert t["customdata"]["dtype"] == ("f4" if two_d else "i4")
        cd = decode(t["customdata"])
        pts = cp.point[c]
        np.testing.assert_array_equal(cd[:, 0], pts)  # exact point numbers (−1 at the separators)
        if two_d:
            ok = pts >= 0
            np.testing.assert_allclose(cd[ok, 1:], ds.X[pts[ok]], rtol=1e-6, atol=1e-6)
        # x and y stay float64: the drawn vertices are the path's own numbers
        np.testing.assert_array_equal(decode(t["x"]), cp.x[c])
        np.testing.assert_array_equal(decode(t["y"]), cp.y[c])
        # 4 bytes a value, in base64: a third of the chart's per-vertex bytes (x, y: 8 each)
        assert len(t["customdata"]["bdata"]) <= 4 * (3 if two_d else 1) * pts.size * 4 / 3 + 4
