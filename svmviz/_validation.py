"""Shared input checks (each raises ``ValueError`` saying what to fix) and the binary classifiers' mixin.

Two layers. The estimators (``fit``/``predict``) validate with scikit-learn's own machinery through
:func:`validate_fit_data` and :func:`validate_predict_data` (``validate_data``, ``check_is_fitted``,
``type_of_target``), so they behave as scikit-learn estimators do. The array functions of the public
API (gram matrices, solvers on precomputed kernels, studies) use the light checks
:func:`check_matrix`, :func:`check_labels`, :func:`check_binary_labels`, :func:`check_positive`.

Shared internal module of svmviz: its names serve the package's other modules; not public API.
"""
from __future__ import annotations

import numbers
import os
from collections.abc import Mapping

import numpy as np

# scikit-learn is imported inside validate_fit_data and validate_predict_data, the estimators' checks,
# not here: it costs ~0.7 s of CPU to import (scipy.stats, pandas, joblib), and the data sets and
# the app's array functions need only the light checks (the path page imports no sklearn).


def check_matrix(X, name: str = "X", *, min_rows: int = 1) -> np.ndarray:
    """Return ``X`` as a C-contiguous float64 (n, d) array, or raise ``ValueError``."""
    try:
        A = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric; could not convert it to numbers ({exc}).") from None
    if A.ndim == 1:
        A = A.reshape(-1, 1)
    if A.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array (n_samples, n_features); got shape {A.shape}.")
    if A.shape[0] < min_rows:
        raise ValueError(f"{name} needs at least {min_rows} rows; got {A.shape[0]}.")
    if A.shape[1] == 0:
        raise ValueError(f"{name} has no feature columns.")
    # one sum is finite only when every entry is (a NaN or ±inf propagates); only a sum that is not
    # (those, or an overflow of finite entries) is checked entry by entry, with an n×d mask
    if not np.isfinite(A.sum()) and not np.all(np.isfinite(A)):
        bad = np.argwhere(~np.isfinite(A))[0]
        raise ValueError(
            f"{name} contains NaN or infinite values (first at row {bad[0]}, column {bad[1]}); "
            "remove or impute them."
        )
    return np.ascontiguousarray(A)


def check_labels(y, n: int | None = None):
    """Validate class labels (1-D, n of them, finite, at least two classes).

    Returns ``(labels, classes)``: the labels as a 1-D array and their sorted distinct values.
    """
    yy = np.asarray(y)
    if yy.ndim != 1:
        yy = yy.ravel()
    if n is not None and yy.shape[0] != n:
        raise ValueError(f"y has {yy.shape[0]} labels but X has {n} rows; they must match.")
    if yy.dtype.kind == "f" and not np.all(np.isfinite(yy)):
        raise ValueError("y contains NaN or infinite values; every point needs a class label.")
    classes = np.unique(yy)
    if classes.size < 2:
        raise ValueError(
            f"y has only one class ({classes[0] if classes.size else 'none'}); a classifier needs two."
        )
    return yy, classes


def check_binary_labels(y, n: int | None = None, *, min_per_class: int = 1):
    """Map two-valued labels to ±1 floats.

    Returns ``(y_pm, classes)`` with ``classes[0] -> -1`` and ``classes[1] -> +1``. Labels already in
    {-1, +1} keep their meaning.
    """
    yy, classes = check_labels(y, n)
    if classes.size > 2:
        raise ValueError(
            f"y has {classes.size} classes ({', '.join(map(str, classes[:6]))}); this method is binary — "
            "choose a two-class data set or merge classes."
        )
    y_pm = np.where(yy == classes[1], 1.0, -1.0)
    counts = (int(np.sum(y_pm < 0)), int(np.sum(y_pm > 0)))
    if min(counts) < min_per_class:
        raise ValueError(
            f"each class needs at least {min_per_class} points; got {counts[0]} of {classes[0]} and "
            f"{counts[1]} of {classes[1]}."
        )
    return np.ascontiguousarray(y_pm), classes


def check_positive(value, name: str, *, allow_zero: bool = False) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number; got {value!r}.") from None
    if not np.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
        need = "non-negative" if allow_zero else "positive"
        raise ValueError(f"{name} must be a finite {need} number; got {value!r}.")
    return v


# ----------------------------------------------------------------------------------------------
# estimators: scikit-learn's own validation (one path for every estimator of the package)
# ----------------------------------------------------------------------------------------------
#: the estimators' smallest training set: two points (one per class at least)
MIN_TRAIN_SAMPLES = 2


