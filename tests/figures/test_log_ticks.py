"""Log axes written with labels of one size: build.log_ticks, and the studies' cost chart that uses it."""
from __future__ import annotations

import numpy as np
import pytest

from svmviz.figures import build
from svmviz.figures.studies import CostData, plot_costs


@pytest.mark.parametrize("values, expected", [
    ([1.0, 8.0], [1, 2, 5]),                   # within two decades: 1, 2, 5 per decade
    ([0.5, 900.0], [1, 10, 100, 1000]),        # more: the powers of ten
    ([1.2, 1.9], [1.5, 2]),                    # fewer than two: the finer steps
])
def test_log_ticks_cover_the_values_with_readable_steps(values, expected):
    t = build.log_ticks(values)
    assert t["tickvals"] == pytest.approx(expected)
    assert t["ticktext"] == [f"{v:g}" for v in t["tickvals"]]
    lo, hi = min(values) / 1.15, max(values) * 1.15
    assert all(lo <= v <= hi for v in t["tickvals"])


def test_log_ticks_without_positive_values_is_empty():
    assert build.log_ticks([np.nan, 0.0, -1.0]) == {}


def test_cost_chart_labels_every_tick_itself():
    cd = CostData(("gacv", "xa", "loo"), ("GACV", "XA", "LOO"), np.array([0.1, 0.12, 0.8]), np.array([1.0, 1.2, 8.0]))
    y = plot_costs(cd).to_dict()["layout"]["yaxis"]
    assert y["type"] == "log" and list(y["tickvals"]) == pytest.approx([1, 2, 5])
    assert list(y["ticktext"]) == ["1", "2", "5"]


def test_the_deprecated_module_name_warns_and_gives_the_builders_functions():
    """``svmviz.figures.dicts`` (the figure builder's name for one more release) hands out
    svmviz.figures.build's names, each read with a DeprecationWarning naming the new module."""
    from svmviz.figures import dicts

    with pytest.warns(DeprecationWarning, match="import log_ticks from svmviz.figures.build instead"):
        assert dicts.log_ticks is build.log_ticks
    with pytest.warns(DeprecationWarning):
        from svmviz.figures.dicts import figure
    assert figure is build.figure
