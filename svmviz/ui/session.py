"""The data-set choice a browser session shares between its pages (data set, n, seed, upload, label column…)."""
from __future__ import annotations

import streamlit as st

SHARED = "_svmviz_shared"  # session_state key of the shared, page-independent choices


def shared_choice() -> dict:
    """The shared data-set choices of this browser session (data, n, seed, upload, label column…).

    A page changes them only when the user changes a shared widget there; the other pages read them
    as their widgets' defaults."""
    return st.session_state.setdefault(SHARED, {})