class BinaryClassifierMixin:
    """A binary-only classifier: its scikit-learn tag (``tags.classifier_tags.multi_class``) and its
    ``predict``, the sign of ``decision_function``.

    Put it left of ``ClassifierMixin``; :func:`validate_fit_data` with ``binary=True`` raises the
    matching error ("Only binary classification is supported...") on a multi-class target.
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def predict(self, X):
        """Class labels: ``classes_[1]`` where f(x) > 0, else ``classes_[0]`` (f exactly 0 counts as
        ``classes_[0]``: [τ]_* counts 0 as an error).

        Parameters
        ----------
        X : array-like of shape (m, d)
            Points to classify.

        Returns
        -------
        ndarray of shape (m,)
        """
        return np.where(self.decision_function(X) > 0, self.classes_[1], self.classes_[0])


def validate_fit_data(estimator, X, y, *, binary: bool, min_samples: int = MIN_TRAIN_SAMPLES,
                      max_classes: int | None = None, accept_sparse: bool = False):
    """Validate ``fit(X, y)`` input with scikit-learn's machinery, before anything large is allocated.

    ``sklearn.utils.validation.validate_data`` checks X (2-D, numeric, finite, dense: sparse,
    complex and object input get scikit-learn's errors; at least ``min_samples`` rows and one
    column), y (1-D: shape (n, 1) is raveled with a ``DataConversionWarning``; finite; as many
    labels as rows) and records ``n_features_in_`` and, for a DataFrame, ``feature_names_in_``.
    ``type_of_target`` then refuses continuous and multi-output targets ("Unknown label type"),
    a single class, more than two classes when ``binary``, and more than ``max_classes`` classes.
    ``accept_sparse``: a scipy sparse X is made dense (:func:`densify`) instead of refused.

    Returns
    -------
    X : ndarray of shape (n, d), float64, C-contiguous and writeable
    y : ndarray of shape (n,), the labels as given
    classes : ndarray of shape (n_classes,), sorted distinct labels
    """
    from sklearn.utils.multiclass import check_classification_targets, type_of_target
    from sklearn.utils.validation import validate_data

    X, y = validate_data(estimator, X, y, dtype=np.float64, order="C", ensure_min_samples=min_samples,
                         accept_sparse=("csr", "csc", "coo") if accept_sparse else False)
    X = densify(X, what=f"{type(estimator).__name__}.fit")
    if not X.flags.writeable:  # read-only input (e.g. a memmap): numba would compile a second variant
        X = X.copy()
    check_classification_targets(y)
    classes = np.unique(y)
    if classes.size < 2:
        raise ValueError(
            f"y has only one class ({classes[0] if classes.size else 'none'}); a classifier needs two."
        )
    if binary and classes.size > 2:
        raise ValueError(
            f"Only binary classification is supported. The type of the target is "
            f"{type_of_target(y, input_name='y')}: y has {classes.size} classes "
            f"({', '.join(map(str, classes[:6]))}{', ...' if classes.size > 6 else ''}); "
            f"{type(estimator).__name__} is binary. For more classes wrap it in scikit-learn's "
            "OneVsRestClassifier or OneVsOneClassifier (sklearn.multiclass), e.g. "
            f"OneVsRestClassifier({type(estimator).__name__}()).fit(X, y); or merge classes."
        )
    if max_classes is not None and classes.size > max_classes:
        raise ValueError(
            f"y has {classes.size} classes; {type(estimator).__name__} accepts at most {max_classes} "
            "(its Newton systems grow with the square of the number of classes). Is y a class label? "
            "Merge classes or use fewer."
        )
    return X, y, classes


def binary_targets(y, classes) -> np.ndarray:
    """Two-class labels as ±1 floats: ``classes[0] -> -1``, ``classes[1] -> +1``."""
    return np.ascontiguousarray(np.where(y == classes[1], 1.0, -1.0))


def validate_predict_data(estimator, X, *, accept_sparse: bool = False) -> np.ndarray:
    """Input of ``predict``/``decision_function``: ``NotFittedError`` before ``fit``, then the same
    checks as :func:`validate_fit_data` for X plus the fitted width (``n_features_in_``) and column
    names (``feature_names_in_``: a DataFrame with other or reordered columns is refused)."""
    from sklearn.utils.validation import check_is_fitted, validate_data

    check_is_fitted(estimator)
    X = validate_data(estimator, X, reset=False, dtype=np.float64, order="C",
                      accept_sparse=("csr", "csc", "coo") if accept_sparse else False)
    X = densify(X, what=f"{type(estimator).__name__}.predict")
    if not X.flags.writeable:
        X = X.copy()
    return X

def densify(X, *, what: str) -> np.ndarray:
    """A scipy sparse matrix as a dense C-contiguous float64 array, refused first (naming its size) if
    the dense copy would not fit in memory; a dense array unchanged."""
    if not hasattr(X, "toarray"):
        return X
    n, d = X.shape
    check_memory(8.0 * n * d, what=f"{what} (the dense copy of a sparse X)", n=n,
                 n_max=lambda room: int(room // (8 * max(d, 1))))
    return np.ascontiguousarray(X.toarray(), dtype=np.float64)


def check_int(value, name: str, minimum: int = 1, maximum: int | None = None) -> int:
    """``value`` as an int in ``[minimum, maximum]``: an integer, or a float with an integral value
    (not a bool, not None); otherwise a ValueError saying which integers are allowed."""
    if isinstance(value, bool) or value is None:
        raise ValueError(f"{name} must be an integer ≥ {minimum}; got {value!r}.")
    if isinstance(value, numbers.Integral):
        v = int(value)
    elif isinstance(value, numbers.Real) and float(value).is_integer():
        v = int(value)
    else:
        raise ValueError(f"{name} must be an integer ≥ {minimum}; got {value!r}.")
    if v < minimum or (maximum is not None and v > maximum):
        rng = f"between {minimum} and {maximum}" if maximum is not None else f"≥ {minimum}"
        raise ValueError(f"{name} must be an integer {rng}; got {value!r}.")
    return v


def check_L(L) -> tuple[float, float]:
    """Wahba's misclassification costs (L(−1), L(+1)): a pair of positive numbers."""
    if isinstance(L, (str, bytes, Mapping)) or np.ndim(L) != 1 or len(L) != 2:
        raise ValueError(f"L must be a pair (L(-1), L(+1)) of positive numbers; got {L!r}.")
    try:
        Lm, Lp = (float(v) for v in L)
    except (TypeError, ValueError):
        raise ValueError(f"L must be a pair (L(-1), L(+1)) of positive numbers; got {L!r}.") from None
    check_positive(Lm, "L(-1)")
    check_positive(Lp, "L(+1)")
    return Lm, Lp


