"""The SS-ANOVA decomposition of a fitted kernel machine, component importances, and the criteria
along λ for several kernels (Wahba 1998, §1.1, Remarks 6–8, eqs. 1.12–1.13, and §2).

With an SS-ANOVA kernel K = θ0 + Σ_c θ_c R_c (:class:`svmviz.kernels.SSANOVAKernel`), a fitted
f(x) = b + Σ_i c_i K(x_i, x) splits exactly into

    f(x) = b + θ0 Σ_i c_i + Σ_c f_c(x),    f_c(x) = θ_c Σ_i c_i R_c(x_i, x),

main effects f_α(x_α) and two-factor interactions f_αβ(x_α, x_β) (θ_αβ = θ_α θ_β when θ is given
per coordinate). The squared RKHS norm of a component, θ_c c'R_c c (R_c the component's gram over
the expansion points), measures how much of the fit it carries: Wahba 1998, §2, proposes the SVM
as a preprocessor that finds the influential variables and interactions before a risk-factor
(penalized likelihood) model is built on them. Summed over the components it gives the penalty
c'Kc − θ0 (Σ_i c_i)².

The SVM (y'α = 0) and kernel logistic regression with an intercept have Σ_i c_i = 0 at the
solution, so the constant part θ0 Σ c_i vanishes (to rounding) whatever θ0.
"""
from __future__ import annotations

import time
from typing import Callable, Mapping, NamedTuple

import numpy as np

from ._validation import check_binary_labels, check_kernel_memory, check_matrix
from .kernels import SSANOVAKernel, fit_kernel, gram, kernel_diagonal
from ._validation import check_lambdas as _check_lambdas
from .svm import DEFAULT_MAX_ITER
from .tuning import exact_loo_curves, gram_criteria_curves


class AnovaExpansion(NamedTuple):
    """f(x) = intercept + Σ_i coef_i K(basis_i, x) with a fitted SS-ANOVA kernel.

    Attributes
    ----------
    kernel : SSANOVAKernel
        Fitted (its [0, 1] map is that of the training data).
    basis : ndarray of shape (n_b, d)
        Expansion points (support vectors of an SVM, training points of KLR, import points of the IVM).
    coef : ndarray of shape (n_b,)
        Their coefficients c_i.
    intercept : float
        b.
    feature_names : tuple of str, length d
    """

    kernel: SSANOVAKernel
    basis: np.ndarray
    coef: np.ndarray
    intercept: float
    feature_names: tuple


def _check_ssanova(kernel) -> SSANOVAKernel:
    if not isinstance(kernel, SSANOVAKernel):
        raise ValueError("the ANOVA decomposition needs a model fitted with an SSANOVAKernel (svmviz.kernels); "
                         f"this one used {kernel!r}, which does not split into components.")
    kernel._check_fitted()
    return kernel


def _names(kernel, feature_names):
    if feature_names is None:
        return tuple(f"x{j + 1}" for j in range(kernel.n_features_in_))
    names = tuple(str(f) for f in feature_names)
    if len(names) != kernel.n_features_in_:
        raise ValueError(f"feature_names must name {kernel.n_features_in_} features; got {len(names)}.")
    return names


def expansion(kernel, basis, coef, intercept, feature_names=None) -> AnovaExpansion:
    """An :class:`AnovaExpansion` from its parts (validated).

    Parameters
    ----------
    kernel : SSANOVAKernel
        Fitted.
    basis : array_like of shape (n_b, d)
    coef : array_like of shape (n_b,)
    intercept : float
    feature_names : sequence of str, optional

    Returns
    -------
    AnovaExpansion
    """
    k = _check_ssanova(kernel)
    B = check_matrix(basis, "basis")
    if B.shape[1] != k.n_features_in_:
        raise ValueError(f"basis has {B.shape[1]} features; the kernel was fitted on {k.n_features_in_}.")
    c = np.asarray(coef, dtype=np.float64).ravel()
    if c.shape != (B.shape[0],) or not np.all(np.isfinite(c)):
        raise ValueError(f"coef must hold {B.shape[0]} finite numbers (one per basis point).")
    b = float(intercept)
    if not np.isfinite(b):
        raise ValueError(f"intercept must be finite; got {intercept!r}.")
    return AnovaExpansion(k, B, np.ascontiguousarray(c), b, _names(k, feature_names))


