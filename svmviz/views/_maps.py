"""The plane a page's 2-D map is drawn on, shared by the views that draw maps."""
from __future__ import annotations

from typing import NamedTuple

from svmviz.figures.labels import axis_names, feature_scale, plane_axis_titles
from svmviz.figures.plane import compute_map_plane

from ._plan import Step, call, ref


class MapPlane(NamedTuple):
    """A map's plane in a plan: the steps that make it and the arguments a ``plot_*`` function takes.

    Attributes
    ----------
    steps : tuple of Step
        ``plane`` (:func:`svmviz.figures.plane.compute_map_plane`) for data of more than two features;
        none for two.
    plane : Ref or None
        The plane, for the ``compute_*`` function's ``plane=`` (None: the data's own two features).
    axis_titles, scale : Call
        The ``plot_*`` function's axis titles and feature scale.
    """

    steps: tuple
    plane: object
    axis_titles: object
    scale: object

    @property
    def plane_kwargs(self) -> dict:
        """``{"plane": plane}`` for a plane of more than two features, else nothing."""
        return {} if self.plane is None else {"plane": self.plane}


def map_plane(ds, map_axes: dict | None) -> MapPlane | None:
    """The plane of a map of ``ds`` (the plan's input ``ds``).

    Parameters
    ----------
    ds : svmviz.data.Dataset
    map_axes : dict or None
        For data of more than two features, :func:`svmviz.figures.plane.compute_map_plane`'s ``kind``
        ("features" or "components") and, for two features, ``axes``.

    Returns
    -------
    MapPlane or None
        None for data of more than two features without ``map_axes`` and for data of one feature:
        no map.
    """
    d = ds.X.shape[1]
    if d == 2:
        return MapPlane((), None, call(axis_names, ref("ds")), call(feature_scale, ref("ds")))
    if map_axes is None or d < 2:
        return None
    step = Step("plane", call(compute_map_plane, ref("ds.X"), **map_axes, feature_names=ref("ds.feature_names")),
                "The map's plane: the model is fitted on all features; the map shows f "
                + ("on the first two principal components of the standardised features, through their mean."
                   if map_axes["kind"] == "components" else "over two features, the others at their medians."))
    return MapPlane((step,), ref("plane"), call(plane_axis_titles, ref("ds"), ref("plane")),
                    call(feature_scale, ref("ds"), call(range, d)))
