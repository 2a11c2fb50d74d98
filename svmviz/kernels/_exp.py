"""The exponential of the Gaussian kernel, in vector code on every processor.

numpy's float64 ``exp`` is its own vector code only where the processor has AVX-512; elsewhere it calls
the C library's scalar ``exp`` one entry at a time, which then costs more than all the rest of a
Gaussian kernel entry. :func:`scaled_exp` computes ``exp(c·x)`` in a loop that LLVM turns into vector
code on any processor, to within one unit in the last place (ulp) of the true value. It is also one
exp for every machine: a kernel's values do not depend on which exp numpy would pick.

The method (Cody & Waite, *Software Manual for the Elementary Functions*, 1980, ch. 6; Muller,
*Elementary Functions*, 3rd ed., §11.3):

1. range reduction: ``x = n ln2 + r`` with the integer ``n = round(x / ln2)`` and ``|r| ≤ ln2/2``; ``n ln2``
   is subtracted in two parts (``LN2_HI`` has trailing zero bits, so ``n·LN2_HI`` is exact);
2. ``exp(r)`` by its Taylor polynomial of degree 13 (truncation error below 5e-18 relative on
   ``|r| ≤ ln2/2``), as ``1 + (r + r²·w(r))`` so that only the last addition is at the magnitude of the
   result; ``w`` is evaluated by Estrin's scheme (independent products, for the vector units);
3. ``exp(x) = 2ⁿ·exp(r)``, with ``2ⁿ`` built from its bits as two factors ``2^h·2^(n−h)`` (``h = n >> 1``)
   so that results in the subnormal range come out right and ``n`` up to 1024 overflows to ``inf``.

``n`` is rounded by adding and subtracting ``SHIFTER = 1.5·2⁵²``: the sum's low mantissa bits are then
``n`` itself, read by a bitcast. ``x`` is first clamped to ``[X_MIN, X_MAX]``, where ``exp`` is 0 and
``inf`` respectively, which keeps ``n`` in range; ``±inf`` therefore give 0 and ``inf`` and NaN gives NaN, as
``exp`` does.

Shared internal module of svmviz: its names serve the package's other modules; not public API.
"""
from __future__ import annotations

import math

import numpy as np

from .._bits import bits_float, float_bits
from .._jit import njit

#: ``1/ln 2`` rounded to float64.
LOG2E = 1.4426950408889634
#: ``ln 2 = LN2_HI + LN2_LO``: LN2_HI has its 32 low bits zero (``n·LN2_HI`` is exact for |n| < 2²¹),
#: LN2_LO the rest (fdlibm's e_exp.c constants).
LN2_HI = 6.93147180369123816490e-01
LN2_LO = 1.90821492927058770002e-10
#: ``1.5·2⁵²``: adding it rounds a float of magnitude below 2⁵¹ to an integer held in the low mantissa bits.
SHIFTER = 6755399441055744.0
_SHIFTER_BITS = np.int64(np.float64(SHIFTER).view(np.int64))
#: ``exp(x)`` rounds to 0 below ``X_MIN`` (−745.13…) and overflows to ``inf`` above ``X_MAX`` (709.78…);
#: inputs are clamped to these bounds, which keeps the scale factors' exponents in range.
X_MIN = -746.0
X_MAX = 710.0
#: Taylor coefficients ``1/k!`` of ``w(r) = (exp(r) − 1 − r)/r²``, k = 2 … 13.
(_C2, _C3, _C4, _C5, _C6, _C7, _C8, _C9, _C10, _C11, _C12, _C13) = (1.0 / math.factorial(k) for k in range(2, 14))
_EXPONENT_BIAS = 1023
_MANTISSA_BITS = 52


@njit(cache=True, nogil=True, inline="always")
def _exp(x):
    """``exp(x)`` within one ulp (subnormal results within one subnormal step); NaN gives NaN."""
    x = X_MIN if x < X_MIN else x
    x = X_MAX if x > X_MAX else x
    t = x * LOG2E + SHIFTER
    n = t - SHIFTER
    r = (x - n * LN2_HI) - n * LN2_LO
    r2 = r * r
    r4 = r2 * r2
    s0 = (_C2 + _C3 * r) + (_C4 + _C5 * r) * r2
    s1 = (_C6 + _C7 * r) + (_C8 + _C9 * r) * r2
    s2 = (_C10 + _C11 * r) + (_C12 + _C13 * r) * r2
    w = (s0 + s1 * r4) + s2 * (r4 * r4)
    p = 1.0 + (r + r2 * w)
    k = float_bits(t) - _SHIFTER_BITS
    h = k >> 1
    return (p * bits_float((h + _EXPONENT_BIAS) << _MANTISSA_BITS)) * bits_float((k - h + _EXPONENT_BIAS) << _MANTISSA_BITS)


@njit(cache=True, nogil=True)
def _scaled_exp_flat(v, c):
    for i in range(v.shape[0]):
        v[i] = _exp(v[i] * c)


def scaled_exp(D, c: float):
    """``D ← exp(c·D)`` in place, within one ulp of the exact exponential of the rounded product ``c·D``.

    Parameters
    ----------
    D : ndarray, float64, C-contiguous, any shape
        Any values (the Gaussian kernel's squared distances); ±inf and NaN are mapped as ``exp`` maps them.
    c : float
        The scale (``−1/(2σ²)`` for the Gaussian kernel).

    Returns
    -------
    D : the same array.
    """
    if D.dtype != np.float64 or not D.flags.c_contiguous or not D.flags.writeable:
        raise ValueError(f"scaled_exp works in place on a writeable C-contiguous float64 array; got {D.dtype}, "
                         f"C-contiguous {D.flags.c_contiguous}, writeable {D.flags.writeable}.")
    _scaled_exp_flat(D.reshape(-1), float(c))
    return D
