"""The data-set sidebar every page starts with: generator, n and seed, scikit-learn's shipped data sets,
a CSV upload, or the data editor's points — shared by the pages of a browser session and kept in the URL."""
from __future__ import annotations

import hashlib
from typing import Callable, Mapping, Sequence

import numpy as np
import streamlit as st

from svmviz.ui import edit, uploads, url_state
from svmviz.ui.datasets import load_dataset
from svmviz.ui.errors import show_error
from svmviz.ui.session import shared_choice
from svmviz.ui.widgets import control

UPLOAD_CHOICE = "Upload CSV…"
SHIPPED = ("breast_cancer", "iris", "wine")
MISSING_RULES = {"drop": "Drop the row", "median": "Fill with the column median"}
"""The sidebar's choices for an uploaded file's missing cells (:func:`svmviz.data.dataset_from_csv`'s ``missing``)."""
CLASS_MODES = {"pair": "Two of the classes", "rest": "One class against the rest"}
"""The sidebar's class choices for data with more than two classes on a two-class page
(:func:`svmviz.data.select_classes`)."""
#: features whose standard deviations differ by more than this factor, unstandardised, get a note
SPREAD_RATIO_NOTE = 10.0


def label_of(name: str) -> str:
    """The sidebar's label of a data-set choice: its short name, whole in the select box of a
    1024-pixel-wide window (its description is the caption under the box, :func:`description_of`)."""
    if name == "edited":  # the data editor's choice (svmviz.ui.edit)
        return edit.CHOICE_LABEL
    return name


def description_of(name: str) -> str | None:
    """What a data-set choice is (the caption under the select box): the generator's description,
    the data editor's; None for the upload (its own widgets follow)."""
    if name == edit.CHOICE:
        return edit.CHOICE_DESCRIPTION
    try:
        from svmviz import data

        return data.describe(name)
    except Exception:  # noqa: BLE001 — a description is cosmetic
        return None



def _remember(field: str, key: str) -> None:
    """on_change of a shared widget: the user's choice becomes the session's (every page's)."""
    shared_choice()[field] = st.session_state[key]


def _shared_from_url(shared: dict) -> None:
    """A link or a Back/Forward step sets the session's data-set choice (before the widgets)."""
    qp = st.query_params
    for url, field, cast in (("data", "data", str), ("n", "n", int), ("seed", "seed", int),
                             ("label", "label_column", str), ("std", "standardize", lambda r: url_state.parse_as(r, True)),
                             ("na", "missing", str), ("cls", "class_mode", str)):
        raw = qp.get(url)
        if raw is None:
            continue
        try:
            shared[field] = cast(raw)
        except (TypeError, ValueError):
            pass


