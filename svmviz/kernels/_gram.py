"""Gaussian, linear and polynomial kernels and their gram matrices; kernel objects (:func:`fit_kernel`).

Conventions (the documentation's Conventions page): Gaussian ``K(x, x') = exp(-||x - x'||² / (2σ²))`` — sklearn's
``gamma = 1/(2σ²)``; linear ``x·x'``; polynomial ``(γ x·x' + c0)^degree``.

Two layers: private ``@njit`` functions on contiguous float64 arrays, and :func:`gram`, the public
wrapper that validates and dispatches.

Kernel objects. Wherever ``kernel=`` is accepted it is either a name in :data:`KERNELS` or a *kernel
object*: a callable ``kernel(A, B=None)`` returning the (n_A, n_B) float64 gram matrix. An object
with a ``fit(X)`` method learns from the training inputs (e.g. the [0, 1] map of each coordinate of
an SS-ANOVA kernel); :func:`fit_kernel` returns a fitted deep copy of it, so the user's object is
never changed. :class:`KernelParamsMixin` gives a kernel class scikit-learn's ``get_params`` /
``set_params`` (so ``clone`` and ``GridSearchCV`` over ``kernel__<parameter>`` work);
:class:`SSANOVAKernel` has it. An object may offer ``diagonal(A) -> (n_A,)``; :func:`kernel_diagonal` uses it and
otherwise takes the diagonal of small blocks of the gram.
"""
from __future__ import annotations

import copy

import numpy as np

from .._jit import njit  # numba.njit whose cache follows the functions called in other modules
from .._validation import check_matrix, check_positive

KERNELS = ("rbf", "linear", "poly")


@njit(cache=True)
def _sq_dists(A, B):
    n, m, d = A.shape[0], B.shape[0], A.shape[1]
    out = np.empty((n, m))
    for i in range(n):
        for j in range(m):
            s = 0.0
            for k in range(d):
                t = A[i, k] - B[j, k]
                s += t * t
            out[i, j] = s
    return out


@njit(cache=True, nogil=True)
def _rbf_exp(D, sigma, out):
    """out = exp(−D/(2σ²)) elementwise: the one Gaussian-from-squared-distances loop (``out`` may be ``D``).
    It releases the GIL: the (σ, λ) grid's threads call it for their σ at once (``svm._smo``)."""
    scale = -1.0 / (2.0 * sigma * sigma)
    for i in range(D.shape[0]):
        for j in range(D.shape[1]):
            out[i, j] = np.exp(D[i, j] * scale)
    return out


def _rbf_gram(A, B, sigma):
    """exp(−‖a − b‖²/(2σ²)) by the two compiled functions from Python (not a third around them: numba would link
    both into it and optimise them again, ~0.3 s more of a page's first compilation)."""
    D = _sq_dists(A, B)
    return _rbf_exp(D, sigma, D)  # in place: one n_A × n_B matrix


@njit(cache=True)
def _linear_gram(A, B):
    n, m, d = A.shape[0], B.shape[0], A.shape[1]
    out = np.empty((n, m))
    for i in range(n):
        for j in range(m):
            s = 0.0
            for k in range(d):
                s += A[i, k] * B[j, k]
            out[i, j] = s
    return out


@njit(cache=True)
def _poly_gram(A, B, degree, gamma, coef0):
    G = _linear_gram(A, B)
    for i in range(G.shape[0]):
        for j in range(G.shape[1]):
            G[i, j] = (gamma * G[i, j] + coef0) ** degree
    return G


def squared_distances(A, B=None) -> np.ndarray:
    """Pairwise squared Euclidean distances ‖a_i − b_j‖².

    Parameters
    ----------
    A : array_like of shape (n_A, d)
    B : array_like of shape (n_B, d), optional
        Defaults to ``A``.

    Returns
    -------
    D : ndarray of shape (n_A, n_B)
    """
    A = check_matrix(A, "A")
    B = A if B is None else check_matrix(B, "B")
    if A.shape[1] != B.shape[1]:
        raise ValueError(f"A has {A.shape[1]} features and B has {B.shape[1]}; they must match.")
    return _sq_dists(A, B)


