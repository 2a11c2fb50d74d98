"""svmviz — interactive exploration of SVM-family classifiers and their tuning criteria.

Importing the package makes sure numba has a writable on-disk cache (``NUMBA_CACHE_DIR``) before
numba itself is imported: with ``cache=True`` kernels an unwritable package directory would
otherwise crash at import time.
"""
from __future__ import annotations

import os as _os
import tempfile as _tempfile


def _ensure_numba_cache_dir() -> None:
    if _os.environ.get("NUMBA_CACHE_DIR"):
        return
    for base in (_os.path.join(_os.path.expanduser("~"), ".cache"), _tempfile.gettempdir()):
        path = _os.path.join(base, "svmviz-numba")
        try:
            _os.makedirs(path, exist_ok=True)
            probe = _os.path.join(path, ".probe")
            with open(probe, "w") as fh:
                fh.write("ok")
            _os.remove(probe)
        except OSError:
            continue
        _os.environ["NUMBA_CACHE_DIR"] = path
        return


_ensure_numba_cache_dir()

__version__ = "0.1.0"


def __getattr__(name):  # lazy: `import svmviz` stays cheap, `svmviz.SVMClassifier` works
    if name == "SVMClassifier":
        from .svm import SVMClassifier

        return SVMClassifier
    raise AttributeError(f"module 'svmviz' has no attribute {name!r}")
