"""SVC trained by iterated re-weighted least squares (IRWLS) and the unbiased SVC (USVC).

Navia-Vázquez, Pérez-Cruz, Artés-Rodríguez & Figueiras-Vidal (2004), "Advantages of unbiased
support vector classifiers for data mining applications" (Navia-Vázquez et al. 2004).

Primal (Navia-Vázquez et al. 2004, eq. 5)::

    L̃(w, b) = ½‖w‖² + C Σ_i θ(ξ_i),   ξ_i = (1 − y_i f(x_i))_+,

with θ(ξ) = ξ (the SVC, (Navia-Vázquez et al. 2004, eq. 4)) or the smooth step θ̃_s (the USVC, (Navia-Vázquez et al. 2004, eq. 6))::

    θ̃_s(ξ) = (ξ + k^{1/s})^s / (2 (1 + k^{1/s})^s)           0 ≤ ξ < 1
    θ̃_s(ξ) = 1 − (1 + k^{1/s})^s / (2 (ξ + k^{1/s})^s)       ξ ≥ 1.

Training: IRWLS (Navia-Vázquez et al. 2004, eqs. 20–22), damped (Navia-Vázquez et al. 2004, §3), from the regularised LS solution (a_i = 1) to the SVC,
and from the SVC to the USVC (Navia-Vázquez et al. 2004, §2). The machine is linear, f(x) = w'x + b, or semiparametric,
f(x) = Σ_r β_r K(c_r, x) + b with R prototypes c_r from k-means or FSCL (Navia-Vázquez et al. 2004, eqs. 23–27).

The weight convention. (Navia-Vázquez et al. 2004, eq. 22) writes a_i = 2α_i/(e_i y_i). With it the fixed point of (Navia-Vázquez et al. 2004, eq. 20)
satisfies w = Σ 2α_i y_i x_i, i.e. the KKT conditions of the problem with 2C, not (Navia-Vázquez et al. 2004, eq. 10). We use
a_i = α_i/(e_i y_i) (``weight_factor=1``), whose fixed point is the KKT point of (Navia-Vázquez et al. 2004, eq. 5) with the
stated C — for the hinge the libsvm QP solution (a test). ``weight_factor=2`` reproduces the literal
formula (≡ doubling C).
"""
from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning

from sklearn.utils.validation import check_is_fitted

from . import _irwls
from .._blas import one_blas_thread
from .._docs import fill_doc
from .._validation import (BinaryClassifierMixin, binary_targets, check_int,
                          check_kernel_params_used, check_matrix, check_positive, check_sample_weight,
                          predict_in_chunks, validate_fit_data, validate_predict_data)
from ..kernels import fit_kernel, gram
from ._loss import (  # noqa: F401  (the loss and objective are documented and imported from here)
    LOSSES, Profile, _check_1d_problem, _check_grid, _check_k, _check_loss, _check_s, _check_unit,
    empirical_ce, loss_values, primal_profile, primal_surface, primal_value, theoretical_ce, theta_smooth,
    theta_smooth_derivative,
)
from ..published import NAVIA2004_TABLE1

PROTOTYPE_METHODS = ("kmeans", "fscl")
STAGES = ("LS", "SVC", "USVC")
DEFAULT_R = 20

#: Navia-Vázquez et al. 2004, Table 1 (kept here for its old import path; the one source is svmviz.published).
PAPER_TABLE1 = NAVIA2004_TABLE1


