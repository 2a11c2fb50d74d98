"""Data sets with known truth (package): the simulation designs of the five papers, real data, CSV upload, splits.

Every synthetic generator is deterministic given ``(n, seed)`` (``numpy.random.default_rng(seed)``),
returns a :class:`Dataset` carrying the exact conditional class probability ``p_true`` (where it is
known in closed form), the Bayes rule threshold, the misclassification weights ``L`` and the Bayes
risk, and offers ``test_sample(n, seed)``: an independent sample from the same law drawn from a
*different* random stream (``SeedSequence(seed, spawn_key=(0x7E57,))``), so a training and a test
sample never coincide even for equal seeds.

Conventions (the documentation's Conventions page): binary labels are float ±1 with ``classes[0] -> -1`` and
``classes[1] -> +1``; multi-class labels are ints ``0..K-1`` in the order of ``classes``. Rows of a
synthetic sample are shuffled (class-sorted blocks would bias order-dependent solvers).

How each Bayes risk is computed (all deterministic):

* ``wahba2001`` and ``esl_mixture``: trapezoidal rule on a fine 2-D grid (1201² resp. 1001² nodes)
  covering ±10 resp. ±9 standard deviations around every mean/centre. The class densities are
  products of 1-D Gaussians, so the grid values are outer products (cheap). Measured
  discretisation error < 1e-7 (against 4001² resp. 3201² nodes).
* ``usvc_A`` / ``usvc_B``: adaptive 1-D quadrature of ``min_c P(c) f(x|c)`` over the support
  [0, 0.5] of the class −1 density (outside it the minimum is 0).
* ``twonorm``: closed form Φ(−a√d). ``ringnorm``: 1-D quadrature over the projection on the
  diagonal with a χ² tail for the orthogonal part (exact up to quadrature error).
* ``waveform``: fixed-seed Monte Carlo (200 000 draws) of E[1 − max_k p_k(x)] with the exact
  posterior p_k (Rao–Blackwellised; standard error ≈ 3e-4).
* ``banana`` and real data: unknown (``None``).

One module per family — :mod:`~svmviz.data.wahba`, :mod:`~svmviz.data.esl`, :mod:`~svmviz.data.usvc_scenarios`,
:mod:`~svmviz.data.banana_set`, :mod:`~svmviz.data.breiman`, :mod:`~svmviz.data.anova_set`,
:mod:`~svmviz.data.real` (scikit-learn's shipped sets), :mod:`~svmviz.data.csv_upload` — beside
:mod:`~svmviz.data.classes` (two of the classes, or one against the rest),
:mod:`~svmviz.data.dataset` (the Dataset type, argument checks, random streams), :mod:`~svmviz.data.splits`
(train/test(/tuning) splits, fresh samples, subsamples) and :mod:`~svmviz.data.registry` (``GENERATORS``,
``make_dataset``, ``describe``). Import every name from ``svmviz.data``.
"""
from __future__ import annotations

from .anova_set import anova_structure, anova_structure_terms
from .banana_set import banana
from .breiman import ringnorm, twonorm, waveform, waveform_bases
from .classes import MIN_ROWS_PER_CHOSEN_CLASS, select_classes
from .csv_upload import CSV_DELIMITERS, MAX_CSV_CLASSES, csv_header, dataset_from_csv, pick_delimiter
from .csv_upload import _is_number  # noqa: F401  (tests/data/test_data.py checks it directly)
from .dataset import Dataset
from .esl import esl_centres, esl_mixture, esl_mixture3
from .real import breast_cancer, iris, sklearn_dataset, wine
from .registry import GENERATORS, describe, make_dataset
from .splits import SAMPLE_ROLES, fresh_sample, split_indices, subsample_dataset
from .usvc_scenarios import usvc_A, usvc_B, usvc_theoretical_ce
from .wahba import wahba2001, wahba_costs

__all__ = [
    "Dataset",
    "GENERATORS",
    "make_dataset",
    "describe",
    "wahba2001",
    "wahba_costs",
    "esl_mixture",
    "esl_mixture3",
    "esl_centres",
    "usvc_A",
    "usvc_B",
    "usvc_theoretical_ce",
    "banana",
    "twonorm",
    "ringnorm",
    "waveform",
    "waveform_bases",
    "breast_cancer",
    "iris",
    "wine",
    "sklearn_dataset",
    "dataset_from_csv",
    "select_classes",
    "MIN_ROWS_PER_CHOSEN_CLASS",
    "csv_header",
    "pick_delimiter",
    "CSV_DELIMITERS",
    "MAX_CSV_CLASSES",
    "anova_structure",
    "anova_structure_terms",
    "subsample_dataset",
    "split_indices",
    "fresh_sample",
    "SAMPLE_ROLES",
]

# The public functions and the Dataset class belong to ``svmviz.data``, where they are documented and
# imported from (numpy's ``set_module`` pattern): their ``__module__`` says so, which keeps reprs, pickles,
# the package's public-API and numpydoc checks and the doctests pointing at ``svmviz.data``.
for _name in __all__:
    _obj = globals()[_name]
    if callable(_obj) and getattr(_obj, "__module__", "").startswith(__name__ + "."):
        _obj.__module__ = __name__
del _name, _obj
