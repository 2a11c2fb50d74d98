"""The whole study spec, :class:`StudySpec`, and its checking: the TOML structure (a dict) → a validated
:class:`StudySpec`, every error naming its field (:func:`spec_from_dict`; both public through
:mod:`svmviz.studies.spec`)."""
from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field

import numpy as np

from ._spec_model import (_NAME, IRWLS_METHODS, IVM_METHODS, MAX_GRID, MAX_TASKS, SETTINGS, SVM_CRITERIA, DataSpec,
                          IRWLSSpec, IVMSpec, SpecError, SVMSpec, multiclass_sections)
from ._spec_write import spec_to_dict

__all__ = ["StudySpec", "spec_from_dict"]


@dataclass(frozen=True)
class StudySpec:
    """A whole study (its TOML form: ``svmviz.studies.spec``).

    Attributes
    ----------
    name : str
        Letters, digits, ``_ . -``.
    datasets : tuple of DataSpec
    replicates : int
    seed : int
        Root seed: replicate r of every data set trains on seed ``SeedSequence([seed, r])``
        (common random numbers across data sets); test, tuning and fold seeds are drawn from
        ``SeedSequence([seed, r, 1])``.
    test_size : int
        Independent test points per replicate (simulated data).
    setting : {"standard", "nonstandard"}
    costs : dict
        C_plus, C_minus, pi_plus, pi_minus of the non-standard setting (Wahba et al. 2001, §5).
    svm, irwls, ivm : section objects or None
    title, description : str
    published : str or None
        Key of the published numbers shown beside the results (:mod:`svmviz.published`).
    base_dir : str
        Folder CSV paths are relative to (not written to TOML).
    """

    name: str
    datasets: tuple
    replicates: int = 10
    seed: int = 0
    test_size: int = 10_000
    setting: str = "standard"
    costs: dict = field(default_factory=lambda: dict(C_plus=1.0, C_minus=2.0, pi_plus=0.1, pi_minus=0.9))
    svm: SVMSpec | None = None
    irwls: IRWLSSpec | None = None
    ivm: IVMSpec | None = None
    title: str = ""
    description: str = ""
    published: str | None = None
    base_dir: str = field(default="", compare=False)

    @property
    def n_tasks(self) -> int:
        return len(self.datasets) * self.replicates

    @property
    def multiclass(self) -> bool:
        """Whether the spec's data may have three or more classes (:func:`multiclass_sections`)."""
        return multiclass_sections(self.svm, self.irwls, self.ivm)

    def replace(self, **changes) -> "StudySpec":
        """A copy with fields changed, validated again (e.g. ``spec.replace(replicates=5)``)."""
        return spec_from_dict({**spec_to_dict(self), **changes}, base_dir=self.base_dir)


# ------------------------------------------------------------------------------------ checking
_DATASET_KEYS = ["name", "n", "params", "label", "L", "test_size", "n_prototypes", "path", "label_column",
                 "standardize", "feature_columns", "classes", "one_vs_rest", "missing", "sha256"]
#: the keys only a CSV data set takes
_CSV_KEYS = ("path", "label_column", "feature_columns", "classes", "one_vs_rest", "sha256")
#: what a CSV data set may do with rows that have a missing cell
CSV_MISSING = ("drop", "median")
_SVM_KEYS = ["criteria", "lambdas", "log10_lambda", "n_lambda", "sigmas", "log10_sigma", "n_sigma", "k", "xa_rho",
             "rangacv_replicates", "sigma_z", "tol"]
_IRWLS_KEYS = ["methods", "s", "C", "kernel", "sigmas", "log10_sigma", "n_sigma", "n_prototypes", "prototypes", "k",
               "max_iter"]
_IVM_KEYS = ["methods", "sigma", "lambdas", "ln_lambda", "n_lambda", "tune_size"]
_COSTS_KEYS = ["C_plus", "C_minus", "pi_plus", "pi_minus"]


