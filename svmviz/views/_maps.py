"""Plan steps shared by the views that draw maps: the plane a map of more than two features lies on,
and the axis arguments of its plot."""
from __future__ import annotations

from typing import NamedTuple

from svmviz.figures.labels import axis_names, feature_scale, plane_axis_titles
from svmviz.figures.plane import compute_map_plane

from ._plan import Step, call, ref, refs


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
    steps, plane, axes = map_steps(ds.X.shape[1], map_axes)
    if axes is None:
        return None
    return MapPlane(tuple(steps), plane, axes["axis_titles"], axes["scale"])


def plane_doc(kind: str) -> str:
    """The markdown line of the map's plane step (``kind`` of :func:`svmviz.figures.plane.compute_map_plane`)."""
    return ("The map's plane: the model is fitted on all features; the map shows f "
            + ("on the first two principal components of the standardised features, through their mean."
               if kind == "components" else "over two features, the others at their medians."))


def map_steps(d: int, map_axes: dict | None, bind: str = "plane") -> tuple:
    """The steps and plot arguments of a map of data with ``d`` features.

    Parameters
    ----------
    d : int
        The data set's number of features.
    map_axes : dict or None
        For ``d > 2``, the arguments of :func:`svmviz.figures.plane.compute_map_plane` (``kind``, and
        ``axes`` for two features); None: no map for such data.
    bind : str
        The name the plane is bound to.

    Returns
    -------
    steps : list of Step
        The plane's step (``d > 2`` with ``map_axes``), else none.
    plane : Ref or None
        The plane (the ``plane=`` argument of the ``compute_*`` map functions), None on two features.
    axes : dict or None
        ``axis_titles``, ``feature_names`` and ``scale`` of the map's plot; None when there is no map
        (``d < 2``, or ``d > 2`` without ``map_axes``).
    """
    if d == 2:
        return [], None, dict(axis_titles=call(axis_names, ref("ds")), feature_names=ref("ds.feature_names"),
                              scale=call(feature_scale, ref("ds")))
    if d < 2 or map_axes is None:
        return [], None, None
    step = Step(bind, call(compute_map_plane, ref("ds.X"), **map_axes, feature_names=ref("ds.feature_names")),
                plane_doc(map_axes["kind"]))
    return [step], ref(bind), dict(axis_titles=call(plane_axis_titles, ref("ds"), ref(bind)),
                                   feature_names=ref("ds.feature_names"),
                                   scale=call(feature_scale, ref("ds"), call(range, d)))


def inputs_of(steps) -> list:
    """``["ds"]`` when a step reads the data set ``ds``, else no input (a plan of the paper's own data)."""
    return ["ds"] if any(r.name == "ds" for s in steps for r in refs(s.expr)) else []
