"""The Gaussian kernel's compiled exp: within one ulp of the exact exponential (long double reference)
over the whole float64 range, subnormal results within one subnormal step, the special values mapped
as numpy's exp maps them, and inputs it cannot work on in place refused."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from svmviz.kernels._exp import X_MAX, X_MIN, scaled_exp

TINY = np.finfo(np.float64).tiny  # smallest normal float64
SUBNORMAL_STEP = 2.0**-1074

pytestmark = pytest.mark.skipif(np.finfo(np.longdouble).nmant < 63, reason="needs an 80-bit long double reference")


def _exact(x):
    """exp(x) in x87 extended precision (64-bit mantissa): 11 bits more than float64."""
    return np.exp(np.asarray(x, dtype=np.longdouble))


def _ulps(got, x):
    """|got − exp(x)| in ulps of the exact value; normal results only."""
    ref = _exact(x)
    return np.abs(got.astype(np.longdouble) - ref) / np.spacing(ref.astype(np.float64)).astype(np.longdouble)


def test_within_one_ulp_over_the_whole_range():
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.uniform(-745.0, 709.0, 200_000),   # every exponent of the result
                        rng.uniform(-40.0, 0.0, 200_000),      # the Gaussian kernel's working range
                        rng.uniform(-1e-3, 1e-3, 50_000),      # exp near 1
                        np.arange(-700, 700) * np.log(2.0)])   # the reduction's boundaries n ln2
    got = scaled_exp(x.copy(), 1.0)
    normal = (_exact(x) > TINY) & (_exact(x) < np.finfo(np.float64).max)
    assert normal.sum() > 440_000
    assert float(_ulps(got[normal], x[normal]).max()) <= 1.0


@settings(max_examples=200, deadline=None)
@given(hst.floats(-708.0, 709.0), hst.floats(1e-3, 1e3))
def test_scaled_within_one_ulp_of_the_rounded_product(x, c):
    D = np.array([x / c])
    prod = D * c  # the product is rounded first, as the kernel's −D/(2σ²) is
    got = scaled_exp(D, c)
    assert float(_ulps(got, prod)[0]) <= 1.0


def test_subnormal_results_within_one_subnormal_step():
    x = np.linspace(-745.2, -708.4, 20_001)
    got = scaled_exp(x.copy(), 1.0)
    err = np.abs(got.astype(np.longdouble) - _exact(x)) / SUBNORMAL_STEP
    assert float(err.max()) <= 1.0
    assert np.all(np.diff(got) >= 0)  # monotone where it matters: no jump at the split 2ⁿ = 2^h·2^(n−h)


def test_special_values_as_numpy_maps_them():
    x = np.array([0.0, -0.0, -np.inf, np.inf, np.nan, X_MIN - 1.0, X_MAX + 1.0, -1e308, 1e308, 709.78, -745.1, -745.2])
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(scaled_exp(x.copy(), 1.0), np.exp(x))


def test_works_in_place_on_any_shape():
    D = np.random.default_rng(1).uniform(0.0, 30.0, (3, 4, 5))
    want = np.exp(-0.25 * D)
    out = scaled_exp(D, -0.25)
    assert out is D
    np.testing.assert_allclose(D, want, rtol=4e-16, atol=0.0)


@pytest.mark.parametrize("bad", [np.ones((4, 4))[:, ::2], np.ones(3, dtype=np.float32), np.ones(3, dtype=np.int64)],
                         ids=["not contiguous", "float32", "int64"])
def test_refuses_what_it_cannot_change_in_place(bad):
    with pytest.raises(ValueError, match="in place"):
        scaled_exp(bad, 1.0)


def test_refuses_a_read_only_array():
    D = np.ones(3)
    D.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        scaled_exp(D, 1.0)