class _Reader:
    """Reads one table of the TOML dict, reporting unknown keys and bad values by their path."""

    def __init__(self, d, where: str):
        if not isinstance(d, dict):
            raise SpecError(f"{where} must be a table (key = value pairs); got {type(d).__name__}.")
        self.d = dict(d)
        self.where = where
        self.used = set()

    def _path(self, key):
        return f"{self.where}.{key}" if self.where else key

    def has(self, key):
        return key in self.d

    def get(self, key, default=None):
        self.used.add(key)
        return self.d.get(key, default)

    def _place(self) -> str:
        if not self.where:
            return "the spec"
        return f"[{self.where}]" if "[" not in self.where and "." not in self.where else self.where

    def expect(self, valid):
        """Refuse keys not in ``valid`` before reading any (a typo is named, not reported as a missing key)."""
        import difflib

        unknown = sorted(k for k in self.d if k not in valid)
        if not unknown:
            return
        key = unknown[0]
        close = difflib.get_close_matches(str(key), list(valid), n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else "."
        more = f" (and {', '.join(map(repr, unknown[1:]))})" if len(unknown) > 1 else ""
        raise SpecError(f"unknown key {key!r}{more} in {self._place()}{hint} Valid keys: {', '.join(valid)}.")

    def finish(self, valid):
        self.expect(valid)
        unknown = sorted(set(self.d) - self.used)
        if unknown:
            raise SpecError(f"unknown key(s) {', '.join(map(repr, unknown))} in {self._place()}; "
                            f"valid keys: {', '.join(valid)}.")

    def integer(self, key, default, *, lo=None, hi=None, allow_none=False):
        """The integer at ``key`` (an integral float accepted) within [lo, hi]; None if allowed."""
        v = self.get(key, default)
        if v is None and allow_none:
            return None
        if isinstance(v, bool) or not isinstance(v, (int, float)) or (isinstance(v, float) and not v.is_integer()):
            raise SpecError(f"{self._path(key)} must be an integer; got {v!r}.")
        v = int(v)
        if lo is not None and v < lo:
            raise SpecError(f"{self._path(key)} must be ≥ {lo}; got {v}.")
        if hi is not None and v > hi:
            raise SpecError(f"{self._path(key)} must be ≤ {hi}; got {v}.")
        return v

    def real(self, key, default, *, positive=False, lo=None, hi=None):
        """The finite real number at ``key`` (positive if asked) within [lo, hi]."""
        v = self.get(key, default)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise SpecError(f"{self._path(key)} must be a finite number; got {v!r}.")
        v = float(v)
        if positive and v <= 0:
            raise SpecError(f"{self._path(key)} must be positive; got {v}.")
        if lo is not None and v < lo:
            raise SpecError(f"{self._path(key)} must be ≥ {lo}; got {v}.")
        if hi is not None and v > hi:
            raise SpecError(f"{self._path(key)} must be ≤ {hi}; got {v}.")
        return v

    def text(self, key, default, *, choices=None):
        """The string at ``key``, one of ``choices`` if given; None when absent without a default."""
        v = self.get(key, default)
        if v is None:
            return None
        if not isinstance(v, str):
            raise SpecError(f"{self._path(key)} must be a string; got {v!r}.")
        if choices is not None and v not in choices:
            raise SpecError(f"{self._path(key)} must be one of {', '.join(map(repr, choices))}; got {v!r}.")
        return v

    def names(self, key, default, choices, *, what):
        v = self.get(key, default)
        if isinstance(v, str):
            v = [v]
        if not isinstance(v, (list, tuple)) or not v:
            raise SpecError(f"{self._path(key)} must be a non-empty list of {what}; got {v!r}.")
        bad = [x for x in v if x not in choices]
        if bad:
            raise SpecError(f"{self._path(key)}: unknown {what} {', '.join(map(repr, bad))}; "
                            f"choose from {', '.join(choices)}.")
        if len(set(v)) != len(v):
            raise SpecError(f"{self._path(key)} lists a {what} twice: {v!r}.")
        return tuple(v)

    def numbers(self, key, default, *, positive=True, allow_empty=False):
        v = self.get(key, default)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            v = [v]
        if not isinstance(v, (list, tuple)) or (not v and not allow_empty):
            raise SpecError(f"{self._path(key)} must be a non-empty list of numbers; got {v!r}.")
        out = []
        for x in v:
            if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) or (positive and x <= 0):
                raise SpecError(f"{self._path(key)}: every value must be a finite {'positive ' if positive else ''}"
                                f"number; got {x!r}.")
            out.append(float(x))
        return tuple(out)

    def grid(self, axis: str, symbol: str, *, default_range, default_num, log="log10"):
        """Explicit ``<axis>s = [...]`` or ``<log>_<axis> = [lo, hi]`` with ``n_<axis>`` points."""
        plural, rng, num = f"{axis}s", f"{log}_{axis}", f"n_{axis}"
        if self.has(plural):
            if self.has(rng) or self.has(num):
                raise SpecError(f"{self.where}: give either {plural} (a list) or {rng} and {num}, not both.")
            vals = self.numbers(plural, None)
            if len(vals) > MAX_GRID:
                raise SpecError(f"{self._path(plural)} has {len(vals)} values; at most {MAX_GRID}.")
            return tuple(sorted(set(vals)))
        lo_hi = self.get(rng, list(default_range))
        if (not isinstance(lo_hi, (list, tuple)) or len(lo_hi) != 2
                or not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
                           for x in lo_hi)):
            raise SpecError(f"{self._path(rng)} must be [low, high], the {log} of the smallest and largest "
                            f"{symbol}; got {lo_hi!r}.")
        lo, hi = float(lo_hi[0]), float(lo_hi[1])
        k = self.integer(num, default_num, lo=1, hi=MAX_GRID)
        if k > 1 and not lo < hi:
            raise SpecError(f"{self._path(rng)} needs low < high; got [{lo}, {hi}].")
        if abs(lo) > 300 or abs(hi) > 300:
            raise SpecError(f"{self._path(rng)} is outside the floating-point range; got [{lo}, {hi}].")
        exps = np.linspace(lo, hi, k) if k > 1 else np.array([lo])
        vals = np.exp(exps) if log == "ln" else 10.0 ** exps
        return tuple(float(v) for v in vals)


