"""Large uninitialised float64 arrays in small (4 kB) memory pages.

numpy asks the kernel for transparent huge pages on large arrays (``madvise(MADV_HUGEPAGE)``): each
first write then faults in and zeroes 2 MB. Where free memory is fragmented, and on a busy virtual
machine it soon is, the kernel first compacts memory to find those 2 MB, and a first write can cost
many times the small page's fault. :func:`empty_in_small_pages` maps its array privately and
anonymously with ``MADV_NOHUGEPAGE``: every first write costs one small page's fault, whatever the
state of memory; pages never written take no memory.

Shared internal module of svmviz: its names serve the package's other modules; not public API.
"""
from __future__ import annotations

import mmap

import numpy as np


def empty_in_small_pages(shape) -> np.ndarray:
    """An uninitialised C-contiguous float64 array of ``shape`` in an anonymous private mapping of its
    own, in small pages (where the kernel has huge pages at all); the mapping is released with the
    last view of the array."""
    shape = tuple(int(k) for k in np.atleast_1d(shape))
    if any(k < 0 for k in shape):
        raise ValueError(f"an array's shape has no negative length; got {shape}.")
    count = int(np.prod(shape, dtype=np.int64))
    buf = mmap.mmap(-1, max(count, 1) * 8, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if hasattr(mmap, "MADV_NOHUGEPAGE"):
        try:
            buf.madvise(mmap.MADV_NOHUGEPAGE)
        except OSError:  # a kernel without transparent huge pages
            pass
    return np.frombuffer(buf, dtype=np.float64, count=count).reshape(shape)
