"""Bad input and failed solves, shown to the user as what to fix."""
from __future__ import annotations

import streamlit as st


def show_error(exc_or_msg, *, what: str | None = None) -> None:
    """Show a bad-input or failed-solve problem as ``st.error`` saying what to fix (never a traceback)."""
    msg = str(exc_or_msg)
    if what:
        msg = f"{what}: {msg}"
    st.error(msg, icon=":material/error:")
