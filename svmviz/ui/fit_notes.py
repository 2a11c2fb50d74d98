"""Notes on a fitted SVM-family machine that the pages showing one add beside it."""
from __future__ import annotations

import streamlit as st

SUPPORT_SHARE = 0.9
"""Share of support vectors above which a page adds :func:`support_note`."""


def support_note(n_sv: int, n: int, ds, *, at: str, advice: str, where=None) -> str | None:
    """Warn (in ``where``, default the main area) when more than :data:`SUPPORT_SHARE` of the ``n``
    training points are support vectors of the machine fitted at ``at`` (e.g. "the selected (λ, σ)").

    Such a fit leans on nearly every point, as when σ is far too small (each point its own bump) or λ
    far too large (a nearly flat f); ``advice`` says what to try on the page. Returns the text shown,
    or None when the share is at most :data:`SUPPORT_SHARE`.
    """
    n_sv, n = int(n_sv), int(n)
    if n <= 0 or not 0 <= n_sv <= n:
        raise ValueError(f"support_note needs 0 ≤ n_sv ≤ n and n > 0, got n_sv = {n_sv}, n = {n}.")
    if n_sv <= SUPPORT_SHARE * n:
        return None
    scale = ("" if ds.is_standardized or ds.X.shape[1] < 2 else
             " Features on very different scales make one σ too narrow for some and too wide for others: "
             "standardising them often helps.")
    text = (f"{n_sv} of {n} points ({100 * n_sv / n:.0f} %) are support vectors at {at}: the fit leans on nearly "
            "every point, as when σ is far too small (each point its own bump) or λ far too large (a nearly flat "
            f"f). {advice}{scale}")
    (where or st).warning(text)
    return text