# ----------------------------------------------------------------------------------------------
# prototypes
# ----------------------------------------------------------------------------------------------
def fscl_prototypes(X, n_prototypes: int, *, n_epochs: int = 20, lr0: float = 0.3, lr1: float = 0.01,
                    random_state: int = 0):
    """Frequency Sensitive Competitive Learning (Ahalt et al. 1990), the prototype finder of (Navia-Vázquez et al. 2004, §4).

    Each point moves its winner j = argmin_r u_r ‖x − c_r‖² (u_r its win count so far) by
    η (x − c_r); η decays geometrically from ``lr0`` to ``lr1``.

    Parameters
    ----------
    X : array-like of shape (n, d)
    n_prototypes : int
        R ≤ n.
    n_epochs : int
    lr0, lr1 : float
        First and last learning rate η.
    random_state : int

    Returns
    -------
    centres : ndarray of shape (R, d)
    wins : ndarray of shape (R,), int
        Wins of each prototype in the last epoch.
    """
    X = check_matrix(X, "X")
    R = check_int(n_prototypes, "n_prototypes", 1)
    if R > X.shape[0]:
        raise ValueError(f"n_prototypes ({R}) cannot exceed the number of points ({X.shape[0]}).")
    n_epochs = check_int(n_epochs, "n_epochs", 1)
    lr0, lr1 = check_positive(lr0, "lr0"), check_positive(lr1, "lr1")
    return _irwls.fscl(X, R, n_epochs, lr0, lr1, int(random_state) % (2**32 - 1))


def _kmeans_prototypes(X, R, seed, sample_weight=None):
    from sklearn.cluster import KMeans

    km = KMeans(n_clusters=R, n_init=4, random_state=int(seed)).fit(X, sample_weight=sample_weight)
    return np.ascontiguousarray(km.cluster_centers_)


# ----------------------------------------------------------------------------------------------
# the estimator
# ----------------------------------------------------------------------------------------------
class IRWLSHistory(NamedTuple):
    """Every IRWLS iterate: the LS start, then the SVC stage, then (smooth_step) the USVC stage.

    Attributes
    ----------
    coef : ndarray of shape (T, p)
        w (linear machine) or β (prototype machine) at each iterate.
    intercept : ndarray of shape (T,)
        b at each iterate.
    primal : ndarray of shape (T,)
        L̃ with the loss of the row's stage (the LS row: the hinge).
    stage : ndarray of int, shape (T,)
        0 LS, 1 SVC, 2 USVC (names in ``STAGES``).
    """

    coef: np.ndarray       # (T, p): w (linear) or β (prototype machine)
    intercept: np.ndarray  # (T,)
    primal: np.ndarray     # (T,) L̃ with the loss of the row's stage (LS row: hinge)
    stage: np.ndarray      # (T,) int: 0 LS, 1 SVC, 2 USVC  (names in STAGES)


#: Eigen-directions of the prototype gram G = K(c, c) below this fraction of its largest eigenvalue
#: are dropped from the machine: they carry (numerically) no norm ‖w‖ and no function value, and
#: their coefficients β are undetermined. In float64, G (entries ≤ 1) knows such a direction only to
#: a relative ~eps·λ_max/λ_k, 2e-6 at this cutoff.
RANK_RTOL = 1e-10
#: Feature columns of the linear machine larger than this (2^64) are scaled down by an exact power
#: of two before the weighted solves, with the regulariser scaled to match (the same problem): the
#: sums a_i x_ij x_il of the weighted system would otherwise overflow (X·1e200). Ordinary columns
#: are left untouched, so their numbers do not change.
EQUILIBRATE_ABOVE = 2.0 ** 64


