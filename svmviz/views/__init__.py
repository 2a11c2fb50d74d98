"""Views: each app page's settings and plan, one source for the page and for its Python code.

Notes
-----
**How a page becomes a view.** A page of the app draws charts from a few settings. Its view,
``svmviz/views/<page>.py``, holds what the page computes, free of Streamlit; the page (``svmviz/ui/<page>.py``) keeps its widgets and
its layout. The page executes the view's plan, and the "Python code of this view" panel writes the
same plan as a script and a notebook (:func:`svmviz.codegen.plan_script`): a call is written once,
as a function object in the plan.

1. **Settings.** Move the page's settings NamedTuples (what its widgets return) from ``ui/<page>.py``
   to ``views/<page>.py`` with a numpydoc docstring; ``ui/<page>.py`` imports them from there. The
   page logic the code needs too (which criteria a chart shows, which keys are plotted…) moves
   there as public functions (:func:`svmviz.views.tuning.chosen_points`): the plan calls them, so
   the script imports them from the view.
2. **The plan.** Write ``view_plan(ds, settings…) -> Plan``: plain Python that decides, from the
   settings and what the data set is (its number of features, whether it knows p(x)), which
   :class:`Step` s there are. Each step is ``Step(bind, expr, doc, figure=, tab=, cache=, progress=)``:

   - ``expr`` is :func:`call` ``(func, *args, **kwargs)`` with the function object itself — a
     ``compute_*`` / ``plot_*`` function, an estimator, :func:`~svmviz.tuning.criteria_surface`, a numpy
     function — its arguments literals, :func:`ref` ``("ds.X")`` (an input's or an earlier step's
     value, with attributes; ``ref("costs", 2)`` is ``costs[2]``), nested :func:`call` s, or lists,
     tuples, dicts of these. ``call(ref("ds.p_true"), ref("ds.X"))`` calls a data set's method. A
     literal or a :class:`Ref` alone binds a value (``Step("threshold", 0.5)``).
   - ``doc`` is the step's markdown line (what it does, citing the paper and the equation); None
     puts the step in the previous step's cell. The first step needs one.
   - ``figure="key"`` marks a chart: bind it to ``fig_<key>``; the page draws it under ``key``, the
     script shows it, and the code-view tests match the two by that name. ``tab`` names the page tab
     it is drawn in (the script shows the open tab's figures first).
   - ``cache="name"`` routes a heavy step through the app's cache (a background job with progress
     and Cancel, ``svmviz.ui.compute.cached_compute``); ``progress="…"`` is the progress bar's
     text, and ``reports=True`` says the function takes ``progress=`` (the page passes its bar's, the
     script nothing).

   :func:`plan` checks the plan: every name bound once, every reference bound before it is read,
   figure names, the first step's doc. The plan's only input is the data set ``ds``. Shared pieces:
   :func:`map_plane` (the ``plane`` step of a map of more than two features, and the ``plot_*``
   function's axis titles and scale; pass the page's ``axes.code_args``), :func:`dataset_seed`.
3. **The page executes it.** ``ex = compute.plan_executor(ds)`` (``svmviz/ui/compute.py``: the app's
   cache, keyed by each value's provenance); ``ex.value(plan, "fig_contours")`` evaluates that step
   and only the steps it needs, each once per executor (again only when the step, or a step it
   reads, changed). Build the plan again when a widget that needs a computed value (a point on a
   surface) has been read: unchanged steps are not recomputed.
   ``compute.plan_executor(ds, {"surf": dict(cost=…, optional=True)})`` passes
   ``cached_compute``'s options for one step. A cached step the user has not
   started yet is None: draw what the page has without it, and show the code of the plan that was
   drawn.
4. **The panel renders it.** ``code_view.plan_panel(plan, ds, "<sidebar key>", page="<page>",
   open_tab=<the open tab's label>)``: the plan of every figure the page can show, whichever tab is
   open.
5. **Tests.** ``tests/views/test_<page>_view.py`` with ``tests/views/plan_utils.py``:
   ``assert_script_is_plan`` (the rendered script's calls are the plan's steps, its imports the
   functions the plan holds). In ``tests/app/test_code_view.py`` one run-the-script test per page
   (``check_reproduces``: the ``.py`` run as a fresh interpreter runs it, the ``.ipynb`` checked to
   hold the same statements) compares every chart's numbers with the page's; the page's other cases
   use ``check_reproduces_here`` (in process); the widget walk stays.

Examples
--------
>>> import numpy as np
>>> from svmviz.views import Executor, Step, call, plan, ref
>>> p = plan("Two steps", ["x"], [Step("m", call(np.mean, ref("x")), "The mean of x."),
...                               Step("s", call(np.sqrt, ref("m")))])
>>> float(Executor({"x": np.array([1.0, 3.0, 5.0])}).value(p, "s"))
1.7320508075688772
"""
from __future__ import annotations

from ._data import dataset_seed
from ._maps import MapPlane, map_plane
from ._plan import Call, Executor, Plan, Ref, Step, call, calls, plan, qualified_name, ref, refs

__all__ = ["Call", "Executor", "MapPlane", "Plan", "Ref", "Step", "call", "calls", "dataset_seed", "map_plane", "plan",
           "qualified_name", "ref", "refs"]
