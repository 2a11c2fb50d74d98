"""The plane a 2-D map shows of data with any number of features: data first, then pixels.

A classifier fitted on d > 2 features has a decision function f on all of R^d; a map draws f on a
plane through the data:

- two chosen features: the plane where every other feature sits at its median;
- the first two principal components of the standardised features: the plane through the mean
  spanned by the two leading directions of variance.

The model is never refitted on the two axes: the map is a slice of the model fitted on all features.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

KINDS = ("features", "components")
"""The kinds of plane: two chosen features, or the first two principal components."""


class MapPlane(NamedTuple):
    """A plane in feature space on which a map draws f, with its coordinates (u, v).

    A point (u, v) of the map is the feature vector ``lift([[u, v]])``; a data point x is drawn at
    ``coordinates(x)``.

    Attributes
    ----------
    kind : str
        "features" (two chosen features) or "components" (the first two principal components).
    axes : tuple of (int, int)
        The two feature indices (kind "features"), or (0, 1) (kind "components").
    center : ndarray of shape (d,)
        The point the plane passes through: the features' medians (with the two axes' own values
        free) or the features' mean.
    scale : ndarray of shape (d,)
        The features' standard deviations (kind "components"; zero spreads count as 1), else ones.
    directions : ndarray of shape (2, d)
        The plane's orthonormal directions in standardised units (kind "components"), or the unit
        vectors of the two axes.
    axis_titles : tuple of (str, str)
        The map's axis titles.
    caption : str
        Which plane the map shows, in words.
    variance_share : tuple of (float, float) or None
        Share of the standardised features' total variance along each component (kind "components").
    """

    kind: str
    axes: tuple
    center: np.ndarray
    scale: np.ndarray
    directions: np.ndarray
    axis_titles: tuple
    caption: str
    variance_share: tuple | None

    @property
    def n_features(self) -> int:
        """d, the number of features of the full space."""
        return int(self.center.shape[0])

    def coordinates(self, X) -> np.ndarray:
        """The map coordinates (u, v) of points ``X`` of shape (m, d): their projection on the plane.

        Kind "features": the two features' values. Kind "components": the principal component scores
        ((x − mean) / sd) · w_k.

        Returns
        -------
        ndarray of shape (m, 2)
        """
        X = _points(X, self.n_features, "X")
        if self.kind == "features":
            return X[:, list(self.axes)].copy()
        return ((X - self.center) / self.scale) @ self.directions.T

    def lift(self, U) -> np.ndarray:
        """The feature vectors of map points ``U`` of shape (m, 2).

        Kind "features": the medians with the two axes set to (u, v). Kind "components":
        mean + sd ⊙ (u w_1 + v w_2).

        Returns
        -------
        ndarray of shape (m, d)
        """
        U = _points(U, 2, "U")
        if self.kind == "features":
            out = np.repeat(self.center[None, :], U.shape[0], axis=0)
            out[:, list(self.axes)] = U
            return out
        return self.center + (U @ self.directions) * self.scale


def _points(X, d: int, name: str) -> np.ndarray:
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != d:
        raise ValueError(f"{name} must have shape (m, {d}); got {X.shape}.")
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{name} holds NaN or infinite values.")
    return X


def _ordinal(k: int) -> str:
    return {1: "1st", 2: "2nd"}[k]


def compute_map_plane(X, *, kind: str = "features", axes=(0, 1), feature_names=None) -> MapPlane:
    """The plane a map of ``X``'s classifier shows (see :class:`MapPlane`).

    Parameters
    ----------
    X : array_like of shape (n, d)
        The training points, d ≥ 2 (the values the model is fitted on).
    kind : {"features", "components"}, default "features"
        Two chosen features (the other features at their medians), or the first two principal
        components of the standardised features (through the mean).
    axes : tuple of (int, int), default (0, 1)
        The two features (kind "features"); ignored for "components".
    feature_names : sequence of str, optional
        The d features' names (axis titles and caption); default "x1", "x2", …

    Returns
    -------
    MapPlane

    Raises
    ------
    ValueError
        ``X`` is not a finite (n, d) array with d ≥ 2 and n ≥ 2, ``kind`` is unknown, ``axes`` are not
        two different feature indices, or ``feature_names`` has not d names.
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[0] < 2 or X.shape[1] < 2:
        raise ValueError(f"a map needs at least 2 points and 2 features; X has shape {X.shape}.")
    if not np.all(np.isfinite(X)):
        raise ValueError("X holds NaN or infinite values.")
    n, d = X.shape
    names = [f"x{j + 1}" for j in range(d)] if feature_names is None else [str(v) for v in feature_names]
    if len(names) != d:
        raise ValueError(f"feature_names has {len(names)} names for {d} features.")
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}; got {kind!r}.")
    if kind == "features":
        try:
            a, b = (int(v) for v in axes)
        except (TypeError, ValueError):
            raise ValueError(f"axes must be two feature indices; got {axes!r}.") from None
        if a == b or not (0 <= a < d and 0 <= b < d):
            raise ValueError(f"axes must be two different features among 0 … {d - 1}; got {axes!r}.")
        center = np.median(X, axis=0)
        directions = np.zeros((2, d))
        directions[0, a] = directions[1, b] = 1.0
        others = d - 2
        caption = (f"The map shows f over {names[a]} and {names[b]}"
                   + (f", with the other {others} feature{'s' if others > 1 else ''} at their medians "
                      "(the model is fitted on all features; points are drawn at their own values of "
                      "the two)." if others else "."))
        return MapPlane("features", (a, b), center, np.ones(d), directions, (names[a], names[b]), caption, None)
    center = X.mean(axis=0)
    scale = X.std(axis=0)
    scale = np.where(scale > 0, scale, 1.0)
    Z = (X - center) / scale
    _, s, Vt = np.linalg.svd(Z, full_matrices=False)
    W = Vt[:2].copy()
    # a sign per direction (the SVD's is arbitrary): its largest loading is positive
    W *= np.sign(W[np.arange(2), np.argmax(np.abs(W), axis=1)])[:, None]
    share = s ** 2 / max(float(np.sum(s ** 2)), np.finfo(float).tiny)
    shares = (float(share[0]), float(share[1]) if len(share) > 1 else 0.0)
    titles = tuple(f"{_ordinal(k + 1)} principal component ({100 * shares[k]:.0f} % of variance)" for k in range(2))
    caption = ("The map shows f on the plane of the first two principal components of the standardised "
               f"features, through their mean ({100 * (shares[0] + shares[1]):.0f} % of the variance); the model "
               "is fitted on all features and points are drawn at their component scores.")
    return MapPlane("components", (0, 1), center, scale, W, titles, caption, shares)


