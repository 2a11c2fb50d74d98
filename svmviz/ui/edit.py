"""Edit the data with the mouse (libsvm's svm-toy, TensorFlow Playground): add and remove 2-D points by clicking.

What the student does
---------------------
On a page that offers it (the Tuning criteria, Loss functions and Regularization path pages: their views
are 2-D), the sidebar's data-set choice "edited" opens an editor above the page's charts. It starts from the
last generated two-class 2-D data set chosen in this browser session (the page's default otherwise).
Clicking on empty space adds a point of the class chosen in the editor (+1 or −1); clicking on a point
removes it; dragging a box or lasso (modebar) removes every point inside. After each edit the editor's
chart shows the page's own classifier fitted to the points — boundary f = 0, margins f = ±1, support vectors
circled — right beside the click, and the page's own charts below (criteria surfaces, λ curves, the ν-path)
are recomputed from the same points, since :func:`svmviz.ui.data_sidebar.dataset_sidebar` returns the
edited data set. Which classifier: the editor is drawn before the page's controls, so its chart waits in a
container until the page names its machine with :func:`show_machine` — Wahba's SVM at the Tuning page's
grid point (with its weights L in the non-standard setting), the same SVM at the Loss page's σ and one of
its λ values, the ν-SVM of the Regularization path page at its λ cursor. One set of points, one boundary. Undo, "Reset to the
generated data" and a CSV download of the points (which the upload choice reads back) complete it.
The edited points are shared by the pages of one browser session.

Why Streamlit's own Plotly selection events
-------------------------------------------
``st.plotly_chart(fig, on_select=callback, selection_mode=("points", "box", "lasso"))`` is public,
documented and maintained with Streamlit itself (no third-party component to keep in step with
Streamlit's frontend, no extra package, nothing to build); its event carries each selected point's trace,
coordinates and ``customdata``. A Plotly click only reports *points*, never empty space, so the figure
carries a dense grid of nearly transparent click targets behind the data (customdata = their (x1, x2),
:func:`svmviz.figures.edit.target_grid`): a click on empty space selects the nearest target — a new point
is added there, snapped to the 60 × 60 target grid — and a click on a data point selects that point
(customdata = its row), which is removed. The callback runs once per selection change before the rerun;
the edit changes the figure, so Streamlit mounts a fresh chart with an empty selection, and the next click
is a new change again. Click targets are left out within one grid cell of a data point (Plotly would
otherwise prefer a target 3 px away to the point under the cursor, see
:func:`svmviz.figures.edit.free_targets`): a click there removes the point. The alternatives weighed:
a third-party component such as streamlit-plotly-events (one more dependency, whose frontend must keep
up with Streamlit's) or a custom component (JavaScript to build and test) would give raw click
coordinates, which this design does not need.

Links
-----
Edited points are not put in the URL (hundreds of coordinates); the data set they started from is
(``data=edited&ebase=banana&n=200&seed=0``, with the editor's ``emode`` and, on the Loss page, ``elam``). A link with
``data=edited`` opened in a new session (another browser, a fresh server) starts the editor from those
generated data — the page's default without ``ebase`` — with a message saying that edits are per session.
"""
from __future__ import annotations

import functools
import time
from typing import NamedTuple

import numpy as np
import streamlit as st

from svmviz import data as _data
from svmviz.figures import edit as fig_edit
from svmviz.ui import charts, datasets, export, session, url_state, widgets

CHOICE = "edited"
"""The data-set choice (and its URL value ``data=edited``)."""
CHOICE_LABEL = "edited: your own points"
CHOICE_DESCRIPTION = "Your own points: add and remove them with the mouse."
PAGES = ("tuning", "path", "loss")
"""``dataset_sidebar`` keys of the pages that offer the editor (their views are 2-D)."""
FALLBACK = "banana"
"""Starting data when neither the session nor the page names a two-class 2-D generator."""
STATE = "_svmviz_edit"  # session_state: the EditState of this browser session
BASE_URL = "ebase"  # URL parameter naming the generated data set the edits started from (with n, seed)
BASE = "edit_base"  # field of the shared data-set choices: the last generated 2-D set (name, n, seed)
MODES = ("pos", "neg", "remove")  # a click on empty space adds +1 / adds −1 / does nothing
MIN_PER_CLASS = 2  # the SVM needs two classes; the criteria need more than one point of each
MAX_UNDO = 500
DEFAULT_LOG_LAMBDA = -2.0  # where the editor's λ starts among a page's λ values (show_machine's lambdas)


