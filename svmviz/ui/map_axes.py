"""The axes of a page's 2-D maps when the data have more than two features: two chosen features (the
other features at their medians) or the first two principal components of the standardised features
(:mod:`svmviz.figures.plane`). The choice is kept in the shared link."""
from __future__ import annotations

from typing import NamedTuple

import streamlit as st

from svmviz.figures.plane import MapPlane, compute_map_plane

from .widgets import control

KIND_LABELS = {"features": "two features", "components": "first two principal components"}


class MapAxes(NamedTuple):
    """The map axes chosen on a page: the plane, and what the generated code repeats."""

    plane: MapPlane
    kind: str
    axes: tuple

    @property
    def code_args(self) -> dict:
        """The arguments of :func:`svmviz.figures.plane.compute_map_plane` that make this plane."""
        return dict(kind=self.kind) if self.kind == "components" else dict(kind=self.kind, axes=tuple(self.axes))


def map_axes(ds, key: str, where=None) -> MapAxes | None:
    """The map-axes controls (in the sidebar unless ``where`` is given) and the plane they choose.

    Parameters
    ----------
    ds : Dataset
        The page's binary data set.
    key : str
        The page's key (the widgets' keys start with it).
    where : Streamlit container, optional
        Where the controls go; default the sidebar, under a "Map" header.

    Returns
    -------
    MapAxes or None
        None for data of two features (the map is their plane: no control acts) or when the two
        chosen features are the same (an ``st.error`` then says so).
    """
    d = ds.X.shape[1]
    if d <= 2:
        return None
    if where is None:
        where = st.sidebar
        where.header("Map")
    names = [str(v) for v in ds.feature_names]
    depends = tuple(names)
    kind = control(where.radio, "Map axes", list(KIND_LABELS), key=f"{key}_map_kind", default="features",
                   url="map", format_func=KIND_LABELS.get, depends=depends, keep_choice=True,
                   help=f"The model is fitted on all {d} features; the map shows its f on a plane: two chosen "
                        "features with the others at their medians, or the first two principal components of "
                        "the standardised features through their mean.")
    if kind == "components":
        return MapAxes(compute_map_plane(ds.X, kind="components", feature_names=names), "components", (0, 1))
    c1, c2 = where.columns(2)
    fx = control(c1.selectbox, "Horizontal axis", names, key=f"{key}_map_x", default=names[0], url="map_x",
                 depends=depends)
    fy = control(c2.selectbox, "Vertical axis", names, key=f"{key}_map_y", default=names[1], url="map_y",
                 depends=depends)
    a, b = names.index(fx), names.index(fy)
    if a == b:
        st.error(f"The map's two axes are both {fx}: choose two different features under \"Map axes\".")
        return None
    return MapAxes(compute_map_plane(ds.X, kind="features", axes=(a, b), feature_names=names), "features", (a, b))


def one_feature_note(ds, rest: str) -> None:
    """The map's place on data of a single feature, where there is no plane to map: says so, and what of
    the page still applies (``rest``)."""
    st.info(f"{ds.name} has one feature: there is no plane to map. {rest}")