class PlaneMesh(NamedTuple):
    """A regular mesh over a map plane.

    Attributes
    ----------
    gx : ndarray of shape (g,)
        The mesh's abscissae (map coordinate u).
    gy : ndarray of shape (g,)
        Its ordinates (map coordinate v).
    points : ndarray of shape (g * g, d)
        The mesh's points in feature space, row-major over (gy, gx): point ``r * g + c`` is
        (gx[c], gy[r]) lifted.
    """

    gx: np.ndarray
    gy: np.ndarray
    points: np.ndarray


def plane_mesh(plane: MapPlane, X, *, resolution: int = 80, pad: float = 0.08) -> PlaneMesh:
    """A mesh over the map coordinates of ``X`` (padded by ``pad`` of their range), lifted to feature space.

    Parameters
    ----------
    plane : MapPlane
        From :func:`compute_map_plane`.
    X : array_like of shape (n, d)
        The points the mesh covers.
    resolution : int, default 80
        Mesh points per axis (≥ 2).
    pad : float, default 0.08
        Padding on each side, as a fraction of the coordinates' range (≥ 0).

    Returns
    -------
    PlaneMesh
    """
    if int(resolution) != resolution or resolution < 2:
        raise ValueError(f"resolution must be an integer ≥ 2; got {resolution!r}.")
    if not np.isfinite(pad) or pad < 0:
        raise ValueError(f"pad must be a finite number ≥ 0; got {pad!r}.")
    C = plane.coordinates(X)
    lo, hi = C.min(axis=0), C.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    g = int(resolution)
    gx = np.linspace(lo[0] - pad * span[0], hi[0] + pad * span[0], g)
    gy = np.linspace(lo[1] - pad * span[1], hi[1] + pad * span[1], g)
    U = np.c_[np.tile(gx, g), np.repeat(gy, g)]
    return PlaneMesh(gx, gy, plane.lift(U))


class Line(NamedTuple):
    """One number per point for a one-dimensional view of data with any number of features.

    Attributes
    ----------
    x : ndarray of shape (n, 1)
        Feature ``along``'s values, or the scores on the first principal component of the
        standardised features; times −1 when ``flipped``.
    flipped : bool
        Whether the sign was turned so that the class +1 lies on the high side (its mean is larger),
        as the one-dimensional rule "+1 when x > Th" assumes.
    title : str
        What x is, in words.
    """

    x: np.ndarray
    flipped: bool
    title: str


def compute_line(X, y, along, *, feature_names=None) -> Line:
    """The points of ``X`` along one feature or along the first principal component, oriented by ``y``.

    Parameters
    ----------
    X : array_like of shape (n, d)
        The points.
    y : array_like of shape (n,)
        Their labels ±1.
    along : int or "components"
        A feature index, or "components" for the first principal component of the standardised
        features (:func:`compute_map_plane`; needs d ≥ 2).
    feature_names : sequence of str, optional
        The d features' names (the title).

    Returns
    -------
    Line

    Raises
    ------
    ValueError
        ``y`` is not ±1 of the same length as ``X``, or ``along`` is neither a feature index nor
        "components" (with at least two features).
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if X.ndim != 2 or y.shape != (X.shape[0],) or not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError(f"X must be (n, d) and y n labels ±1; got shapes {X.shape} and {y.shape}.")
    d = X.shape[1]
    names = [f"x{j + 1}" for j in range(d)] if feature_names is None else [str(v) for v in feature_names]
    if along == "components":
        plane = compute_map_plane(X, kind="components", feature_names=names)
        x, title = plane.coordinates(X)[:, 0], plane.axis_titles[0]
    elif isinstance(along, (int, np.integer)) and not isinstance(along, bool) and 0 <= along < d:
        x, title = X[:, int(along)].copy(), names[int(along)]
    else:
        raise ValueError(f"along must be a feature index in 0 … {d - 1} or 'components'; got {along!r}.")
    flipped = bool(x[y > 0].mean() < x[y < 0].mean()) if np.any(y > 0) and np.any(y < 0) else False
    if flipped:
        x, title = -x, f"−({title})"
    return Line(x[:, None], flipped, title)
