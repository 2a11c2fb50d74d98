"""Real data shipped with scikit-learn (breast_cancer, iris, wine): stratified subsets, held-out test rows."""
from __future__ import annotations

import functools
import numbers

import numpy as np

from .._docs import fill_doc
from .dataset import Dataset, _check_n, _check_seed, _code_labels, _standardizer, _test_rng, _train_rng
from .splits import _stratified_subset


_SKLEARN = {"breast_cancer": "load_breast_cancer", "iris": "load_iris", "wine": "load_wine"}


@functools.lru_cache(maxsize=8)
def _load_sklearn(name):
    import sklearn.datasets

    b = getattr(sklearn.datasets, _SKLEARN[name])()
    X = np.ascontiguousarray(b.data, dtype=np.float64)
    X.setflags(write=False)
    t = np.asarray(b.target, dtype=np.int64)
    t.setflags(write=False)
    return X, t, tuple(str(c) for c in b.target_names), tuple(str(f) for f in b.feature_names)


def _sklearn_pick(name, keep_classes):
    X, t, tnames, fnames = _load_sklearn(name)
    if keep_classes is None:
        return X, t, tnames, fnames
    keep = tuple(keep_classes)
    if len(keep) < 2 or len(set(keep)) != len(keep):
        raise ValueError(f"keep_classes must name at least two different classes of {name}: {', '.join(tnames)}.")
    codes = []
    for c in keep:
        if c in tnames:
            codes.append(tnames.index(c))
        elif isinstance(c, numbers.Integral) and 0 <= int(c) < len(tnames):
            codes.append(int(c))
        else:
            raise ValueError(f"unknown class {c!r} in keep_classes; {name} has {', '.join(tnames)}.")
    codes = sorted(codes)
    mask = np.isin(t, codes)
    remap = {c: j for j, c in enumerate(codes)}
    return X[mask], np.array([remap[int(v)] for v in t[mask]]), tuple(tnames[c] for c in codes), fnames


def _sklearn_test_sample(name, classes, fnames, held_out_X, held_out_y, mu, sd, params, n=None, seed=0):
    seed = _check_seed(seed)
    K = len(classes)
    m = held_out_X.shape[0]
    n = m if n is None else min(_check_n(n, name, minimum=2 * K), m)
    rng = _test_rng(seed)
    idx = _stratified_subset(held_out_y, n, rng, K) if n < m else rng.permutation(m)
    X = (held_out_X[idx] - mu) / sd
    return Dataset(X=np.ascontiguousarray(X), y=_code_labels(held_out_y[idx], K), name=name, classes=classes,
                   feature_names=fnames, params={**params, "n": int(n), "seed": seed, "held_out": True})


def sklearn_dataset(name, n=None, seed=0, standardize=True, keep_classes=None) -> Dataset:
    """A real data set shipped with scikit-learn: "breast_cancer", "iris" or "wine".

    Parameters
    ----------
    name : {"breast_cancer", "iris", "wine"}
        breast_cancer is binary (malignant −1, benign +1; the "Breast" row of (Navia-Vázquez et al. 2004, Table 4));
        iris and wine have 3 classes unless ``keep_classes`` names two of them.
    n : int or None
        None or n ≥ the number of rows: all rows. Otherwise a stratified random subset of n rows
        chosen by ``seed``; the remaining rows form ``test_sample``.
    seed : int ≥ 0
    standardize : bool
        Scale each feature to mean 0, sd 1 using the training rows (the same shift and scale are
        applied to ``test_sample``). Default True: with raw breast-cancer features an RBF width
        is dominated by one large-valued column.
    keep_classes : sequence of class names (or codes), optional
        Keep only these classes (two of them gives a binary problem).

    Returns
    -------
    Dataset
        ``p_true`` and ``bayes_error`` are None (unknown).
    """
    if name not in _SKLEARN:
        raise ValueError(f"unknown scikit-learn data set {name!r}; choose one of {', '.join(_SKLEARN)}.")
    seed = _check_seed(seed)
    X, t, classes, fnames = _sklearn_pick(name, keep_classes)
    K = len(classes)
    N = X.shape[0]
    n_req = None if n is None else _check_n(n, name, minimum=2 * K)
    rng = _train_rng(seed)
    if n_req is None or n_req >= N:
        idx = np.arange(N)
        rest = np.array([], dtype=np.int64)
    else:
        idx = _stratified_subset(t, n_req, rng, K)
        rest = np.setdiff1d(np.arange(N), idx)
    Xtr = X[idx]
    if standardize:
        mu, sd = _standardizer(Xtr)
    else:
        mu, sd = np.zeros(X.shape[1]), np.ones(X.shape[1])
    params = {"n": int(idx.size), "seed": seed, "standardize": bool(standardize), "n_rows": int(N),
              "keep_classes": None if keep_classes is None else tuple(keep_classes),
              "feature_mean": tuple(map(float, mu)) if standardize else None,
              "feature_sd": tuple(map(float, sd)) if standardize else None}
    test = None
    if rest.size >= 2 * K and np.all(np.bincount(t[rest], minlength=K) >= 2):
        test = functools.partial(_sklearn_test_sample, name, classes, fnames, X[rest], t[rest], mu, sd, params)
    return Dataset(
        X=np.ascontiguousarray((Xtr - mu) / sd), y=_code_labels(t[idx], K), name=name, classes=classes,
        feature_names=fnames, p_true=None, bayes_threshold=0.5, bayes_error=None, L=(1.0, 1.0),
        params=params, test_sample=test,
    )


@fill_doc
def breast_cancer(n=None, seed=0, standardize=True) -> Dataset:
    """Wisconsin breast cancer (569 × 30; malignant −1, benign +1). See :func:`sklearn_dataset`.

    Parameters
    ----------
    {real_n_seed}

    Returns
    -------
    Dataset
    """
    return sklearn_dataset("breast_cancer", n=n, seed=seed, standardize=standardize)


@fill_doc
def iris(n=None, seed=0, standardize=True, keep_classes=None) -> Dataset:
    """Fisher's iris (150 × 4, 3 classes; two with ``keep_classes``). See :func:`sklearn_dataset`.

    {real_params}
    """
    return sklearn_dataset("iris", n=n, seed=seed, standardize=standardize, keep_classes=keep_classes)


@fill_doc
def wine(n=None, seed=0, standardize=True, keep_classes=None) -> Dataset:
    """UCI wine (178 × 13, 3 classes; two with ``keep_classes``). See :func:`sklearn_dataset`.

    {real_params}
    """
    return sklearn_dataset("wine", n=n, seed=seed, standardize=standardize, keep_classes=keep_classes)
