import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import pytest  # noqa: E402

# a one-file Streamlit app that a test serves (importing it runs the app): not a test module
collect_ignore = ["ui/upload_session_app.py"]

# Streamlit servers started by the browser tests inherit this: no background warm-up of the numba
# kernels (svmviz/_warmup.py) — the tests share one warm cache, and an extra process compiling every
# kernel would only compete with what the tests measure. bench/bench_coldstart.py measures it.
os.environ.setdefault("SVMVIZ_WARMUP", "0")


@pytest.fixture(autouse=True)
def _fresh_streamlit_caches():
    """st.cache_data / st.cache_resource persist across AppTest instances in one process: every
    test starts and ends with empty caches."""
    _clear_streamlit_caches()
    yield
    _clear_streamlit_caches()


def _clear_streamlit_caches():
    if "streamlit" in sys.modules:
        import streamlit as st

        st.cache_data.clear()
        st.cache_resource.clear()


@pytest.fixture(autouse=True)
def _main_module_restored():
    """AppTest runs its script as ``__main__`` (Streamlit's script runner installs the script's module
    there) and leaves it installed. A later test of the same process that starts a Dask cluster spawns
    workers, and a ``spawn`` child imports its parent's ``__main__`` again from its file: that script
    (a test's deliberately failing page kills the workers). Every test ends with the ``__main__`` it
    started with."""
    main = sys.modules.get("__main__")
    yield
    if main is not None:
        sys.modules["__main__"] = main
