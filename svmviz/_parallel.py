"""One lock around every numba ``parallel=True`` kernel.

Streamlit runs each browser session in its own thread. numba's default ``workqueue`` threading
layer is not safe for concurrent calls into parallel kernels from several threads, and the
thread-safe layers (``omp``, ``tbb``) are not guaranteed on every machine. Serialising the
parallel kernels is always safe: each call already uses every core, so two sessions computing at
once lose nothing but queueing order.
"""
from __future__ import annotations

import threading

PARALLEL_LOCK = threading.RLock()