def _edited(base_ds, X, y, seed: int):
    """Points X, y (±1) as a Dataset named "edited", with the base data set's class and feature names."""
    return _data.Dataset(X=np.array(X, dtype=np.float64), y=np.array(y, dtype=np.float64), name=CHOICE,
                         classes=tuple(base_ds.classes), feature_names=tuple(base_ds.feature_names),
                         params={"edited_from": base_ds.name, "n": int(np.shape(X)[0]), "seed": int(seed)})


class EditState:
    """The edited points of one browser session, their undo history and the base they started from.

    Attributes
    ----------
    base : tuple (name, n, seed)
        The generated data set the edits started from.
    base_ds : svmviz.data.Dataset
    X : ndarray (n, 2), y : ndarray (n,) ±1
    history : list of (X, y)
        The states before each edit (newest last), for Undo.
    lo, hi : ndarray (2,)
        The view's corners (from the base data, grown when a point lies outside).
    version : int
        Increases at every change (what caches key on).
    message : str
        What the last action did (shown under the editor).
    """

    def __init__(self, base: tuple, base_ds):
        self.base, self.base_ds = base, base_ds
        self.X = np.array(base_ds.X, dtype=np.float64)
        self.y = np.array(base_ds.y, dtype=np.float64)
        self.history: list[tuple[np.ndarray, np.ndarray]] = []
        self.lo, self.hi = fig_edit.view_box(self.X)
        self.version = 0
        self.message = ""
        self._ds = None
        self._view = None

    # ---------------------------------------------------------------- changes
    def _push(self) -> None:
        self.history.append((self.X, self.y))
        del self.history[:-MAX_UNDO]

    def _changed(self, message: str) -> None:
        self.version += 1
        self.message = message
        self._ds = self._view = None

    def add(self, x1: float, x2: float, label: float) -> None:
        """Add the point (x1, x2) with label ±1."""
        if label not in (-1.0, 1.0):
            raise ValueError(f"a new point's label must be +1 or −1; got {label!r}.")
        if not (np.isfinite(x1) and np.isfinite(x2)):
            raise ValueError("a new point needs finite coordinates.")
        self._push()
        self.X = np.vstack([self.X, [[float(x1), float(x2)]]])
        self.y = np.append(self.y, float(label))
        self.lo = np.minimum(self.lo, self.X[-1])
        self.hi = np.maximum(self.hi, self.X[-1])
        self._changed(f"Added a {'+1' if label > 0 else '−1'} point at ({x1:.2f}, {x2:.2f}).")

    def remove(self, rows) -> None:
        """Remove the points of the given row indices (out-of-range rows are ignored)."""
        rows = np.unique(np.asarray(rows, dtype=np.int64).ravel())
        rows = rows[(rows >= 0) & (rows < self.X.shape[0])]
        if rows.size == 0:
            return
        keep = np.ones(self.X.shape[0], bool)
        keep[rows] = False
        self._push()
        self.X, self.y = self.X[keep], self.y[keep]
        self._changed(f"Removed {rows.size} point{'s' if rows.size > 1 else ''}.")

    def undo(self) -> bool:
        """Go back one edit; False when there is nothing to undo."""
        if not self.history:
            return False
        self.X, self.y = self.history.pop()
        if self.X.shape[0]:  # points of an earlier start may lie outside this view: widen it
            lo, hi = fig_edit.view_box(self.X)
            self.lo, self.hi = np.minimum(self.lo, lo), np.maximum(self.hi, hi)
        self._changed("Undone.")
        return True

    def reset(self) -> None:
        """Back to the generated data (an edit itself: Undo brings the edits back)."""
        self._push()
        self.X = np.array(self.base_ds.X, dtype=np.float64)
        self.y = np.array(self.base_ds.y, dtype=np.float64)
        self._changed("Reset to the generated data.")

    # ---------------------------------------------------------------- views
    def counts(self) -> tuple[int, int]:
        """(points of class −1, points of class +1)."""
        return int(np.sum(self.y < 0)), int(np.sum(self.y > 0))

    def missing(self) -> dict:
        """How many more points each class needs before fitting ({label: count}, empty when none)."""
        neg, pos = self.counts()
        return {lab: MIN_PER_CLASS - c for lab, c in (("+1", pos), ("−1", neg)) if c < MIN_PER_CLASS}

    def dataset(self):
        """The edited points as a :class:`svmviz.data.Dataset` named "edited" (one object per version)."""
        if self._ds is None:
            self._ds = _edited(self.base_ds, self.X, self.y, int(self.base[2]))
        return self._ds

    def view(self, lam: float, sigma: float) -> fig_edit.EditView:
        """The standard SVM's view at (λ, σ) (:func:`machine_view`)."""
        return machine_view(self, Machine("rbf", float(sigma), float(lam), None, None))

    # ---------------------------------------------------------------- clicks
    def apply_selection(self, selection, mode: str, *, max_n: int | None = None) -> str:
        """Apply a Plotly selection event (Streamlit's ``event["selection"]``) of the editor's chart.

        A click on a data point (customdata = its row) removes it; a click on a click target
        (customdata = (x1, x2)) adds a point there with the class of ``mode`` ("pos" / "neg"; nothing in
        "remove" mode); a box or lasso removes every data point inside it. Returns what was done.
        """
        points = list(selection.get("points", []) or [])
        rows, spots = [], []
        for p in points:
            cd = _customdata(p.get("customdata"))
            if cd is None:
                continue
            if cd.size == 1:
                rows.append(int(cd[0]))
            elif cd.size == 2:
                spots.append((float(cd[0]), float(cd[1])))
        dragged = bool(selection.get("box")) or bool(selection.get("lasso"))
        if dragged:
            if rows:
                self.remove(rows)
            else:
                self.message = "The box or lasso held no data point: nothing removed."
        elif rows:
            self.remove(rows[:1])
        elif spots and mode in ("pos", "neg"):
            if max_n is not None and self.X.shape[0] >= max_n:
                self.message = f"This page computes with at most {max_n} points: remove some before adding."
            else:
                self.add(*spots[0], 1.0 if mode == "pos" else -1.0)
        elif spots:
            self.message = "Remove mode: click on a point to remove it (or choose a class to add points)."
        return self.message