def rbf_from_squared_distances(D, sigma: float) -> np.ndarray:
    """Gaussian kernel exp(−D/(2σ²)) from precomputed squared distances: reuse ``D`` across a σ grid.

    Parameters
    ----------
    D : array_like of shape (n_A, n_B)
        Squared distances (:func:`squared_distances`).
    sigma : float
        Gaussian width σ > 0.

    Returns
    -------
    K : ndarray of shape (n_A, n_B)
    """
    sigma = check_positive(sigma, "sigma")
    D = np.ascontiguousarray(D, dtype=np.float64)
    return _rbf_exp(D, sigma, np.empty_like(D))


def _check_pair(A, B):
    A = check_matrix(A, "A")
    B = A if B is None else check_matrix(B, "B")
    if A.shape[1] != B.shape[1]:
        raise ValueError(f"A has {A.shape[1]} features and B has {B.shape[1]}; they must match.")
    return A, B


def _is_kernel_object(kernel) -> bool:
    return not isinstance(kernel, str) and callable(kernel)


def _check_kernel_spec(kernel):
    if isinstance(kernel, str):
        if kernel not in KERNELS:
            raise ValueError(f"kernel must be one of {KERNELS} or a kernel object; got {kernel!r}.")
        return
    if not callable(kernel):
        raise ValueError(
            f"kernel must be one of {KERNELS} or a kernel object (a callable kernel(A, B=None) "
            f"returning the gram matrix); got {type(kernel).__name__} {kernel!r}."
        )


def _object_gram(kernel, A, B, same: bool) -> np.ndarray:
    """Call a kernel object and check that it returned a finite (n_A, n_B) matrix."""
    K = kernel(A) if same else kernel(A, B)
    try:
        K = np.asarray(K, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"the kernel object {kernel!r} returned something that is not numeric ({exc}).") from None
    want = (A.shape[0], B.shape[0])
    if K.shape != want:
        raise ValueError(
            f"the kernel object {kernel!r} returned a matrix of shape {K.shape}; expected {want} "
            "(rows of A by rows of B)."
        )
    if not np.all(np.isfinite(K)):
        raise ValueError(f"the kernel object {kernel!r} returned NaN or infinite values.")
    return np.ascontiguousarray(K)


def gram(A, B=None, *, kernel="rbf", sigma: float = 1.0, degree: int = 3,
         gamma: float = 1.0, coef0: float = 1.0) -> np.ndarray:
    """Gram matrix ``K[i, j] = k(A[i], B[j])``.

    Parameters
    ----------
    A : array of shape (n_A, d)
    B : array of shape (n_B, d), optional (defaults to ``A``)
    kernel : {"rbf", "linear", "poly"} or kernel object
        A name, or a callable ``kernel(A, B=None) -> (n_A, n_B)`` (e.g.
        :class:`SSANOVAKernel`; fit it first with :func:`fit_kernel` if it has a ``fit`` method).
        ``sigma``, ``degree``, ``gamma``, ``coef0`` are ignored for a kernel object.
    sigma : float
        Gaussian width, ``exp(-||x - x'||² / (2σ²))`` (Wahba et al. 2001, §6).
    degree, gamma, coef0 : polynomial kernel ``(γ x·x' + c0)^degree``.

    Returns
    -------
    K : ndarray of shape (n_A, n_B), float64, C-contiguous.
    """
    same = B is None
    A, B = _check_pair(A, B)
    _check_kernel_spec(kernel)
    if _is_kernel_object(kernel):
        return _object_gram(kernel, A, B, same)
    if kernel == "rbf":
        return _rbf_gram(A, B, check_positive(sigma, "sigma"))
    if kernel == "linear":
        return _linear_gram(A, B)
    if kernel == "poly":
        if int(degree) != degree or degree < 1:
            raise ValueError(f"degree must be a positive integer; got {degree!r}.")
        return _poly_gram(A, B, float(degree), check_positive(gamma, "gamma"), float(coef0))
    raise ValueError(f"kernel must be one of {KERNELS}; got {kernel!r}.")