def dataset_sidebar(choices: Sequence[str], default: str, *, key: str, allow_upload: bool = True,
                    allow_multiclass: bool = False, params: Mapping | Callable | None = None,
                    n_range: tuple[int, int] = (20, 2000), default_n: int = 200):
    """Render the shared data-set widgets in the sidebar and return the chosen ``Dataset``.

    ``choices`` are the generator names the page accepts; scikit-learn's shipped data sets and the
    CSV upload are added when ``allow_upload``. Returns ``None`` (after a message saying what to
    do) when the data are unusable for this page. ``params`` are extra generator parameters, or a
    function of the chosen generator name returning them. ``n_range`` is what the page computes
    with: a larger uploaded file is used through a seeded, stratified subsample
    (:func:`svmviz.data.subsample_dataset`). Data with more than two classes on a page without
    ``allow_multiclass`` get the class choice (two of the classes, or one against the rest,
    :func:`svmviz.data.select_classes`); an uploaded file gets its column roles (label, feature
    columns). The choice is shared by the pages: a page changes it only when the user changes it there
    (a value outside this page's range is shown clamped here and kept for the others).
    """
    from svmviz import data

    shared = shared_choice()
    if url_state.url_speaks():
        _shared_from_url(shared)
    options = list(choices)
    if allow_upload:
        options += [s for s in SHIPPED if s not in options and s in data.GENERATORS]
        options.append(UPLOAD_CHOICE)
    if key in edit.PAGES:  # the data editor: offered on the pages with a 2-D view
        options.append(edit.CHOICE)
    wanted = shared.get("data", default)
    sb = st.sidebar
    sb.header("Data")
    name = control(sb.selectbox, "Data set", options, key=f"{key}_data", default=wanted if wanted in options else default,
                   url="data", format_func=label_of, help="Shared by every page that can use it.",
                   on_change=_remember, args=("data", f"{key}_data"))
    about = description_of(name)
    if about:
        sb.caption(about)
    if wanted != name and wanted not in options:
        sb.caption(f"{wanted} (chosen on another page) is not offered here; showing {name}.")
    lo, hi = n_range
    if name == edit.CHOICE:
        return edit.edited_dataset(key=key, default=default, params=params, n_range=n_range, default_n=default_n)
    if name == UPLOAD_CHOICE:
        ds = _uploaded(sb, key, shared, lo, hi, allow_multiclass)
        if ds is None:
            return None
    else:
        want_n = int(shared.get("n", default_n))
        n = control(sb.slider, "n (training points)", lo, hi, key=f"{key}_n", default=int(np.clip(want_n, lo, hi)),
                    url="n", clamp=True, step=10, on_change=_remember, args=("n", f"{key}_n"),
                    help="Real data sets are subsampled to n points (at most all rows).")
        if want_n != n and not lo <= want_n <= hi:
            sb.caption(f"n = {want_n} (chosen on another page or in the link) is outside what this page computes "
                       f"with ({lo}–{hi}): it uses n = {n}; the other pages keep {want_n}.")
        seed = control(sb.number_input, "Seed", 0, 2**31 - 1, key=f"{key}_seed", default=int(shared.get("seed", 0)),
                       url="seed", step=1, on_change=_remember, args=("seed", f"{key}_seed"),
                       help="Same seed, same data.")
        try:
            ds = load_dataset(name, int(n), int(seed), params(name) if callable(params) else params)
        except ValueError as exc:
            show_error(exc, what=f"Could not make {name}")
            return None
        if name in SHIPPED and ds.X.shape[0] < n:
            sb.caption(f"{name} has {ds.X.shape[0]} rows; all are used.")
        if key in edit.PAGES:
            edit.remember_base(shared, ds, name, int(n), int(seed))
        if ds.is_multiclass and not allow_multiclass:
            chosen, one = _class_choice(sb, key, shared, ds)
            try:
                ds = data.select_classes(ds, classes=chosen, one_vs_rest=one)
            except ValueError as exc:
                show_error(exc, what=f"Could not use these classes of {name}")
                return None
    counts = ", ".join(f"{c}: {int(np.sum(ds.y == v))}" for c, v in _class_values(ds))
    sb.caption(f"{ds.X.shape[0]} points, {ds.X.shape[1]} features — {counts}")
    spread = spread_note(ds, upload=name == UPLOAD_CHOICE)
    if spread:
        sb.info(spread)
    return ds


def spread_note(ds, *, upload: bool = False) -> str | None:
    """What to know when unstandardised features spread over scales more than :data:`SPREAD_RATIO_NOTE` apart.

    A Gaussian kernel has one width σ for every feature: with standard deviations 250 and 0.03, any σ
    ignores one feature or drowns in the other, and the criteria's minima go to the grid's edge.
    None when the features are standardised, single, or within that factor.
    """
    if ds.is_standardized or ds.X.shape[1] < 2:
        return None
    sd = ds.X.std(axis=0)
    live = np.flatnonzero(sd > 0)
    if live.size < 2:
        return None
    hi, lo = live[np.argmax(sd[live])], live[np.argmin(sd[live])]
    ratio = float(sd[hi] / sd[lo])
    if ratio <= SPREAD_RATIO_NOTE:
        return None
    fix = ("Tick “Standardize features” to put them on one scale." if upload else
           "Standardise the features (or choose a data set whose features share a scale) before reading much "
           "into the criteria.")
    return (f"The features' spreads differ {ratio:,.0f}-fold (standard deviation {sd[hi]:.3g} for "
            f"{ds.feature_names[hi]!r}, {sd[lo]:.3g} for {ds.feature_names[lo]!r}) and they are not standardised: "
            "one kernel width σ cannot suit both, and the criteria's minima tend to land on the grid's edge. " + fix)