def _read_dataset(d, i: int, base_dir: str) -> DataSpec:
    from .. import data as _data

    r = _Reader(d, f"datasets[{i}]")
    r.expect(_DATASET_KEYS)
    name = r.text("name", None)
    if name is None:
        raise SpecError(f"datasets[{i}] needs a name: one of {', '.join(_data.GENERATORS)} or 'csv'.")
    if name != "csv" and name not in _data.GENERATORS:
        raise SpecError(f"datasets[{i}].name: unknown data set {name!r}; choose one of "
                        f"{', '.join(_data.GENERATORS)} or 'csv'.")
    real = name == "csv" or name in ("breast_cancer", "iris", "wine")
    n = r.integer("n", None if real else 200, lo=4, hi=10**6, allow_none=real)
    if name == "csv" and n is None:
        raise SpecError(f"datasets[{i}].n: a CSV data set needs n, the training rows per replicate "
                        "(the other rows are the test set).")
    params = r.get("params", {})
    if not isinstance(params, dict):
        raise SpecError(f"datasets[{i}].params must be a table of generator parameters; got {params!r}.")
    if name == "csv" and params:
        raise SpecError(f"datasets[{i}].params: a CSV data set takes path, label_column, feature_columns, "
                        "classes or one_vs_rest, missing and standardize, not params.")
    label = r.text("label", None) or name
    L = r.get("L", None)
    if L is not None:
        if (not isinstance(L, (list, tuple)) or len(L) != 2
                or not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x > 0
                           for x in L)):
            raise SpecError(f"datasets[{i}].L must be [L(-1), L(+1)], two positive numbers; got {L!r}.")
        L = (float(L[0]), float(L[1]))
    test_size = r.integer("test_size", None, lo=10, hi=10**7, allow_none=True)
    R = r.integer("n_prototypes", None, lo=1, hi=10**5, allow_none=True)
    path = r.text("path", None)
    label_column = r.text("label_column", None)
    standardize = r.get("standardize", True)
    if not isinstance(standardize, bool):
        raise SpecError(f"datasets[{i}].standardize must be true or false; got {standardize!r}.")
    feature_columns = r.get("feature_columns", None)
    if feature_columns is not None:
        if (not isinstance(feature_columns, (list, tuple)) or not feature_columns
                or not all(isinstance(c, str) and c for c in feature_columns)):
            raise SpecError(f"datasets[{i}].feature_columns must be a list of column names; got {feature_columns!r}.")
        dup = sorted({c for c in feature_columns if list(feature_columns).count(c) > 1})
        if dup:
            raise SpecError(f"datasets[{i}].feature_columns names {dup[0]!r} twice.")
        feature_columns = tuple(feature_columns)
    classes = r.get("classes", None)
    if classes is not None:
        if (not isinstance(classes, (list, tuple)) or len(classes) != 2
                or not all(isinstance(c, str) and c for c in classes) or classes[0] == classes[1]):
            raise SpecError(f"datasets[{i}].classes must be two different class names [A, B] (A → −1, B → +1; "
                            f"write numeric labels as text, e.g. [\"1\", \"3\"]); got {classes!r}.")
        classes = tuple(classes)
    one_vs_rest = r.text("one_vs_rest", None)
    if classes is not None and one_vs_rest is not None:
        raise SpecError(f"datasets[{i}]: choose two classes (classes = [A, B]) or one against the rest "
                        "(one_vs_rest = A), not both.")
    missing = r.text("missing", "drop")
    if missing not in CSV_MISSING:
        raise SpecError(f"datasets[{i}].missing must be one of {', '.join(map(repr, CSV_MISSING))}; got {missing!r}.")
    sha256 = r.text("sha256", None)
    if sha256 is not None and not re.fullmatch(r"[0-9a-f]{64}", sha256):
        raise SpecError(f"datasets[{i}].sha256 must be 64 lowercase hexadecimal digits; got {sha256!r}.")
    if name == "csv":
        if not path:
            raise SpecError(f"datasets[{i}]: a CSV data set needs path = \"file.csv\" (relative to the spec file).")
        full = path if os.path.isabs(path) else os.path.join(base_dir or ".", path)
        if not os.path.isfile(full):
            raise SpecError(f"datasets[{i}].path: no file {full!r}.")
    else:
        given = [k for k in _CSV_KEYS if r.d.get(k) is not None]
        if given or missing != "drop":
            raise SpecError(f"datasets[{i}]: {', '.join(given) or 'missing'} belong(s) to name = \"csv\" data sets.")
    r.finish(_DATASET_KEYS)
    return DataSpec(name, n, dict(params), label, L, test_size, R, path, label_column, standardize, feature_columns,
                    classes, one_vs_rest, missing, sha256)


