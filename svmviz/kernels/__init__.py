"""Reproducing kernels and their gram matrices: Gaussian, linear, polynomial, and the SS-ANOVA kernels.

Conventions (the documentation's Conventions page): Gaussian ``K(x, x') = exp(−‖x − x'‖²/(2σ²))``
(scikit-learn's ``gamma = 1/(2σ²)``), linear ``x·x'``, polynomial ``(γ x·x' + c0)^degree``.

- ``_gram`` — :func:`gram` (validates, then dispatches to compiled functions), :func:`squared_distances`,
  :func:`rbf_from_squared_distances`, :class:`GramRows` (rows on demand, for a solver's kernel cache),
  :func:`fit_kernel` (kernel objects), :func:`kernel_diagonal`, :func:`sigma_heuristic`;
- ``_ssanova`` — the smoothing-spline ANOVA kernels of Wahba (1998), §1.1, Remarks 6–8,
  eqs. 1.12–1.13: :func:`cubic_spline_rk`, :class:`SSANOVAKernel` (additive and two-way) and
  :class:`KernelParamsMixin` (scikit-learn's ``get_params`` / ``set_params`` for kernel objects);
- ``_callable`` — :class:`PairwiseKernel` and :func:`as_kernel_object`: scikit-learn's kernel callables
  ``k(X, Y)`` as kernel objects.
"""
from ._callable import PairwiseKernel, as_kernel_object
from ._gram import KERNELS, GramRows, fit_kernel, gram, kernel_diagonal, rbf_from_squared_distances, sigma_heuristic, squared_distances
from ._ssanova import (
    COMPONENT_GRAM_BUDGET, MAX_COMPONENTS, SSANOVA_BASES, SSANOVA_ORDERS, KernelParamsMixin, SSANOVAKernel,
    cubic_spline_rk,
)

__all__ = ["COMPONENT_GRAM_BUDGET", "GramRows", "KERNELS", "MAX_COMPONENTS", "SSANOVA_BASES", "SSANOVA_ORDERS", "KernelParamsMixin",
           "PairwiseKernel", "SSANOVAKernel", "as_kernel_object", "cubic_spline_rk", "fit_kernel", "gram", "kernel_diagonal", "rbf_from_squared_distances",
           "sigma_heuristic", "squared_distances"]
