"""scikit-learn's kernel callables ``k(X, Y)`` as svmviz kernel objects.

scikit-learn's ``SVC(kernel=k)`` always calls ``k(X, Y)`` with both arguments, also for the training
gram ``k(X, X)``; svmviz's kernel objects are called ``kernel(A)`` for the gram of A with itself
(:func:`svmviz.kernels.gram`). :class:`PairwiseKernel` adapts the first to the second, so a callable
written for ``SVC`` works unchanged.
"""
from __future__ import annotations

import inspect


class PairwiseKernel:
    """A callable ``k(X, Y) -> (n_X, n_Y)`` as a kernel object ``kernel(A, B=None)``.

    Parameters
    ----------
    function : callable
        scikit-learn's kernel signature: called with two arrays of shapes (n_A, d) and (n_B, d),
        returning the (n_A, n_B) gram matrix; ``kernel(A)`` calls ``function(A, A)``.
    """

    def __init__(self, function):
        if not callable(function):
            raise ValueError(f"function must be callable; got {type(function).__name__}.")
        self.function = function

    def __call__(self, A, B=None):
        return self.function(A, A if B is None else B)

    def __repr__(self):
        return f"PairwiseKernel({getattr(self.function, '__name__', repr(self.function))})"


def as_kernel_object(kernel):
    """``kernel`` as :func:`svmviz.kernels.gram` calls it.

    Parameters
    ----------
    kernel : str or callable
        A kernel name, a kernel object, or scikit-learn's callable ``k(X, Y)``.

    Returns
    -------
    str or kernel object
        A name, an object with a ``fit(X)`` method (svmviz's kernel objects, e.g.
        :class:`~svmviz.kernels.SSANOVAKernel`) or a callable that can be called with one argument
        (``kernel(A, B=None)``) unchanged; a callable that needs two wrapped in :class:`PairwiseKernel`.
    """
    if isinstance(kernel, (str, PairwiseKernel)) or not callable(kernel) or callable(getattr(kernel, "fit", None)):
        return kernel
    try:
        inspect.signature(kernel).bind(None)  # callable as kernel(A): a kernel object already
        return kernel
    except TypeError:
        return PairwiseKernel(kernel)
    except ValueError:  # no signature to read (some builtins): call it with both arguments
        return PairwiseKernel(kernel)