def check_lambdas(lambdas, name: str = "lambdas", symbol: str = "λ") -> np.ndarray:
    """A grid of λ (or σ, scales …): a non-empty 1-D array of finite positive numbers, C-contiguous float64."""
    lam = np.atleast_1d(np.asarray(lambdas, dtype=np.float64))
    if lam.ndim != 1 or lam.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D sequence of positive numbers.")
    if not np.all(np.isfinite(lam)) or np.any(lam <= 0):
        raise ValueError(f"every {symbol} must be a finite positive number; got "
                         f"{lam[~(np.isfinite(lam) & (lam > 0))][:3]}.")
    return np.ascontiguousarray(lam)


def check_solver_params(tol, max_iter) -> tuple[float, int]:
    """The SMO stopping rule: tol > 0 and max_iter a positive integer."""
    tol = check_positive(tol, "tol")
    if int(max_iter) != max_iter or max_iter < 1:
        raise ValueError(f"max_iter must be a positive integer; got {max_iter!r}.")
    return tol, int(max_iter)


def check_sample_weight(sample_weight, n: int, *, allow_negative: bool = False) -> np.ndarray:
    """``fit``'s ``sample_weight``: None (every weight 1) or n finite non-negative numbers, not all 0.
    ``allow_negative``: n finite numbers of any sign (the caller decides what weights ≤ 0 mean).

    Returns
    -------
    ndarray of shape (n,), float64, C-contiguous
    """
    if sample_weight is None:
        return np.ones(n)
    try:
        w = np.asarray(sample_weight, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"sample_weight must be numbers; got {type(sample_weight).__name__}.") from None
    if w.ndim == 0:  # one number for every sample, as scikit-learn accepts
        w = np.full(n, float(w))
    if w.ndim != 1 or w.shape[0] != n:
        raise ValueError(f"sample_weight has shape {w.shape} but X has {n} rows; sample_weight must have "
                         f"shape ({n},).")
    if not np.all(np.isfinite(w)):
        raise ValueError("sample_weight contains NaN or infinite values.")
    if allow_negative:
        return np.ascontiguousarray(w)
    if np.any(w < 0):
        raise ValueError(f"sample_weight must be non-negative; got {w[w < 0][:3].tolist()} "
                         f"(first at row {int(np.flatnonzero(w < 0)[0])}).")
    if not np.any(w > 0):
        raise ValueError("Sample weights must contain at least one non-zero number: every sample_weight is 0, "
                         "there is nothing to fit.")
    return np.ascontiguousarray(w)