def points_table(st_: EditState) -> dict:
    """The edited points as CSV columns: the two features and the label (the data set's own class
    names), as the "Upload CSV…" choice reads them back."""
    b = st_.base_ds
    return {b.feature_names[0]: st_.X[:, 0], b.feature_names[1]: st_.X[:, 1],
            "label": [b.classes[1] if t > 0 else b.classes[0] for t in st_.y]}


def _customdata(cd) -> np.ndarray | None:
    """A selected point's customdata as a float array, or None. The browser sends a row of a 2-D
    customdata (kept as a typed array by Plotly) as a JSON object {"0": x1, "1": x2}."""
    if cd is None:
        return None
    if isinstance(cd, dict):
        try:
            cd = [cd[k] for k in sorted(cd, key=int)]
        except (TypeError, ValueError):
            return None
    try:
        out = np.atleast_1d(np.asarray(cd, dtype=np.float64)).ravel()
    except (TypeError, ValueError):
        return None
    return out if np.all(np.isfinite(out)) else None


# -------------------------------------------------------------------- session state
def state():
    """This session's EditState (None before the editor has been opened)."""
    return st.session_state.get(STATE)


def remember_base(shared: dict, ds, name: str, n: int, seed: int) -> None:
    """Called by ``dataset_sidebar`` for every generated data set: a two-class 2-D one becomes the
    editor's starting point."""
    if ds.X.shape[1] == 2 and not ds.is_multiclass:
        shared[BASE] = (name, int(n), int(seed))


