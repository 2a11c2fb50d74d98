"""Widgets whose value is kept in the URL: :func:`control`, the one way a page makes a control.

A control's value comes from the URL when the URL speaks for the run (a shared link, a reload,
Back/Forward: :mod:`svmviz.ui.url_state`), otherwise from the widget's own state, reset to its
default when what the default depends on changed or when the value is no longer one the widget
accepts; the value is then written back to the URL.
"""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np
import streamlit as st

from svmviz.ui import url_state

_MISSING = object()


def _same(a, b) -> bool:
    """Equal values; numbers equal up to rounding (a URL's ``repr`` of a float, an int against a float)."""
    if isinstance(a, (int, float, np.number)) and isinstance(b, (int, float, np.number)) \
            and not isinstance(a, bool) and not isinstance(b, bool):
        return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)
    return a == b


class _Rules:
    """What values a widget accepts (from its arguments), to check URL values and stale state."""

    def __init__(self, kind: str, args: tuple, kwargs: dict, clamp: bool):
        self.kind, self.clamp = kind, clamp
        self.options = self.lo = self.hi = None
        if kind in ("selectbox", "radio", "select_slider", "multiselect", "pills", "segmented_control"):
            opts = kwargs.get("options", args[0] if args else ())
            self.options = list(opts)
        elif kind == "tabs":  # st.tabs(labels, key=…): its value is the open tab's label
            self.options = list(args[0])
        elif kind in ("slider", "number_input"):
            self.lo = kwargs.get("min_value", args[0] if len(args) > 0 else None)
            self.hi = kwargs.get("max_value", args[1] if len(args) > 1 else None)

    def _one(self, v, clamp: bool):
        if self.options is not None:
            for o in self.options:
                if _same(o, v):
                    return o
            numbers = [o for o in self.options if isinstance(o, (int, float, np.number)) and not isinstance(o, bool)]
            if clamp and numbers and len(numbers) == len(self.options) \
                    and isinstance(v, (int, float, np.number)) and not isinstance(v, bool):
                if v < min(numbers):
                    return min(numbers)
                if v > max(numbers):
                    return max(numbers)
            raise ValueError(f"{v!r} is not an option")
        if self.lo is not None and v < self.lo:
            if not clamp:
                raise ValueError(f"{v!r} is below {self.lo!r}")
            v = type(v)(self.lo)
        if self.hi is not None and v > self.hi:
            if not clamp:
                raise ValueError(f"{v!r} is above {self.hi!r}")
            v = type(v)(self.hi)
        return v

    def check(self, value, clamp: bool | None = None):
        """``value`` if the widget accepts it (options matched to their own objects), else ValueError.
        With ``clamp`` (default: the widget's own choice) a number beyond the bounds (or beyond the
        ends of numeric options) takes the nearest one."""
        clamp = self.clamp if clamp is None else clamp
        if self.kind == "multiselect":
            return [self._one(v, clamp) for v in value]
        if isinstance(value, (tuple, list)):
            out = tuple(self._one(v, clamp) for v in value)
            if len(out) == 2 and out[0] > out[1]:
                raise ValueError("range ends in the wrong order")
            return out
        return self._one(value, clamp)

    def parse(self, raws: list[str], default):
        """URL texts → a value shaped like ``default`` (a tuple spread over several parameters, a list
        written comma-separated)."""
        if self.kind == "multiselect":
            like = self.options[0] if self.options else ""
            return [url_state.parse_as(r, like) for r in raws[0].split(",") if r != ""]
        if isinstance(default, tuple):
            return tuple(url_state.parse_as(r, d) for r, d in zip(raws, default))
        like = default
        if self.options:
            like = self.options[0]
        return url_state.parse_as(raws[0], like)