def _feature_choice(sb, key: str, shared: dict, content: bytes, header: list, ds):
    """The "Feature columns" multiselect over the numeric columns of ``ds`` (the file read with every numeric
    column but the label): None while it holds them all, else the chosen column names in the file's order."""
    label = ds.params.get("label_column")
    positions = [j for j, c in enumerate(header) if c != label and c in ds.feature_names]
    if not positions:
        return None
    default = list(positions)
    token = (hashlib.sha256(content).hexdigest(), tuple(header), label)
    stored = shared.get("feature_columns")
    start = default
    if isinstance(stored, tuple) and len(stored) == 2 and stored[0] == token:
        start = [j for j in positions if header[j] in stored[1]] or default
    picked = control(sb.multiselect, "Feature columns", positions, key=f"{key}_feats", default=start, url="feat",
                     format_func=lambda j: header[j], depends=token,
                     help="The columns the classifier uses: every numeric column but the label at first. Columns "
                          "of text (names, notes) are not offered; the note below names them.")
    picked = sorted(int(j) for j in picked)
    shared["feature_columns"] = (token, tuple(header[j] for j in picked))
    if not picked:
        sb.warning("No feature column chosen: using every numeric column. Choose at least one.")
        return None
    return None if picked == default else [header[j] for j in picked]


def _class_choice(sb, key: str, shared: dict, ds, what: str | None = None):
    """The sidebar's class choice for ``ds`` with more than two classes: ``(classes, one_vs_rest)`` for
    :func:`svmviz.data.select_classes` / :func:`svmviz.data.dataset_from_csv`. ``what`` names the data
    (default ``ds.name``)."""
    classes = list(ds.classes)
    counts = dict(zip(classes, np.bincount(np.asarray(ds.y, dtype=np.int64), minlength=len(classes))))
    names = dict(zip(classes, ds.class_names))

    def label(c):
        return f"{names[c]} ({int(counts[c])} rows)"

    sb.caption(f"{what or ds.name} has {len(classes)} classes ({', '.join(map(str, ds.class_names))}); this page compares "
               "two: choose which.")
    stored = shared.get("class_mode")
    mode = control(sb.radio, "Classes", list(CLASS_MODES), key=f"{key}_clsmode",
                   default=stored if stored in CLASS_MODES else "pair", url="cls", format_func=CLASS_MODES.get,
                   on_change=_remember, args=("class_mode", f"{key}_clsmode"),
                   help="Two of the classes: only their rows, the first is −1 and the second +1. One class against "
                        "the rest: every row, that class +1 and all others −1.")
    token = tuple(classes)
    if mode == "rest":
        stored = shared.get("class_one")
        one = control(sb.selectbox, "The class (+1)", classes, key=f"{key}_clsone",
                      default=stored if stored in classes else classes[0], url="c1", format_func=label,
                      depends=token, keep_choice=True, on_change=_remember, args=("class_one", f"{key}_clsone"))
        shared.update(class_mode=mode, class_one=one)
        return None, one
    stored = shared.get("class_a")
    a = control(sb.selectbox, "Class A (−1)", classes, key=f"{key}_clsa",
                default=stored if stored in classes else classes[0], url="ca", format_func=label,
                depends=token, keep_choice=True, on_change=_remember, args=("class_a", f"{key}_clsa"))
    others = [c for c in classes if c != a]
    stored = shared.get("class_b")
    b = control(sb.selectbox, "Class B (+1)", others, key=f"{key}_clsb",
                default=stored if stored in others else others[0], url="cb", format_func=label,
                depends=(token, a), keep_choice=True, on_change=_remember, args=("class_b", f"{key}_clsb"))
    shared.update(class_mode=mode, class_a=a, class_b=b)
    return (a, b), None


