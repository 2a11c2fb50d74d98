"""Loss functions of τ = yf, their prediction functions μ(f), and the GACV / ranGACV / LOO curves.

Wahba (1998), "Support vector machines, reproducing kernel Hilbert spaces and the randomized GACV"
(Wahba 1998; the documentation's References page). Every loss is a function g(τ) of the margin τ = y f(x):

=================  ==============================  ==========================================
name               g(τ)                            source
=================  ==============================  ==========================================
hinge              (1 − τ)_+                       the SVM, (Wahba 1998, §1.3.1) with ε = 1
misclassification  [−τ]_*  ([u]_* = 1 if u ≥ 0)    (Wahba 1998, eq. 1.22) with ε = 0
deviance           ln(1 + e^{−τ})                  (Wahba 1998, eq. 1.21), penalized likelihood
exponential        e^{−τ}                          AdaBoost (Zhu & Hastie 2002, Fig. 1)
sigmoid            1 / (1 + e^{aτ}),  a > 0        Bradley, Mangasarian & Street, (Wahba 1998, §1.2.3)
concave_exp        [1 − e^{aτ}]_+,  a > 0          same; concave for τ < 0, 0 for τ ≥ 0
wahba_v            v_{ε+,ε−}(τ),  ε− ≤ ε+          (Wahba 1998, eq. 1.23)
smooth_step        θ̃_s((1 − τ)_+)                  the USVC loss (Navia-Vázquez et al. 2004, eq. 6), from :mod:`svmviz.usvc`
=================  ==============================  ==========================================

Reading of (Wahba 1998, eq. 1.23). v_{ε+,ε−}(τ) = [(ε+ + ε−)/2 − τ]_+ for τ < ε−, (τ − ε+)²/(2(ε+ − ε−)) on
[ε−, ε+], 0 for τ ≥ ε+: the hinge [m − τ]_+ with its kink at m = (ε+ + ε−)/2 rounded off by a
parabola on [ε−, ε+]. The pieces join with equal value ((ε+ − ε−)/2 at ε−, 0 at ε+) and equal slope
(−1 and 0), so v is convex and C¹. When ε− = ε+ = ε the parabola disappears and v_{ε,ε} = [ε − τ]_+
(the extraction's "v_{ε+,ε+} ≐ [ε − τ]_+" means this); v_{0,0} = [−τ]_+.

Two different "prediction functions".

* Wahba's μ(f) (Wahba 1998, eq. 1.39) is μ(f) = Σ_{y=±1} ∂g(yf)/∂f = g'(f) − g'(−f), the "prediction of y given
  f" used in the leaving-out-one argument, plotted against f in (Wahba 1998, Fig. 1.2). This reading
  reproduces every statement of the seed: for the deviance μ(f) = 2p − 1 with p = 1/(1 + e^{−f});
  for v_{ε+,ε−}, μ = +1 for f > max{ε+, −ε−}, −1 for f < −max{ε+, −ε−} (the extraction's
  "min{ε+, −ε−}" lost a sign: μ is odd) and piecewise linear, non-decreasing in between; for
  ½[|1 − τ| − ε]_+ a non-decreasing step function with μ(−(1 + ε)) = −1, μ(1 + ε) = +1.
  (For the bounded symmetric losses — misclassification, sigmoid — μ ≡ 0: the construction needs a
  loss whose slope does not vanish on both sides.)
* The population minimizer f*(p) = argmin_f p g(f) + (1 − p) g(−f): what the fitted f estimates
  at a point where P(y = +1) = p — sign(p − ½) for the hinge, the log-odds for the deviance, half
  the log-odds for the exponential loss (:func:`population_minimizer`).
"""
from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np
from scipy.special import expit

from .._docs import fill_doc
from .._validation import check_positive

DEFAULT_PARAMS = {"a": 1.0, "eps_plus": 1.0, "eps_minus": 0.0, "s": 2.0, "k_eps": 1e-4}


