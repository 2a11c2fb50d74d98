"""Study specifications: a TOML file or the equivalent :class:`StudySpec` object, validated.

A study runs, for every data set and every replicate, a fresh training sample and measures how
well each tuning criterion (or each machine) does on it. A spec declares

* the data sets (every generator of :data:`svmviz.data.GENERATORS`, scikit-learn's shipped sets,
  or a CSV file), their size ``n`` and generator parameters;
* how many replicates, the root ``seed``, the size of the independent test sample;
* the setting: ``"standard"`` (L ≡ 1) or ``"nonstandard"`` (Wahba et al. 2001, §5: unequal costs
  and a biased sample, L derived from ``[costs]`` for wahba2001, given as ``L`` otherwise);
* up to three sections, each adding rows to the results table:

  - ``[svm]`` — Wahba's SVM over a (λ, σ) grid and the criteria that choose a grid point: GACV,
    XA (BRXA), XA (Joachims' R²), randomized GACV, exact leave-one-out, k-fold cross-validation (Stone 1974), and
    where the truth is known GCKL and (BR)MISCLASS (always added then);
  - ``[irwls]`` — the regularised LS, SVC and unbiased SVC trained by IRWLS (Navia-Vázquez et al.
    2004), linear or with R kernel prototypes, C (and σ) chosen by k-fold CV when several are given;
  - ``[ivm]`` — the import vector machine against the SVM, both tuned along λ on a tuning set
    (Zhu & Hastie 2002, §3.4).

Example TOML (the ready-made specs in ``svmviz/studies/specs/`` are complete examples)::

    name = "wahba-small"
    replicates = 4
    seed = 1

    [[datasets]]
    name = "wahba2001"
    n = 60

    [svm]
    criteria = ["gacv", "xa", "kfold"]
    log10_lambda = [-5.0, -0.5]
    log10_sigma = [-1.0, 1.0]
    n_lambda = 5
    n_sigma = 5

:func:`load_spec` reads a file (or a ready-made name), :func:`spec_from_dict` builds and checks the
object, :func:`spec_to_toml` writes it back (the results directory keeps a copy beside the table).
The sections live in :mod:`svmviz.studies._spec_model`, the whole spec and its checking in
:mod:`svmviz.studies._spec_read`, the writing in :mod:`svmviz.studies._spec_write`; import them all from here.
"""
from __future__ import annotations

import os
import tomllib

from ._spec_model import (IRWLS_METHODS, IVM_METHODS, MAX_GRID, MAX_TASKS, SETTINGS, SPECS_DIR,
                          SVM_CRITERIA, DataSpec, IRWLSSpec, IVMSpec, SpecError, SVMSpec)
from ._spec_read import StudySpec, spec_from_dict
from ._spec_write import spec_to_dict, spec_to_toml

__all__ = [
    "SpecError",
    "DataSpec",
    "SVMSpec",
    "IRWLSSpec",
    "IVMSpec",
    "StudySpec",
    "SVM_CRITERIA",
    "IRWLS_METHODS",
    "IVM_METHODS",
    "spec_from_dict",
    "spec_to_dict",
    "spec_to_toml",
    "load_spec",
    "ready_made_specs",
    "ready_made_path",
    "SETTINGS",
    "SPECS_DIR",
    "MAX_TASKS",
    "MAX_GRID",
]


# ------------------------------------------------------------------------------------ loading
def ready_made_specs() -> dict:
    """The ready-made studies shipped with the package: ``{name: path}`` (``svmviz/studies/specs/``)."""
    out = {}
    if os.path.isdir(SPECS_DIR):
        for f in sorted(os.listdir(SPECS_DIR)):
            if f.endswith(".toml"):
                out[f[:-5]] = os.path.join(SPECS_DIR, f)
    return out


def ready_made_path(name: str) -> str:
    """Path of the ready-made spec ``name`` (a ValueError lists the names when it is unknown)."""
    specs = ready_made_specs()
    if name not in specs:
        raise SpecError(f"no ready-made study {name!r}; choose one of {', '.join(specs)} or give a TOML file.")
    return specs[name]


def load_spec(source) -> StudySpec:
    """Read a spec: a :class:`StudySpec` (returned as is), a dict, a TOML file path, or a ready-made name.

    A results folder's ``spec.toml`` is a spec too: its ``[provenance]`` table (the record of the
    run that wrote it) is set aside.

    Parameters
    ----------
    source : StudySpec, dict, str or os.PathLike

    Returns
    -------
    StudySpec
        ``source`` itself if it is one; otherwise the spec read and validated by :func:`spec_from_dict`.

    Raises
    ------
    SpecError
        Unreadable TOML (with the parser's line and column) or an invalid spec.

    Examples
    --------
    >>> from svmviz.studies import load_spec
    >>> spec = load_spec("wahba2001_standard")
    >>> spec.svm.criteria, len(spec.svm.lambdas), spec.replicates
    (('gacv', 'xa', 'xa_j', 'kfold', 'loo'), 30, 100)
    """
    if isinstance(source, StudySpec):
        return source
    if isinstance(source, dict):
        return spec_from_dict(source)
    path = os.fspath(source)
    if not os.path.exists(path) and not path.endswith(".toml") and os.sep not in path:
        path = ready_made_path(path)
    if not os.path.isfile(path):
        raise SpecError(f"no spec file {path!r} (and no ready-made study of that name: "
                        f"{', '.join(ready_made_specs())}).")
    try:
        with open(path, "rb") as fh:
            d = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{path}: not valid TOML — {exc}.") from None
    d.pop("provenance", None)  # a results folder's spec.toml: the record of its last run, not part of the spec
    return spec_from_dict(d, base_dir=os.path.dirname(os.path.abspath(path)))