def check_kernel_params_used(kernel, *, sigma=None, gamma=None, sigma_default=None, gamma_default=None,
                             gamma_means_sigma: bool = False, degree=None, coef0=None, degree_default=None,
                             coef0_default=None) -> None:
    """Refuse a kernel parameter the chosen kernel would ignore.

    ``sigma`` is the Gaussian width of ``kernel="rbf"``; ``gamma`` the γ of the polynomial kernel
    (γ x·x' + c0)^degree. A kernel object computes its gram from its own parameters. A parameter set
    to anything but its default (``sigma_default`` / ``gamma_default``; None when the default is None)
    beside a kernel that does not read it would leave the fit silently unchanged: refused, with what to
    set instead. ``gamma_means_sigma``: the estimator maps ``gamma`` to σ = 1/√(2γ) for the rbf kernel
    (scikit-learn's name), so ``gamma`` is read there too.

    Parameters
    ----------
    kernel : str or kernel object
        The estimator's ``kernel``.
    sigma, gamma : float or None
        The estimator's ``sigma`` and ``gamma``.
    sigma_default, gamma_default : float or None
        Their defaults in the estimator's signature.
    gamma_means_sigma : bool
        The estimator reads ``gamma`` as σ = 1/√(2γ) for the rbf kernel.
    degree, coef0 : int, float or None
        The estimator's ``degree`` and ``coef0`` of the polynomial kernel.
    degree_default, coef0_default : int, float or None
        Their defaults in the estimator's signature.

    Raises
    ------
    ValueError
        ``sigma`` given for a kernel other than "rbf", ``gamma`` for one that does not read it, or
        ``degree`` or ``coef0`` for a kernel other than "poly".
    """
    name = kernel if isinstance(kernel, str) else None
    what = f"kernel={kernel!r}" if name is not None else f"the kernel object {type(kernel).__name__}"
    own = "" if name is not None else " A kernel object computes its gram from its own parameters: set them on it."
    if sigma is not None and name != "rbf" and not _same(sigma, sigma_default):
        raise ValueError(f"sigma={sigma!r} has no meaning for {what}: σ is the width of the Gaussian (rbf) kernel "
                         f"exp(−‖x − x'‖²/(2σ²)) and would be ignored. Use kernel='rbf', or leave sigma at "
                         f"{sigma_default!r}.{own}")
    reads_gamma = name == "poly" or (gamma_means_sigma and name == "rbf")
    if gamma is not None and not reads_gamma and not _same(gamma, gamma_default):
        mapping = ("" if gamma_means_sigma or name != "rbf" else
                   " For the rbf kernel set sigma = 1/√(2γ) instead (scikit-learn's gamma = 1/(2σ²)).")
        raise ValueError(f"gamma={gamma!r} has no meaning for {what}: γ is the coefficient of the polynomial kernel "
                         f"(γ x·x' + c0)^degree and would be ignored. Leave gamma at {gamma_default!r}.{mapping}{own}")
    for pname, value, default in (("degree", degree, degree_default), ("coef0", coef0, coef0_default)):
        if value is not None and name != "poly" and not _same(value, default):
            raise ValueError(f"{pname}={value!r} has no meaning for {what}: it is a parameter of the polynomial "
                             f"kernel (γ x·x' + c0)^degree and would be ignored. Use kernel='poly', or leave {pname} "
                             f"at {default!r}.{own}")


def _same(value, default) -> bool:
    if default is None:
        return value is None
    try:
        return float(value) == float(default)
    except (TypeError, ValueError):
        return False

# ----------------------------------------------------------------------------------------------
# memory: what this process may still allocate, and the refusal before a large allocation
# ----------------------------------------------------------------------------------------------
class MemoryLimitError(MemoryError, ValueError):
    """A problem refused before allocation because it would not fit in the memory this process may use.

    A ``MemoryError`` (what an allocation failure is) and a ``ValueError`` (what a refused input is):
    ``except`` clauses written for either catch it.
    """


