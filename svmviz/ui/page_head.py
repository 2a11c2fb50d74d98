"""The head of every page: reopening a bare ``pages/`` script through the app's navigation, the title,
the caption and the "Reproduce the paper's figure" picker."""
from __future__ import annotations

import streamlit as st

from svmviz.ui import _streamlit_compat


def ensure_app_frame() -> None:
    """Reopen a page through app.py's navigation if Streamlit ran it as a bare ``pages/`` script.

    Call first on every page. A fresh server whose first visitor follows a shared link to a page
    (``…/Tuning_criteria?data=…``) runs that file in Streamlit's legacy ``pages/``-directory mode:
    no st.navigation sidebar, no wide layout — and every later link stays in that mode until someone
    opens the root URL, because Streamlit leaves it only once app.py has called ``st.navigation``.
    Leave it now and rerun: the rerun runs app.py, whose navigation resolves the same URL.
    Pages run on their own (``streamlit run pages/…``, AppTest) are not affected.
    """
    if _streamlit_compat.leave_pages_directory_mode():
        st.rerun()


def page_header(module: str, caption: str | None = None) -> None:
    """The head of every page, the same on each: the page's title (its entry in
    :data:`svmviz.ui.frame.PAGES`), a caption naming the paper and what the page shows (glossary
    terms spelled out, :func:`svmviz.ui.glossary.spell`) and the “Reproduce the paper's figure”
    picker (:func:`svmviz.ui.presets.picker`).

    Every page is a function ``page()`` in ``svmviz.ui.<module>`` that starts with this call; it
    is run by the thin script ``pages/<N>_<Title>.py`` under ``streamlit run app.py`` and by the
    installed app's frame (:mod:`svmviz.ui.frame`)."""
    from svmviz.ui import frame, glossary, presets

    spec = next(s for s in frame.PAGES if s.module == module)
    st.title(spec.title)
    if caption:
        st.caption(glossary.spell(caption))
    presets.picker(module)
