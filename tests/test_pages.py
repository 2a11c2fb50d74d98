"""Large arrays in small memory pages: the shape asked for, writable, C-contiguous, mapped with
``MADV_NOHUGEPAGE`` where the kernel has huge pages (its ``nh`` flag in /proc/self/smaps), released
with the array; a negative length refused."""
from __future__ import annotations

import gc
import os

import numpy as np
import pytest

from svmviz._pages import empty_in_small_pages


def _mapping_flags(address: int) -> list[str] | None:
    """The VmFlags of the mapping of this process that holds ``address`` (None: no such mapping)."""
    with open("/proc/self/smaps") as f:
        inside = False
        for line in f:
            head = line.split()[0]
            if "-" in head and all(c in "0123456789abcdef-" for c in head):
                lo, hi = (int(x, 16) for x in head.split("-"))
                inside = lo <= address < hi
            elif inside and line.startswith("VmFlags:"):
                return line.split()[1:]
    return None


@pytest.mark.parametrize("shape", [(3, 5), (7,), 4, (0, 3)])
def test_the_array_has_the_shape_asked_for_and_takes_writes(shape):
    a = empty_in_small_pages(shape)
    want = tuple(np.atleast_1d(shape))
    assert a.shape == want and a.dtype == np.float64 and a.flags.c_contiguous and a.flags.writeable
    a[...] = 2.5
    assert np.all(a == 2.5)


@pytest.mark.skipif(not os.path.exists("/sys/kernel/mm/transparent_hugepage/enabled"),
                    reason="the kernel has no transparent huge pages to refuse")
def test_the_mapping_refuses_huge_pages_and_goes_with_the_array():
    a = empty_in_small_pages((1024, 1024))  # 8 MB: numpy would ask for huge pages
    a[:] = 1.0
    address = a.__array_interface__["data"][0]
    flags = _mapping_flags(address)
    assert flags is not None and "nh" in flags, flags
    del a
    gc.collect()
    assert _mapping_flags(address) is None  # unmapped with the last view


def test_a_negative_length_is_refused():
    with pytest.raises(ValueError, match="negative"):
        empty_in_small_pages((3, -1))
