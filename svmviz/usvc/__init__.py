"""The SVC trained by iterated re-weighted least squares and the unbiased SVC (Navia-Vázquez et al. 2004).

The primal of Navia-Vázquez, Pérez-Cruz, Artés-Rodríguez & Figueiras-Vidal (2004), eq. 5,
``½‖w‖² + C Σ θ(ξ_i)``, with the hinge θ(ξ) = ξ (the SVC, eq. 4) or the smooth step θ̃_s (the USVC,
eq. 6), trained by IRWLS (eqs. 20–22), linear or semiparametric with prototypes (eqs. 23–27):

- ``_classes`` — the estimator :class:`IRWLSClassifier` and the prototypes (:func:`fscl_prototypes`);
- ``_loss`` — θ̃_s and its derivative, the primal functional, its surfaces and profiles, the
  classification-error curves (:func:`empirical_ce`, :func:`theoretical_ce`);
- ``_studies`` — Table 1 (scenarios A and B: :func:`table1_study`, :func:`table1_summary`) and the
  kernel USVC against the SVM (:func:`kernel_comparison`);
- ``_irwls`` — the compiled IRWLS solver (arrays in, status codes out).

Imports flow one way: ``_studies`` → ``_classes`` → ``_loss`` → ``_irwls``.
"""
from ._classes import DEFAULT_R, PAPER_TABLE1, PROTOTYPE_METHODS, STAGES, IRWLSClassifier, IRWLSHistory, fscl_prototypes
from ._loss import (
    LOSSES, Profile, empirical_ce, loss_values, primal_profile, primal_surface, primal_value, theoretical_ce,
    theta_smooth, theta_smooth_derivative,
)
from ._studies import THRESHOLD_RANGE, KernelComparisonFit, Table1Result, kernel_comparison, table1_study, table1_summary

__all__ = ["DEFAULT_R", "LOSSES", "PAPER_TABLE1", "PROTOTYPE_METHODS", "STAGES", "THRESHOLD_RANGE", "IRWLSClassifier",
           "IRWLSHistory", "KernelComparisonFit", "Profile", "Table1Result", "empirical_ce", "fscl_prototypes",
           "kernel_comparison", "loss_values", "primal_profile", "primal_surface", "primal_value", "table1_study",
           "table1_summary", "theoretical_ce", "theta_smooth", "theta_smooth_derivative"]
