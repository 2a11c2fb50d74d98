"""Canary of svmviz.figures._plotly_compat, the plotly internals svmviz uses: the unvalidated paths
still skip validation (a plotly upgrade that drops them fails here) and still build the figure the
validated path builds; the fallbacks build the same figures."""
from __future__ import annotations

import types

import plotly.graph_objects as go
import plotly.io as pio
import pytest

from svmviz.figures import _plotly_compat as compat

DATA = [{"type": "scatter", "x": [0, 1, 2], "y": [1, 0, 2], "mode": "lines", "name": "a"}]
LAYOUT = {"title": {"text": "t"}, "height": 300, "xaxis": {"title": {"text": "x"}}}


def test_unvalidated_figure_skips_validation_and_equals_the_validated_one():
    assert compat.figure(DATA, LAYOUT).to_dict() == go.Figure(data=DATA, layout=LAYOUT).to_dict()
    bogus = [{"type": "scatter", "notaproperty": 1}]
    compat.figure(bogus, {})  # stored as given: no validation
    with pytest.raises(ValueError):
        compat.figure(bogus, {}, validate=True)


def test_unvalidated_assignment_and_raw_property():
    fig = go.Figure(layout={"height": 200})
    compat.assign_unvalidated(fig.layout, "template", pio.templates["plotly_white"])
    assert fig.to_dict()["layout"]["template"] == pio.templates["plotly_white"].to_plotly_json()
    raw = compat.raw_property(fig.layout, "template")
    assert isinstance(raw, dict) and "layout" in raw
    compat.assign_unvalidated(fig.layout, "template", {"layout": {"notaproperty": 1}})  # no validation
    assert compat.raw_property(fig.layout, "template") == {"layout": {"notaproperty": 1}}
    with pytest.raises(ValueError):
        fig.layout.template = {"layout": {"notaproperty": 1}}
    assert fig.layout._validate is True  # restored after the assignment


def test_fallbacks_without_the_internals():
    holder = types.SimpleNamespace(template=None)  # no _validate / _props: plain assignment and read
    compat.assign_unvalidated(holder, "template", {"a": 1})
    assert compat.raw_property(holder, "template") == {"a": 1}
    assert compat.figure(DATA, LAYOUT, validate=True).to_dict() == compat.figure(DATA, LAYOUT).to_dict()