def _base(default: str, default_n: int, params, n_range: tuple[int, int]) -> tuple[tuple, object]:
    """(base key, base Dataset): the session's last generated 2-D set, else the page's default, else banana."""
    shared = session.shared_choice()
    n, seed = int(np.clip(int(shared.get("n", default_n)), *n_range)), int(shared.get("seed", 0))
    tries = []
    linked = url_state.query_value(BASE_URL, None, str)  # a link names what its edits started from
    if linked is not None:
        tries.append((linked, n, seed))
    if BASE in shared:
        tries.append(tuple(shared[BASE]))
    tries += [(default, n, seed), (FALLBACK, n, seed)]
    for name, n, seed in tries:
        if name not in _data.GENERATORS:
            continue
        try:
            ds = datasets.load_dataset(name, n, seed, params(name) if callable(params) else params)
        except ValueError:
            continue
        if ds.X.shape[1] == 2 and not ds.is_multiclass:
            shared[BASE] = (name, n, seed)  # the start stays put until another generated set is chosen
            return (name, n, seed), ds
    raise ValueError("no two-class 2-D data set to start editing from.")  # pragma: no cover — banana is 2-D


# -------------------------------------------------------------------- the editor
def _on_select(chart_key: str, mode_key: str, max_n: int) -> None:
    st_ = state()
    event = st.session_state.get(chart_key)
    if st_ is None or event is None:
        return
    st_.apply_selection(event["selection"], st.session_state.get(mode_key, "pos"), max_n=max_n)


def _on_undo() -> None:
    st_ = state()
    if st_ is not None and not st_.undo():
        st_.message = "Nothing to undo."


def _on_reset() -> None:
    st_ = state()
    if st_ is not None:
        st_.reset()


def edited_dataset(*, key: str, default: str, params=None, n_range: tuple[int, int] = (20, 2000),
                   default_n: int = 200):
    """The sidebar part and the editor (main area) of the "edited" data-set choice.

    Returns the edited :class:`svmviz.data.Dataset`, or None (after saying what to add) while a class
    has fewer than :data:`MIN_PER_CLASS` points.
    """
    sb = st.sidebar
    fresh_link = STATE not in st.session_state and url_state.url_speaks() and st.query_params.get("data") == CHOICE
    base, base_ds = _base(default, default_n, params, n_range)
    st_ = state()
    restarted = st_ is not None and st_.base != base
    if st_ is None or restarted:
        new = EditState(base, base_ds)
        if restarted:
            name, n0, seed0 = base
            new.message = f"Started afresh from {name} (n = {n0}, seed {seed0})."
            if st_.history:  # the previous edits stay one Undo away
                new.history = (st_.history + [(st_.X, st_.y)])[-MAX_UNDO:]
                new.message += " Undo brings back your previous points."
        st_ = new
        st.session_state[STATE] = st_
    name, n0, seed0 = base
    url_state.set_query(**{BASE_URL: name, "n": n0, "seed": seed0})  # a link restarts from these points
    sb.caption(f"Editing a copy of {name} (n = {n0}, seed {seed0}). To start from other points, choose a "
               "generated data set, n and seed, then “edited” again.")
    if fresh_link:
        st.info("Edited points are kept in one browser session only (a link cannot carry them): this link's "
                f"edits are not here, so the editor starts from the generated {name} data (n = {n0}, seed {seed0}).")

    ds = render_editor(st_, key=key, max_n=int(n_range[1]))
    neg, pos = st_.counts()
    sb.caption(f"{neg + pos} points, 2 features — {base_ds.classes[0]}: {neg}, {base_ds.classes[1]}: {pos}")
    return ds


