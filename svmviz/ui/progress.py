"""A progress bar for numerics that report through a callback, outside :func:`svmviz.ui.compute.cached_compute`."""
from __future__ import annotations

import streamlit as st


class StreamlitProgress:
    """Adapter from a numerics progress callback ``cb(done, total, message)`` to ``st.progress``."""

    def __init__(self, text: str):
        self._bar = st.progress(0.0, text=text)
        self._text = text

    def __call__(self, done: int, total: int, message: str = "") -> None:
        frac = 0.0 if total <= 0 else min(1.0, done / total)
        self._bar.progress(frac, text=f"{self._text} {message}".strip())

    def done(self) -> None:
        self._bar.empty()
