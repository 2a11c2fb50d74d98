"""The ν-SVM path estimator :class:`NuSVMPath`, documented and imported from :mod:`svmviz.path`.

It lives here, apart from :func:`~svmviz.path.nu_path`, because a scikit-learn estimator imports
scikit-learn (``BaseEstimator``, ``ClassifierMixin``, its validation: ~0.7 s of CPU, with scipy.stats,
pandas and joblib), which the path itself and the app's path page do not need. :mod:`svmviz.path`
hands it out on first use (``from svmviz.path import NuSVMPath``, a module ``__getattr__``).
"""
from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from .._docs import fill_doc
from .._validation import BinaryClassifierMixin, check_kernel_params_used, check_sample_weight, validate_fit_data, validate_predict_data
from ._loo import loo_path
from ._nu_path import nu_path


class NuSVMPath(BinaryClassifierMixin, ClassifierMixin, BaseEstimator):
    """ν-SVM fitted through its whole regularization path, ν chosen on it.

    The path of the ν-SVM dual (Loosli & Canu 2006, "Dual"; α, b, ρ piecewise linear in λ = mν) is
    computed once by :func:`nu_path`; the classifier is the path's point at ``nu``, or at the
    automatic stopping point of leave-one-out along the path (Loosli & Canu 2006, "Stopping
    criteria": the sparsest solution whose LOO1 and LOO2 are near their best, :func:`auto_stop`). Its decision function equals scikit-learn's ``NuSVC(nu)`` up to a positive
    factor.

    Parameters
    ----------
    nu : float in (0, 1] or "auto", default="auto"
        The ν = λ/m used for prediction (feasible up to 2·min(n₊, n₋)/m); ``"auto"`` takes the
        automatic stopping point (:func:`auto_stop`).
    kernel : {"rbf", "linear", "poly"} or kernel object, default="rbf"
        See :func:`svmviz.kernels.gram`.
    sigma : float, default=1.0
        Gaussian width, K = exp(−‖x − x'‖²/(2σ²)); used by kernel="rbf" only. Refused (a ValueError) at another value beside a kernel that does not read it.
    degree, gamma, coef0 : polynomial kernel parameters.
    max_evals : int, default=60
        λ values where LOO is evaluated (``nu="auto"`` only; :func:`default_loo_lambdas`).
    n_se, rtol : stopping rule of :func:`auto_stop` (``nu="auto"`` only): the first λ whose LOO1 is
        within ``n_se`` standard errors of the best and whose LOO2 is within ``rtol`` of its floor.
    tol : float, default=1e-9
        Relative tolerance of the path.

    Attributes
    ----------
    path_ : NuPath
        The whole path (breakpoints, α, b, ρ, groups).
    kernel_ : str or kernel object
        The kernel every later gram uses (a kernel object fitted on the training X).
    loo_ : LooPath or None
        LOO1/LOO2 along the path (``nu="auto"``).
    nu_ : float
        The chosen ν.
    lambda_ : float
        The chosen λ = m·ν.
    classes_ : ndarray of shape (2,)
        ``classes_[0]`` ↔ −1.
    status_ : int
        The path's status (0 complete).
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (d,)
        When fitted on a DataFrame.

    See Also
    --------
    svmviz.path.nu_path : The path this estimator computes.
    svmviz.path.loo_path : Leave-one-out along the path.

    Notes
    -----
    Loosli & Canu 2006, "Summary" (the four events of the path) and "Stopping criteria". ``fit``
    takes ``sample_weight`` in whole numbers only, as repeated rows: the path's events are those of
    the box 0 ≤ α_i ≤ 1 of every row; :class:`svmviz.svm.SVMClassifier` takes any weights.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import make_moons
    >>> from sklearn.svm import NuSVC
    >>> from svmviz.path import NuSVMPath
    >>> X, y = make_moons(60, noise=0.25, random_state=0)
    >>> clf = NuSVMPath(nu=0.3, sigma=0.5).fit(X, y)
    >>> clf.status_, round(clf.nu_, 2), clf.path_.lambda_max
    (0, 0.3, 60.0)
    >>> round(float(clf.score(X, y)), 3)
    0.983

    At ν = 0.3 the path's decision function is scikit-learn's ``NuSVC(nu=0.3)`` times a constant:

    >>> ref = NuSVC(nu=0.3, gamma=1 / (2 * 0.5**2), tol=1e-10).fit(X, y)
    >>> ratio = clf.decision_function(X) / ref.decision_function(X)
    >>> bool(np.ptp(ratio) < 1e-4 * ratio.mean())
    True
    """

    def __init__(self, *, nu="auto", kernel="rbf", sigma=1.0, degree=3, gamma=1.0, coef0=1.0,
                 max_evals=60, n_se=1.0, rtol=0.1, tol=1e-9):
        self.nu = nu
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.max_evals = max_evals
        self.n_se = n_se
        self.rtol = rtol
        self.tol = tol

    @fill_doc
    def fit(self, X, y, sample_weight=None):
        """Compute the path and choose ν on it.

        ``sample_weight`` takes whole numbers w_i ≥ 0: the box of point i becomes 0 ≤ α_i ≤ w_i, which
        is the path of w_i copies of the row (the unit box of each copy; their α add up), and m = Σ w_i.
        The path is computed on those copies (the follower keeps duplicated points exact: their
        events tie), weight 0 drops the row, and ``nu="auto"``'s leave-one-out leaves out one copy at
        a time. Weights that are not whole numbers are refused: the path's events are those of the
        unit box (Loosli & Canu 2006), whose per-point form 0 ≤ α_i ≤ w_i with fractional w_i it does
        not follow — use :class:`svmviz.svm.SVMClassifier` with ``sample_weight`` at a fixed λ.

        {fit_binary_weighted}
        """
        auto = isinstance(self.nu, str) and self.nu == "auto"
        if not auto:
            try:
                nu = float(self.nu)
            except (TypeError, ValueError):
                nu = float("nan")
            if isinstance(self.nu, (bool, str)) or not 0 < nu <= 1:
                raise ValueError(f"nu must be 'auto' or a number in (0, 1]; got {self.nu!r}.")
        X, y, classes = validate_fit_data(self, X, y, binary=True)
        if sample_weight is not None:
            w = check_sample_weight(sample_weight, X.shape[0])
            copies = np.rint(w)
            frac = np.abs(w - copies) > 1e-12 * np.maximum(1.0, w)
            if np.any(frac):
                i = int(np.flatnonzero(frac)[0])
                raise ValueError(
                    f"NuSVMPath takes whole-number sample weights only (got {float(w[i])!r} at row {i}): a weight w_i "
                    "is w_i copies of the row, the box 0 ≤ α_i ≤ w_i of the ν-path (Loosli & Canu 2006), "
                    "whose events the path follows for whole numbers only. Round or rescale the weights to "
                    "whole numbers, or use SVMClassifier(...).fit(X, y, sample_weight=...) at a fixed λ.")
            copies = copies.astype(np.int64)
            if len(np.unique(y[copies > 0])) < 2:
                raise ValueError("sample_weight leaves a class with total weight 0; each class needs a point of "
                                 "positive weight.")
            X, y = np.repeat(X, copies, axis=0), np.repeat(y, copies)
        check_kernel_params_used(self.kernel, degree=self.degree, coef0=self.coef0, degree_default=3,
                                 coef0_default=1.0)
        path = nu_path(X, y, kernel=self.kernel, sigma=self.sigma, degree=self.degree,
                       gamma=self.gamma, coef0=self.coef0, tol=self.tol)
        if auto:
            fewest = int(np.min(np.unique(y, return_counts=True)[1]))
            if fewest < 2:  # leaving out a class's only point leaves one class: no machine to refit
                raise ValueError(f"nu='auto' chooses ν by leave-one-out (Loosli & Canu 2006), which needs at least 2 "
                                 f"points of each class; one class has {fewest}. Give nu a number in (0, 1], or add "
                                 "points.")
            loo = loo_path(path, max_evals=self.max_evals, n_se=self.n_se, rtol=self.rtol)
            lam = float(loo.lambdas[loo.stop])
        else:
            loo = None
            lam = nu * path.m
            if lam > path.lambdas[-1] * (1 + 1e-12):
                raise ValueError(
                    f"nu = {self.nu} is infeasible: ν ≤ 2·min(n₊, n₋)/m = {path.lambdas[-1] / path.m:.4g}.")
            lam = min(lam, float(path.lambdas[-1]))
        self.path_ = path
        self.kernel_ = path.kernel_params["kernel"]  # the fitted kernel every later gram uses
        self.classes_ = classes
        self.status_ = path.status
        self.loo_ = loo
        self.lambda_ = lam
        self.nu_ = lam / path.m
        return self

    @fill_doc
    def decision_function(self, X):
        """f(x) + b at the chosen λ.

        {decision_binary}
        """
        X = validate_predict_data(self, X)
        return self.path_.decision_function(X, self.lambda_)

