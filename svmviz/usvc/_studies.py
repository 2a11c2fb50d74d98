"""The studies of the unbiased SVC: Table 1 of Navia-Vázquez et al. 2004 (scenarios A and B) and the kernel USVC against the SVM.

Private module: import the names from :mod:`svmviz.usvc`.
"""
from __future__ import annotations

import warnings
from typing import Callable, NamedTuple

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from . import _irwls
from .._validation import binary_targets, check_binary_labels, check_int, check_matrix, check_positive
from ._classes import (
    PAPER_TABLE1, IRWLSClassifier, _check_k, _check_s, _check_unit,
)


# ----------------------------------------------------------------------------------------------
# the Table 1 study
# ----------------------------------------------------------------------------------------------
class Table1Result(NamedTuple):
    """Per-trial results of :func:`table1_study` (Navia-Vázquez et al. 2004, Table 1).

    Arrays of shape (n_trials, n_methods) have one column per method, ordered as ``methods``.

    Attributes
    ----------
    scenario : str
        "A" or "B".
    methods : tuple of str
        The methods: LS, SVC, and USVC for each s.
    train_ce, test_ce : ndarray of shape (n_trials, n_methods)
        Training and test classification error, in percent.
    threshold : ndarray of shape (n_trials, n_methods)
        The fitted threshold Th = −b/w.
    coef, intercept : ndarray of shape (n_trials, n_methods)
        The fitted w and b.
    n_iter : ndarray of int, shape (n_trials, n_methods)
        IRWLS iterations of each fit.
    status : ndarray of int, shape (n_trials, n_methods)
        Each fit's convergence status (0 converged).
    seeds : ndarray of int, shape (n_trials,)
        Each trial's seed: ``make_dataset(seed)`` and its ``test_sample(n_test, seed)``.
    params : dict
        The study's parameters (n_trials, n_train, n_test, C, s_values, k_eps, damping,
        weight_factor, seed).
    """

    scenario: str
    methods: tuple
    train_ce: np.ndarray
    test_ce: np.ndarray
    threshold: np.ndarray
    coef: np.ndarray
    intercept: np.ndarray
    n_iter: np.ndarray
    status: np.ndarray
    seeds: np.ndarray      # (n_trials,) seeds: make_dataset(seed) and its test_sample(n_test, seed)
    params: dict