class IRWLSClassifier(BinaryClassifierMixin, ClassifierMixin, BaseEstimator):
    """SVC and unbiased SVC trained by iterated re-weighted least squares.

    Minimizes L̃(w, b) = ½‖w‖² + C Σ_i θ(ξ_i), ξ_i = (1 − y_i f(x_i))_+ (Navia-Vázquez et al. 2004,
    eq. 5) with θ(ξ) = ξ (the SVC, eq. 4) or the smooth step θ̃_s (the USVC, eq. 6), by the IRWLS
    iteration of eqs. 20–22: regularised LS → SVC → USVC.

    Parameters
    ----------
    C : float, default=10.0
        Weight of the loss term in L̃ (Navia-Vázquez et al. 2004, eq. 5); the same C as scikit-learn's
        ``SVC``.
    loss : {"hinge", "smooth_step"}, default="hinge"
        "hinge" is the SVC (Navia-Vázquez et al. 2004, eq. 4); "smooth_step" the USVC with θ̃_s
        (eq. 6), started from the SVC.
    s : float ≥ 1, default=2.0
        Steepness of θ̃_s (paper: 2, also 4).
    k_eps : float in (0, 1), default=1e-4
        k_ε of (Navia-Vázquez et al. 2004, eq. 6).
    damping : float in [0, 1), default=0.2
        d in w_k = d·w_{k−1} + (1 − d)·w_WLS (Navia-Vázquez et al. 2004, §3; paper 0.2).
    kernel : {"linear", "rbf", "poly"} or kernel object, default="linear"
        "linear" without prototypes is the linear machine f = w'x + b (any dimension); otherwise the
        semiparametric machine f(x) = Σ_r β_r K(c_r, x) + b (Navia-Vázquez et al. 2004, eq. 27).
        A kernel object is a callable ``kernel(A, B=None)`` (see :func:`svmviz.kernels.gram`).
    sigma : float, default=1.0
        Gaussian width, K = exp(−‖x − x'‖²/(2σ²)); used by kernel="rbf" only. Refused (a ValueError) at another value beside a kernel that does not read it.
    n_prototypes : int or None, default=None
        R. None: the linear machine for ``kernel="linear"``, R = min(n, 20) otherwise.
    prototypes : {"kmeans", "fscl"}, default="kmeans"
        How the prototypes c_r are found (Navia-Vázquez et al. 2004, §2.1, §4).
    tol : float, default=1e-8
        Converged when the estimated remaining relative change of the parameters — (w, b) for the
        linear machine, (γ, b) with ‖γ‖ = ‖w‖ the RKHS norm for the kernel machine — is below
        ``tol`` (or below the rounding floor of the weighted solves, measured at every iteration)
        and the relative change of L̃ below ``tol_f``, for several consecutive iterations.
    tol_f : float, default=1e-10
    max_iter : int, default=50_000
        Per stage (SVC, USVC). IRWLS converges linearly: a point that ends on the margin with
        multiplier α_i* approaches it at the rate α_i*/(C θ'(0)) per iteration, so problems with a
        margin multiplier close to its bound need thousands of (cheap) iterations — the USVC stage,
        and the SVC stage with ``exact_finish=False``; the exact finish ends the SVC stage in tens.
    exact_finish : bool, default=True
        Finish the SVC stage exactly: once the sets of points (beyond, on, inside the margin) stop
        changing, solve for the iteration's limit with those sets, and accept it only when it meets
        the KKT conditions of its sets and one more IRWLS step stays put
        (the exact finish of the iteration); otherwise keep iterating. False: the plain iteration.
    a_max : float, default=1e8
        Cap on the weights a_i near ξ_i = 0 (c_i·a_max with sample weights c_i); margin points settle
        at ξ ≈ α_i/(c_i·a_max).
    weight_factor : float, default=1.0
        1: a_i = α_i/ξ_i, the KKT-consistent weights. 2: the paper's literal a_i = 2α_i/(e_i y_i)
        (Navia-Vázquez et al. 2004, eq. 22), equivalent to C → 2C.
    random_state : int, default=0
        Seed of the prototype search.
    degree, gamma, coef0 : polynomial kernel parameters.

    Attributes
    ----------
    coef_ : ndarray of shape (1, p)
        w (linear machine, p = d) or β (prototype machine, p = R).
    intercept_ : float
        b.
    beta_ : ndarray of shape (p,)
        The same numbers as ``coef_[0]``.
    prototypes_ : ndarray of shape (R, d) or None
    machine_rank_ : int
        Directions of the machine the solver used: d for the linear machine; for the prototype
        machine the numerical rank of K(c, c) (``RANK_RTOL``), below R when σ is large.
    threshold_ : float
        Th = −b/w for one-dimensional linear machines, else NaN.
    alpha_ : ndarray of shape (n,)
        α_i = C_i θ'(ξ_i) for ξ_i ≥ 0, else 0, at the solution (Navia-Vázquez et al. 2004, eq. 21);
        C_i = c_i·C with the sample weights c_i (all 1 without ``sample_weight``).
    support_ : ndarray of int
        Indices with ξ_i ≥ 0 (on or inside the margin) and positive weight.
    n_iter_ : int
        IRWLS iterations of the final stage; ``n_iter_stages_`` per stage.
    finished_stages_ : dict
        Per IRWLS stage ("SVC", "USVC"), whether the exact finish ended it.
    status_ : int
        Status of the final stage (0 converged); ``status_stages_`` per stage.
    history_ : IRWLSHistory
    primal_ : float
        L̃ at the solution (with ``loss``).
    train_decision_ : ndarray of shape (n,)
    classes_ : ndarray of shape (2,)
        ``classes_[0]`` ↔ −1.
    machine_size_ : int
        Number of kernels (R) or of inputs (d) in the final machine.
    kernel_ : str or kernel object
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (d,)
        When fitted on a DataFrame.

    See Also
    --------
    svmviz.usvc.primal_surface : The error surface L̃(Th, w) of a 1-D machine.
    svmviz.usvc.table1_study : The repeated trials of Table 1.
    svmviz.usvc.kernel_comparison : The kernel USVC against the SVM.
    svmviz.figures.usvc.compute_trajectory : Its IRWLS iterates in (Th, w).

    Notes
    -----
    Navia-Vázquez et al. 2004: primal (eqs. 5 and 4); loss (eq. 6); IRWLS (eqs. 20–22) with
    damping (§3); semiparametric machine (eqs. 23–27). ``fit``'s ``sample_weight`` sets per-point
    bounds C_i = c_i·C (k-means prototypes only).

    How the kernel machine converges for every σ (rbf, default settings, σ from 1 to 300 on
    make_moons(200)): two numerical traps are taken care of. (1) Large σ: K(c, c) is numerically
    singular (eigenvalue ratio below 1e-12 from σ ≈ 10 on), so β has directions that change neither
    ‖w‖ nor f, along which a weighted solve in β fails ("Matrix is singular") or drifts while f has
    settled. The machine is solved in the orthonormal coordinates γ of its RKHS span
    (β = V Λ^{-1/2} γ with K(c, c) = V Λ V' over the eigenvalues above ``RANK_RTOL``·λ_max, so
    ½β'K(c, c)β = ½‖γ‖²): the same problem without the undetermined directions. (2) Moderate σ:
    margin points carry weights a_i = α_i/ξ_i up to a_max, the weighted system's condition number
    reaches ~a_max·‖Φ‖², and its solutions jitter at ~1e-8 relative — above the default tol, once the
    primal has settled to 12 digits. Each weighted solve estimates its own rounding error (one step
    of iterative refinement) and steps at that floor count as converged
    (:func:`svmviz.usvc._irwls.irwls`); the same floor ends the linear USVC on separable data (iris)
    before max_iter.

    Examples
    --------
    Scenario A of Navia-Vázquez et al. (2004, §3, Table 1): the SVC's threshold Th = −b/w is
    biased (paper: 0.35), the USVC's is close to the optimal 0.5 (paper: 0.49).

    >>> import numpy as np
    >>> from sklearn.svm import SVC
    >>> from svmviz.data import make_dataset
    >>> from svmviz.usvc import IRWLSClassifier
    >>> ds = make_dataset("usvc_A", n=500, seed=0)
    >>> svc = IRWLSClassifier(C=10.0).fit(ds.X, ds.y)
    >>> usvc = IRWLSClassifier(C=10.0, loss="smooth_step").fit(ds.X, ds.y)
    >>> svc.status_, usvc.status_
    (0, 0)
    >>> round(svc.threshold_, 2), round(usvc.threshold_, 2)
    (0.32, 0.5)

    The IRWLS limit of the hinge loss is the QP solution:

    >>> ref = SVC(kernel="linear", C=10.0, tol=1e-10).fit(ds.X, ds.y)
    >>> bool(np.allclose(svc.coef_, ref.coef_, rtol=1e-5))
    True
    """

    def __init__(self, C=10.0, loss="hinge", s=2.0, k_eps=1e-4, damping=0.2, kernel="linear",
                 sigma=1.0, n_prototypes=None, prototypes="kmeans", tol=1e-8, tol_f=1e-10,
                 max_iter=50_000, a_max=1e8, weight_factor=1.0, random_state=0, degree=3,
                 gamma=1.0, coef0=1.0, exact_finish=True):
        self.C = C
        self.loss = loss
        self.s = s
        self.k_eps = k_eps
        self.damping = damping
        self.kernel = kernel
        self.sigma = sigma
        self.n_prototypes = n_prototypes
        self.prototypes = prototypes
        self.tol = tol
        self.tol_f = tol_f
        self.max_iter = max_iter
        self.a_max = a_max
        self.weight_factor = weight_factor
        self.random_state = random_state
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.exact_finish = exact_finish

    # -- helpers -------------------------------------------------------------------------------
    def _gram(self, A, B=None):
        return gram(A, B, kernel=self.kernel_, sigma=self.sigma, degree=self.degree, gamma=self.gamma,
                    coef0=self.coef0)

    def _features(self, X):
        if self.prototypes_ is None:
            return X
        return np.ascontiguousarray(self._gram(X, self.prototypes_))

    def _solver_machine(self, Phi, G):
        """The coordinates the IRWLS kernel iterates in: features Ψ = ΦT, regulariser T'GT, β = Tγ; G is
        the symmetric regulariser of the machine (K(c, c) of the prototypes, unused by the linear one).

        Linear machine: T = I except for columns above ``EQUILIBRATE_ABOVE``, scaled down by an exact
        power of two (T'GT = T², the same problem). Prototype machine: T = V_k Λ_k^{-1/2} over the
        eigenpairs of G = K(c, c) above ``RANK_RTOL``·λ_max, so T'GT = I (Nyström coordinates).
        """
        if self.prototypes_ is None:
            big = np.max(np.abs(Phi), axis=0) > EQUILIBRATE_ABOVE
            scale = np.ones(Phi.shape[1])
            if np.any(big):
                _, e = np.frexp(np.max(np.abs(Phi[:, big]), axis=0))
                scale[big] = np.ldexp(1.0, -e)
            T = np.diag(scale)
            return np.ascontiguousarray(Phi * scale), np.diag(scale * scale), T
        lam, V = np.linalg.eigh(G)
        if not lam[-1] > 0:
            raise ValueError("the kernel matrix of the prototypes K(c, c) has no positive eigenvalue; "
                             "the kernel must be positive semi-definite and not identically zero.")
        keep = lam > RANK_RTOL * lam[-1]
        T = V[:, keep] / np.sqrt(lam[keep])
        return np.ascontiguousarray(Phi @ T), np.eye(int(keep.sum())), np.ascontiguousarray(T)

    @fill_doc
    @one_blas_thread()  # the products of a fit, (n × q)ᵀ(n × q) with q a few dozen, are too small for threads
    def fit(self, X, y, sample_weight=None):
        """Fit the LS start, the SVC and (``loss="smooth_step"``) the USVC.

        ``sample_weight`` c_i weighs point i's loss by C_i = c_i·C in L̃ (Navia-Vázquez et al. 2004,
        eq. 5), so α_i = C_i θ'(ξ_i) and a_i = α_i/ξ_i in the IRWLS weights (eqs. 21–22); the LS start
        solves with a_i = c_i. Integer weights give the fit on repeated rows, weight 0 the fit without
        the row; with the hinge the linear machine is ``SVC(kernel="linear", C).fit(X, y,
        sample_weight)``. The prototype machine's k-means centres are weighed by the same c_i;
        ``prototypes="fscl"`` (one online pass over the rows, with no weighted form) refuses weights.

        {fit_binary_weighted}
        """
        X, y, classes = validate_fit_data(self, X, y, binary=True)
        y_pm = binary_targets(y, classes)
        n, d = X.shape
        cw = check_sample_weight(sample_weight, n)
        if min(np.sum(cw[y_pm < 0]), np.sum(cw[y_pm > 0])) <= 0:
            raise ValueError("sample_weight leaves a class with total weight 0; each class needs a point of "
                             "positive weight.")
        C = check_positive(self.C, "C")
        code = _check_loss(self.loss)
        s, k = _check_s(self.s), _check_k(self.k_eps)
        damping = _check_unit(self.damping, "damping")
        tol_f = check_positive(self.tol_f, "tol_f")
        max_iter = check_int(self.max_iter, "max_iter", 1)
        a_max = check_positive(self.a_max, "a_max")
        factor = check_positive(self.weight_factor, "weight_factor")
        if self.prototypes not in PROTOTYPE_METHODS:
            raise ValueError(f"prototypes must be one of {PROTOTYPE_METHODS}; got {self.prototypes!r}.")
        R = self.n_prototypes
        if R is None and not (isinstance(self.kernel, str) and self.kernel == "linear"):
            R = min(n, DEFAULT_R)
        if R is not None:
            R = check_int(R, "n_prototypes", 1)
            n_pos = n if sample_weight is None else int(np.count_nonzero(cw))
            if R > n_pos:
                raise ValueError(f"n_prototypes ({R}) cannot exceed the number of training points "
                                 f"({n_pos}{'' if n_pos == n else ' of positive weight'}).")
            if sample_weight is not None and self.prototypes == "fscl":
                raise ValueError("prototypes='fscl' takes no sample_weight: FSCL moves the prototypes by one "
                                 "online pass over the rows, which has no weighted form. Use "
                                 "prototypes='kmeans' (its centres are weighed by sample_weight), or repeat "
                                 "the rows.")
        tol = check_positive(self.tol, "tol")
        if not isinstance(self.exact_finish, (bool, np.bool_)):
            raise ValueError(f"exact_finish must be True or False; got {self.exact_finish!r}.")
        check_kernel_params_used(self.kernel, sigma=self.sigma, gamma=self.gamma, sigma_default=1.0, gamma_default=1.0,
                                 degree=self.degree, coef0=self.coef0, degree_default=3, coef0_default=1.0)
        self.kernel_ = fit_kernel(self.kernel, X)
        if R is not None:
            self._gram(X[:1])  # the kernel and its parameters are valid, before the prototype search
            if self.prototypes == "kmeans":
                centres = _kmeans_prototypes(X, R, self.random_state, None if sample_weight is None else cw)
            else:
                centres, _ = fscl_prototypes(X, R, random_state=self.random_state)
            self.prototypes_ = np.ascontiguousarray(centres)
            Phi = self._features(X)
            G = np.asarray(self._gram(self.prototypes_), dtype=np.float64)
            G = np.ascontiguousarray(0.5 * (G + G.T))
        else:
            self.prototypes_ = None
            Phi = X
            G = np.eye(d)
        Psi, Gs, T = self._solver_machine(Phi, G)
        q = Psi.shape[1]

        stages_g, stages_b, stages_P, stages_id = [], [], [], []
        n_iter_stages, status_stages = {}, {}
        # the options every stage shares, by name (numba's dispatcher folds keywords into the signature)
        common = dict(Phi=Psi, G=Gs, y=y_pm, C=C, cw=cw, k=k, a_max=a_max, factor=factor, damping=damping, tol=tol,
                      tol_f=tol_f, record=True, finish=bool(self.exact_finish))
        # stages 0 and 1 in one call: the regularised LS start (a_i = c_i; history row 0), then the SVC
        # (hinge) from it
        gh, b_h, it_h, st_h, hb, hbb, hp, fin_h = _irwls.irwls(loss=_irwls.LOSS_HINGE, s=1.0, max_iter=max_iter,
                                                               beta0=np.zeros(q), b0=0.0, from_ls=True, **common)
        stages_g.append(hb[:1]), stages_b.append(hbb[:1]), stages_P.append(hp[:1]), stages_id.append(np.zeros(1, int))
        n_iter_stages["LS"], status_stages["LS"] = 0, _irwls.STATUS_CONVERGED
        stages_g.append(hb[1:]), stages_b.append(hbb[1:]), stages_P.append(hp[1:])
        stages_id.append(np.ones(hb.shape[0] - 1, int))
        n_iter_stages["SVC"], status_stages["SVC"] = int(it_h), int(st_h)
        finished_stages = {"SVC": bool(fin_h)}
        g, b, it, st = gh, b_h, it_h, st_h
        if code == _irwls.LOSS_SMOOTH_STEP:
            gu, b_u, it_u, st_u, hb, hbb, hp, fin_u = _irwls.irwls(loss=code, s=s, max_iter=max_iter, beta0=gh,
                                                                   b0=b_h, from_ls=False, **common)
            finished_stages["USVC"] = bool(fin_u)
            # the USVC stage starts where the SVC ended: its row 0 re-evaluates the primal there
            stages_g.append(hb), stages_b.append(hbb), stages_P.append(hp)
            stages_id.append(np.full(hb.shape[0], 2, int))
            n_iter_stages["USVC"], status_stages["USVC"] = int(it_u), int(st_u)
            g, b, it, st = gu, b_u, it_u, st_u
        beta = T @ g
        if not (np.all(np.isfinite(beta)) and np.isfinite(b)):
            raise ValueError(f"IRWLS broke down: {_irwls.STATUS_TEXT[_irwls.STATUS_NONFINITE]} "
                             f"(stages: {status_stages}).")

        self.history_ = IRWLSHistory(np.vstack(stages_g) @ T.T, np.concatenate(stages_b),
                                     np.concatenate(stages_P), np.concatenate(stages_id))
        self.classes_ = classes
        self.coef_ = beta.reshape(1, -1).copy()
        self.beta_ = beta.copy()
        self.intercept_ = float(b)
        self.n_iter_ = int(it)
        self.status_ = int(st)
        self.n_iter_stages_ = n_iter_stages
        self.status_stages_ = status_stages
        self.finished_stages_ = finished_stages
        self.machine_size_ = Phi.shape[1]
        self.machine_rank_ = q
        f = _irwls._decision(Phi, beta, float(b))
        self.train_decision_ = f
        xi = 1.0 - y_pm * f
        self.alpha_ = np.where(xi >= 0, C * cw * _irwls._dtheta_array(np.maximum(xi, 0.0), code, s, k), 0.0)
        self.support_ = np.flatnonzero((xi >= 0) & (cw > 0))
        self.primal_ = float(_irwls._primal_at(f, G, y_pm, beta, C, cw, code, s, k))
        self.threshold_ = (-float(b) / float(beta[0])
                           if (self.prototypes_ is None and d == 1 and beta[0] != 0) else float("nan"))
        bad = {name: v for name, v in status_stages.items() if v != _irwls.STATUS_CONVERGED}
        if bad:
            msg = "; ".join(f"{name}: {_irwls.STATUS_TEXT[v]}" for name, v in bad.items())
            warnings.warn(f"IRWLSClassifier did not converge ({msg}). Increase max_iter or tol, or "
                          "check the data.", ConvergenceWarning, stacklevel=2)
        return self

    @fill_doc
    def decision_function(self, X):
        """Decision values f(x) = w'x + b, or Σ_r β_r K(c_r, x) + b (Navia-Vázquez et al. 2004, eq. 27).

        {decision_binary}
        """
        X = validate_predict_data(self, X)
        width = X.shape[1] if self.prototypes_ is None else self.prototypes_.shape[0]
        return predict_in_chunks(lambda rows: _irwls._decision(self._features(rows), self.beta_, self.intercept_),
                                 X, width)

    def trajectory(self):
        """(Th, w, stage) along the iterations of a 1-D linear machine: Th = −b/w (Navia-Vázquez et al.
        2004, Fig. 3); three arrays of shape (T,)."""
        check_is_fitted(self)
        if self.prototypes_ is not None or self.n_features_in_ != 1:
            raise ValueError("the (Th, w) trajectory exists only for a one-dimensional linear machine.")
        w = self.history_.coef[:, 0]
        with np.errstate(divide="ignore", invalid="ignore"):
            th = np.where(w != 0, -self.history_.intercept / w, np.nan)
        return th, w.copy(), self.history_.stage.copy()

