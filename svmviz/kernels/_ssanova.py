"""Smoothing-spline ANOVA kernels (Wahba 1998, §1.1, Remarks 6–8, eqs. 1.12–1.13): compiled gram functions and SSANOVAKernel.

Private module: import the names from :mod:`svmviz.kernels`.
"""
from __future__ import annotations

import inspect

import numpy as np

from .._jit import njit  # numba.njit whose cache follows the functions called in other modules
from .._validation import check_matrix, check_positive
from ._exp import _exp

#: Largest stack of per-coordinate gram matrices (d × n_A × n_B float64) that
#: :meth:`SSANOVAKernel.coordinate_grams` builds: 512 MiB, a quarter of what a Streamlit session on
#: the project's 2-core, shared machines can hold beside the solver's own n² matrix. n = 500,
#: d = 20 needs 40 MB; n = 2000, d = 20 needs 640 MB and is refused with a ValueError.
COMPONENT_GRAM_BUDGET = 512 * 2**20


# ==============================================================================================
# Smoothing-spline ANOVA kernels (Wahba 1998, §1.1, Remarks 6–8, eqs. 1.12–1.13)
# ==============================================================================================
SSANOVA_ORDERS = ("additive", "two-way")
SSANOVA_BASES = ("cubic", "gaussian")
_BASE_CODE = {"cubic": 0, "gaussian": 1}

#: Most components an SS-ANOVA kernel may have: every gram entry costs one multiply-add per
#: component, so 1000 components at n = 1000 are already 10⁹ operations (≈ 1 s per gram); a
#: two-way kernel reaches it at d = 45 (45 + 990 components). Beyond it, use the additive kernel or
#: select variables first.
MAX_COMPONENTS = 1000


@njit(cache=True)
def _cubic_rk(s, t):
    """The cubic-spline RK on [0, 1] (Gu & Wahba 1993): k1(s)k1(t) + k2(s)k2(t) − k4(|s − t|)."""
    a = s - 0.5
    b = t - 0.5
    k2s = 0.5 * (a * a - 1.0 / 12.0)
    k2t = 0.5 * (b * b - 1.0 / 12.0)
    u = abs(s - t) - 0.5
    u2 = u * u
    k4 = (u2 * u2 - 0.5 * u2 + 7.0 / 240.0) / 24.0
    return a * b + k2s * k2t - k4


@njit(cache=True)
def _rk_1d(s, t, base, inv2s2):
    if base == 0:
        return _cubic_rk(s, t)
    d = s - t
    return _exp(-d * d * inv2s2)  # the Gaussian kernel's exp (svmviz.kernels._exp), inlined


@njit(cache=True)
def _component_value(r, k, ca, cb):
    """Unweighted component k from the 1-D RK values r of one pair of points: r_a, or r_a·r_b."""
    return r[ca[k]] if cb[k] < 0 else r[ca[k]] * r[cb[k]]


@njit(cache=True)
def _combine(r, theta0, w, ca, cb):
    """θ0 + Σ_k w_k (component k): one kernel value from the 1-D RK values r."""
    s = theta0
    for k in range(w.shape[0]):
        s += w[k] * _component_value(r, k, ca, cb)
    return s


@njit(cache=True)
def _accumulate(r, scale, ca, cb, out):
    """out[k] += scale · (component k) for every component."""
    for k in range(ca.shape[0]):
        out[k] += scale * _component_value(r, k, ca, cb)


@njit(cache=True)
def _coordinate_grams(U, V, base, inv2s2):
    d, n, m = U.shape[1], U.shape[0], V.shape[0]
    R = np.empty((d, n, m))
    for a in range(d):
        for i in range(n):
            for j in range(m):
                R[a, i, j] = _rk_1d(U[i, a], V[j, a], base, inv2s2)
    return R


@njit(cache=True)
def _ssanova_gram(U, V, base, inv2s2, theta0, w, ca, cb):
    """K[i, j] = θ0 + Σ_c w_c R_{ca_c}(u_i, v_j) [· R_{cb_c}(u_i, v_j) when cb_c ≥ 0], no d·n² storage."""
    n, m, d = U.shape[0], V.shape[0], U.shape[1]
    K = np.empty((n, m))
    r = np.empty(d)
    for i in range(n):
        for j in range(m):
            for a in range(d):
                r[a] = _rk_1d(U[i, a], V[j, a], base, inv2s2)
            K[i, j] = _combine(r, theta0, w, ca, cb)
    return K


