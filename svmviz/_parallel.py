"""One lock around every numba ``parallel=True`` function.

Streamlit runs each browser session in its own thread. numba's default ``workqueue`` threading
layer is not safe for concurrent calls into parallel kernels from several threads, and the
thread-safe layers (``omp``, ``tbb``) are not guaranteed on every machine. Serialising the
parallel kernels is always safe: each call already uses every core, so two sessions computing at
once lose nothing but queueing order.

Shared internal module of svmviz: its names serve the package's other modules; not public API.
"""
from __future__ import annotations

import contextlib
import threading
from concurrent.futures import ThreadPoolExecutor

PARALLEL_LOCK = threading.RLock()


@contextlib.contextmanager
def task_pool(workers: int):
    """A ``ThreadPoolExecutor`` that drops its queued tasks when the block is left by an exception.

    ``with ThreadPoolExecutor() as pool:`` waits at the end of the block for every submitted task,
    also when the block ends with an exception, so a computation whose progress callback raises
    (the app's Cancel, a closed browser tab) would go on for every queued task. Here the tasks not
    yet started are cancelled; the ones running finish (a compiled numba function cannot be
    interrupted).
    """
    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