def _read_svm(d) -> SVMSpec:
    r = _Reader(d, "svm")
    r.expect(_SVM_KEYS)
    crit = r.names("criteria", None, SVM_CRITERIA, what="criterion")
    lam = r.grid("lambda", "λ", default_range=(-5.0, -0.5), default_num=20)
    sig = r.grid("sigma", "σ", default_range=(-1.0, 1.0), default_num=20)
    k = r.integer("k", 5, lo=2, hi=100)
    rho = r.real("xa_rho", 2.0, positive=True)
    rr = r.integer("rangacv_replicates", 5, lo=1, hi=1000)
    sz = r.real("sigma_z", 0.1, positive=True)
    tol = r.real("tol", 1e-3, positive=True, hi=1.0)
    r.finish(_SVM_KEYS)
    return SVMSpec(crit, lam, sig, k, rho, rr, sz, tol)


def _read_irwls(d) -> IRWLSSpec:
    r = _Reader(d, "irwls")
    r.expect(_IRWLS_KEYS)
    methods = r.names("methods", list(IRWLS_METHODS), IRWLS_METHODS, what="method")
    s = r.numbers("s", [2.0])
    if any(v < 1 for v in s):
        raise SpecError(f"irwls.s: the steepness s of θ̃_s must be ≥ 1; got {list(s)}.")
    C = r.numbers("C", [10.0])
    kernel = r.text("kernel", "linear", choices=("linear", "rbf"))
    sig = r.grid("sigma", "σ", default_range=(0.0, 0.0), default_num=1) if kernel == "rbf" else ()
    if kernel == "linear" and any(r.has(k) for k in ("sigmas", "log10_sigma", "n_sigma")):
        raise SpecError("irwls: σ values belong to kernel = \"rbf\"; the linear machine has none.")
    R = r.integer("n_prototypes", 20, lo=1, hi=10**5)
    proto = r.text("prototypes", "fscl", choices=("fscl", "kmeans"))
    k = r.integer("k", 5, lo=2, hi=100)
    max_iter = r.integer("max_iter", 50_000, lo=1, hi=10**8)
    if kernel == "rbf" and "LS" in methods:
        raise SpecError("irwls.methods: \"LS\" (the regularised least-squares start) is offered for the linear "
                        "machine only; remove it or use kernel = \"linear\".")
    r.finish(_IRWLS_KEYS)
    return IRWLSSpec(methods, tuple(sorted(set(s))), C, kernel, sig, R, proto, k, max_iter)


