import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _fresh_streamlit_caches():
    """st.cache_data / st.cache_resource persist across AppTest instances in one process."""
    yield
    import sys as _sys

    if "streamlit" in _sys.modules:
        import streamlit as st

        st.cache_data.clear()
        st.cache_resource.clear()