def expansion_of(model, feature_names=None) -> AnovaExpansion:
    """The expansion f = b + Σ c_i K(x_i, ·) of a fitted binary SVMClassifier, KernelLogisticRegression
    or IVMClassifier whose ``kernel`` was an :class:`~svmviz.kernels.SSANOVAKernel`.

    Parameters
    ----------
    model : fitted estimator
        ``SVMClassifier`` (support vectors, ``dual_coef_``), ``KernelLogisticRegression`` (every
        training point) or ``IVMClassifier`` (import points), two classes.
    feature_names : sequence of str, optional
        Default: the model's ``feature_names_in_`` if it was fitted on a DataFrame, else x1, x2, ….

    Returns
    -------
    AnovaExpansion
        Its decision function is ``model.decision_function`` (the logit for KLR / IVM).
    """
    kernel = getattr(model, "kernel_", None)
    if kernel is None:
        raise ValueError(f"{type(model).__name__} is not fitted (no kernel_): fit it first.")
    if feature_names is None and hasattr(model, "feature_names_in_"):
        feature_names = list(model.feature_names_in_)
    if hasattr(model, "support_vectors_") and hasattr(model, "dual_coef_"):
        if np.shape(model.dual_coef_)[0] != 1:
            raise ValueError("the ANOVA decomposition is for two classes (one decision function); this model has "
                             f"{len(model.classes_)}.")
        return expansion(kernel, model.support_vectors_, np.asarray(model.dual_coef_)[0],
                         float(np.asarray(model.intercept_)[0]), feature_names)
    if hasattr(model, "coef_") and hasattr(model, "_basis_points"):
        if getattr(model, "n_classes_", 2) != 2:
            raise ValueError("the ANOVA decomposition is for two classes (one logit); this model has "
                             f"{model.n_classes_}.")
        return expansion(kernel, model._basis_points, np.asarray(model.coef_)[:, 0],
                         float(np.asarray(model.intercept_).ravel()[0]), feature_names)
    raise ValueError(f"cannot read a kernel expansion from {type(model).__name__}; use svmviz.anova.expansion "
                     "with the basis points and coefficients.")


def expansion_from_dual(kernel, X, y, alpha, b, lam, feature_names=None) -> AnovaExpansion:
    """The expansion of one solution of Wahba's SVM in dual form: c = Yα/(2nλ) (Wahba et al. 2001, eq. 2).

    Parameters
    ----------
    kernel : SSANOVAKernel
        Fitted on ``X``.
    X : array_like of shape (n, d)
        Training points.
    y : array_like of shape (n,)
        Labels (mapped to ±1).
    alpha : array_like of shape (n,)
        Dual coefficients, Wahba's scaling (e.g. one row of :attr:`GramCriteria.alphas`).
    b : float
    lam : float
    feature_names : sequence of str, optional

    Returns
    -------
    AnovaExpansion
        Over the support vectors only (α_i > 0).
    """
    X = check_matrix(X, "X")
    yy, _ = check_binary_labels(y, X.shape[0])
    a = np.asarray(alpha, dtype=np.float64).ravel()
    if a.shape != (X.shape[0],):
        raise ValueError(f"alpha must hold {X.shape[0]} numbers.")
    lam = float(_check_lambdas([lam])[0])
    sv = a > 0
    return expansion(kernel, X[sv], yy[sv] * a[sv] / (2.0 * X.shape[0] * lam), b, feature_names)


# ----------------------------------------------------------------------------- decomposition
class Components(NamedTuple):
    """f at query points split by SS-ANOVA component (returned by :func:`decompose`).

    Attributes
    ----------
    names : list of str, length n_components
        "x1", …, "x1 × x2", ….
    components : tuple of tuples
        Coordinates of each component (0-based).
    values : ndarray of shape (m, n_components)
        f_c(x_q) = θ_c Σ_i c_i R_c(x_i, x_q).
    constant : float
        θ0 Σ_i c_i (0 to rounding for the SVM and for KLR with an intercept).
    intercept : float
        b.
    total : ndarray of shape (m,)
        Σ_c f_c + constant + b — the decision function.
    """

    names: list
    components: tuple
    values: np.ndarray
    constant: float
    intercept: float
    total: np.ndarray


