"""Every chart of the app, drawn through one helper so the modebar's camera exports slide figures.

:func:`chart` is ``st.plotly_chart`` with a Plotly ``config`` whose camera button
(``toImageButtonOptions``) renders the figure at a fixed layout size and scale instead of its
on-screen size (a contour panel is 482 × 380 px on screen): PNG at ``SLIDE_SCALE`` × the layout
size (≥ 1,600 px wide), or SVG (vector). The format is a choice at the bottom of the sidebar
("Figure export", drawn by the frame after a page that drew a chart: :func:`format_selector`), kept
for the browser session, not in the URL (it does not change the view).
"""
from __future__ import annotations

import re
from typing import Any

import streamlit as st

FORMATS = {"png": "PNG, 2× (slides)", "svg": "SVG (vector)"}
SLIDE_SCALE = 2
"""Pixels per layout pixel of a PNG export."""
SLIDE_WIDTH = 900
"""Layout width (px) of an exported figure without its own width: 1,800 px wide at SLIDE_SCALE."""
SLIDE_HEIGHT = 560
"""Layout height (px) of an exported figure without its own height (a 16:10-ish slide panel)."""
MIN_EXPORT_WIDTH = 1600
"""What "slide resolution" means here: the PNG is at least this many pixels wide."""

_FORMAT = "_svmviz_export_format"  # session_state: the chosen format (kept when a page shows no chart)
_WIDGET = "_svmviz_export_widget"  # the sidebar widget's key
_DREW = "_svmviz_export_drew"  # session_state: (this run's token,) once the page drew a chart in this run


def export_format() -> str:
    """The export format chosen in this browser session ("png" or "svg")."""
    fmt = st.session_state.get(_FORMAT, "png")
    return fmt if fmt in FORMATS else "png"


def _remember() -> None:
    st.session_state[_FORMAT] = st.session_state[_WIDGET]


def _run_token():
    from svmviz.ui._streamlit_compat import run_token

    return run_token()


def drew_chart() -> bool:
    """Whether the page drew a chart in this run."""
    held = st.session_state.get(_DREW)
    return held is not None and held[0] is _run_token()


def format_selector() -> str:
    """The "Figure export" choice, at the bottom of the sidebar: the frame calls it after the page ran,
    when the page drew a chart (below every control of the page, the same place on every page)."""
    if not drew_chart():
        return export_format()
    st.session_state[_WIDGET] = export_format()
    st.sidebar.selectbox("Figure export (camera button of each chart)", list(FORMATS), key=_WIDGET,
                         format_func=FORMATS.get, on_change=_remember,
                         help=f"The camera icon above a chart downloads it: PNG at {SLIDE_SCALE}× a "
                              f"{SLIDE_WIDTH}-px-wide layout (≥ {MIN_EXPORT_WIDTH} px) for slides, or SVG.")
    return export_format()


def _filename(fig, key: str | None) -> str:
    title = ""
    try:
        title = fig.layout.title.text or ""
    except AttributeError:
        pass
    # the title's words without Plotly's HTML tags (<br>, <sub>): letters of any script (the Greek of
    # "λ", "σ", "ν") and digits; every other run of characters, including the ones a file system
    # forbids (/ \ : * ? " < > |), becomes one "_"
    words = re.sub(r"<[^>]*>", " ", title or key or "svmviz_figure")
    base = re.sub(r"[\W_]+", "_", words).strip("_")[:60]
    return base or "svmviz_figure"


def export_config(fig, *, key: str | None = None, fmt: str = "png") -> dict:
    """The Plotly ``config`` of a chart: slide-size camera export in ``fmt``, no Plotly logo."""
    width = getattr(fig.layout, "width", None) or SLIDE_WIDTH
    height = getattr(fig.layout, "height", None) or SLIDE_HEIGHT
    if width * SLIDE_SCALE < MIN_EXPORT_WIDTH:  # a figure drawn small: enlarge its layout proportionally
        f = MIN_EXPORT_WIDTH / (width * SLIDE_SCALE)
        width, height = int(round(width * f)), int(round(height * f))
    return {"toImageButtonOptions": {"format": fmt, "filename": _filename(fig, key), "width": int(width),
                                     "height": int(height), "scale": SLIDE_SCALE if fmt == "png" else 1},
            "displaylogo": False}


def chart(fig, *, key: str, where: Any = None, **kwargs):
    """``st.plotly_chart(fig, key=key, theme=None, **kwargs)`` (or ``where.plotly_chart``) with the slide
    export config and the page's look in the figure's template (:func:`svmviz.figures.theme.page_look`).

    ``theme=None``: Streamlit's chart theme is applied in the browser to a copy of the figure after the
    chart is mounted, which Plotly then draws a second time (the title made bold again, ``<b><b>…``);
    without it the copy is the figure drawn and is not drawn again
    (:data:`svmviz.ui._streamlit_compat.DRAW_ONCE_SCRIPT`). ``kwargs`` pass through (``width``,
    ``on_select``, ``selection_mode``…)."""
    from svmviz.figures.theme import page_look, slim_template

    slim_template(fig)  # the template's parts this figure cannot use are not sent (idempotent)
    page_look(fig)  # the page's fonts, colours and grid: the figure is drawn with its own template
    fmt = export_format()
    st.session_state[_DREW] = (_run_token(),)
    target = st if where is None else where
    return target.plotly_chart(fig, key=key, config=export_config(fig, key=key, fmt=fmt), theme=None, **kwargs)
