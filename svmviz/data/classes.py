"""The class choice of a data set with more classes than a page uses: two of the classes, or one against the rest."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .dataset import Dataset, class_display_names

#: Rows each chosen class needs (:func:`select_classes`): fewer make every criterion's estimate a guess.
MIN_ROWS_PER_CHOSEN_CLASS = 10


def _class_position(classes: tuple, wanted, what: str) -> int:
    """Position of ``wanted`` in ``classes``, matched as the label itself or as its text (a link's value)."""
    names = class_display_names(classes)
    for j, c in enumerate(classes):
        if c == wanted and type(c) is not bool or str(c) == str(wanted).strip() or names[j] == str(wanted).strip():
            return j
    raise ValueError(f"Unknown class {wanted!r} in {what}; the classes are {', '.join(map(repr, classes))}.")


def choose_classes(yi: np.ndarray, classes: tuple, chosen=None, one_vs_rest=None, *, label: str = "the label"):
    """(rows kept, labels ±1 of the kept rows, classes of the result, note) of a class choice.

    The one rule behind :func:`select_classes` and :func:`svmviz.data.dataset_from_csv`.

    Parameters
    ----------
    yi : ndarray of shape (n,), int
        Class index 0..K−1 of each row, in the order of ``classes``.
    classes : tuple, length K
        The labels.
    chosen : pair (A, B) or None
        Keep the rows of A (→ −1) and B (→ +1).
    one_vs_rest : label or None
        A is +1, every other class −1 (named ``"not A"``, or the other class's name when K = 2).
    label : str
        What the message calls the label column.

    Returns
    -------
    keep : ndarray of bool, shape (n,) or None
        None when every row is kept.
    y : ndarray of shape (n_kept,), float64 ±1, or None when nothing is chosen
    classes : tuple of length 2, or the input's
    note : str or None
        What was kept, for ``Dataset.notes``.

    Raises
    ------
    ValueError
        Both choices given, an unknown class, A = B, a malformed pair, or a chosen class with fewer than
        :data:`MIN_ROWS_PER_CHOSEN_CLASS` rows.
    """
    if chosen is None and one_vs_rest is None:
        return None, None, tuple(classes), None
    if chosen is not None and one_vs_rest is not None:
        raise ValueError("Give either classes=(A, B) (two of the classes) or one_vs_rest=A (one class against the "
                         "rest), not both.")
    yi = np.asarray(yi, dtype=np.int64)
    counts = np.bincount(yi, minlength=len(classes))
    names = class_display_names(classes)
    if chosen is not None:
        if isinstance(chosen, (str, bytes)) or not hasattr(chosen, "__len__") or len(chosen) != 2:
            raise ValueError(f"classes must be a pair (A, B) of two of the classes {', '.join(map(repr, classes))}; "
                             f"got {chosen!r}.")
        a = _class_position(classes, chosen[0], "classes")
        b = _class_position(classes, chosen[1], "classes")
        if a == b:
            raise ValueError(f"classes names {classes[a]!r} twice; choose two different classes.")
        keep = (yi == a) | (yi == b)
        y = np.where(yi[keep] == b, 1.0, -1.0)
        out = (classes[a], classes[b])
        picked = [a, b]
        left = [j for j in range(len(classes)) if j not in picked]
        note = f"Two of the classes: {names[a]} (−1, {counts[a]} rows) and {names[b]} (+1, {counts[b]} rows)"
        note += (f"; left out {int(counts[left].sum())} rows of {', '.join(names[j] for j in left)}." if left
                 else ".")
    else:
        a = _class_position(classes, one_vs_rest, "one_vs_rest")
        keep = None
        y = np.where(yi == a, 1.0, -1.0)
        others = [j for j in range(len(classes)) if j != a]
        rest = classes[others[0]] if len(others) == 1 else f"not {names[a]}"
        out = (rest, classes[a])
        picked = [a]
        note = (f"One class against the rest: {names[a]} (+1, {counts[a]} rows) against "
                f"{', '.join(names[j] for j in others)} (−1, {int(counts[others].sum())} rows).")
    rows = [(names[j], int(counts[j])) for j in picked]
    if chosen is None:
        rows.append((str(out[0]), int(len(yi) - counts[a])))
    few = [f"{n} ({c})" for n, c in rows if c < MIN_ROWS_PER_CHOSEN_CLASS]
    if few:
        raise ValueError(f"Each chosen class needs at least {MIN_ROWS_PER_CHOSEN_CLASS} rows; {label} has only "
                         f"{', '.join(few)}. Choose classes with more rows, or add rows.")
    return keep, y, out, note


def _class_index(ds: Dataset) -> np.ndarray:
    return ds.y.astype(np.int64) if ds.is_multiclass else (ds.y > 0).astype(np.int64)


def select_classes(ds: Dataset, classes=None, one_vs_rest=None) -> Dataset:
    """Two of a data set's classes, or one class against the rest, as a two-class data set.

    Parameters
    ----------
    ds : Dataset
        Any data set (a generated one, a shipped one such as iris, an uploaded file).
    classes : pair (A, B), optional
        Keep the rows of classes A and B: A → −1, B → +1. A class is given as its label or the
        label's text (``"Japan"``, ``2`` or ``"2"``).
    one_vs_rest : label, optional
        A → +1 against every other class → −1; the other side is named ``"not A"`` (the other class's
        own name when there are only two).

    Returns
    -------
    Dataset
        ``ds`` itself when neither is given; otherwise ``X`` of the kept rows (n_kept, d), ``y`` ±1,
        ``classes`` the pair in the order (−1, +1) so legends read the names. ``params`` records
        ``classes`` / ``one_vs_rest`` (what :func:`svmviz.data.dataset_from_csv` takes to repeat the choice)
        and ``notes`` says what was kept. The truth of the sampling law (``p_true``, ``bayes_error``,
        ``test_sample``) is that of all classes, so it is not carried over.

    Raises
    ------
    ValueError
        Both given, an unknown class, the same class twice, or a chosen side with fewer than
        :data:`MIN_ROWS_PER_CHOSEN_CLASS` rows.

    Examples
    --------
    >>> from svmviz.data import iris
    >>> two = select_classes(iris(), classes=("versicolor", "virginica"))
    >>> two.classes, two.X.shape, int((two.y > 0).sum())
    (('versicolor', 'virginica'), (100, 4), 50)
    >>> ovr = select_classes(iris(), one_vs_rest="setosa")
    >>> ovr.class_names, ovr.X.shape
    (('not setosa', 'setosa'), (150, 4))
    """
    if not isinstance(ds, Dataset):
        raise ValueError(f"select_classes needs a svmviz.data.Dataset; got a {type(ds).__name__}.")
    keep, y, out, note = choose_classes(_class_index(ds), tuple(ds.classes), classes, one_vs_rest,
                                        label=f"the data set {ds.name!r}")
    if y is None:
        return ds
    X = ds.X if keep is None else ds.X[keep]
    params = {**ds.params, "classes": None if classes is None else tuple(out),
              "one_vs_rest": None if one_vs_rest is None else out[1]}
    return replace(ds, X=np.ascontiguousarray(X), y=y, classes=out, p_true=None, bayes_error=None,
                   bayes_threshold=0.5, test_sample=None, params=params,
                   notes=tuple(ds.notes) + ((note,) if note else ()))
