"""What the figures call the data: class names in legends and hover, feature names on axes, and the
data's own units beside standardised values in the hover."""
from __future__ import annotations

import numpy as np


def feature_scale(ds, columns=(0, 1)):
    """The (mean, sd) of ``columns`` of a standardised data set, to show its values in the data's units.

    Parameters
    ----------
    ds : Dataset
        A data set (:class:`svmviz.data.Dataset`).
    columns : sequence of int, default (0, 1)
        The feature columns.

    Returns
    -------
    tuple of (float, float) or None
        ((mean, sd), …) per column; None when ``ds.X`` holds the data's own values.

    See Also
    --------
    axis_names : The axis titles of the same columns.
    """
    if not getattr(ds, "is_standardized", False):
        return None
    mu, sd = ds.params["feature_mean"], ds.params["feature_sd"]
    return tuple((float(mu[j]), float(sd[j])) for j in columns)


def point_hover(X, names, scale=None) -> tuple[str, np.ndarray | None]:
    """(hover lines, customdata) of 2-D points: ``name = value`` per axis and, when ``scale`` says the
    values are standardised, the value in the data's units beside it (read from ``customdata``).

    Parameters
    ----------
    X : ndarray of shape (n, 2)
        The points as drawn.
    names : pair of str
        The features' names (without "(standardised)").
    scale : None or pair of (mean, sd)
        See :func:`feature_scale`.

    Returns
    -------
    template : str
        Two ``<br>``-separated lines for a Plotly ``hovertemplate``.
    customdata : ndarray of shape (n, 2) or None
        The original values when ``scale`` is given.
    """
    names = [str(v) for v in names]
    if scale is None:
        return f"{names[0]} = %{{x:.3f}}<br>{names[1]} = %{{y:.3f}}", None
    X = np.asarray(X, dtype=np.float64).reshape(-1, 2)
    orig = np.column_stack([X[:, k] * scale[k][1] + scale[k][0] for k in range(2)])
    return (f"{names[0]} = %{{customdata[0]:.4g}} (standardised %{{x:.2f}})<br>"
            f"{names[1]} = %{{customdata[1]:.4g}} (standardised %{{y:.2f}})"), orig


def axis_names(ds, columns=(0, 1)) -> tuple:
    """The axis titles of ``ds``'s ``columns``: their names, "(standardised)" when the values are.

    Parameters
    ----------
    ds : Dataset
        A data set (:class:`svmviz.data.Dataset`).
    columns : sequence of int, default (0, 1)
        The feature columns.

    Returns
    -------
    tuple of str
        One title per column.

    See Also
    --------
    feature_scale : The means and standard deviations of the same columns.
    """
    return tuple(ds.axis_title(j) for j in columns)