def _read_ivm(d) -> IVMSpec:
    r = _Reader(d, "ivm")
    r.expect(_IVM_KEYS)
    methods = r.names("methods", list(IVM_METHODS), IVM_METHODS, what="method")
    sigma = r.real("sigma", IVMSpec.sigma, positive=True)
    if any(r.has(k) for k in ("lambdas", "ln_lambda", "n_lambda")):
        lams = r.grid("lambda", "λ", default_range=(-10.0, 10.0), default_num=21, log="ln")
    else:
        lams = None  # Zhu & Hastie 2002, Fig. 2: e^10 down to e^−10 (ivm.paper_lambdas)
    tune = r.integer("tune_size", 200, lo=10, hi=10**6)
    r.finish(_IVM_KEYS)
    return IVMSpec(methods, sigma, None if lams is None else tuple(sorted(lams, reverse=True)), tune)


_TOP_KEYS = ["name", "title", "description", "replicates", "seed", "test_size", "setting", "costs", "published",
             "datasets", "svm", "irwls", "ivm"]


def spec_from_dict(d: dict, *, base_dir: str = "") -> StudySpec:
    """Build and check a :class:`StudySpec` from the TOML structure (a dict).

    Parameters
    ----------
    d : dict
        As read by ``tomllib`` (see the module docstring), or :func:`spec_to_dict`'s output.
    base_dir : str
        Folder CSV paths are relative to.

    Returns
    -------
    StudySpec
        The validated spec, grids expanded and CSV paths made absolute against ``base_dir``.

    Raises
    ------
    SpecError
        The first problem found, naming the field (``datasets[1].n``, ``svm.criteria``, …) and what
        to write instead.
    """
    from .. import data as _data

    r = _Reader(d, "")
    r.expect(_TOP_KEYS)
    name = r.text("name", None)
    if name is None or not _NAME.match(name):
        raise SpecError(f"name must be 1–80 letters, digits, '_', '.' or '-' (it names the results); got {name!r}.")
    title = r.text("title", "") or ""
    description = r.text("description", "") or ""
    replicates = r.integer("replicates", 10, lo=1)
    seed = r.integer("seed", 0, lo=0, hi=2**32 - 1)
    test_size = r.integer("test_size", 10_000, lo=10, hi=10**7)
    setting = r.text("setting", "standard", choices=SETTINGS)
    costs_in = r.get("costs", {})
    cr = _Reader(costs_in, "costs")
    cr.expect(_COSTS_KEYS)
    costs = dict(C_plus=cr.real("C_plus", 1.0, positive=True), C_minus=cr.real("C_minus", 2.0, positive=True),
                 pi_plus=cr.real("pi_plus", 0.1, lo=1e-6, hi=1 - 1e-6))
    costs["pi_minus"] = cr.real("pi_minus", 1.0 - costs["pi_plus"], lo=1e-6, hi=1 - 1e-6)
    cr.finish(_COSTS_KEYS)
    if abs(costs["pi_plus"] + costs["pi_minus"] - 1.0) > 1e-9:
        raise SpecError(f"costs.pi_plus + costs.pi_minus must be 1; got {costs['pi_plus']} + {costs['pi_minus']}.")
    published = r.text("published", None)
    raw_ds = r.get("datasets", None)
    if isinstance(raw_ds, dict):
        raw_ds = [raw_ds]
    if not isinstance(raw_ds, list) or not raw_ds:
        raise SpecError("datasets: a study needs at least one [[datasets]] table (name = \"wahba2001\", n = 200, …).")
    datasets = tuple(_read_dataset(x, i, base_dir) for i, x in enumerate(raw_ds))
    labels = [x.label for x in datasets]
    dup = sorted({x for x in labels if labels.count(x) > 1})
    if dup:
        raise SpecError(f"datasets: the label {dup[0]!r} is used twice; give each data set its own label = \"…\".")
    svm = _read_svm(r.get("svm")) if r.has("svm") else None
    irwls = _read_irwls(r.get("irwls")) if r.has("irwls") else None
    ivm = _read_ivm(r.get("ivm")) if r.has("ivm") else None
    r.finish(_TOP_KEYS)
    if svm is None and irwls is None and ivm is None:
        raise SpecError("the spec has nothing to run: add an [svm], [irwls] or [ivm] section.")
    if replicates * len(datasets) > MAX_TASKS:
        raise SpecError(f"replicates × data sets = {replicates * len(datasets)} tasks; at most {MAX_TASKS}.")
    for i, ds in enumerate(datasets):
        if ds.name == "csv":
            if ds.L is not None and ds.L != (1.0, 1.0) and setting == "standard":
                raise SpecError(f"datasets[{i}].L: unequal weights need setting = \"nonstandard\".")
            continue
        gen = _data.GENERATORS[ds.name]
        import inspect

        allowed = [p for p in inspect.signature(gen).parameters if p not in ("n", "seed")]
        bad = sorted(set(ds.params) - set(allowed))
        if bad:
            raise SpecError(f"datasets[{i}].params: unknown parameter(s) {', '.join(bad)} for {ds.name!r}; "
                            f"valid: {', '.join(allowed) or 'none'}.")
        if ds.name == "wahba2001" and "nonstandard" in ds.params:
            raise SpecError(f"datasets[{i}].params.nonstandard: the study's setting decides it; write "
                            "setting = \"nonstandard\" at the top of the spec instead.")
        if setting == "standard" and ds.L is not None and ds.L != (1.0, 1.0):
            raise SpecError(f"datasets[{i}].L: unequal weights need setting = \"nonstandard\".")
        if setting == "nonstandard" and ds.name != "wahba2001" and ds.L is None:
            raise SpecError(f"datasets[{i}]: the non-standard setting needs L = [L(-1), L(+1)] for {ds.name!r} "
                            "(only wahba2001 derives L from [costs] and its sampling proportions).")
        if ds.name in ("iris", "wine") and not ds.params.get("keep_classes"):
            raise SpecError(f"datasets[{i}]: {ds.name} has three classes; studies are binary — set "
                            "params.keep_classes to two class names.")
        if ds.name in ("esl_mixture3",) or (ds.name == "waveform" and ds.params.get("n_classes", 2) != 2) \
                or (ds.name == "esl_mixture" and ds.params.get("n_classes", 2) != 2):
            if not multiclass_sections(svm, irwls, ivm):
                raise SpecError(f"datasets[{i}]: {ds.name} with three classes can be studied by the IVM only (the "
                                "SVM criteria and the IRWLS machines are binary): keep only an [ivm] section with "
                                "methods = [\"IVM\"].")
    if setting == "nonstandard":
        if svm is not None and "rangacv" in svm.criteria:
            raise SpecError("svm.criteria: the randomized GACV is defined for the standard SVM only (Wahba 1998); "
                            "remove \"rangacv\" or use setting = \"standard\".")
        if irwls is not None or ivm is not None:
            raise SpecError("setting = \"nonstandard\" applies to the [svm] section only; the IRWLS and IVM machines "
                            "are standard.")
    return StudySpec(name, datasets, replicates, seed, test_size, setting, costs, svm, irwls, ivm, title,
                     description, published, base_dir)
