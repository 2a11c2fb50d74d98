"""The sections of a study spec (:class:`DataSpec`, :class:`SVMSpec`, :class:`IRWLSSpec`, :class:`IVMSpec`),
its limits and its error; the whole spec, :class:`StudySpec`, is built and checked in
:mod:`svmviz.studies._spec_read`.

Public through :mod:`svmviz.studies.spec` (the module to import from); checking a TOML structure is
:mod:`svmviz.studies._spec_read`, writing one back :mod:`svmviz.studies._spec_write`.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

import numpy as np

__all__ = ["SpecError", "DataSpec", "SVMSpec", "IRWLSSpec", "IVMSpec", "SVM_CRITERIA", "IRWLS_METHODS",
           "IVM_METHODS", "SETTINGS", "SPECS_DIR", "MAX_TASKS", "MAX_GRID", "multiclass_sections"]

#: criteria of the [svm] section that choose a grid point (the truth, "gckl" and "misclass", is
#: added by itself where p(x) is known)
SVM_CRITERIA = ("gacv", "xa", "xa_j", "rangacv", "kfold", "loo", "gckl", "misclass")
#: machines of the [irwls] section (USVC once per value of s)
IRWLS_METHODS = ("LS", "SVC", "USVC")
#: machines of the [ivm] section
IVM_METHODS = ("IVM", "SVM")
SETTINGS = ("standard", "nonstandard")
SPECS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "specs")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$")
#: largest replicates × data sets a spec may ask for (a typo like 1e6 replicates is an error, not a week)
MAX_TASKS = 100_000
#: largest grid a spec may ask for (every grid point is an SVM fit per replicate)
MAX_GRID = 200


class SpecError(ValueError):
    """A study specification that cannot be run; the message names the field and what to fix."""


# ------------------------------------------------------------------------------------ the objects
@dataclass(frozen=True)
class DataSpec:
    """One data set of a study.

    Attributes
    ----------
    name : str
        A key of :data:`svmviz.data.GENERATORS`, or "csv".
    n : int or None
        Training points per replicate (real data: a stratified subset; the other rows are the test set).
    params : dict
        Generator parameters (``make_dataset(name, n, seed, **params)``).
    label : str
        Name of the data set in the results table (unique within a study; default ``name``).
    L : tuple (L(−1), L(+1)) or None
        Misclassification weights; default: (1, 1) in the standard setting, the generator's own in the
        non-standard one (wahba2001).
    test_size : int or None
        Size of the independent test sample (default: the study's).
    n_prototypes : int or None
        R of the kernel IRWLS machine for this data set (default: the [irwls] section's).
    path : str or None
        CSV file (``name = "csv"``), relative to the spec file.
    label_column : str or None
        The CSV file's label column (default: the last).
    standardize : bool
        Scale CSV features with the training rows' mean and sd (per replicate).
    feature_columns : tuple of str or None
        The CSV file's feature columns (None: every numeric column but the label; the run records
        the columns this gives).
    classes : tuple (A, B) or None
        Keep the rows of classes A and B (A → −1, B → +1).
    one_vs_rest : str or None
        Class A (+1) against all the others (−1).
    missing : {"drop", "median"}
        Rows with a missing cell: left out, or filled with the column's median.
    sha256 : str or None
        SHA-256 of the CSV file (64 hexadecimal digits); recorded by the run, checked on every later
        run (a changed file is refused, naming the change).
    """

    name: str
    n: int | None = 200
    params: dict = field(default_factory=dict)
    label: str = ""
    L: tuple | None = None
    test_size: int | None = None
    n_prototypes: int | None = None
    path: str | None = None
    label_column: str | None = None
    standardize: bool = True
    feature_columns: tuple | None = None
    classes: tuple | None = None
    one_vs_rest: str | None = None
    missing: str = "drop"
    sha256: str | None = None


@dataclass(frozen=True)
class SVMSpec:
    """The [svm] section: Wahba's SVM over a (λ, σ) grid and the criteria that choose a point.

    Attributes
    ----------
    criteria : tuple of str
        From :data:`SVM_CRITERIA`.
    lambdas, sigmas : tuple of float
        The grid (log-spaced from ``log10_lambda``/``n_lambda`` etc. in the TOML file, or listed).
    k : int
        Folds of k-fold CV (stratified, as ``GridSearchCV``).
    xa_rho : float
        ρ of XA (Joachims' R²).
    rangacv_replicates : int
        Perturbations averaged by the randomized GACV (Wahba 1998, eq. 1.63).
    sigma_z : float
        Size of those perturbations.
    tol : float
        KKT tolerance of the SMO solver.
    """

    criteria: tuple
    lambdas: tuple
    sigmas: tuple
    k: int = 5
    xa_rho: float = 2.0
    rangacv_replicates: int = 5
    sigma_z: float = 0.1
    tol: float = 1e-3


@dataclass(frozen=True)
class IRWLSSpec:
    """The [irwls] section: LS, SVC and USVC by IRWLS (Navia-Vázquez et al. 2004).

    Attributes
    ----------
    methods : tuple of str
        From :data:`IRWLS_METHODS` ("LS" only with the linear machine).
    s : tuple of float
        Steepness values of the USVC's smooth step θ̃_s (one USVC row each).
    C : tuple of float
        Candidate C; more than one (or several σ) are chosen by k-fold CV on the training sample.
    kernel : {"linear", "rbf"}
        "linear": f = w'x + b; "rbf": f = Σ_r β_r K(c_r, x) + b on R prototypes.
    sigmas : tuple of float
        Candidate Gaussian widths (rbf).
    n_prototypes : int
        R (rbf), unless the data set sets its own.
    prototypes : {"fscl", "kmeans"}
        How the prototypes are found (the paper used FSCL).
    k : int
        Folds of the CV choosing (C, σ).
    max_iter : int
        IRWLS iterations per stage.
    """

    methods: tuple = IRWLS_METHODS
    s: tuple = (2.0,)
    C: tuple = (10.0,)
    kernel: str = "linear"
    sigmas: tuple = ()
    n_prototypes: int = 20
    prototypes: str = "fscl"
    k: int = 5
    max_iter: int = 50_000


@dataclass(frozen=True)
class IVMSpec:
    """The [ivm] section: IVM vs SVM along λ, tuned on a tuning set (Zhu & Hastie 2002, §3.4, §4).

    Attributes
    ----------
    methods : tuple of str
        From :data:`IVM_METHODS`.
    sigma : float
        Gaussian width (default 1/√2, K = exp(−‖x − x'‖²)).
    lambdas : tuple of float or None
        λ on the IVM's scale (loss summed over the N points); the SVM uses λ/(2N) on Wahba's scale.
        None: the paper's e^10 … e^−10 (:func:`svmviz.ivm.paper_lambdas`).
    tune_size : int
        Points of the independent tuning sample.
    """

    methods: tuple = IVM_METHODS
    sigma: float = float(1.0 / np.sqrt(2.0))
    lambdas: tuple | None = None
    tune_size: int = 200


def multiclass_sections(svm, irwls, ivm) -> bool:
    """Whether a spec of these sections may study data of three or more classes: only the IVM is
    multi-class (Zhu & Hastie 2002, §5, eqs. 7–9); the SVM criteria and the IRWLS machines are binary.

    Parameters
    ----------
    svm, irwls, ivm : SVMSpec, IRWLSSpec, IVMSpec or None
        The spec's sections.

    Returns
    -------
    bool
        True when the spec has an [ivm] section with the IVM alone and no other section.
    """
    return svm is None and irwls is None and ivm is not None and tuple(ivm.methods) == ("IVM",)