@njit(cache=True)
def _ssanova_diag(U, base, inv2s2, theta0, w, ca, cb):
    n, d = U.shape[0], U.shape[1]
    out = np.empty(n)
    r = np.empty(d)
    for i in range(n):
        for a in range(d):
            r[a] = _rk_1d(U[i, a], U[i, a], base, inv2s2)
        out[i] = _combine(r, theta0, w, ca, cb)
    return out


@njit(cache=True)
def _assemble_from_stack(R, theta0, w, ca, cb):
    """K = θ0 + Σ_c w_c R_c from the per-coordinate stack R (d, n, m); interaction grams are
    products formed on the fly (never stored)."""
    n, m = R.shape[1], R.shape[2]
    K = np.full((n, m), theta0)
    for c in range(w.shape[0]):
        wc = w[c]
        if wc == 0.0:
            continue
        a = ca[c]
        b = cb[c]
        for i in range(n):
            for j in range(m):
                if b < 0:
                    K[i, j] += wc * R[a, i, j]
                else:
                    K[i, j] += wc * R[a, i, j] * R[b, i, j]
    return K


@njit(cache=True)
def _component_sums(Uq, Ub, c, base, inv2s2, ca, cb):
    """S[q, k] = Σ_i c_i R_k(x_i, x_q) (unweighted component k) for query rows Uq and basis rows Ub."""
    m, n, d, nc = Uq.shape[0], Ub.shape[0], Uq.shape[1], ca.shape[0]
    S = np.zeros((m, nc))
    r = np.empty(d)
    for q in range(m):
        for i in range(n):
            ci = c[i]
            if ci == 0.0:
                continue
            for a in range(d):
                r[a] = _rk_1d(Uq[q, a], Ub[i, a], base, inv2s2)
            _accumulate(r, ci, ca, cb, S[q])
    return S


@njit(cache=True)
def _component_quadratic_forms(Ub, c, base, inv2s2, ca, cb):
    """Q[k] = c' R_k c over the basis rows (unweighted component k), no n² storage."""
    n, d, nc = Ub.shape[0], Ub.shape[1], ca.shape[0]
    Q = np.zeros(nc)
    r = np.empty(d)
    for i in range(n):
        if c[i] == 0.0:
            continue
        for j in range(n):
            cij = c[i] * c[j]
            if cij == 0.0:
                continue
            for a in range(d):
                r[a] = _rk_1d(Ub[i, a], Ub[j, a], base, inv2s2)
            _accumulate(r, cij, ca, cb, Q)
    return Q


def cubic_spline_rk(s, t) -> np.ndarray:
    """The cubic-spline reproducing kernel on [0, 1] (Gu & Wahba 1993; Gu 2002, §2.3), elementwise.

    R(s, t) = k1(s)k1(t) + k2(s)k2(t) − k4(|s − t|), k1(x) = x − ½, k2 = (k1² − 1/12)/2,
    k4 = (k1⁴ − k1²/2 + 7/240)/24 (scaled Bernoulli polynomials): the RK of the functions on [0, 1]
    with ∫f = 0 and norm (∫f')² + ∫(f'')² — a linear part and a smooth part.

    Parameters
    ----------
    s, t : array_like, broadcastable
        Points, normally in [0, 1]. Outside [0, 1] the same polynomials are evaluated (no clipping,
        no periodic wrap-around): R(·, t) continues as the cubic piece of its last interval (the
        quartic terms cancel in f because Σ c_i = 0), and positive semi-definiteness is only
        guaranteed on [0, 1].

    Returns
    -------
    ndarray of the broadcast shape
    """
    s, t = np.broadcast_arrays(np.asarray(s, dtype=np.float64), np.asarray(t, dtype=np.float64))
    a, b = s - 0.5, t - 0.5
    u = np.abs(s - t) - 0.5
    return a * b + 0.25 * (a * a - 1 / 12) * (b * b - 1 / 12) - (u**4 - u**2 / 2 + 7 / 240) / 24


def _ssanova_components(d: int, order: str):
    mains = [(a,) for a in range(d)]
    if order == "additive":
        return tuple(mains)
    return tuple(mains + [(a, b) for a in range(d) for b in range(a + 1, d)])


