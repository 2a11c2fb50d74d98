"""The ν-SVM regularization path, leave-one-out along it, and its automatic stopping (Loosli & Canu 2006).

The dual of Loosli & Canu (2006), ``max −½ α'Gα`` s.t. ``α'1 = λ, α'y = 0, 0 ≤ α ≤ 1``, is piecewise
linear in ``λ = mν`` ("Defining steps"); the path is followed from λ = 0 to ``λ_max = 2 min(n₊, n₋)``.

- ``_nu_path`` — :func:`nu_path`, the path object :class:`NuPath` and :func:`groups_from_alpha`;
- ``_loo`` — leave-one-out along the path and the stopping rule: :func:`loo_path`, :func:`loo_at`,
  :func:`auto_stop`, :func:`zero_margin`, :func:`default_loo_lambdas`, :class:`LooPath`;
- ``_estimator`` — :class:`NuSVMPath`, the scikit-learn estimator, handed out on first use (a module
  ``__getattr__``, PEP 562): it imports scikit-learn, which the path itself does not need;
- ``_solver`` — the compiled path follower and leave-one-out homotopy (arrays in, status codes out).

Imports flow one way: ``_estimator`` → ``_loo`` → ``_nu_path`` → ``_solver``.
"""
from ._loo import RHO_ZERO_RTOL, LooPath, auto_stop, default_loo_lambdas, loo_at, loo_path, zero_margin
from ._nu_path import (
    EXACT_S_EVERY_MIN, EXACT_S_POINTS_PER_STEP, GROUP_E, GROUP_L, GROUP_NAMES, GROUP_R, MAX_N, STATUS_MESSAGES,
    NuPath, groups_from_alpha, nu_path,
)

__all__ = ["EXACT_S_EVERY_MIN", "EXACT_S_POINTS_PER_STEP", "GROUP_E", "GROUP_L", "GROUP_NAMES", "GROUP_R", "MAX_N",
           "RHO_ZERO_RTOL", "STATUS_MESSAGES", "LooPath", "NuPath", "NuSVMPath", "auto_stop", "default_loo_lambdas",
           "groups_from_alpha", "loo_at", "loo_path", "nu_path", "zero_margin"]


def __getattr__(name: str):
    # Not stored in this package's globals: doctest would then collect the estimator's examples here
    # too, besides in _estimator, depending on what imported it first.
    if name == "NuSVMPath":
        from ._estimator import NuSVMPath

        return NuSVMPath
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | {"NuSVMPath"})