def decompose(exp: AnovaExpansion, Xq) -> Components:
    """Split f(x) = b + Σ_i c_i K(x_i, x) into its SS-ANOVA components at the rows of ``Xq``.

    Parameters
    ----------
    exp : AnovaExpansion or fitted estimator
        An expansion (from :func:`expansion_of`, :func:`expansion_from_dual` or :func:`expansion`),
        or a fitted estimator with an SSANOVAKernel (read by :func:`expansion_of`).
    Xq : array_like of shape (m, d)

    Returns
    -------
    Components
        ``values.sum(1) + constant + intercept == total`` = f(Xq) to rounding.

    Notes
    -----
    Wahba 1998, eqs. 1.12–1.13: the components are orthogonal subspaces of the RKHS, so f splits
    uniquely; with the cubic-spline base each main effect averages to 0 over [0, 1] (the RK's
    functions have ∫f = 0), with the Gaussian base they do not (their levels trade off with b).
    """
    if not isinstance(exp, AnovaExpansion):
        exp = expansion_of(exp)
    k = exp.kernel
    S = k.component_sums(exp.basis, exp.coef, Xq)
    vals = S * k.weights_[None, :]
    const = float(k.theta0) * float(exp.coef.sum())
    total = vals.sum(axis=1) + const + exp.intercept
    return Components(k.component_names(exp.feature_names), k.components_, vals, const, exp.intercept, total)


class Importances(NamedTuple):
    """Squared RKHS norms of the SS-ANOVA components (returned by :func:`importances`).

    Attributes
    ----------
    names : list of str, length n_components
    components : tuple of tuples
    values : ndarray of shape (n_components,)
        θ_c c'R_c c (Wahba 1998, §2).
    share : ndarray of shape (n_components,)
        values / values.sum() (0 if every value is 0).
    variable_names : tuple of str, length d
    by_variable : ndarray of shape (d,)
        Sum of the importances of the components that involve each variable (main effect plus
        every interaction it enters).
    norm2 : float
        c'Kc, the whole penalty ‖h‖² (= values.sum() + θ0 (Σ c_i)²).
    rms : ndarray of shape (n_components,) or None
        Root mean square of f_c over the points ``X`` given to :func:`importances` (the size of the
        component in decision-value units), or None.
    rms_by_variable : ndarray of shape (d,) or None
        Sum of ``rms`` over the components that involve each variable.
    """

    names: list
    components: tuple
    values: np.ndarray
    share: np.ndarray
    variable_names: tuple
    by_variable: np.ndarray
    norm2: float
    rms: np.ndarray | None = None
    rms_by_variable: np.ndarray | None = None


def _by_variable(vals, components, d):
    out = np.zeros(d)
    for v, comp in zip(vals, components):
        out[list(comp)] += v
    return out


def importances(exp: AnovaExpansion, X=None) -> Importances:
    """Component importances θ_c c'R_c c of a fitted SS-ANOVA expansion (Wahba 1998, §2).

    The squared RKHS norm weighs a component by its roughness as well as its size: a linear main
    effect is cheap, a wiggly fit to a noise variable dear, so an overfitted machine (small λ) gives
    noise variables large norms. Read it at a λ that does not overfit, and beside ``rms`` (the
    component's size over the data), which ``X`` adds.

    Parameters
    ----------
    exp : AnovaExpansion or fitted estimator
        An expansion, or a fitted SVMClassifier / KernelLogisticRegression / IVMClassifier with an
        SSANOVAKernel (read by :func:`expansion_of`).
    X : array_like of shape (n, d), optional
        Points (normally the training inputs) over which the root mean square of every component is
        taken.

    Returns
    -------
    Importances

    See Also
    --------
    svmviz.figures.anova.compute_importances : The bars drawn from them.
    decompose : The components' values at points.
    """
    if not isinstance(exp, AnovaExpansion):
        exp = expansion_of(exp)
    k = exp.kernel
    Q = k.component_quadratic_forms(exp.basis, exp.coef)
    vals = np.maximum(k.weights_ * Q, 0.0)  # each R_c is PSD on the training range; clip rounding below 0
    tot = float(vals.sum())
    share = vals / tot if tot > 0 else np.zeros_like(vals)
    d = k.n_features_in_
    norm2 = tot + float(k.theta0) * float(exp.coef.sum()) ** 2
    rms = rms_var = None
    if X is not None:
        rms = np.sqrt(np.mean(decompose(exp, X).values ** 2, axis=0))
        rms_var = _by_variable(rms, k.components_, d)
    return Importances(k.component_names(exp.feature_names), k.components_, vals, share, exp.feature_names,
                       _by_variable(vals, k.components_, d), norm2, rms, rms_var)


