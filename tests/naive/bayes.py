"""Independent derivations of the generators' Bayes errors (slow references for tests/data/test_data.py).

Each uses a different route from svmviz/data.py, so a pinned number in a test is never the code
checking itself:

* wahba2001: x2 has variance 1 in both classes, so for fixed x1 the Bayes region of +1 is a half-line
  x2 < x2*(x1); the risk is a 1-D adaptive quadrature over x1 of closed-form normal tails
  (data.py: a 2-D trapezoid grid).
* ringnorm: the log density ratio is (3/8)‖x − c‖² − d a²/6 − d ln 2 with c = (4/3) a·1, so the
  error is two non-central χ² tails in closed form (data.py: 1-D quadrature over the diagonal
  projection with a χ² tail for the rest).
* esl_mixture: adaptive cubature (scipy.integrate.cubature, Genz–Malik) of ½ min(g₊, g₋) over a box
  9 sd beyond the centres (data.py: a 1001² trapezoid grid).
"""
from __future__ import annotations

import math

import numpy as np
from scipy import integrate, stats


def wahba_bayes_risk(w_plus: float, w_minus: float, mean_plus=(0.0, 0.0), var_plus=(1.0, 1.0),
                     mean_minus=(2.0, 2.0), var_minus=(2.0, 1.0)) -> float:
    """∫ min(w₊ g₊, w₋ g₋) for the (Wahba et al. 2001, §6) Gaussians; needs equal x2 variances."""
    assert var_plus[1] == var_minus[1], "the half-line reduction needs equal x2 variances"
    s2 = math.sqrt(var_plus[1])
    m2p, m2m = mean_plus[1], mean_minus[1]

    def inner(x1):
        g1p = stats.norm.pdf(x1, mean_plus[0], math.sqrt(var_plus[0]))
        g1m = stats.norm.pdf(x1, mean_minus[0], math.sqrt(var_minus[0]))
        # log(w₊g₊/w₋g₋) = A + [(x2 − m2m)² − (x2 − m2p)²]/(2 s2²), linear in x2 with slope (m2p − m2m)/s2²
        A = math.log(w_plus * g1p) - math.log(w_minus * g1m)
        slope = (m2p - m2m) / s2**2
        const = (m2m**2 - m2p**2) / (2 * s2**2)
        xs = -(A + const) / slope  # the ratio is > 1 for x2 < xs when slope < 0
        assert slope < 0
        return w_minus * g1m * stats.norm.cdf(xs, m2m, s2) + w_plus * g1p * stats.norm.sf(xs, m2p, s2)

    return integrate.quad(inner, -20, 22, limit=400, epsabs=1e-13, epsrel=1e-12)[0]


def ringnorm_bayes_error(d: int = 20) -> float:
    """Ringnorm (Breiman 1996): +1 ~ N(0, 4I), −1 ~ N(a·1, I), a = 2/√d, equal priors; closed form."""
    a = 2.0 / math.sqrt(d)
    T = (8.0 / 3.0) * (d * a * a / 6.0 + d * math.log(2.0))  # choose +1 where ‖x − c‖² > T
    err_minus = stats.ncx2.sf(T, d, d * a * a / 9.0)  # ‖x − c‖² under −1: χ²_d(‖a·1 − c‖²)
    err_plus = stats.ncx2.cdf(T / 4.0, d, 4.0 * d * a * a / 9.0)  # ‖x − c‖²/4 under +1: χ²_d(‖c‖²/4)
    return 0.5 * err_minus + 0.5 * err_plus


def esl_bayes_error(centres: np.ndarray, var: float = 0.2) -> float:
    """Equal-prior two-class ESL mixture (10 centres per class, covariance var·I) by adaptive cubature."""
    C = np.asarray(centres)

    def half_min(x):
        dens = [np.exp(-((x[..., None, :] - C[j]) ** 2).sum(-1) / (2 * var)).sum(-1) / (10 * 2 * math.pi * var)
                for j in range(2)]
        return 0.5 * np.minimum(dens[0], dens[1])

    pad = 9.0 * math.sqrt(var)
    pts = C.reshape(-1, 2)
    res = integrate.cubature(half_min, pts.min(0) - pad, pts.max(0) + pad, rtol=1e-7, atol=1e-9,
                             max_subdivisions=100_000)
    assert res.status == "converged"
    return float(res.estimate)