class KernelParamsMixin:
    """scikit-learn's parameter protocol for a kernel object: ``get_params``/``set_params`` over the
    arguments of ``__init__`` (stored under their own names), as ``sklearn.base.BaseEstimator`` and
    ``sklearn.gaussian_process.kernels.Kernel`` have it.

    With it ``sklearn.base.clone`` copies the kernel, an estimator's ``get_params(deep=True)`` lists
    ``kernel__<name>``, and ``GridSearchCV`` can search a kernel parameter (``{"kernel__order": ...}``).
    Written out rather than inherited from ``BaseEstimator``: the kernels module is imported where
    scikit-learn is not (the app's path page).
    """

    @classmethod
    def _get_param_names(cls) -> list:
        sig = inspect.signature(cls.__init__)
        return sorted(p.name for p in sig.parameters.values()
                      if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD))

    def get_params(self, deep=True) -> dict:
        """The constructor's parameters by name.

        Parameters
        ----------
        deep : bool, default=True
            Also the parameters of parameters that have ``get_params`` (as ``name__param``).

        Returns
        -------
        dict
        """
        out = {}
        for name in self._get_param_names():
            value = getattr(self, name)
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                out.update((f"{name}__{k}", v) for k, v in value.get_params().items())
            out[name] = value
        return out

    def set_params(self, **params):
        """Set constructor parameters by name (refit the kernel afterwards: estimators do at ``fit``).

        Parameters
        ----------
        **params
            ``name=value`` for names of ``get_params()``.

        Returns
        -------
        self
        """
        valid = self._get_param_names()
        for key, value in params.items():
            name, _, sub = key.partition("__")
            if name not in valid:
                raise ValueError(f"Invalid parameter {name!r} for {type(self).__name__}; valid parameters: "
                                 f"{', '.join(valid)}.")
            if sub:
                getattr(self, name).set_params(**{sub: value})
            else:
                setattr(self, name, value)
        return self