def _uploaded(sb, key: str, shared: dict, lo: int, hi: int, allow_multiclass: bool = True):
    """The uploaded CSV file as a Dataset (subsampled to at most ``hi`` rows), or None after saying why.

    The column roles (label, features) and, for more than two classes on a two-class page, the class
    choice are the sidebar's; the file is read by :func:`svmviz.data.dataset_from_csv` with them."""
    up = sb.file_uploader("CSV file (numeric features, one label column)", type=["csv", "txt"], key=f"{key}_upload")
    if up is not None:
        shared["upload"] = (up.name, up.getvalue())
    if "upload" not in shared:
        url_state.wait_for_data()
        sb.info("Choose a CSV file: one row per point, numeric feature columns and a label column. "
                "(A link cannot carry the file: whoever opens it is asked for it.)")
        return None
    from svmviz import data

    fname, content = shared["upload"]
    header = data.csv_header(content)
    label_col = None
    if header:
        stored = shared.get("label_column")
        label_col = control(sb.selectbox, "Label column", header, key=f"{key}_labelcol",
                            default=stored if stored in header else header[-1], url="label",
                            on_change=_remember, args=("label_column", f"{key}_labelcol"))
    standardize = control(sb.checkbox, "Standardize features", key=f"{key}_std",
                          default=bool(shared.get("standardize", True)), url="std",
                          on_change=_remember, args=("standardize", f"{key}_std"),
                          help="Scale each column to mean 0, sd 1 so one σ suits all columns.")
    missing = control(sb.radio, "Rows with missing values", list(MISSING_RULES), key=f"{key}_missing",
                      default=shared.get("missing") if shared.get("missing") in MISSING_RULES else "drop", url="na",
                      format_func=MISSING_RULES.get, on_change=_remember, args=("missing", f"{key}_missing"),
                      help="An empty cell (or NA, NaN, null): leave the row out, or fill the cell with the median "
                           "of its column (a row without a label is left out either way).")
    sb.caption(f"Uploaded: {fname}")
    # every numeric column, every class: what the feature and class controls offer (on a two-class page a
    # class of a single row is listed too: the choice of two other classes is still open)
    first = dict(min_class_rows=1) if not allow_multiclass else {}
    try:
        ds = uploads.parsed_csv(content, label_col, bool(standardize), missing, **first)
    except ValueError as exc:
        show_error(exc, what=f"Could not use {fname}")
        return None
    features = _feature_choice(sb, key, shared, content, header, ds)
    chosen = one = None
    if ds.is_multiclass and not allow_multiclass:
        chosen, one = _class_choice(sb, key, shared, ds, what=fname)
    if features is not None or chosen is not None or one is not None:
        try:
            ds = uploads.parsed_csv(content, label_col, bool(standardize), missing, feature_columns=features,
                                    classes=chosen, one_vs_rest=one, **first)
        except ValueError as exc:
            show_error(exc, what=f"Could not use {fname}")
            return None
    for note in ds.notes:  # what the loader decided for the user (e.g. columns left out, an index column)
        sb.info(note)
    few = _few_rows(ds)
    if few:
        show_error(f"{few}; a two-class fit needs at least {data.MIN_ROWS_PER_CHOSEN_CLASS} rows per class. Add "
                   "rows to the file or choose another label column.", what=f"Could not use {fname}")
        return None
    rows = ds.X.shape[0]
    if rows <= hi:
        return ds
    sb.warning(f"{fname} has {rows} rows; this page computes with at most {hi} (its work and memory grow like "
               "n²). It uses a seeded, stratified random subsample of the rows:")
    want_n = int(shared.get("n", hi))
    n = control(sb.slider, "Subsample size n", max(lo, 2 * ds.n_classes), hi, key=f"{key}_n",
                default=int(np.clip(want_n, max(lo, 2 * ds.n_classes), hi)), url="n", clamp=True, step=10,
                on_change=_remember, args=("n", f"{key}_n"),
                help="Rows drawn at random, each class keeping its share of the file.")
    seed = control(sb.number_input, "Subsample seed", 0, 2**31 - 1, key=f"{key}_seed",
                   default=int(shared.get("seed", 0)), url="seed", step=1,
                   on_change=_remember, args=("seed", f"{key}_seed"), help="Same seed, same rows.")
    return data.subsample_dataset(ds, int(n), int(seed))


def _few_rows(ds) -> str | None:
    """The classes of two-class ``ds`` with fewer than :data:`svmviz.data.MIN_ROWS_PER_CHOSEN_CLASS` rows
    ("'a' has 4 rows", …), or None (also for more than two classes, whose reader asks for 2 rows each)."""
    from svmviz import data

    if ds.is_multiclass:
        return None
    few = [f"{name!r} has {int(np.sum(ds.y == v))} row{'s' if int(np.sum(ds.y == v)) != 1 else ''}"
           for name, v in _class_values(ds) if np.sum(ds.y == v) < data.MIN_ROWS_PER_CHOSEN_CLASS]
    return ", ".join(few) or None


def _class_values(ds):
    """(class name, label value) of each class: ±1 for two classes, 0, 1, … for more."""
    if ds.is_multiclass:
        return [(c, i) for i, c in enumerate(ds.classes)]
    return [(ds.classes[0], -1.0), (ds.classes[1], 1.0)]
