"""Every use of plotly's private internals by svmviz, in one place, each with its fallback.

Why: plotly validates every property as it is assigned. The figures of the Kernels and path pages
are built as plain dictionaries (:mod:`svmviz.figures.build`) and every chart carries plotly_white's
template: validating them again costs tens of milliseconds of server CPU per figure at every rerun
of a page, for values fixed by this code (checked once by the tests, which build each figure both
ways and re-validate it). plotly's public API has no switch for it; these are plotly's own
unvalidated paths (``BaseFigure(..., _validate=False)``, the one it uses for its default template).

* :func:`figure` — ``go.Figure(data, layout, _validate=False)``. Fallback: the validated figure.
* :func:`assign_unvalidated` — a layout property stored as given (``layout._validate`` off for the
  assignment). Fallback: the validated assignment.
* :func:`raw_property` — a layout property as it is stored (``layout._props``), not a validated copy.
  Fallback: the property's ``to_plotly_json()``.

Canary: the tests of this module (the unvalidated paths still skip validation and give the
same figure as the validated ones). The fallbacks give the same figures, only slower.
"""
from __future__ import annotations

import plotly.graph_objects as go


def figure(data: list, layout: dict, *, validate: bool = False) -> go.Figure:
    """``go.Figure(data=data, layout=layout)``, validated only when ``validate``."""
    if not validate:
        try:
            return go.Figure(data=data, layout=layout, _validate=False)
        except TypeError:  # a plotly without the keyword: validated
            pass
    return go.Figure(data=data, layout=layout)


def assign_unvalidated(layout, name: str, value) -> None:
    """``setattr(layout, name, value)`` without plotly validating ``value`` (a template it made itself)."""
    if not hasattr(layout, "_validate"):
        setattr(layout, name, value)
        return
    try:
        layout._validate = False
        setattr(layout, name, value)
    finally:
        layout._validate = True


def raw_property(layout, name: str):
    """``layout``'s property ``name`` as stored (a dictionary for a template), None when unset."""
    props = getattr(layout, "_props", None)
    if isinstance(props, dict):
        return props.get(name)
    value = getattr(layout, name, None)
    return value.to_plotly_json() if hasattr(value, "to_plotly_json") else value