class _Slots:
    """Where this run's editor draws its machine: the chart and the panel beside it, kept until the page
    has read its controls (:func:`show_machine`) or has ended (:func:`_draw_unpublished`)."""

    def __init__(self, run, st_: EditState, key: str, max_n: int, mode: str, mode_key: str, chart_box, side_box,
                 caption_box):
        self.run, self.st_, self.key, self.max_n = run, st_, key, max_n
        self.mode, self.mode_key = mode, mode_key
        self.chart_box, self.side_box, self.caption_box = chart_box, side_box, caption_box
        self.drawn = False


_SLOTS = "_svmviz_edit_slots"  # session_state: this run's _Slots (None when the editor is not open)


def render_editor(st_: EditState, *, key: str, max_n: int):
    """The editor panel (main area): chart, mode, Undo / Reset / CSV. The chart shows the page's own
    machine, which the page names once it has read its controls (:func:`show_machine`); until then (and
    while a class has too few points) the points alone. Returns the edited Dataset, or None while a class
    has too few points."""
    b = st_.base_ds
    with st.container(border=True):
        st.subheader("Edit the data with the mouse")
        st.caption("Click on empty space to add a point of the chosen class, click on a point to remove it, or "
                   "drag a box / lasso (modebar) to remove every point inside. The chart shows the page's own "
                   "classifier fitted to your points; the page's charts below use the same points.")
        left, right = st.columns([3, 1])
        with right:
            mode_key = f"{key}_edit_mode"
            names = fig_edit.class_names(tuple(str(c) for c in b.classes))
            mode = widgets.control(st.radio, "Click adds", list(MODES), key=mode_key, default="pos", url="emode",
                                  format_func=lambda m: {"pos": names[1], "neg": names[0],
                                                         "remove": "nothing (remove only)"}[m],
                                  help="A click on a point always removes it.")
            # one under the other: side by side their labels do not fit this column on a 1024-pixel screen
            st.button("Undo", key=f"{key}_edit_undo", on_click=_on_undo, disabled=not st_.history, width="stretch")
            st.button("Reset", key=f"{key}_edit_reset", on_click=_on_reset, width="stretch",
                      help="Back to the generated data (Undo brings your edits back).")
            side_box = st.container()
            neg, pos = st_.counts()
            export.csv_download("Download the points (CSV)", points_table(st_), "edited_points.csv",
                                key=f"{key}_edit_csv")
        with left:
            chart_box = st.container()
        caption_box = st.container()
        slots = _Slots(url_state.current_run(), st_, key, max_n, mode, mode_key, chart_box, side_box, caption_box)
        missing = st_.missing()
        if missing:
            st.session_state[_SLOTS] = None
            _draw(slots, None)
            need = " and ".join(f"{k} more of class {lab}" for lab, k in missing.items())
            st.info(f"Each class needs at least {MIN_PER_CLASS} points before anything is fitted: add {need}.")
            return None
    st.session_state[_SLOTS] = slots
    url_state.at_page_end(_draw_unpublished)
    url_state.at_page_stop(_draw_stopped)
    return st_.dataset()