# ----------------------------------------------------------------------------- criteria by kernel
class KernelCriteria(NamedTuple):
    """Criteria along λ for several kernels (returned by :func:`compare_kernels`).

    Attributes
    ----------
    names : list of str
        The kernels' labels, in the order given.
    kernels : list
        The fitted kernels (names stay names).
    curves : list of svmviz.tuning.GramCriteria
        One per kernel (:func:`svmviz.tuning.gram_criteria_curves`).
    test_error : ndarray of shape (k, m) or None
        Misclassification on the test sample at every λ, per kernel.
    seconds : ndarray of shape (k,)
        Wall time per kernel (gram, fits, criteria, leave-one-out).
    grams : list of ndarray of shape (n, n) or None
        Each kernel's gram matrix over X, kept so that :func:`add_exact_loo` refits the support
        vectors of these very fits instead of fitting every λ again.
    tol : float
        The SMO stopping tolerance of the fits (the refits use it too).
    """

    names: list
    kernels: list
    curves: list
    test_error: np.ndarray | None
    seconds: np.ndarray
    grams: list | None = None
    tol: float = 1e-3


def _check_problem(X, y, lambdas, p_true):
    """The inputs every criteria function here takes: X (n, d) with n ≥ 4, labels as ±1 (two classes,
    two points each at least), the λ values, and the truth at X (None, or its values)."""
    X = check_matrix(X, "X", min_rows=4)
    yy, _ = check_binary_labels(y, X.shape[0], min_per_class=2)
    lam = _check_lambdas(lambdas)
    p = None if p_true is None else (p_true(X) if callable(p_true) else p_true)
    return X, yy, lam, p


def _test_decisions(coef, Kt, b) -> np.ndarray:
    """f(x_t) = b_k + Σ_i coef_ki K(x_t, x_i) at every λ k and test point t, shape (m, n_t).

    ``coef`` (m, n) holds y_i α_i/(2nλ_k), ``Kt`` (n_t, n) the test gram, ``b`` (m,) the intercepts.
    numpy's own sum-of-products loop (``einsum`` without ``optimize``), not BLAS: the same bits
    whatever OpenBLAS's thread count, and no BLAS thread left spinning. At the Kernels page's default
    (11 × 200 by 200 × 2000, three kernels a rerun) OpenBLAS split each product over both cores and its
    second thread then busy-waited ≈ 0.1 s for more work, beside exact LOO's two threads and the
    browser: about half the CPU of the fits at the same wall time (``bench/bench_anova.py --page``);
    the einsum takes ≈ 1 ms, one core.
    """
    return np.einsum("kn,tn->kt", coef, Kt) + b[:, None]