def control(make: Callable, label: str, *args, key: str, default, url: str | tuple | None = None,
            depends: Any = None, keep_choice: bool = False, clamp: bool = False, **kwargs):
    """``make(label, *args, key=key, **kwargs)`` — a Streamlit widget — with its value kept in the URL.

    Parameters
    ----------
    make : a Streamlit widget function (``st.slider``, ``st.sidebar.selectbox``, ``cols[0].radio``…)
        Called without ``value``/``index``/``default``: the value is put in ``st.session_state[key]``.
    label, args, kwargs : the widget's own arguments.
    key : str
        The widget's key.
    default : the value when nothing else decides (a tuple for a range slider, a list for a multiselect).
    url : str or tuple of str, optional
        URL parameter name(s) (a range slider: two names). None: not in the URL.
    depends : hashable, optional
        Whatever the default depends on (e.g. the data set): when it changes, the value is reset to
        ``default`` — so a data-dependent default follows the data.
    keep_choice : bool
        With ``depends``: reset only a value that was the old default; a value the user chose stays
        (while it is still one of the options).
    clamp : bool
        A URL value outside a slider's bounds is clamped to them (instead of ignored).

    Returns
    -------
    The widget's value.
    """
    kind = getattr(make, "__name__", "")
    rules = _Rules(kind, (label, *args) if kind == "tabs" else args, kwargs, clamp)
    names = (url,) if isinstance(url, str) else tuple(url or ())
    run = url_state.current_run()
    dep_key, def_key = f"_svmviz_depends_{key}", f"_svmviz_default_{key}"
    value = _MISSING
    if run.speaks and names:
        raws = [st.query_params.get(n) for n in names]
        if all(r is not None for r in raws):
            try:
                value = _from_link(rules, make, label, names, raws, default)
            except (TypeError, ValueError):
                value = _MISSING
        if value is _MISSING:
            value = default
        pending = st.session_state.get(url_state.PENDING)
        for n in names if pending else ():
            pending[1].pop(n, None)
    elif key not in st.session_state:
        value = default
        pending = st.session_state.get(url_state.PENDING)
        raws = [pending[1].get(n) for n in names] if pending and pending[0] == run.page and names else [None]
        if all(r is not None for r in raws):
            for n in names:
                pending[1].pop(n, None)
            try:
                value = _from_link(rules, make, label, names, raws, default)
            except (TypeError, ValueError):
                value = default
    elif st.session_state.get(dep_key, _MISSING) != depends and not (
            keep_choice and not _same_value(st.session_state[key], st.session_state.get(def_key, _MISSING))):
        value = default
    else:
        try:
            current = st.session_state[key]
            checked = rules.check(current)
            if not _same_value(checked, current):
                value = checked
        except (TypeError, ValueError):
            value = default
    if value is not _MISSING:
        st.session_state[key] = list(value) if kind == "multiselect" else value
    st.session_state[dep_key] = depends
    st.session_state[def_key] = default
    out = make(label, *args, key=key, **kwargs)
    if names:
        # lazy tabs (``st.tabs(…, key=…, on_change="rerun")``) return their containers: the value is the open tab
        parts = out if len(names) > 1 else (st.session_state.get(key, default) if kind == "tabs" else out,)
        url_state.register(**{n: p for n, p in zip(names, parts)})
    return out


def _from_link(rules: _Rules, make: Callable, label: str, names: tuple, raws: list, default):
    """The value a link's ``raws`` give the widget: a number beyond its bounds takes the nearest limit,
    and a note beside the widget says so (:func:`svmviz.ui.url_state.note_clamped`)."""
    parsed = rules.parse(raws, default)
    value = rules.check(parsed, clamp=True)
    pairs = zip(value, parsed) if isinstance(value, (list, tuple)) else [(value, parsed)]
    if not all(_same(a, b) for a, b in pairs):
        url_state.note_clamped(getattr(make, "__self__", None), label, names, raws, value)
    return value


def _same_value(a, b) -> bool:
    """:func:`_same`, element by element for sequences, and of the same type."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) and type(x) is type(y) for x, y in zip(a, b))
    return _same(a, b) and type(a) is type(b)