class SSANOVAKernel(KernelParamsMixin):
    """Smoothing-spline ANOVA kernel truncated at main effects or two-factor interactions.

    K(s, t) = θ0 + Σ_α θ_α R_α(s_α, t_α) [+ Σ_{α<β} θ_αβ R_α(s_α, t_α) R_β(s_β, t_β)], the
    expansion of Π_α [1 + θ_α R_α] (Wahba 1998, eqs. 1.12–1.13) truncated after the main effects
    (``order="additive"``) or after the two-factor interactions (``order="two-way"``), with the
    weights θ of Wahba 1998, Remark 7 ("multiplying each of the individual RK's ... by θ_α, θ_αβ").
    Tensor sums and products of positive-definite kernels are positive definite (Remark 6), so K is.

    Components. One component per coordinate α, with R_α the whole 1-D RK (for the cubic base its
    linear part k1(s)k1(t) and its smooth part k2(s)k2(t) − k4(|s − t|) together, as eq. 1.12 counts
    them: one θ_α per coordinate), and one per pair α < β with R_α R_β. The fitted
    f = b + Σ_i c_i K(x_i, ·) then splits into main effects f_α(x_α), interactions f_αβ(x_α, x_β)
    and a constant (see :mod:`svmviz.anova`).

    Coordinates. :meth:`fit` maps each coordinate to [0, 1] by the training range,
    u = (x − min)/(max − min), and keeps the map for every later gram (prediction). A new point
    outside the training range maps outside [0, 1]: the formulas are evaluated as they stand (the
    cubic-spline RK continues as a polynomial, the Gaussian as it is); see :func:`cubic_spline_rk`.

    Parameters
    ----------
    order : {"additive", "two-way"}, default "additive"
        Truncation of eq. 1.13: main effects only, or main effects and two-factor interactions.
    base : {"cubic", "gaussian"}, default "cubic"
        The 1-D RK R_α: the cubic-spline RK on [0, 1] (Gu & Wahba 1993) or the Gaussian
        exp(−(s − t)²/(2σ²)) on the rescaled coordinate.
    sigma : float, default 0.25
        Width of the Gaussian base, in units of each coordinate's training range (ignored for the
        cubic base).
    theta : None or array_like of shape (d,) or (n_components,)
        Weights. ``None``: all 1. Length d: θ_α per coordinate, interactions weighted by the
        product θ_α θ_β (as in the expansion of eq. 1.12). Length n_components (two-way only
        differs from d): one weight per component in the order of ``components_`` (mains, then
        pairs (0, 1), (0, 2), …). A zero weight drops a component.
    theta0 : float ≥ 0, default 0.0
        Weight of the constant component "1" of eq. 1.12. Every solver here has a free intercept b
        that spans the same constants (the unpenalized null space of Gu 2002), so by default the
        constant is left to b: for the SVM it changes nothing in the fit (y'α = 0 makes Σ c_i = 0),
        but it adds θ0 to every K_ii, which GACV and XA use.

    Attributes
    ----------
    n_features_in_ : int
    lo_, span_ : ndarray of shape (d,)
        The [0, 1] map u = (x − lo_)/span_ learnt from the training X.
    components_ : tuple of tuples
        ``(α,)`` for a main effect, ``(α, β)`` for an interaction (0-based coordinates).
    weights_ : ndarray of shape (n_components,)
        The effective weight of each component (θ_α, or θ_αβ).

    Notes
    -----
    Grams are computed by compiled functions directly (memory n_A × n_B, time ∝ n_A n_B · n_components):
    :meth:`__call__` never stores the per-component grams. For a grid over λ or over the weights,
    :meth:`coordinate_grams` computes the d per-coordinate grams once (d × n² floats, refused above
    :data:`COMPONENT_GRAM_BUDGET`) and :meth:`gram_from_coordinate_grams` assembles any weighting
    from them, the interaction grams as products formed on the fly: a two-way kernel on d = 10
    has 55 components but stores 10 matrices, not 55.

    Examples
    --------
    >>> import numpy as np
    >>> from svmviz.kernels import SSANOVAKernel, fit_kernel, gram
    >>> X = np.random.default_rng(0).uniform(size=(5, 3))
    >>> k = fit_kernel(SSANOVAKernel(order="two-way"), X)
    >>> len(k.components_), k.component_names()[3:]
    (6, ['x1 × x2', 'x1 × x3', 'x2 × x3'])
    >>> gram(X, kernel=k).shape
    (5, 5)
    """

    def __init__(self, order="additive", base="cubic", sigma=0.25, theta=None, theta0=0.0):
        self.order = order
        self.base = base
        self.sigma = sigma
        self.theta = theta
        self.theta0 = theta0

    def __repr__(self) -> str:
        extra = "" if self.theta is None else f", theta={np.asarray(self.theta).tolist()!r}"
        sig = f", sigma={self.sigma!r}" if self.base == "gaussian" else ""
        t0 = f", theta0={self.theta0!r}" if self.theta0 else ""
        return f"SSANOVAKernel(order={self.order!r}, base={self.base!r}{sig}{extra}{t0})"

    # ------------------------------------------------------------------ parameters
    def _check_params(self):
        if self.order not in SSANOVA_ORDERS:
            raise ValueError(f"order must be one of {SSANOVA_ORDERS}; got {self.order!r}.")
        if self.base not in SSANOVA_BASES:
            raise ValueError(f"base must be one of {SSANOVA_BASES}; got {self.base!r}.")
        sigma = check_positive(self.sigma, "sigma") if self.base == "gaussian" else 1.0
        theta0 = check_positive(self.theta0, "theta0", allow_zero=True)
        return sigma, theta0

    def _weights(self, d: int, components) -> np.ndarray:
        nc = len(components)
        if self.theta is None:
            return np.ones(nc)
        try:
            th = np.asarray(self.theta, dtype=np.float64).ravel()
        except (TypeError, ValueError):
            raise ValueError(f"theta must be numbers; got {self.theta!r}.") from None
        if not np.all(np.isfinite(th)) or np.any(th < 0):
            raise ValueError(f"every θ must be a finite number ≥ 0; got {th.tolist()}.")
        if th.size == d:
            return np.array([np.prod(th[list(comp)]) for comp in components])
        if th.size == nc:
            return th.copy()
        raise ValueError(f"theta needs {d} values (one per coordinate) or {nc} (one per component of the "
                         f"{self.order} kernel on {d} coordinates); got {th.size}.")

    def fit(self, X):
        """Learn the [0, 1] map of every coordinate from the training inputs.

        Parameters
        ----------
        X : array_like of shape (n, d)

        Returns
        -------
        self

        Raises
        ------
        ValueError
            A constant column (its range is 0, so it cannot be mapped to [0, 1]), too many
            components (:data:`MAX_COMPONENTS`), or invalid parameters.
        """
        self._check_params()
        X = check_matrix(X, "X")
        d = X.shape[1]
        components = _ssanova_components(d, self.order)
        if len(components) > MAX_COMPONENTS:
            raise ValueError(
                f"a {self.order} SS-ANOVA kernel on {d} variables has {len(components)} components (limit "
                f"{MAX_COMPONENTS}: each costs n² operations per gram); use order='additive' or fewer variables.")
        w = self._weights(d, components)
        if self.theta0 == 0 and not np.any(w > 0):
            raise ValueError("every weight θ (and theta0) is 0: the kernel would be identically zero.")
        lo = X.min(axis=0)
        span = X.max(axis=0) - lo
        const = np.flatnonzero(span <= 0)
        if const.size:
            raise ValueError(
                f"column(s) {', '.join(str(j + 1) for j in const[:5])} of X are constant on the training data: "
                "the SS-ANOVA kernel maps each coordinate to [0, 1] by its range; drop constant columns.")
        self.n_features_in_ = d
        self.lo_ = lo
        self.span_ = span
        self.components_ = components
        self.weights_ = w
        return self

    # ------------------------------------------------------------------ fitted helpers
    def _check_fitted(self):
        if not hasattr(self, "lo_"):
            raise ValueError("this SSANOVAKernel is not fitted: call fit(X) (or svmviz.kernels.fit_kernel("
                             "kernel, X)) on the training inputs first.")

    def _codes(self):
        ca = np.array([c[0] for c in self.components_], dtype=np.int64)
        cb = np.array([c[1] if len(c) > 1 else -1 for c in self.components_], dtype=np.int64)
        return ca, cb

    def _base_args(self):
        sigma, theta0 = self._check_params()
        return _BASE_CODE[self.base], 1.0 / (2.0 * sigma * sigma), theta0

    def transform(self, A) -> np.ndarray:
        """The rescaled coordinates u = (x − lo_)/span_ (in [0, 1] on the training range), shape (n_A, d)."""
        self._check_fitted()
        A = check_matrix(A, "A")
        if A.shape[1] != self.n_features_in_:
            raise ValueError(f"A has {A.shape[1]} features; this kernel was fitted on {self.n_features_in_}.")
        return np.ascontiguousarray((A - self.lo_) / self.span_)

    @property
    def n_components(self) -> int:
        self._check_fitted()
        return len(self.components_)

    def component_names(self, feature_names=None) -> list:
        """Names of the components: "x1", …, "x1 × x2", … (or with the given feature names)."""
        self._check_fitted()
        names = (list(feature_names) if feature_names is not None
                 else [f"x{j + 1}" for j in range(self.n_features_in_)])
        if len(names) != self.n_features_in_:
            raise ValueError(f"feature_names must name {self.n_features_in_} features; got {len(names)}.")
        return [" × ".join(str(names[a]) for a in comp) for comp in self.components_]

    # ------------------------------------------------------------------ grams
    def __call__(self, A, B=None) -> np.ndarray:
        """Gram matrix K(A, B), shape (n_A, n_B) (B defaults to A)."""
        U = self.transform(A)
        V = U if B is None else self.transform(B)
        code, inv, theta0 = self._base_args()
        ca, cb = self._codes()
        return _ssanova_gram(U, V, code, inv, theta0, self.weights_, ca, cb)

    def diagonal(self, A) -> np.ndarray:
        """K(x_i, x_i) for every row of A, shape (n_A,) — not 1 (Gaussian base: θ0 + Σ_c θ_c)."""
        U = self.transform(A)
        code, inv, theta0 = self._base_args()
        ca, cb = self._codes()
        return _ssanova_diag(U, code, inv, theta0, self.weights_, ca, cb)

    def coordinate_grams(self, A, B=None) -> np.ndarray:
        """The d one-dimensional RK grams R_α(a_α, b_α) on the rescaled coordinates, shape (d, n_A, n_B).

        Computed once for a grid over λ or θ (:meth:`gram_from_coordinate_grams`); refused with a
        ValueError above :data:`COMPONENT_GRAM_BUDGET` bytes.
        """
        U = self.transform(A)
        V = U if B is None else self.transform(B)
        budget = COMPONENT_GRAM_BUDGET  # the module's global, read at each call
        need = 8.0 * U.shape[1] * U.shape[0] * V.shape[0]
        if need > budget:
            raise ValueError(
                f"the {U.shape[1]} per-coordinate gram matrices of {U.shape[0]} × {V.shape[0]} points would take "
                f"{need / 2**20:.0f} MiB (limit {budget / 2**20:.0f} MiB): use fewer points or variables.")
        code, inv, _ = self._base_args()
        return _coordinate_grams(U, V, code, inv)

    def component_weights(self, scale: float = 1.0, coordinate: int | None = None) -> np.ndarray:
        """Component weights after multiplying θ_α by ``scale`` — for every α (a shared θ scale) or only
        for α = ``coordinate`` (one θ at a time). As in eq. 1.12, an interaction α × β takes the product
        of its two multipliers: a shared scale s multiplies main effects by s and interactions by s².

        Returns
        -------
        ndarray of shape (n_components,)
        """
        self._check_fitted()
        s = check_positive(scale, "scale", allow_zero=True)
        mult = np.full(self.n_features_in_, s) if coordinate is None else np.ones(self.n_features_in_)
        if coordinate is not None:
            if isinstance(coordinate, bool) or int(coordinate) != coordinate or not 0 <= coordinate < self.n_features_in_:
                raise ValueError(f"coordinate must be an index in 0..{self.n_features_in_ - 1}; got {coordinate!r}.")
            mult[int(coordinate)] = s
        return self.weights_ * np.array([np.prod(mult[list(c)]) for c in self.components_])

    def gram_from_coordinate_grams(self, R, weights=None, theta0=None) -> np.ndarray:
        """K = θ0 + Σ_c w_c R_c assembled from :meth:`coordinate_grams` (interaction grams as products
        formed on the fly), shape (n_A, n_B).

        Parameters
        ----------
        R : ndarray of shape (d, n_A, n_B)
        weights : array_like of shape (n_components,), optional
            Default ``weights_`` (see :meth:`component_weights` for a θ grid).
        theta0 : float, optional
            Default the kernel's ``theta0``.
        """
        self._check_fitted()
        R = np.asarray(R, dtype=np.float64)
        if R.ndim != 3 or R.shape[0] != self.n_features_in_:
            raise ValueError(f"R must have shape ({self.n_features_in_}, n_A, n_B); got {R.shape}.")
        w = self.weights_ if weights is None else np.asarray(weights, dtype=np.float64).ravel()
        if w.shape != (self.n_components,) or not np.all(np.isfinite(w)) or np.any(w < 0):
            raise ValueError(f"weights must be {self.n_components} finite numbers ≥ 0.")
        _, _, t0 = self._base_args()
        t0 = t0 if theta0 is None else check_positive(theta0, "theta0", allow_zero=True)
        ca, cb = self._codes()
        return _assemble_from_stack(np.ascontiguousarray(R), t0, np.ascontiguousarray(w), ca, cb)

    def component_sums(self, basis, coef, Xq) -> np.ndarray:
        """S[q, k] = Σ_i c_i R_k(x_i, x_q): unweighted component k of Σ_i c_i K(x_i, ·) at the rows of ``Xq``.

        Parameters
        ----------
        basis : array_like of shape (n, d)
            The points x_i of the expansion (training points or support vectors).
        coef : array_like of shape (n,)
            Their coefficients c_i.
        Xq : array_like of shape (m, d)

        Returns
        -------
        ndarray of shape (m, n_components)
            Multiply column k by ``weights_[k]`` for the component f_k.
        """
        Ub, c = self._basis_and_coef(basis, coef)
        Uq = self.transform(Xq)
        code, inv, _ = self._base_args()
        ca, cb = self._codes()
        return _component_sums(Uq, Ub, c, code, inv, ca, cb)

    def component_quadratic_forms(self, basis, coef) -> np.ndarray:
        """c' R_k c for every component k over the basis points (unweighted), shape (n_components,)."""
        Ub, c = self._basis_and_coef(basis, coef)
        code, inv, _ = self._base_args()
        ca, cb = self._codes()
        return _component_quadratic_forms(Ub, c, code, inv, ca, cb)

    def _basis_and_coef(self, basis, coef):
        """The rescaled basis rows (n_b, d) and their coefficients (n_b,) as float64, validated."""
        Ub = self.transform(basis)
        c = np.ascontiguousarray(np.asarray(coef, dtype=np.float64).ravel())
        if c.shape[0] != Ub.shape[0] or not np.all(np.isfinite(c)):
            raise ValueError(f"coef must hold {Ub.shape[0]} finite numbers (one per basis point).")
        return Ub, c