def table1_study(scenario: str = "A", *, n_trials: int = 100, n_train: int = 500, n_test: int = 500,
                 C: float = 10.0, s_values=(2.0, 4.0), k_eps: float = 1e-4, damping: float = 0.2,
                 tol: float = 1e-8, tol_f: float = 1e-10, max_iter: int = 50_000, a_max: float = 1e8,
                 weight_factor: float = 1.0, seed: int = 0,
                 progress: Callable[[int, int, str], None] | None = None, chunk: int = 10) -> Table1Result:
    """Repeated-trials study of seed Table 1: LS, SVC and USVC(s) on scenario A or B.

    Each trial draws a training sample (``n_train``) with :func:`svmviz.data.make_dataset`
    (``"usvc_A"``/``"usvc_B"``) and an independent test sample (``n_test``) with its
    ``test_sample``, fits the regularised LS (a_i = 1),
    the SVC by IRWLS from it, and the USVC for each s from the SVC, and records train/test CE (%)
    and Th = −b/w. ``progress(done, total, message)`` is called after each chunk of trials.

    Parameters
    ----------
    scenario : {"A", "B"}
        Navia-Vázquez et al. 2004, eqs. 28–29.
    n_trials, n_train, n_test : int
    C, k_eps, damping, tol, tol_f, max_iter, a_max, weight_factor : as in :class:`IRWLSClassifier`.
    s_values : sequence of float
        The USVC steepness values s (one method each).
    seed : int
        Root seed; trial t uses ``seeds[t]`` drawn from it.
    progress : callable(done, total, message), optional
    chunk : int
        Trials per numba call (and per progress report).

    Returns
    -------
    Table1Result
        Arrays of shape (n_trials, 2 + len(s_values)), methods LS, SVC, USVC(s)….

    Warns
    -----
    ConvergenceWarning if any IRWLS fit reached ``max_iter``.

    Notes
    -----
    Navia-Vázquez et al. 2004, §3, Table 1 (C = 10, d = 0.2, 500/500 points, 100 trials).
    """
    from ..data import make_dataset

    if scenario not in ("A", "B"):
        raise ValueError(f"scenario must be 'A' or 'B'; got {scenario!r}.")
    n_trials = check_int(n_trials, "n_trials", 1)
    n_train = check_int(n_train, "n_train", 4)
    n_test = check_int(n_test, "n_test", 1)
    C = check_positive(C, "C")
    s_arr = np.ascontiguousarray(np.atleast_1d(np.asarray(s_values, dtype=np.float64)))
    for v in s_arr:
        _check_s(v)
    k = _check_k(k_eps)
    damping = _check_unit(damping, "damping")
    tol, tol_f = check_positive(tol, "tol"), check_positive(tol_f, "tol_f")
    max_iter = check_int(max_iter, "max_iter", 1)
    a_max = check_positive(a_max, "a_max")
    factor = check_positive(weight_factor, "weight_factor")
    chunk = check_int(chunk, "chunk", 1)
    methods = ("LS", "SVC") + tuple(f"USVC(s={v:g})" for v in s_arr)
    seeds = np.random.SeedSequence(int(seed)).generate_state(n_trials, dtype=np.uint32).astype(np.int64)

    name = f"usvc_{scenario}"
    parts = []
    for start in range(0, n_trials, chunk):
        stop = min(n_trials, start + chunk)
        Xtr = np.empty((stop - start, n_train))
        ytr = np.empty_like(Xtr)
        Xte = np.empty((stop - start, n_test))
        yte = np.empty_like(Xte)
        for j, t in enumerate(range(start, stop)):
            tr = make_dataset(name, n=n_train, seed=int(seeds[t]))
            te = tr.test_sample(n_test, int(seeds[t]))  # the generator's independent test stream
            Xtr[j], ytr[j] = tr.X[:, 0], tr.y
            Xte[j], yte[j] = te.X[:, 0], te.y
        parts.append(_irwls.table1_trials(Xtr, ytr, Xte, yte, C, s_arr, k, a_max, factor, damping, tol,
                                          tol_f, max_iter, True))
        if progress is not None:
            progress(stop, n_trials, f"scenario {scenario}: {stop}/{n_trials} trials")
    tr, te, th, ws, bs, nit, st = (np.vstack([p[i] for p in parts]) for i in range(7))
    bad = int(np.sum(st != _irwls.STATUS_CONVERGED))
    if bad:
        warnings.warn(f"table1_study: {bad} of {st.size} IRWLS fits did not converge; their last "
                      "iterate is used (see the status array).", ConvergenceWarning, stacklevel=2)
    params = dict(n_trials=n_trials, n_train=n_train, n_test=n_test, C=C, s_values=tuple(s_arr),
                  k_eps=k, damping=damping, weight_factor=factor, seed=int(seed))
    return Table1Result(scenario, methods, 100.0 * tr, 100.0 * te, th, ws, bs, nit, st, seeds, params)


#: a fitted threshold outside this range means w ≈ 0: the machine is (almost) constant on the data
THRESHOLD_RANGE = (-0.5, 1.5)


def table1_summary(result: Table1Result) -> list[dict]:
    """One row per method: mean and sd of train CE %, test CE %, Th, beside the paper's numbers.

    Th statistics leave out trials whose machine is constant on the data (w ≈ 0, so Th = −b/w falls
    outside ``THRESHOLD_RANGE``: the hinge optimum of scenario B is occasionally w = 0, b = 1);
    their number is ``n_constant``. CE statistics use every trial.

    Parameters
    ----------
    result : Table1Result

    Returns
    -------
    list of dict
        One per method: ``method``, ``{train_ce,test_ce,threshold}_{mean,sd}``, the paper's
        ``paper_*`` values (Navia-Vázquez et al. 2004, Table 1), ``n_constant``, ``converged``,
        ``mean_iterations``.
    """
    paper = PAPER_TABLE1[result.scenario]
    rows = []
    lo, hi = THRESHOLD_RANGE
    for j, m in enumerate(result.methods):
        row = {"method": m}
        th = result.threshold[:, j]
        ok = np.isfinite(th) & (th >= lo) & (th <= hi)
        row["n_constant"] = int(np.sum(~ok))
        for key, arr in (("train_ce", result.train_ce[:, j]), ("test_ce", result.test_ce[:, j]),
                         ("threshold", th[ok])):
            v = arr
            row[f"{key}_mean"] = float(np.mean(v)) if v.size else float("nan")
            row[f"{key}_sd"] = float(np.std(v, ddof=1)) if v.size > 1 else float("nan")
            ref = paper.get(m, {}).get(key)
            row[f"paper_{key}_mean"] = ref[0] if ref else float("nan")
            row[f"paper_{key}_sd"] = ref[1] if (ref and ref[1] is not None) else float("nan")
        row["converged"] = int(np.sum(result.status[:, j] == _irwls.STATUS_CONVERGED))
        row["mean_iterations"] = float(np.mean(result.n_iter[:, j]))
        rows.append(row)
    return rows