def fit_kernel(kernel, X):
    """The kernel to use after fitting on training inputs ``X``.

    Parameters
    ----------
    kernel : {"rbf", "linear", "poly"} or kernel object
    X : array of shape (n, d)
        Training inputs.

    Returns
    -------
    kernel_ : str or kernel object
        A name unchanged; an object with a ``fit(X)`` method as a fitted deep copy
        (``copy.deepcopy(kernel).fit(X)``; the caller's object is untouched); any other callable
        unchanged.
    """
    _check_kernel_spec(kernel)
    if isinstance(kernel, str) or not callable(getattr(kernel, "fit", None)):
        return kernel
    fitted = copy.deepcopy(kernel)
    out = fitted.fit(check_matrix(X, "X"))
    return fitted if out is None else out


_DIAG_BLOCK = 256  # rows per block when a kernel object has no diagonal(): 256² floats = 0.5 MB


def kernel_diagonal(kernel, A, **params) -> np.ndarray:
    """``K(x_i, x_i)`` for every row of ``A``.

    GACV and ξα (Wahba et al. 2001, eqs. 13–15) need K_ii; it is 1 for the Gaussian but not for a
    linear, polynomial or SS-ANOVA kernel.

    Parameters
    ----------
    kernel : {"rbf", "linear", "poly"} or kernel object
        An object's own ``diagonal(A)`` is used when it has one, otherwise the diagonals of
        (256 × 256) blocks of its gram.
    A : array of shape (n_A, d)
    **params
        ``sigma``, ``degree``, ``gamma``, ``coef0`` as in :func:`gram` (names only).

    Returns
    -------
    diag : ndarray of shape (n_A,)
    """
    A = check_matrix(A, "A")
    _check_kernel_spec(kernel)
    unknown = set(params) - {"sigma", "degree", "gamma", "coef0"}
    if unknown:
        raise ValueError(f"unknown kernel parameters {sorted(unknown)}; use sigma, degree, gamma, coef0.")
    if _is_kernel_object(kernel):
        if callable(getattr(kernel, "diagonal", None)):
            d = np.asarray(kernel.diagonal(A), dtype=np.float64)
            if d.shape != (A.shape[0],) or not np.all(np.isfinite(d)):
                raise ValueError(
                    f"the kernel object {kernel!r} returned a diagonal of shape {d.shape} (or with NaN); "
                    f"expected ({A.shape[0]},) finite values."
                )
            return np.ascontiguousarray(d)
        out = np.empty(A.shape[0])
        for s in range(0, A.shape[0], _DIAG_BLOCK):
            blk = A[s:s + _DIAG_BLOCK]
            out[s:s + blk.shape[0]] = np.diag(_object_gram(kernel, blk, blk, True))
        return out
    if kernel == "rbf":
        check_positive(params.get("sigma", 1.0), "sigma")
        return np.ones(A.shape[0])
    sq = np.einsum("ij,ij->i", A, A)
    if kernel == "linear":
        return sq
    degree = params.get("degree", 3)
    if int(degree) != degree or degree < 1:
        raise ValueError(f"degree must be a positive integer; got {degree!r}.")
    gamma = check_positive(params.get("gamma", 1.0), "gamma")
    return (gamma * sq + float(params.get("coef0", 1.0))) ** float(degree)


def sigma_heuristic(X, *, max_points: int = 400, seed: int = 0) -> float:
    """A starting σ for data without a paper value: the median pairwise distance / √2.

    With ``K(x, x') = exp(-||x - x'||² / (2σ²))`` this puts the median pair at ``K = e^{-1}``. Also
    importable from :mod:`svmviz.ivm`, where it was defined first.

    Parameters
    ----------
    X : array-like of shape (n, d)
    max_points : int
        At most this many rows are used (a seeded random subset) to stay cheap.
    seed : int

    Returns
    -------
    float
        1.0 when every used point is the same.

    Examples
    --------
    >>> import numpy as np
    >>> from svmviz.kernels import sigma_heuristic
    >>> round(sigma_heuristic(np.array([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]])), 4)  # median distance 5
    3.5355
    """
    X = check_matrix(X, "X", min_rows=2)
    if X.shape[0] > max_points:
        X = X[np.random.default_rng(seed).choice(X.shape[0], max_points, replace=False)]
    D = squared_distances(X)
    d = np.sqrt(D[np.triu_indices(X.shape[0], 1)])
    med = float(np.median(d))
    return float(med / np.sqrt(2.0)) if med > 0 else 1.0