def show_machine(*, kernel: str = "rbf", sigma: float | None = None, lam: float | None = None,
                 L=None, lambdas=None, nu_lambda: float | None = None) -> None:
    """The page's classifier, drawn by the point editor (if it is open in this run) on the edited points.

    A page with the editor calls this once, when it has read its controls, so that the editor shows the
    page's own machine — one of:

    * ``lam`` given: Wahba's SVM (Wahba, Lin, Lee & Zhang 2001, eq. 1 — eq. 8 with the weights ``L``,
      per point C_i = L(y_i)/(2nλ)) at this λ;
    * ``lambdas`` given: the same SVM at one of the page's λ values, chosen in the editor;
    * ``nu_lambda`` given: the ν-SVM of the regularization path (Loosli & Canu 2006) at λ = mν;
    * none of them: the page has no classifier at these settings (the editor says so over the points);

    with the Gaussian kernel of width ``sigma`` (``kernel="rbf"``) or the linear kernel.

    Raises
    ------
    ValueError
        More than one of ``lam``, ``lambdas``, ``nu_lambda``; a kernel other than "rbf" or "linear";
        a Gaussian kernel without a positive ``sigma``.
    """
    if sum(v is not None for v in (lam, lambdas, nu_lambda)) > 1:
        raise ValueError("show_machine takes one of lam, lambdas and nu_lambda.")
    if kernel not in ("rbf", "linear"):
        raise ValueError(f"the editor draws a Gaussian ('rbf') or linear kernel; got {kernel!r}.")
    if kernel == "rbf" and not (sigma is not None and np.isfinite(sigma) and sigma > 0):
        raise ValueError(f"a Gaussian kernel needs a positive width σ; got {sigma!r}.")
    slots = st.session_state.get(_SLOTS)
    if not isinstance(slots, _Slots) or slots.run is not url_state.current_run() or slots.drawn:
        return
    if lambdas is not None:
        grid = [round(float(v), 4) for v in np.log10(np.asarray(lambdas, dtype=np.float64))]
        with slots.side_box:
            default = grid[int(np.argmin(np.abs(np.asarray(grid) - DEFAULT_LOG_LAMBDA)))]
            loglam = widgets.control(st.select_slider, "log10 λ (one of the page's values)", grid,
                                     key=f"{slots.key}_edit_lam", default=default, url="elam", depends=tuple(grid),
                                     keep_choice=True, format_func=lambda v: f"{v:.2f}",
                                     help="The page's σ and one of its λ values: the SVM drawn here.")
        lam = 10.0 ** float(loglam)
    if lam is None and nu_lambda is None:
        _draw(slots, None)
        return
    spec = Machine(kernel, None if kernel == "linear" else float(sigma), None if lam is None else float(lam),
                   None if L is None else (float(L[0]), float(L[1])),
                   None if nu_lambda is None else float(nu_lambda))
    _draw(slots, spec)


class Machine(NamedTuple):
    """The classifier the editor draws (see :func:`show_machine`)."""

    kernel: str
    sigma: float | None
    lam: float | None  # Wahba's SVM at λ, or None for the ν-SVM
    L: tuple | None  # (L(−1), L(+1)) of the non-standard SVM, or None
    nu_lambda: float | None  # the ν-SVM at λ = mν, or None

    def title(self) -> str:
        width = "linear kernel" if self.kernel == "linear" else f"σ = {self.sigma:.3g}"
        if self.nu_lambda is not None:
            return f"Click to edit — ν-SVM at λ = {self.nu_lambda:.3g}, {width}"
        weights = "" if self.L is None or self.L == (1.0, 1.0) else f", L = ({self.L[0]:g}, {self.L[1]:g})"
        return f"Click to edit — SVM at log10 λ = {np.log10(self.lam):.2f}, {width}{weights}"


def machine_view(st_: EditState, m: Machine) -> fig_edit.EditView:
    """The editor's view of the machine ``m`` fitted to the edited points (``f`` on the mesh, support
    vectors, training error), computed once per version and machine."""
    key = (st_.version, m)
    if st_._view is not None and st_._view[0] == key:
        return st_._view[1]
    X, y = st_.X, st_.y
    mesh_n = fig_edit.MESH_PER_AXIS
    xs, ys = np.linspace(st_.lo[0], st_.hi[0], mesh_n), np.linspace(st_.lo[1], st_.hi[1], mesh_n)
    grid = np.c_[np.tile(xs, mesh_n), np.repeat(ys, mesh_n)]
    kw = dict(kernel="linear") if m.kernel == "linear" else dict(kernel="rbf", sigma=m.sigma)
    if m.nu_lambda is None and m.L is None and m.kernel == "rbf":  # the standard SVM: the figure's own
        v = fig_edit.compute_edit_view(X, y, lam=m.lam, sigma=m.sigma, lo=st_.lo, hi=st_.hi)
        st_._view = (key, v)
        return v
    if m.nu_lambda is not None:
        from svmviz.path import nu_path

        p = nu_path(X, y, **kw)
        lam = float(min(max(m.nu_lambda, 0.0), p.lambda_max))
        f, f_train = p.decision_function(grid, lam), p.decision_function(X, lam)
        support = p.alpha_at(lam) > 0
    else:
        from svmviz.svm import SVMClassifier

        w = None if m.L is None else np.where(y > 0, m.L[1], m.L[0])
        clf = SVMClassifier(lam=m.lam, **kw).fit(X, y, sample_weight=w)
        f, f_train = clf.decision_function(grid), clf.train_decision_
        support = np.zeros(X.shape[0], bool)
        support[clf.support_] = True
    v = fig_edit.EditView(X, y, xs, ys, f.reshape(mesh_n, mesh_n), support, fig_edit.free_targets(st_.lo, st_.hi, X),
                          float(np.mean(y * f_train <= 0)), m.lam if m.lam is not None else float("nan"),
                          m.sigma if m.sigma is not None else float("nan"))
    st_._view = (key, v)
    return v


