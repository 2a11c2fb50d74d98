"""Gaussian, linear and polynomial kernels and their gram matrices; kernel objects (:func:`fit_kernel`).

Conventions (the documentation's Conventions page): Gaussian ``K(x, x') = exp(-||x - x'||² / (2σ²))`` — sklearn's
``gamma = 1/(2σ²)``; linear ``x·x'``; polynomial ``(γ x·x' + c0)^degree``.

Two layers: private functions on contiguous float64 arrays — one blocked path for every named kernel
(:func:`_blocked`: BLAS products in cache-sized blocks of rows, each finished in place; the distances'
cancellation guard is compiled) — and :func:`gram`, the public wrapper that validates, refuses what
cannot fit in memory, and dispatches.

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

from .._blas import one_blas_thread
from .._jit import njit  # numba.njit whose cache follows the functions called in other modules
from .._validation import check_matrix, check_memory, check_positive, largest_n
from ._exp import scaled_exp

KERNELS = ("rbf", "linear", "poly")


#: Bytes of one block of a gram matrix. Each block of rows goes through its passes — the BLAS product
#: ``A_blk Bᵀ``, the distances with their cancellation guard, the exp — while it is still in the
#: cache (L2 of a current CPU is 0.5–2 MiB): ``bench/bench_gram.py --blocks`` times 64 KiB – 8 MiB.
GRAM_BLOCK_BYTES = 2**20
#: Fewest rows of a block: each BLAS call packs all of B again, a cost of one row of the product, so
#: blocks of at least 64 rows keep it under 2 % when B is too long for the block bytes.
GRAM_MIN_ROWS = 64

#: ``‖a‖² + ‖b‖² − 2 a·b`` loses digits to cancellation when ‖a − b‖² is small against ‖a‖² + ‖b‖²:
#: its rounding error is at most about ``(d + 2) ε (‖a‖² + ‖b‖²)`` (Higham, *Accuracy and Stability of
#: Numerical Algorithms*, §3.1, for the d-term product). An entry whose value is below
#: ``(d + 2) ε (‖a‖² + ‖b‖²) / DIST_RTOL`` is summed directly as Σ_k (a_k − b_k)², so every distance
#: holds ``DIST_RTOL`` relative accuracy — and the diagonal of ``squared_distances(A)`` is exactly 0.
DIST_RTOL = 1e-13


@njit(cache=True, nogil=True)
def _guarded_sq_dists(P, a2, b2, A, B, r0, guard, diag0):
    """In place: ``P[i, j] = A[r0 + i]·B[j]`` in, ``‖A[r0 + i] − B[j]‖²`` out.

    ``a2``, ``b2`` are the squared row norms. An entry below ``guard · (a2_i + b2_j)`` (cancellation,
    see ``DIST_RTOL``; negative rounding results among them) is summed directly. Each row is a
    branch-free pass (vectorised) that also counts its guarded entries, then a second pass over the
    rows that have any. ``diag0 ≥ 0`` says that ``A[r0 + i]`` is ``B[diag0 + i]`` (a block of a
    symmetric matrix): that entry, always guarded, is set to 0 and not counted, so most rows need no
    second pass."""
    d = A.shape[1]
    for i in range(P.shape[0]):
        ai = a2[r0 + i]
        low = 0
        for j in range(P.shape[1]):
            v = ai + b2[j] - 2.0 * P[i, j]
            P[i, j] = v
            low += v <= guard * (ai + b2[j])
        if diag0 >= 0:
            P[i, diag0 + i] = 0.0
            low -= 1
        if low == 0:
            continue
        for j in range(P.shape[1]):
            if P[i, j] <= guard * (ai + b2[j]):
                s = 0.0
                for k in range(d):
                    t = A[r0 + i, k] - B[j, k]
                    s += t * t
                P[i, j] = s
    return P


def _rbf_inplace(D, sigma):
    """``D ← exp(−D/(2σ²))`` in place, in one compiled pass that releases the GIL (:func:`scaled_exp`)."""
    return scaled_exp(D, -1.0 / (2.0 * sigma * sigma))


def _block_rows(m: int) -> int:
    """Rows per block of a gram matrix with ``m`` columns (``GRAM_BLOCK_BYTES``, at least
    :data:`GRAM_MIN_ROWS`)."""
    return max(GRAM_MIN_ROWS, GRAM_BLOCK_BYTES // (8 * max(m, 1)))


def _blocked(A, B, finish):
    """The one path of every kernel computed from inner products: for each block of rows of A, the BLAS
    product ``A_blk Bᵀ``, then ``finish(block, r0, c0)`` in place while the block is in cache.

    When ``B is A`` the matrix is symmetric: a block holds rows ``r0 : r1`` and columns ``r0 :`` only
    (``c0 = r0``), and is written to the upper triangle and, transposed, to the lower one — half the
    products and half the finishing work, and a result exactly symmetric (inside a block's diagonal
    square, where BLAS computes both a·b and b·a, its upper triangle is mirrored).

    Parameters
    ----------
    A : ndarray of shape (n_A, d), float64, C-contiguous
    B : ndarray of shape (n_B, d), float64, C-contiguous
    finish : callable(block, r0, c0) or None
        Turns the products of rows ``r0 : r0 + len(block)`` and columns ``c0 : c0 + block.shape[1]``
        into kernel values, in place.

    Returns
    -------
    out : ndarray of shape (n_A, n_B)
    """
    n, m = A.shape[0], B.shape[0]
    out = np.empty((n, m))
    if n == 0 or m == 0:
        return out
    step = _block_rows(m)
    with one_blas_thread():  # each block's product is small: BLAS threads would cost more than they save
        if B is not A:
            Bt = B.T
            for r0 in range(0, n, step):
                blk = out[r0:r0 + step]
                np.dot(A[r0:r0 + step], Bt, out=blk)
                if finish is not None:
                    finish(blk, r0, 0)
            return out
        for r0 in range(0, n, step):
            r1 = min(r0 + step, n)
            blk = np.dot(A[r0:r1], A[r0:].T)
            if finish is not None:
                finish(blk, r0, r0)
            square = blk[:, :r1 - r0]  # a·b and b·a of its rows: BLAS may round them differently
            lower = np.tril_indices(r1 - r0, -1)
            square[lower] = square.T[lower]
            out[r0:r1, r0:] = blk
            out[r1:, r0:r1] = blk[:, r1 - r0:].T
    return out


def _row_norms(A):
    return np.einsum("ij,ij->i", A, A)


def _sq_dists(A, B, finish=None):
    """Squared distances ``‖a_i − b_j‖²`` through BLAS (``‖a‖² + ‖b‖² − 2 a·b``, cancellation guarded,
    ``DIST_RTOL``), block by block; ``finish(block)`` then runs on each block of distances in cache."""
    a2 = _row_norms(A)
    b2 = a2 if B is A else _row_norms(B)
    guard = (A.shape[1] + 2) * np.finfo(np.float64).eps / DIST_RTOL

    def dist(blk, r0, c0):
        _guarded_sq_dists(blk, a2, b2[c0:], A, B[c0:], r0, guard, r0 - c0 if B is A else -1)
        if finish is not None:
            finish(blk)

    return _blocked(A, B, dist)


def _rbf_gram(A, B, sigma):
    """exp(−‖a − b‖²/(2σ²)): distances and exp block by block (:func:`_sq_dists`)."""
    return _sq_dists(A, B, lambda blk: _rbf_inplace(blk, sigma))


def _linear_gram(A, B):
    return _blocked(A, B, None)


def _poly_inplace(blk, degree: int, gamma, coef0):
    """``blk ← (γ blk + c0)^degree`` in place; the integer power by repeated products (``degree − 1``
    roundings, each far cheaper than ``pow``)."""
    np.multiply(blk, gamma, out=blk)
    np.add(blk, coef0, out=blk)
    if degree > 1:
        base = blk.copy()
        for _ in range(degree - 1):
            np.multiply(blk, base, out=blk)


def _poly_gram(A, B, degree: int, gamma, coef0):
    """(γ a·b + c0)^degree, finished block by block by :func:`_poly_inplace`."""
    return _blocked(A, B, lambda blk, r0, c0: _poly_inplace(blk, degree, gamma, coef0))


#: A result of at most this many bytes (64 MiB) is allocated without asking the system for room: the
#: question (``/proc/meminfo``, the rlimits, the cgroup's files) costs about 0.1 ms, as much as a
#: 300 × 300 gram, on every block of a prediction.
GRAM_UNCHECKED_BYTES = 2**26


def _check_gram_memory(n_a: int, n_b: int, same: bool, what: str) -> None:
    """Refuse, before allocating, an (n_A, n_B) float64 result that does not fit in memory (results
    above :data:`GRAM_UNCHECKED_BYTES`)."""
    if 8.0 * n_a * n_b <= GRAM_UNCHECKED_BYTES:
        return

    def need(m):
        return 8.0 * m * (m if same else n_b)

    check_memory(need(n_a), what=what, n=n_a, n_max=lambda room: largest_n(need, room),
                 advice=(", or compute the matrix in blocks of rows (e.g. gram(A[i:j], B))" if not same else
                         ", or compute it in blocks of rows (gram(A[i:j], A))"))


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
        Each entry to relative accuracy ``DIST_RTOL`` (BLAS ``‖a‖² + ‖b‖² − 2 a·b``, entries
        that cancel summed directly); the diagonal of ``squared_distances(A)`` is exactly 0.

    Raises
    ------
    MemoryLimitError
        Before allocating, when the (n_A, n_B) result does not fit in memory.
    """
    same = B is None
    A, B = _check_pair(A, B)
    _check_gram_memory(A.shape[0], B.shape[0], same, "squared_distances")
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
    return _rbf_inplace(np.array(D, dtype=np.float64, order="C"), sigma)


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

    Raises
    ------
    MemoryLimitError
        Before allocating, when the (n_A, n_B) result does not fit in memory.

    Notes
    -----
    The named kernels share one path: BLAS inner products ``A Bᵀ`` in blocks of rows sized to the
    cache (``GRAM_BLOCK_BYTES``), each block finished in place — squared distances with their
    cancellation guarded (``DIST_RTOL``) and an exp compiled to vector code, within one ulp and the
    same on every processor, for "rbf"; ``(γ·+c0)^degree`` for "poly".
    """
    same = B is None
    A, B = _check_pair(A, B)
    _check_kernel_spec(kernel)
    _check_gram_memory(A.shape[0], B.shape[0], same, "gram")
    if _is_kernel_object(kernel):
        return _object_gram(kernel, A, B, same)
    if kernel == "rbf":
        return _rbf_gram(A, B, check_positive(sigma, "sigma"))
    if kernel == "linear":
        return _linear_gram(A, B)
    if kernel == "poly":
        if int(degree) != degree or degree < 1:
            raise ValueError(f"degree must be a positive integer; got {degree!r}.")
        return _poly_gram(A, B, int(degree), check_positive(gamma, "gamma"), float(coef0))
    raise ValueError(f"kernel must be one of {KERNELS}; got {kernel!r}.")


class GramRows:
    """Rows of the gram matrix of one point set, computed on demand through :func:`gram`'s path.

    An SMO solver that keeps kernel rows in a cache (libsvm's design: Chang & Lin 2011, §5.1) asks for
    one row, or the tail of one, at a time: ``K(x_i, x_j)`` for ``j`` in ``start:stop``. Each is a BLAS
    product of the points with ``x_i``, finished in place as a block of :func:`gram` is — squared
    distances with their cancellation guarded (``DIST_RTOL``; ``K_ii`` exact) and the compiled vector exp for
    "rbf", ``(γ·+c0)^degree`` for "poly" — so a row equals the matching row of :func:`gram` to
    rounding.

    Parameters
    ----------
    X : array_like of shape (n, d)
        The points (copied).
    kernel : {"rbf", "linear", "poly"}
        A named kernel (a kernel object computes whole blocks only: use :func:`gram`).
    sigma, degree, gamma, coef0
        As in :func:`gram`.

    Attributes
    ----------
    points : ndarray of shape (n, d), float64, C-contiguous
        The copy of X the rows are computed from. A solver may permute its rows (libsvm's shrinking
        moves the inactive points to the end), together with ``sq_norms``.
    sq_norms : ndarray of shape (n,)
        ``‖x_i‖²`` of ``points``, in the same order.
    diagonal : ndarray of shape (n,)
        ``K(x_i, x_i)`` of the points in the order given (:func:`kernel_diagonal`).
    kernel : str
        The kernel's name.
    """

    def __init__(self, X, *, kernel="rbf", sigma: float = 1.0, degree: int = 3, gamma: float = 1.0,
                 coef0: float = 1.0):
        if not (isinstance(kernel, str) and kernel in KERNELS):
            raise ValueError(f"GramRows computes the rows of a named kernel {KERNELS}; got {kernel!r} "
                             "(a kernel object's gram comes whole from gram()).")
        self.points = np.array(check_matrix(X, "X"), dtype=np.float64, order="C")
        self.sq_norms = _row_norms(self.points)
        self.kernel = kernel
        if kernel == "rbf":
            self._sigma = check_positive(sigma, "sigma")
            self._guard = (self.points.shape[1] + 2) * np.finfo(np.float64).eps / DIST_RTOL
        elif kernel == "poly":
            if int(degree) != degree or degree < 1:
                raise ValueError(f"degree must be a positive integer; got {degree!r}.")
            self._degree, self._gamma, self._coef0 = int(degree), check_positive(gamma, "gamma"), float(coef0)
        self.diagonal = kernel_diagonal(kernel, self.points, sigma=sigma, degree=degree, gamma=gamma, coef0=coef0)

    def row(self, i: int, start: int, stop: int, out) -> None:
        """``out[:] = K(points[i], points[start:stop])``.

        Parameters
        ----------
        i, start, stop : int
            ``0 ≤ i < n``, ``0 ≤ start ≤ stop ≤ n``.
        out : ndarray of shape (stop − start,), float64, C-contiguous
            Written in place (e.g. a slice of a cache row).
        """
        n = self.points.shape[0]
        if not (0 <= i < n and 0 <= start <= stop <= n):
            raise ValueError(f"row {i}, columns {start}:{stop} are outside the {n} × {n} gram matrix.")
        if out.shape != (stop - start,) or out.dtype != np.float64 or not out.flags.c_contiguous:
            raise ValueError(f"out must be a C-contiguous float64 array of shape ({stop - start},); got "
                             f"{out.dtype} of shape {out.shape}.")
        B = self.points[start:stop]
        np.dot(B, self.points[i], out=out)
        if self.kernel == "rbf":
            # the point's own column, when in range, is set to 0 directly (as on a gram's diagonal)
            _guarded_sq_dists(out[None, :], self.sq_norms, self.sq_norms[start:stop], self.points, B, i,
                              self._guard, i - start if start <= i < stop else -1)
            _rbf_inplace(out, self._sigma)
        elif self.kernel == "poly":
            _poly_inplace(out, self._degree, self._gamma, self._coef0)


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