def compare_kernels(X, y, lambdas, kernels: Mapping, *, sigma: float = 1.0, p_true=None, loo: bool = False,
                    X_test=None, y_test=None, tol: float = 1e-3, progress: Callable | None = None) -> KernelCriteria:
    """GACV, XA, XA (Joachims' R²), exact LOO (and GCKL, MISCLASS with the truth) along λ for each kernel.

    Each kernel is fitted on X (:func:`svmviz.kernels.fit_kernel`), its gram built once and every λ
    fitted warm-started; GACV and XA use the kernel's own diagonal K_ii
    (:func:`svmviz.kernels.kernel_diagonal`), which is not 1 for SS-ANOVA kernels.

    Parameters
    ----------
    X : array_like of shape (n, d)
    y : array_like of shape (n,)
        Two classes.
    lambdas : array_like of shape (m,)
    kernels : mapping of str to kernel
        Label → "rbf" (width ``sigma``), "linear", or a kernel object (e.g. SSANOVAKernel).
    sigma : float, default 1.0
        Width of the "rbf" kernel.
    p_true : callable or array_like of shape (n,), optional
        True P(y = +1 | x) (a function of X or its values at X).
    loo : bool, default False
    X_test, y_test : array_like, optional
        A test sample: adds the test misclassification along λ.
    tol : float, default 1e-3
    progress : callable(done, total, message), optional
        Called after each kernel's gram, its fits and each λ's leave-one-out refits (an exception
        it raises, e.g. a Cancel, stops the computation there).

    Returns
    -------
    KernelCriteria
    """
    if not kernels:
        raise ValueError("give at least one kernel.")
    X, yy, lam, p = _check_problem(X, y, lambdas, p_true)
    # every kernel's gram is kept (for the exact LOO of add_exact_loo), plus the one being fitted
    check_kernel_memory(X.shape[0], what="compare_kernels", copies=len(kernels) + 2)
    Xt = yt = None
    if X_test is not None:
        Xt = check_matrix(X_test, "X_test")
        yt, _ = check_binary_labels(y_test, Xt.shape[0])
        if Xt.shape[1] != X.shape[1]:
            raise ValueError(f"X_test has {Xt.shape[1]} features; X has {X.shape[1]}.")
    names, fitted, curves, secs, grams = [], [], [], [], []
    test_err = np.empty((len(kernels), lam.size)) if Xt is not None else None
    n = X.shape[0]
    total = 2 * len(kernels) + (len(kernels) * lam.size if loo else 0)  # gram, fits; each (kernel, λ)'s LOO
    for q, (label, kern) in enumerate(kernels.items()):
        t0 = time.perf_counter()
        kf = fit_kernel(kern, X)
        K = gram(X, kernel=kf, sigma=sigma)
        Kd = kernel_diagonal(kf, X, sigma=sigma)
        if progress is not None:
            progress(2 * q + 1, total, f"{label}: gram matrix")
        cur = gram_criteria_curves(K, yy, lam, K_diag=Kd, p_true=p, loo=False, tol=tol)
        if progress is not None:
            progress(2 * q + 2, total, f"{label}: fitted every λ")
        if Xt is not None:
            Kt = gram(Xt, X, kernel=kf, sigma=sigma)
            F = _test_decisions(cur.alphas * yy[None, :] / (2.0 * n * lam[:, None]), Kt, cur.b)
            test_err[q] = np.mean(np.where(F > 0, 1.0, -1.0) != yt[None, :], axis=1)
        names.append(str(label))
        fitted.append(kf)
        curves.append(cur)
        grams.append(K)
        secs.append(time.perf_counter() - t0)
    kc = KernelCriteria(names, fitted, curves, test_err, np.array(secs), grams, float(tol))
    if loo:
        step = None if progress is None else (lambda d, _t, msg: progress(2 * len(kernels) + d, total, msg))
        kc = add_exact_loo(kc, yy, progress=step)
    return kc


def add_exact_loo(kc: KernelCriteria, y, *, progress: Callable | None = None) -> KernelCriteria:
    """Exact leave-one-out along λ added to the fits of :func:`compare_kernels` (``loo=False``),
    without fitting them again (Wahba et al. 2001, §4; the full data's C_i kept).

    Every (kernel, λ)'s support vectors are refitted from that λ's solution, all of them on one
    queue of threads (:func:`svmviz.tuning.exact_loo_curves`). ``compare_kernels(..., loo=True)``
    is ``add_exact_loo(compare_kernels(..., loo=False), y)``: the same numbers, bit for bit — a
    page draws the fits' criteria first and adds leave-one-out as a second step at the cost of the
    refits alone.

    Parameters
    ----------
    kc : KernelCriteria
        From :func:`compare_kernels` (with its ``grams``); curves that already hold "loo" are
        refitted again.
    y : array_like of shape (n,)
        The labels ``kc`` was fitted on.
    progress : callable(done, total, message), optional
        Called after each (kernel, λ)'s refits, ``total`` = kernels × λ values (an exception it
        raises, e.g. a Cancel, stops the refits).

    Returns
    -------
    KernelCriteria
        ``kc`` with every curve's ``values["loo"]``, ``best["loo"]``, ``f_loo`` and ``status`` set and
        the refits' wall time added to ``seconds``.
    """
    if kc.grams is None or len(kc.grams) != len(kc.curves):
        raise ValueError("this KernelCriteria has no gram matrices (made by an older version?): "
                         "call compare_kernels(..., loo=True) instead.")
    n = kc.grams[0].shape[0]
    yy, _ = check_binary_labels(y, n, min_per_class=2)
    curves, loo_secs = exact_loo_curves(kc.curves, kc.grams, yy, tol=kc.tol, max_iter=DEFAULT_MAX_ITER,
                                        labels=kc.names, progress=progress)
    return kc._replace(curves=curves, seconds=kc.seconds + np.asarray(loo_secs))