class KernelComparisonFit(NamedTuple):
    """The kernel USVC and the SVM fitted on the same data with the same σ and C (see :func:`kernel_comparison`).

    Attributes
    ----------
    usvc : IRWLSClassifier
        Fitted: R Gaussian prototype kernels, smooth-step loss.
    svm : SVMClassifier
        Fitted :class:`svmviz.svm.SVMClassifier`, λ = 1/(2nC).
    X_train : ndarray of shape (n, d)
        The training points.
    y_train : ndarray of shape (n,)
        Their labels ±1.
    X_test : ndarray of shape (m, d)
        The test points.
    y_test : ndarray of shape (m,)
        Their labels ±1.
    test_kind : str
        "independent test sample" or "30 % held out".
    train_error_usvc, train_error_svm : float
        Training misclassification rates.
    test_error_usvc, test_error_svm : float
        Test misclassification rates.

    See Also
    --------
    svmviz.figures.usvc.compute_kernel_comparison : What the page draws from it.
    """

    usvc: IRWLSClassifier   # fitted: R Gaussian prototype kernels, smooth-step loss
    svm: object             # fitted svmviz.svm.SVMClassifier, λ = 1/(2nC)
    X_train: np.ndarray     # (n, d)
    y_train: np.ndarray     # (n,) ±1
    X_test: np.ndarray      # (m, d)
    y_test: np.ndarray      # (m,) ±1
    test_kind: str          # "independent test sample" or "30 % held out"
    train_error_usvc: float
    train_error_svm: float
    test_error_usvc: float
    test_error_svm: float


def kernel_comparison(X, y, *, sigma: float = 1.0, C: float = 10.0, n_prototypes: int = 10, s: float = 2.0,
                      prototypes: str = "kmeans", seed: int = 0, X_test=None, y_test=None,
                      held_out: float = 0.3) -> KernelComparisonFit:
    """The semiparametric USVC with R Gaussian prototypes against the SVM (Navia-Vázquez et al. 2004,
    eqs. 23–27 and Table 3): both with the Gaussian kernel of width ``sigma`` and the same C (the
    SVM's λ = 1/(2nC)).

    Parameters
    ----------
    X : array-like of shape (n, d)
    y : array-like of shape (n,), two classes (the larger label is +1)
    sigma, C, s : float
        Kernel width, cost, smooth-step exponent.
    n_prototypes : int
        R (at most the training size).
    prototypes : {"kmeans", "fscl"}
    seed : int
        Prototype initialisation and, without a test sample, the held-out split.
    X_test, y_test : arrays of shape (m, d) and (m,), optional
        An independent test sample. Without it, a seeded, stratified ``held_out`` fraction of the rows
        (:func:`svmviz.data.split_indices`) is held out for testing and the machines are trained on the rest.
    held_out : float in (0, 1)

    Returns
    -------
    KernelComparisonFit
        Both fitted machines, the training and test data, and their misclassification rates (a
        point with f = 0 counts as an error).
    """
    from ..data import split_indices
    from ..svm import SVMClassifier

    X = check_matrix(X, "X")
    y, classes = check_binary_labels(y, X.shape[0])
    if X_test is not None:
        Xtr, ytr = X, y
        Xte = check_matrix(X_test, "X_test")
        yte = binary_targets(np.asarray(y_test), classes)
        kind = "independent test sample"
    else:
        if not 0.0 < float(held_out) < 1.0:
            raise ValueError(f"held_out must be in (0, 1); got {held_out!r}.")
        tr, te = split_indices(y, (1.0 - float(held_out), float(held_out)), int(seed))
        Xtr, ytr, Xte, yte = X[tr], y[tr], X[te], y[te]
        kind = f"{int(round(100 * float(held_out)))} % held out"
    if np.unique(ytr).size < 2:
        raise ValueError("the training part holds a single class; use more rows or another seed.")
    n = Xtr.shape[0]
    um = IRWLSClassifier(C=C, loss="smooth_step", s=s, kernel="rbf", sigma=sigma,
                         n_prototypes=min(int(n_prototypes), n), prototypes=prototypes,
                         random_state=int(seed), tol=1e-6, max_iter=5000).fit(Xtr, ytr)
    svm = SVMClassifier(lam=1.0 / (2.0 * n * C), sigma=sigma, kernel="rbf").fit(Xtr, ytr)

    def err(m, A, b):
        return float(np.mean(m.decision_function(A) * b <= 0)) if A.shape[0] else float("nan")

    return KernelComparisonFit(um, svm, Xtr, ytr, Xte, yte, kind, err(um, Xtr, ytr), err(svm, Xtr, ytr),
                               err(um, Xte, yte), err(svm, Xte, yte))