def _read_int(path) -> int | None:
    try:
        with open(path) as fh:
            text = fh.read().strip()
    except (OSError, UnicodeDecodeError):
        return None
    if text == "max":
        return None
    try:
        return int(text)
    except ValueError:
        return None


def _meminfo_available(meminfo: str = "/proc/meminfo") -> int | None:
    """Bytes the kernel says can be allocated without swapping (``MemAvailable``), or None if unknown."""
    try:
        with open(meminfo) as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def _status_bytes(field: str, status: str = "/proc/self/status") -> int:
    """A ``kB`` field of /proc/self/status (VmSize, VmData) in bytes; 0 if unknown."""
    try:
        with open(status) as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _rlimit_room(status: str = "/proc/self/status") -> tuple[int, str] | None:
    """The tighter of ``RLIMIT_AS`` − address space in use (VmSize) and ``RLIMIT_DATA`` − data in use
    (VmData), with its name; None when neither limit is set (``ulimit -v`` / ``ulimit -d``)."""
    try:
        import resource
    except ImportError:  # not on POSIX
        return None
    best = None
    for name, field in (("RLIMIT_AS", "VmSize"), ("RLIMIT_DATA", "VmData")):
        try:
            soft, _ = resource.getrlimit(getattr(resource, name))
        except (AttributeError, OSError, ValueError):
            continue
        if soft == resource.RLIM_INFINITY or soft < 0:
            continue
        room = max(0, int(soft) - _status_bytes(field, status))
        if best is None or room < best[0]:
            best = (room, f"{name} ({int(soft) / 1e9:.2f} GB)")
    return best


def _cgroup_room(proc_cgroup: str = "/proc/self/cgroup", root: str = "/sys/fs/cgroup") -> tuple[int, str] | None:
    """Room left under this process's cgroup memory limit (Slurm, Docker, systemd), or None if none.

    cgroup v2: ``memory.max`` − ``memory.current`` of the process's group (line ``0::/path`` of
    /proc/self/cgroup) and of each ancestor; v1: ``memory.limit_in_bytes`` − ``memory.usage_in_bytes``
    under the ``memory`` controller's hierarchy. The tightest group counts; "max" and v1's huge
    sentinel (≥ 2⁶⁰) mean no limit.
    """
    try:
        with open(proc_cgroup) as fh:
            lines = fh.read().splitlines()
    except OSError:
        return None
    candidates = []  # (directory, limit file, usage file, version)
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        rel = path.strip("/")
        if controllers == "":
            for base in (root, os.path.join(root, "unified")):
                candidates.append((base, rel, "memory.max", "memory.current", "v2"))
        elif "memory" in controllers.split(","):
            candidates.append((os.path.join(root, "memory"), rel, "memory.limit_in_bytes",
                               "memory.usage_in_bytes", "v1"))
    best = None
    for base, rel, limit_file, usage_file, version in candidates:
        parts = [p for p in rel.split("/") if p]
        for depth in range(len(parts), -1, -1):  # the group, then each ancestor up to the root
            d = os.path.join(base, *parts[:depth])
            limit = _read_int(os.path.join(d, limit_file))
            if limit is None or limit >= 2**60:
                continue
            usage = _read_int(os.path.join(d, usage_file)) or 0
            room = max(0, limit - usage)
            if best is None or room < best[0]:
                best = (room, f"the cgroup {version} limit {limit_file} ({limit / 1e9:.2f} GB)")
    return best


def memory_room() -> tuple[int | None, str]:
    """Bytes this process can still allocate, and which limit says so: the tightest of the kernel's
    ``MemAvailable``, the process's ``RLIMIT_AS``/``RLIMIT_DATA`` (``ulimit -v``/``-d``) and its
    cgroup's memory limit (v2 ``memory.max``, v1 ``memory.limit_in_bytes``).

    Returns
    -------
    room : int or None
        None when nothing is known.
    source : str
        Which limit is the tightest.
    """
    found = []
    avail = _meminfo_available()
    if avail is not None:
        found.append((avail, "MemAvailable"))
    for probe in (_rlimit_room, _cgroup_room):
        r = probe()
        if r is not None:
            found.append(r)
    if not found:
        return None, "unknown"
    return min(found)