class ThetaGrid(NamedTuple):
    """Criteria over (θ scale, λ) for one SS-ANOVA kernel (returned by :func:`theta_lambda_grid`).

    Attributes
    ----------
    scales : ndarray of shape (k,)
        Multipliers of θ (every θ_α, or only θ of ``coordinate``).
    coordinate : int or None
    lambdas : ndarray of shape (m,)
    values : dict of str to ndarray of shape (k, m)
    best : dict of str to (int, int)
        (i_scale, j_lambda) of each criterion's first minimum.
    weights : ndarray of shape (k, n_components)
        Component weights at each scale.
    alphas : ndarray of shape (k, m, n)
    b : ndarray of shape (k, m)
    kernel : SSANOVAKernel
        The fitted kernel at scale 1.
    """

    scales: np.ndarray
    coordinate: int | None
    lambdas: np.ndarray
    values: dict
    best: dict
    weights: np.ndarray
    alphas: np.ndarray
    b: np.ndarray
    kernel: SSANOVAKernel


def theta_lambda_grid(X, y, lambdas, kernel, scales, *, coordinate: int | None = None, p_true=None,
                      loo: bool = False, tol: float = 1e-3, progress: Callable | None = None) -> ThetaGrid:
    """Criteria over a grid of λ and a θ scale: a shared scale of every θ_α, or one θ_α at a time.

    The d per-coordinate gram matrices are computed once
    (:meth:`~svmviz.kernels.SSANOVAKernel.coordinate_grams`); each scale's gram is assembled from
    them (interactions as products, θ_αβ scaled by the product of the two multipliers, eq. 1.12) and
    its λ sequence fitted warm-started, GACV and XA with that gram's own diagonal.

    Parameters
    ----------
    X : array_like of shape (n, d)
    y : array_like of shape (n,)
    lambdas : array_like of shape (m,)
    kernel : SSANOVAKernel
        Unfitted or fitted (it is fitted on X).
    scales : array_like of shape (k,)
        Positive multipliers.
    coordinate : int, optional
        Scale only θ of this coordinate (0-based); default: every θ.
    p_true : callable or array_like of shape (n,), optional
    loo : bool, default False
    tol : float, default 1e-3
    progress : callable(done, total, message), optional

    Returns
    -------
    ThetaGrid
    """
    X, yy, lam, p = _check_problem(X, y, lambdas, p_true)
    check_kernel_memory(X.shape[0], what="theta_lambda_grid", copies=X.shape[1] + 2)  # d coordinate grams + K
    sc = _check_lambdas(scales, "scales", "scale")
    k = _check_ssanova(fit_kernel(kernel, X) if isinstance(kernel, SSANOVAKernel) else kernel)
    R = k.coordinate_grams(X)
    W = np.stack([k.component_weights(s, coordinate) for s in sc])
    vals, alphas, bs = {}, [], []
    for i, w in enumerate(W):
        K = k.gram_from_coordinate_grams(R, w)
        cur = gram_criteria_curves(K, yy, lam, K_diag=np.diag(K).copy(), p_true=p, loo=loo, tol=tol)
        for key, v in cur.values.items():
            vals.setdefault(key, np.empty((sc.size, lam.size)))[i] = v
        alphas.append(cur.alphas)
        bs.append(cur.b)
        if progress is not None:
            progress(i + 1, sc.size, f"θ scale {i + 1}/{sc.size}")
    best = {key: tuple(int(t) for t in np.unravel_index(np.nanargmin(v), v.shape)) for key, v in vals.items()}
    return ThetaGrid(sc, coordinate, lam, vals, best, W, np.stack(alphas), np.stack(bs), k)
