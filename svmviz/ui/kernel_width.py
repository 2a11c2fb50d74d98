"""The Gaussian kernel widths σ offered by the Regularization path page and the data editor, and the default for a data set."""
from __future__ import annotations

import numpy as np

from svmviz.kernels import sigma_heuristic

SIGMAS = [0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.71, 0.85, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0,
          7.0, 10.0, 15.0, 20.0]
PAPER_SIGMA = {"banana": 1.0, "esl_mixture": 0.71, "wahba2001": 1.0}


def default_sigma(ds) -> tuple[float, str]:
    """σ for these data: the papers' width on their 2-D data sets, else the median-distance heuristic
    (:func:`svmviz.ivm.sigma_heuristic`) rounded to the nearest σ offered."""
    if ds.name in PAPER_SIGMA and ds.X.shape[1] == 2:
        return PAPER_SIGMA[ds.name], "the width the paper uses for these data"
    h = sigma_heuristic(ds.X)
    return _nearest_sigma(h), f"the median-distance heuristic for these data ({h:.3g})"


def _nearest_sigma(s: float) -> float:
    return min(SIGMAS, key=lambda v: abs(np.log(v / s))) if s > 0 and np.isfinite(s) else 1.0
