"""svmviz — the app's frame. Start with ``streamlit run app.py``.

The page list, the landing page and the navigation are in :mod:`svmviz.ui.frame` (shared with the
installed ``svmviz`` command); each page is a thin script in ``pages/`` calling its ``page()``.
"""
import os

from svmviz.ui.frame import run_app

run_app(os.path.dirname(os.path.abspath(__file__)))