def check_memory(need: float, *, what: str, n: int, n_max=None, available=None, source: str | None = None,
                 advice: str = "") -> None:
    """Refuse, before allocating, a computation that needs more memory than this process can get.

    Parameters
    ----------
    need : float
        Bytes the computation needs at its peak.
    what : str
        What is refused (e.g. "SVMClassifier.fit").
    n : int
        The size asked for.
    n_max : callable(room) -> int, optional
        The largest n whose need fits in ``room`` bytes (said in the message).
    available : int, optional
        Bytes available; default :func:`memory_room` (tests pass a simulated limit).
    source : str, optional
        What limits ``available`` (said in the message).
    advice : str, default ""
        What else to do, appended to the message.

    Raises
    ------
    MemoryLimitError
        A ``MemoryError`` (and ``ValueError``) naming the bytes needed, the bytes available, the
        limit that binds and the largest n that fits.
    """
    if available is None:
        room, source = memory_room()
    else:
        room, source = int(available), source or "the given limit"
    if room is None or need <= room:
        return
    fits = ""
    if n_max is not None:
        m = int(n_max(room))
        fits = f"; the largest n that fits is about {m}" if m > 0 else "; no n fits"
    raise MemoryLimitError(
        f"{what} at n = {n} needs about {need / 1e9:.2f} GB of working memory but only {room / 1e9:.2f} GB can be "
        f"allocated (the tightest limit: {source}){fits}. Use fewer points (e.g. a stratified "
        f"subsample){advice}.")


def check_kernel_memory(n: int, *, what: str, copies: float = 2.0, available=None) -> None:
    """:func:`check_memory` for a computation that holds ``copies`` n×n float64 matrices at once
    (a kernel matrix and its copies or companions).

    Parameters
    ----------
    n : int
    what : str
    copies : float, default 2.0
    available : int, optional

    Raises
    ------
    MemoryLimitError
    """
    def need(m):
        return 8.0 * copies * m * m

    check_memory(need(n), what=what, n=n, available=available, n_max=lambda room: largest_n(need, room))


def largest_n(need_of, room: float, hi: int = 1 << 40) -> int:
    """The largest n ≥ 0 with ``need_of(n) ≤ room`` for a need that grows with n (bisection).

    Parameters
    ----------
    need_of : callable(int) -> float
    room : float
    hi : int, default 2**40

    Returns
    -------
    int
    """
    lo = 0
    if need_of(0) > room:
        return 0
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if need_of(mid) <= room:
            lo = mid
        else:
            hi = mid
    return lo


#: Bytes of kernel block that :func:`predict_in_chunks` computes at once: 2 MiB (e.g. 100 test rows
#: against 2,600 support vectors), small enough for the block to stay in cache between its passes
#: (distances, exp, the product with the coefficients): ``bench/bench_predict_memory.py
#: --throughput-only`` times SVMClassifier.predict on 50,000 rows × 2,589 support vectors with blocks
#: of 0.5 / 2 / 8 / 32 MiB and one 1 GB block (CPU seconds; see its output).
PREDICT_BLOCK_BYTES = 2 * 2**20


def predict_in_chunks(fun, X, n_basis: int, block_bytes: int | None = None) -> np.ndarray:
    """``fun(X[s:e])`` over consecutive row blocks of X, concatenated along the first axis.

    A decision function builds an (m, n_basis) kernel block for m test rows; in blocks of
    ``block_bytes // (8 n_basis)`` rows its peak memory is bounded whatever m.

    Parameters
    ----------
    fun : callable(ndarray of shape (k, d)) -> ndarray of shape (k, ...)
    X : ndarray of shape (m, d)
    n_basis : int
        Columns of the kernel block (support vectors, basis points).
    block_bytes : int, optional
        Default :data:`PREDICT_BLOCK_BYTES`.

    Returns
    -------
    ndarray of shape (m, ...)
    """
    if block_bytes is None:
        block_bytes = PREDICT_BLOCK_BYTES
    m = X.shape[0]
    rows = max(1, int(block_bytes) // (8 * max(1, int(n_basis))))
    if m <= rows:
        return fun(X)
    first = np.asarray(fun(X[:rows]))
    out = np.empty((m,) + first.shape[1:], dtype=first.dtype)
    out[:rows] = first
    for s in range(rows, m, rows):
        out[s:s + rows] = fun(X[s:s + rows])
    return out
