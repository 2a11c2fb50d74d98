"""Shared docstring texts: each numpydoc entry that several public functions share, written once.

A docstring names a shared text by a line holding only ``{name}`` (a key of :data:`DOCS`);
:func:`fill_doc` replaces that line with the text, indented as the placeholder was, when the module
is imported — so ``help(fn)`` and ``fn.__doc__`` read the full text (MNE's ``fill_doc`` and pandas'
``Substitution`` do the same). Only whole-line placeholders are filled: braces inside a line
(``v_{ε+,ε−}``, ``{"rbf", "linear"}``) are left alone, and an unknown name raises at import, so a
typo cannot ship an unfilled docstring::

    @fill_doc
    def hinge(tau):
        '''Hinge loss (1 − τ)_+.

        {tau_loss}
        '''

``tests/test_docs.py`` checks every public docstring of the package: no ``{name}`` line left, and
numpydoc sections that parse.

Shared internal module of svmviz: its names serve the package's other modules; not public API.
"""
from __future__ import annotations

import re
import textwrap

#: name → text (numpydoc, unindented; several lines allowed)
DOCS: dict[str, str] = {}


def _add(name: str, text: str) -> None:
    if name in DOCS:
        raise ValueError(f"shared docstring text {name!r} is defined twice")
    DOCS[name] = textwrap.dedent(text).strip("\n")


# ---------------------------------------------------------------------------------- estimators
_Y_FIT = {"binary": "Two distinct class labels: ``classes_[0]`` ↔ −1, ``classes_[1]`` ↔ +1.",
          "multiclass": "Class labels, two or more classes."}
for _kind, _y in _Y_FIT.items():  # fit_binary_weighted, fit_multiclass_weighted
    _add(f"fit_{_kind}_weighted", f"""
        Parameters
        ----------
        X : array-like of shape (n, d)
            Training points (a DataFrame's column names are kept in ``feature_names_in_``).
        y : array-like of shape (n,)
            {_y}
        sample_weight : array-like of shape (n,), default=None
            Non-negative weight of each point's loss (None: all 1), as in scikit-learn.

        Returns
        -------
        self
    """)
_add("X_predict", """
    Parameters
    ----------
    X : array-like of shape (m, d)
        Points to evaluate: the fitted number of columns (a DataFrame: the fitted column names).
""")
_add("decision_binary", """
    {X_predict}

    Returns
    -------
    f : ndarray of shape (m,)
        Positive means ``classes_[1]``.
""")

# ---------------------------------------------------------------------------------- tuning
_add("curve_attrs", """
    lambdas : ndarray of shape (m,)
        The λ values, as given.
    sigma : float
        The Gaussian kernel width σ.
""")
_add("curve_problem", """
    X : array_like of shape (n, d)
        Training points.
    y : array_like of shape (n,)
        Labels of two classes.
    lambdas : array_like of shape (m,)
        Positive λ values.
    sigma : float
        Gaussian kernel width σ > 0, K = exp(−‖x − x'‖²/(2σ²)).
""")

# ---------------------------------------------------------------------------------- losses
_add("tau", """
    tau : array_like of any shape
        Margins τ = y f (±inf allowed, NaN not).
""")
_add("returns_like_tau", """
    Returns
    -------
    ndarray, same shape as ``tau``
""")
_add("tau_loss", """
    Parameters
    ----------
    {tau}

    {returns_like_tau}
""")
_add("tau_a_loss", """
    Parameters
    ----------
    {tau}
    a : float > 0, default 1.0
        Steepness.

    {returns_like_tau}

    Notes
    -----
    Wahba 1998, §1.2.3, after Bradley, Mangasarian & Street (1997); Wahba 1998, Fig. 1.1 uses a = 1.
""")
_add("loss_name", """
    name : str
        A key of :data:`svmviz.losses.LOSSES`.
""")
_add("loss_params", """
    **params : float
        Loss parameters a, eps_plus, eps_minus, s, k_eps (defaults :data:`svmviz.losses.DEFAULT_PARAMS`);
        those the loss does not take are ignored.
""")