# ----------------------------------------------------------------------------------------------
# validation
# ----------------------------------------------------------------------------------------------
def _tau(tau, name: str = "tau") -> np.ndarray:
    try:
        t = np.asarray(tau, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be numeric; got {tau!r}.") from None
    if np.any(np.isnan(t)):
        raise ValueError(f"{name} contains NaN values; give numbers (±inf is allowed).")
    return t


def _check_a(a) -> float:
    return check_positive(a, "a (the steepness of the sigmoid / exponential step)")


def _check_eps(eps_plus, eps_minus) -> tuple[float, float]:
    try:
        ep, em = float(eps_plus), float(eps_minus)
    except (TypeError, ValueError):
        raise ValueError(f"eps_plus and eps_minus must be numbers; got {eps_plus!r}, {eps_minus!r}.") from None
    if not (np.isfinite(ep) and np.isfinite(em)):
        raise ValueError("eps_plus and eps_minus must be finite numbers.")
    if em > ep:
        raise ValueError(f"v_{{ε+,ε−}} needs ε− ≤ ε+ (Wahba 1998, eq. 1.23); got ε+ = {ep:g}, ε− = {em:g} — swap them.")
    return ep, em


def _check_p(p) -> np.ndarray:
    pp = _tau(p, "p")
    if np.any((pp < 0.0) | (pp > 1.0)):
        raise ValueError("p (the probability of y = +1) must lie in [0, 1].")
    return pp


# ----------------------------------------------------------------------------------------------
# the losses g(τ), τ = y f
# ----------------------------------------------------------------------------------------------
@fill_doc
def hinge(tau) -> np.ndarray:
    """Hinge loss (1 − τ)_+.

    {tau_loss}

    Notes
    -----
    The SVM loss [ε − τ]_+ of (Wahba 1998, §1.3.1) with ε = 1; Wahba 1998, Fig. 1.1.

    Examples
    --------
    >>> from svmviz.losses import hinge
    >>> hinge([-1.0, 0.0, 0.5, 2.0]).tolist()
    [2.0, 1.0, 0.5, 0.0]
    """
    return np.maximum(1.0 - _tau(tau), 0.0)


@fill_doc
def misclassification(tau) -> np.ndarray:
    """Misclassification [−τ]_* = 1 if τ ≤ 0 else 0 (f = 0 counts as an error).

    {tau_loss}

    Notes
    -----
    (Wahba 1998, eq. 1.22) with ε = 0; [u]_* = 1 if u ≥ 0.
    """
    return np.where(-_tau(tau) >= 0.0, 1.0, 0.0)


@fill_doc
def deviance(tau) -> np.ndarray:
    """Binomial deviance ln(1 + e^{−τ}), computed as logaddexp(0, −τ) (no overflow).

    {tau_loss}

    Notes
    -----
    (Wahba 1998, eq. 1.21), the loss of penalized likelihood / kernel logistic regression; Wahba 1998, Fig. 1.1.
    """
    return np.logaddexp(0.0, -_tau(tau))


@fill_doc
def exponential(tau) -> np.ndarray:
    """Exponential loss e^{−τ} (AdaBoost's).

    {tau_loss}

    Notes
    -----
    Zhu & Hastie 2002, Fig. 1.
    """
    with np.errstate(over="ignore"):
        return np.exp(-_tau(tau))


@fill_doc
def sigmoid(tau, a: float = 1.0) -> np.ndarray:
    """Sigmoidal approximation 1/(1 + e^{aτ}) of [−τ]_* (→ the step as a → ∞).

    {tau_a_loss}
    """
    return expit(-_check_a(a) * _tau(tau))


@fill_doc
def concave_exp(tau, a: float = 1.0) -> np.ndarray:
    """[1 − e^{aτ}]_+: concave for τ < 0, zero for τ ≥ 0, below [−τ]_* everywhere.

    {tau_a_loss}
    """
    a = _check_a(a)
    t = _tau(tau)
    with np.errstate(over="ignore"):
        return np.maximum(-np.expm1(a * np.minimum(t, 0.0)), 0.0)


@fill_doc
def wahba_v(tau, eps_plus: float = 1.0, eps_minus: float = 0.0) -> np.ndarray:
    """Wahba's convex compromise v_{ε+,ε−}(τ), ε− ≤ ε+.

    v = [(ε+ + ε−)/2 − τ]_+ for τ < ε−; (τ − ε+)²/(2(ε+ − ε−)) for ε− ≤ τ ≤ ε+; 0 for τ ≥ ε+.
    For ε− = ε+ = ε it is [ε − τ]_+.

    Parameters
    ----------
    {tau}
    eps_plus : float, default 1.0
        ε+, where v reaches 0.
    eps_minus : float, default 0.0
        ε− ≤ ε+, where the linear part ends.

    {returns_like_tau}

    Notes
    -----
    (Wahba 1998, eq. 1.23); convex with a continuous first derivative.

    Examples
    --------
    >>> from svmviz.losses import wahba_v
    >>> wahba_v([-1.0, 0.0, 0.5, 1.0], eps_plus=1.0, eps_minus=0.0).tolist()
    [1.5, 0.5, 0.125, 0.0]
    """
    ep, em = _check_eps(eps_plus, eps_minus)
    t = _tau(tau)
    lin = np.maximum(0.5 * (ep + em) - t, 0.0)
    if ep == em:
        return np.maximum(ep - t, 0.0)
    quad = (np.clip(t, em, ep) - ep) ** 2 / (2.0 * (ep - em))
    return np.where(t < em, lin, np.where(t <= ep, quad, 0.0))


@fill_doc
def smooth_step(tau, s: float = 2.0, k_eps: float = 1e-4) -> np.ndarray:
    """The USVC smooth step θ̃_s(ξ) at ξ = (1 − τ)_+ (value ½ at τ = 0).

    θ̃_s is taken from :func:`svmviz.usvc.theta_smooth` (not re-derived here).

    Parameters
    ----------
    {tau}
    s : float, default 2.0
        Steepness exponent s of θ̃_s.
    k_eps : float, default 1e-4
        k_ε of θ̃_s.

    {returns_like_tau}

    Notes
    -----
    (Navia-Vázquez et al. 2004, eq. 6), drawn as θ̃_s(1 − τ).
    """
    from ..usvc import theta_smooth

    t = _tau(tau)
    xi = np.where(np.isfinite(t), np.maximum(1.0 - np.where(np.isfinite(t), t, 0.0), 0.0), 0.0)
    out = np.asarray(theta_smooth(xi, s=s, k_eps=k_eps), dtype=np.float64)
    return np.where(t == -np.inf, 1.0, out)  # θ̃_s(ξ) → 1 as ξ → ∞; τ = +∞ gives θ̃_s(0)


#: name -> (function g(τ, **params), LaTeX of g, one-line description)
LOSSES: dict[str, tuple[Callable, str, str]] = {
    "hinge": (hinge, r"(1-\tau)_+", "Hinge (the SVM): convex upper bound of [−τ]_*, linear for τ < 1."),
    "misclassification": (misclassification, r"[-\tau]_*",
                          "Misclassification: 1 if τ ≤ 0 (f = 0 counts as an error), else 0."),
    "deviance": (deviance, r"\ln(1+e^{-\tau})",
                 "Binomial deviance (penalized likelihood / kernel logistic regression); /ln 2 bounds [−τ]_*."),
    "exponential": (exponential, r"e^{-\tau}", "Exponential loss (AdaBoost): penalizes large negative margins exponentially."),
    "sigmoid": (sigmoid, r"\frac{1}{1+e^{a\tau}}", "Sigmoid: a smooth, bounded, nonconvex stand-in for [−τ]_* (→ it as a → ∞)."),
    "concave_exp": (concave_exp, r"[1-e^{a\tau}]_+",
                    "Concave exponential step: nonconvex, 0 for τ ≥ 0, concave for τ < 0."),
    "wahba_v": (wahba_v, r"v_{\epsilon_+,\epsilon_-}(\tau)",
                "Wahba's v: the hinge [(ε₊+ε₋)/2 − τ]_+ with its kink rounded on [ε₋, ε₊]; convex, C¹."),
    "smooth_step": (smooth_step, r"\tilde\theta_s\big((1-\tau)_+\big)",
                    "USVC smooth step θ̃_s: a differentiable step at τ = 0 (value ½), steeper for larger s."),
}

#: the parameters each loss accepts
LOSS_PARAMS: dict[str, tuple[str, ...]] = {
    "hinge": (), "misclassification": (), "deviance": (), "exponential": (),
    "sigmoid": ("a",), "concave_exp": ("a",), "wahba_v": ("eps_plus", "eps_minus"), "smooth_step": ("s", "k_eps"),
}

#: LaTeX of the full definition of v (Wahba 1998, eq. 1.23), for the page
WAHBA_V_LATEX = (r"v_{\epsilon_+,\epsilon_-}(\tau)=\begin{cases}\big[\tfrac{\epsilon_++\epsilon_-}{2}-\tau\big]_+"
                 r" & \tau<\epsilon_-\\ \frac{(\tau-\epsilon_+)^2}{2(\epsilon_+-\epsilon_-)} & \epsilon_-\le\tau\le"
                 r"\epsilon_+\\ 0 & \tau\ge\epsilon_+\end{cases}")


def _check_name(name: str) -> str:
    if name not in LOSSES:
        raise ValueError(f"unknown loss {name!r}; choose one of {', '.join(LOSSES)}.")
    return name


def _params_for(name: str, params: dict) -> dict:
    unknown = set(params) - set(DEFAULT_PARAMS)
    if unknown:
        raise ValueError(f"unknown loss parameter(s) {sorted(unknown)}; known: {sorted(DEFAULT_PARAMS)}.")
    return {k: params.get(k, DEFAULT_PARAMS[k]) for k in LOSS_PARAMS[name]}


@fill_doc
def loss_values(name: str, tau, **params) -> np.ndarray:
    """g(τ) of the loss ``name``; parameters that other losses take are ignored.

    Parameters
    ----------
    {loss_name}
    {tau}
    {loss_params}

    {returns_like_tau}

    See Also
    --------
    svmviz.figures.losses.compute_loss_curves : The curves of Wahba 1998, Fig. 1.1.
    prediction_function : μ(f) of the same losses.

    Examples
    --------
    >>> from svmviz.losses import loss_values
    >>> loss_values("sigmoid", [0.0], a=2.0).tolist()
    [0.5]
    """
    fn = LOSSES[_check_name(name)][0]
    return fn(tau, **_params_for(name, params))


# ----------------------------------------------------------------------------------------------
# derivatives and Wahba's prediction function μ(f) (Wahba 1998, eq. 1.39)
# ----------------------------------------------------------------------------------------------
@fill_doc
def loss_derivative(name: str, tau, **params) -> np.ndarray:
    """g'(τ); at a kink the right derivative (hinge at 1, v at ε− = ε+, concave_exp at 0).

    The jump of [−τ]_* at 0 is ignored (derivative 0 almost everywhere).

    Parameters
    ----------
    {loss_name}
    tau : array_like of any shape
        Margins τ = y f.
    {loss_params}

    {returns_like_tau}
    """
    _check_name(name)
    p = _params_for(name, params)
    t = _tau(tau)
    if name == "hinge":
        return np.where(t < 1.0, -1.0, 0.0)
    if name == "misclassification":
        return np.zeros_like(t)
    if name == "deviance":
        return -expit(-t)
    if name == "exponential":
        with np.errstate(over="ignore"):
            return -np.exp(-t)
    if name == "sigmoid":
        a = _check_a(p["a"])
        return -a * expit(a * t) * expit(-a * t)
    if name == "concave_exp":
        a = _check_a(p["a"])
        return np.where(t < 0.0, -a * np.exp(a * np.minimum(t, 0.0)), 0.0)
    if name == "wahba_v":
        ep, em = _check_eps(p["eps_plus"], p["eps_minus"])
        if ep == em:
            return np.where(t < ep, -1.0, 0.0)
        return np.where(t < em, -1.0, np.where(t < ep, (t - ep) / (ep - em), 0.0))
    # smooth_step: d/dτ θ̃_s((1 − τ)_+) = −θ̃_s'(1 − τ) for τ < 1, 0 for τ ≥ 1
    from ..usvc import theta_smooth_derivative

    fin = np.isfinite(t)
    xi = np.maximum(1.0 - np.where(fin, t, 1.0), 0.0)
    d = -np.asarray(theta_smooth_derivative(xi, s=p["s"], k_eps=p["k_eps"]), dtype=np.float64)
    return np.where(fin & (t < 1.0), d, 0.0)


@fill_doc
def prediction_function(name: str, f, **params) -> np.ndarray:
    """Wahba's prediction μ(f) = Σ_{y=±1} ∂g(y f)/∂f = g'(f) − g'(−f).

    Parameters
    ----------
    {loss_name}
    f : array_like of any shape
        Decision values.
    {loss_params}

    Returns
    -------
    ndarray, same shape as ``f``
        Odd in f. Deviance: 2/(1 + e^{−f}) − 1 = 2p − 1; v_{ε+,ε−}: −1 / piecewise linear / +1 with
        the switch at ±max{ε+, −ε−}; hinge: −1, 0, +1 (steps at ±1); exponential: 2 sinh f
        (unbounded); misclassification and sigmoid: 0.

    See Also
    --------
    svmviz.figures.losses.compute_prediction_functions : The curves of Wahba 1998, Fig. 1.2.
    loss_values : The losses themselves.

    Notes
    -----
    (Wahba 1998, eq. 1.39), plotted in (Wahba 1998, Fig. 1.2).
    """
    ff = _tau(f, "f")
    return loss_derivative(name, ff, **params) - loss_derivative(name, -ff, **params)


# ----------------------------------------------------------------------------------------------
# expected loss and its minimizer: what f estimates
# ----------------------------------------------------------------------------------------------
@fill_doc
def expected_loss(name: str, f, p, **params) -> np.ndarray:
    """E[g(y f) | P(y = +1) = p] = p g(f) + (1 − p) g(−f), broadcast over ``f`` and ``p``.

    A zero weight times an infinite loss counts as 0 (so f = ±∞ is allowed at p ∈ {0, 1}).

    Parameters
    ----------
    {loss_name}
    f : array_like
        Decision values.
    p : array_like in [0, 1], broadcastable with ``f``
        P(y = +1 | x).
    {loss_params}

    Returns
    -------
    ndarray of the broadcast shape of ``f`` and ``p``
    """
    ff = _tau(f, "f")
    pp = _check_p(p)
    try:
        np.broadcast_shapes(ff.shape, pp.shape)
    except ValueError:
        raise ValueError(f"f has shape {ff.shape} and p has shape {pp.shape}; they must broadcast (e.g. the "
                         "same shape, or one of them a single number).") from None
    gp, gm = loss_values(name, ff, **params), loss_values(name, -ff, **params)
    with np.errstate(invalid="ignore"):
        a = np.where(pp == 0.0, 0.0, pp * gp)
        b = np.where(pp == 1.0, 0.0, (1.0 - pp) * gm)
    return a + b


class Minimizer(NamedTuple):
    """Population minimizer f*(p) = argmin_f p g(f) + (1 − p) g(−f) (returned by :func:`population_minimizer`).

    Attributes
    ----------
    p : ndarray
        The probabilities asked for.
    f : ndarray, shaped like ``p``
        One minimizer (±inf when the infimum is only approached at infinity).
    lo, hi : ndarray, shaped like ``p``
        The smallest and largest minimizers (equal when unique; the set is [lo, hi] for the convex
        losses, {lo, hi} or an open half-line for the others — see :func:`population_minimizer`).
    """

    p: np.ndarray
    f: np.ndarray
    lo: np.ndarray
    hi: np.ndarray


def _v_minimizer(p, ep, em):
    """Exact argmin set of p v(f) + (1 − p) v(−f) for the convex v_{ε+,ε−} (vectorised over p)."""
    lo = np.empty_like(p)
    hi = np.empty_like(p)
    inner = (p > 0.0) & (p < 1.0)
    if ep == em:
        e = ep
        if e > 0.0:
            lo = np.where(p > 0.5, e, -e).astype(float)
            hi = np.where(p < 0.5, -e, e).astype(float)
        else:  # both hinges flat on [e, −e]: every f there gives zero expected loss
            lo, hi = np.full_like(p, e), np.full_like(p, -e)
    else:
        # R'(f) = p v'(f) − (1 − p) v'(−f) is continuous, non-decreasing and linear between the
        # breakpoints ±ε±: −p below them all, 1 − p above. Interpolate its zero crossings exactly.
        B = np.unique(np.array([em, ep, -em, -ep]))
        pi = p[inner][:, None]
        D = pi * loss_derivative("wahba_v", B, eps_plus=ep, eps_minus=em)[None, :] \
            - (1.0 - pi) * loss_derivative("wahba_v", -B, eps_plus=ep, eps_minus=em)[None, :]
        k = np.argmax(D >= 0.0, axis=1)          # first breakpoint with R' ≥ 0 (k ≥ 1: R'(B[0]) = −p < 0)
        j = D.shape[1] - 1 - np.argmax((D <= 0.0)[:, ::-1], axis=1)  # last with R' ≤ 0 (j ≤ K − 2)
        r = np.arange(D.shape[0])
        lo_in = B[k - 1] + (0.0 - D[r, k - 1]) * (B[k] - B[k - 1]) / (D[r, k] - D[r, k - 1])
        hi_in = B[j] + (0.0 - D[r, j]) * (B[j + 1] - B[j]) / (D[r, j + 1] - D[r, j])
        lo[inner], hi[inner] = lo_in, hi_in
    # p = 1: minimize v(f) → [ε+, ∞); p = 0: v(−f) → (−∞, −ε+]
    lo = np.where(p == 1.0, ep, np.where(p == 0.0, -np.inf, lo))
    hi = np.where(p == 1.0, np.inf, np.where(p == 0.0, -ep, hi))
    return lo, hi


def _golden(fun, a, b, iters=80):
    """Vectorised golden-section search of ``fun`` (elementwise) on brackets [a, b]."""
    g = (np.sqrt(5.0) - 1.0) / 2.0
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = fun(c), fun(d)
    for _ in range(iters):
        left = fc < fd
        b = np.where(left, d, b)
        a = np.where(left, a, c)
        d_new = np.where(left, c, a + g * (b - a))
        c_new = np.where(left, b - g * (b - a), d)
        c, d = c_new, d_new
        fc, fd = fun(c), fun(d)
    return 0.5 * (a + b)


def _smooth_step_minimizer(p, s, k_eps, n_grid=4001):
    """Argmin of p θ̃(ξ(f)) + (1 − p) θ̃(ξ(−f)) (nonconvex): dense grid on [−1, 1], then golden refine.

    For f > 1 the expected loss is p θ̃(0) + (1 − p) θ̃(1 + f), increasing in f, and symmetrically for
    f < −1, so every minimizer lies in [−1, 1] (for 0 < p < 1).
    """
    grid = np.linspace(-1.0, 1.0, n_grid)
    h = grid[1] - grid[0]
    R = p[:, None] * smooth_step(grid, s, k_eps)[None, :] + (1 - p[:, None]) * smooth_step(-grid, s, k_eps)[None, :]
    Rmin = R.min(axis=1, keepdims=True)
    near = R <= Rmin + 1e-12 * np.maximum(1.0, np.abs(Rmin))
    i_lo = np.argmax(near, axis=1)
    i_hi = n_grid - 1 - np.argmax(near[:, ::-1], axis=1)

    def refine(i):
        a = np.maximum(grid[i] - h, -1.0)
        b = np.minimum(grid[i] + h, 1.0)
        fun = lambda x: p * smooth_step(x, s, k_eps) + (1 - p) * smooth_step(-x, s, k_eps)  # noqa: E731
        x = _golden(fun, a, b)
        # keep the grid point if refinement did not improve (e.g. a boundary minimum at ±1)
        return np.where(fun(x) < fun(grid[i]), x, grid[i])

    return refine(i_lo), refine(i_hi)


@fill_doc
def population_minimizer(name: str, p, **params) -> Minimizer:
    """What f estimates: f*(p) = argmin_f p g(f) + (1 − p) g(−f), for P(y = +1 | x) = p.

    Closed forms (0 < p < 1): hinge sign(2p − 1) (any f in [−1, 1] at p = ½); deviance
    ln(p/(1 − p)); exponential ½ ln(p/(1 − p)); misclassification any f > 0 if p > ½, any f < 0 if
    p < ½ (f = ±1 returned; lo/hi = 0 and ±∞ bound the open half-line); sigmoid ±∞ (the infimum
    p or 1 − p is approached as f → ±∞; constant ½ at p = ½); concave_exp f = 0 for every p (the
    expected loss is 0 there — the loss carries no information about p); wahba_v the exact zero set
    of the piecewise-linear derivative; smooth_step numerical (grid + golden section; at p = ½ the
    two minimizers ±1 are lo and hi).

    Parameters
    ----------
    {loss_name}
    p : array_like in [0, 1], any shape
        P(y = +1 | x).
    {loss_params}

    Returns
    -------
    Minimizer
        (p, f, lo, hi), arrays shaped like ``p``.

    See Also
    --------
    svmviz.figures.losses.compute_population_minimizers : The curves drawn from it.
    prediction_function : μ(f) of the same losses.

    Notes
    -----
    Wahba 1998, §1.3.1 (eqs. 1.24–1.31) — the expected loss behind the GCKL; Zhu & Hastie 2002, §2.

    Examples
    --------
    >>> import numpy as np
    >>> from svmviz.losses import population_minimizer
    >>> population_minimizer("hinge", [0.2, 0.7]).f.tolist()  # the SVM estimates sign(p − ½)
    [-1.0, 1.0]
    >>> bool(np.isclose(population_minimizer("deviance", 0.75).f, np.log(3)))  # the log-odds
    True
    """
    _check_name(name)
    prm = _params_for(name, params)
    pp = _check_p(p)
    shape = pp.shape
    p1 = np.atleast_1d(pp).ravel()
    with np.errstate(divide="ignore"):
        logit = np.log(p1) - np.log1p(-p1)
    inf = np.full_like(p1, np.inf)
    if name == "hinge":
        f = np.sign(2.0 * p1 - 1.0)
        lo = np.where(p1 > 0.5, 1.0, np.where(p1 == 0.0, -np.inf, -1.0))
        hi = np.where(p1 < 0.5, -1.0, np.where(p1 == 1.0, np.inf, 1.0))
    elif name == "deviance":
        f = lo = hi = logit
    elif name == "exponential":
        f = lo = hi = 0.5 * logit
    elif name == "misclassification":
        f = np.where(p1 >= 0.5, 1.0, -1.0)
        lo = np.where(p1 > 0.5, 0.0, -inf)
        hi = np.where(p1 < 0.5, 0.0, inf)
    elif name == "sigmoid":
        _check_a(prm["a"])
        f = np.where(p1 > 0.5, np.inf, np.where(p1 < 0.5, -np.inf, 0.0))
        lo = np.where(p1 > 0.5, np.inf, -inf)
        hi = np.where(p1 < 0.5, -np.inf, inf)
    elif name == "concave_exp":
        _check_a(prm["a"])
        f = np.zeros_like(p1)
        lo = np.where(p1 == 0.0, -np.inf, 0.0)
        hi = np.where(p1 == 1.0, np.inf, 0.0)
    elif name == "wahba_v":
        ep, em = _check_eps(prm["eps_plus"], prm["eps_minus"])
        lo, hi = _v_minimizer(p1, ep, em)
        f = np.where(np.isfinite(lo) & np.isfinite(hi), 0.5 * (lo + hi), np.where(np.isfinite(lo), lo, hi))
    else:  # smooth_step
        lo, hi = np.empty_like(p1), np.empty_like(p1)
        inner = (p1 > 0.0) & (p1 < 1.0)
        if np.any(inner):
            lo[inner], hi[inner] = _smooth_step_minimizer(p1[inner], prm["s"], prm["k_eps"])
        # p = 1: θ̃((1 − f)_+) is smallest (θ̃(0)) for every f ≥ 1; p = 0 mirrors it
        lo = np.where(p1 == 1.0, 1.0, np.where(p1 == 0.0, -np.inf, lo))
        hi = np.where(p1 == 1.0, np.inf, np.where(p1 == 0.0, -1.0, hi))
        f = np.where(p1 >= 0.5, hi, lo)
    return Minimizer(pp, np.asarray(f, float).reshape(shape), np.asarray(lo, float).reshape(shape),
                     np.asarray(hi, float).reshape(shape))