def _draw_unpublished() -> None:
    """At the end of a page that named no machine in this run: the points alone, still editable."""
    slots = st.session_state.get(_SLOTS)
    if isinstance(slots, _Slots) and slots.run is url_state.current_run() and not slots.drawn:
        _draw(slots, None)


#: the editor's title over the points alone when the page stopped before naming its classifier
STOPPED_TITLE = "Click to edit — no boundary: the page stopped before fitting (its message is below)"


def _draw_stopped() -> None:
    """When the page stops before naming its machine (a cost question, an error): the points alone,
    still editable, and why no boundary is drawn."""
    slots = st.session_state.get(_SLOTS)
    if isinstance(slots, _Slots) and slots.run is url_state.current_run() and not slots.drawn:
        _draw(slots, None, why=STOPPED_TITLE)


def _draw(slots: _Slots, spec: Machine | None, why: str | None = None) -> None:
    """The editor's chart (and its metrics) of the machine ``spec``, or of the points alone (titled
    ``why`` when given)."""
    st_ = slots.st_
    b = st_.base_ds
    slots.drawn = True
    t0 = time.perf_counter()
    if spec is None or st_.missing():
        mesh_n = fig_edit.MESH_PER_AXIS
        v = fig_edit.EditView(st_.X, st_.y, np.linspace(st_.lo[0], st_.hi[0], mesh_n),
                              np.linspace(st_.lo[1], st_.hi[1], mesh_n), None, np.zeros(st_.X.shape[0], bool),
                              fig_edit.free_targets(st_.lo, st_.hi, st_.X), float("nan"), float("nan"), float("nan"))
    else:
        v = machine_view(st_, spec)
    fig = fig_edit.plot_edit_view(v, mode=slots.mode, feature_names=(b.feature_names[0], b.feature_names[1]),
                                  classes=tuple(str(c) for c in b.classes))
    if spec is not None and v.fitted:
        fig.update_layout(title_text=spec.title())
    elif not st_.missing():
        fig.update_layout(title_text=why or "Click to edit — the page's settings name no classifier to draw")
    chart_key = f"{slots.key}_edit_chart"
    with slots.chart_box:
        # on_select takes no args: bind them (the callback runs once per selection change)
        charts.chart(fig, key=chart_key, width="stretch",
                     on_select=functools.partial(_on_select, chart_key, slots.mode_key, slots.max_n),
                     selection_mode=("points", "box", "lasso"))  # camera: slide export
    seconds = time.perf_counter() - t0
    with slots.side_box:
        neg, pos = st_.counts()
        st.metric("Points (−1 / +1)", f"{neg} / {pos}")
        if v.fitted:
            st.metric("Support vectors", int(v.support.sum()))
            st.metric("Training error", f"{v.train_error:.3f}")
    if st_.message:
        slots.caption_box.caption(f"{st_.message} Fit and chart: {seconds * 1000:.0f} ms.")