# ---------------------------------------------------------------------------------- criteria
_add("crit_solution", """
    f : array_like of shape (..., n), or a fitted SVMClassifier
        Training decision values f_λ(x_i) (one row per solution); or the fitted estimator itself,
        whose ``train_decision_``, ``alpha_``, ``lam_``, kernel diagonal and costs L·w are then used
        (give only its training labels y).
    y : array_like of shape (n,)
        Labels of two classes: ±1, or any two values mapped in sorted order to −1, +1 (an
        estimator's ``classes_``); anything else is refused.
    alpha : array_like of shape (..., n)
        Dual coefficients in Wahba's scaling (those of ``f``), 0 ≤ α_i ≤ L(y_i).
    lam : float or array_like broadcastable to ``f.shape[:-1]``
        λ > 0 of each solution.
""")
_add("crit_K_diag", """
    K_diag : float or array_like of shape (n,), default None
        K(x_i, x_i); None means 1, the Gaussian kernel's.
""")
_add("crit_p", """
    p : array_like of shape (n,)
        True P(y = +1 | x_i) under the sampling distribution.
""")
_add("crit_L", """
    L : pair of float, default None
        (L(−1), L(+1)), Wahba's misclassification costs (Wahba et al. 2001, §5); None means (1, 1),
        the standard SVM.
""")
_add("crit_expected_params", """
    Parameters
    ----------
    f : array_like of shape (..., n)
        Decision values f_λ(x_i) (one row per solution).
    {crit_p}
    {crit_L}

    {crit_returns}
""")
_add("crit_solution_params", """
    Parameters
    ----------
    {crit_solution}
    {crit_K_diag}
    {crit_L}

    {crit_returns}
""")
_add("crit_returns", """
    Returns
    -------
    ndarray of shape f.shape[:-1] (a float for one solution)
""")

# ---------------------------------------------------------------------------------- data generators
_add("n_seed", """
    n : int ≥ 4
        Number of points.
    seed : int ≥ 0
        Seed of the training stream (``test_sample`` draws from an independent one).
""")
_add("breiman_params", """
    Parameters
    ----------
    {n_seed}
    d : int ≥ 1, default 20
        Dimension.
""")
_add("usvc_params", """
    Parameters
    ----------
    {n_seed}

    Returns
    -------
    Dataset
        X (n, 1), y ±1, the exact ``p_true`` and the Bayes error.
""")
_add("real_n_seed", """
    n : int or None
        None: all rows; otherwise a stratified subset (the rest is ``test_sample``).
    seed : int ≥ 0
    standardize : bool, default True
""")
_add("real_params", """
    Parameters
    ----------
    {real_n_seed}
    keep_classes : sequence of two class names, optional

    Returns
    -------
    Dataset
""")


_PLACEHOLDER = re.compile(r"^([ \t]*)\{([A-Za-z_][A-Za-z0-9_]*)\}[ \t]*$", re.M)


def fill(doc: str | None) -> str | None:
    """``doc`` with every whole-line ``{name}`` replaced by ``DOCS[name]`` (filled in turn), indented
    as the placeholder line; ``None`` (``python -OO``) stays ``None``.

    Raises
    ------
    KeyError
        A placeholder names no shared text.
    """
    if doc is None:
        return None

    def sub(m):
        indent, key = m.groups()
        if key not in DOCS:
            raise KeyError(f"docstring placeholder {{{key}}} names no shared text; known: {', '.join(sorted(DOCS))}")
        text = fill(DOCS[key])
        return "\n".join(indent + line if line.strip() else "" for line in text.splitlines())

    return _PLACEHOLDER.sub(sub, doc)


def fill_doc(obj):
    """Decorator: fill the ``{name}`` lines of ``obj.__doc__`` (a function or a class) from :data:`DOCS`."""
    obj.__doc__ = fill(obj.__doc__)
    return obj
