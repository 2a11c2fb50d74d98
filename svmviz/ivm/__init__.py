"""Kernel logistic regression and the import vector machine (Zhu & Hastie 2002).

The regularised negative log-likelihood of Zhu & Hastie (2002), eqs. 4 and 9, minimised by Newton's
method over all points (kernel logistic regression) or over a greedily chosen import set (the IVM,
§3–§5, binary and multi-class), and the three machines fitted along one λ sequence with their
tuning error (§4, C1–C5, Fig. 2):

- ``_classes`` — the estimators :class:`KernelLogisticRegression` and :class:`IVMClassifier`, and
  the paper's λ grid (:func:`paper_lambdas`);
- ``_lambda_sequences`` — :func:`ivm_lambda_path`, :func:`klr_lambda_path`, :func:`svm_lambda_path`
  and their results (:class:`IVMPath`, :class:`KLRPath`, :class:`SVMPath`, :class:`PathSteps`);
- ``_klr`` — the compiled Newton solver and the greedy import step (arrays in, status codes out).

Imports flow one way: ``_lambda_sequences`` → ``_classes`` → ``_klr``. :func:`sigma_heuristic` is
:func:`svmviz.kernels.sigma_heuristic`, importable from here too.
"""
from ..kernels import sigma_heuristic
from ._classes import (
    DEFAULT_SIGMA, MAX_CLASSES, MEMORY_BUDGET, METHODS, IVMClassifier, KernelLogisticRegression, paper_lambdas,
)
from ._lambda_sequences import (
    IVMPath, KLRPath, PathSteps, SVMPath, ivm_lambda_path, klr_lambda_path, svm_lambda_path,
)

__all__ = ["DEFAULT_SIGMA", "MAX_CLASSES", "MEMORY_BUDGET", "METHODS", "IVMClassifier", "IVMPath", "KLRPath",
           "KernelLogisticRegression", "PathSteps", "SVMPath", "ivm_lambda_path", "klr_lambda_path", "paper_lambdas",
           "sigma_heuristic", "svm_lambda_path"]
