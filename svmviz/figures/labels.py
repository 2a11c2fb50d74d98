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
    X : ndarray of shape (n, k)
        The points as drawn, k = len(names): 2 (x and y) or 1 (x only, a 1-D chart's points).
    names : sequence of str, length k
        The features' names (without "(standardised)").
    scale : None or sequence of (mean, sd), length k
        See :func:`feature_scale`.

    Returns
    -------
    template : str
        k ``<br>``-separated lines for a Plotly ``hovertemplate``.
    customdata : ndarray of shape (n, k) or None
        The original values when ``scale`` is given (columns 0 … k − 1: a caller with more per-point
        data appends its columns after these).
    """
    names = [str(v) for v in names]
    k = len(names)
    if k not in (1, 2):
        raise ValueError(f"point_hover draws 1 or 2 axes; got {k} names ({names}).")
    axes = "xy"[:k]
    if scale is None:
        return "<br>".join(f"{n} = %{{{a}:.3f}}" for n, a in zip(names, axes)), None
    if len(scale) != k or any(len(ms) != 2 for ms in scale):
        raise ValueError(f"scale must give (mean, sd) for each of the {k} axes; got {scale!r}.")
    X = np.asarray(X, dtype=np.float64).reshape(-1, k)
    orig = np.column_stack([X[:, j] * float(scale[j][1]) + float(scale[j][0]) for j in range(k)])
    return "<br>".join(f"{n} = %{{customdata[{j}]:.4g}} (standardised %{{{a}:.2f}})"
                       for j, (n, a) in enumerate(zip(names, axes))), orig


def features_hover(X, names, scale=None) -> tuple[str, np.ndarray]:
    """(hover lines, customdata) of points drawn on a map plane: every feature, in the data's units.

    A map of data with more than two features draws each point at its coordinates on the plane
    (:mod:`svmviz.figures.plane`); its hover names all of its feature values.

    Parameters
    ----------
    X : ndarray of shape (n, d)
        The points' values as the model sees them (standardised when ``scale`` is given).
    names : sequence of str, length d
        The features' names.
    scale : None or sequence of (mean, sd), length d
        See :func:`feature_scale` (with ``columns=range(d)``): the values are shown back in the
        data's units.

    Returns
    -------
    template : str
        d ``<br>``-separated lines for a Plotly ``hovertemplate``.
    customdata : ndarray of shape (n, d)
        The values in the data's units.
    """
    X = np.asarray(X, dtype=np.float64)
    names = [str(v) for v in names]
    if X.ndim != 2 or X.shape[1] != len(names):
        raise ValueError(f"features_hover needs one name per column of X; got {len(names)} names for X of "
                         f"shape {X.shape}.")
    if scale is not None:
        if len(scale) != len(names) or any(len(ms) != 2 for ms in scale):
            raise ValueError(f"scale must give (mean, sd) for each of the {len(names)} features; got {scale!r}.")
        X = X * np.array([float(s[1]) for s in scale]) + np.array([float(s[0]) for s in scale])
    return "<br>".join(f"{n} = %{{customdata[{j}]:.4g}}" for j, n in enumerate(names)), X


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


def plane_axis_titles(ds, plane) -> tuple:
    """The axis titles of a map of ``ds`` on ``plane`` (:class:`svmviz.figures.plane.MapPlane`): the two
    features' titles (:func:`axis_names`), or the principal components'.

    Parameters
    ----------
    ds : Dataset
        The data set the plane was computed on.
    plane : MapPlane
        From :func:`svmviz.figures.plane.compute_map_plane`.

    Returns
    -------
    tuple of (str, str)
    """
    return axis_names(ds, plane.axes) if plane.kind == "features" else tuple(plane.axis_titles)
