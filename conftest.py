"""Collection rules for the whole checkout.

pytest.ini collects the docstring examples of ``svmviz`` (``--doctest-modules``). Not collected:
``svmviz/ui`` (Streamlit pages: they run inside an app session and are tested with AppTest and a
browser), ``svmviz/__main__.py`` (importing it starts the app), and the scripts beside the package.
"""
collect_ignore = ["svmviz/__main__.py", "svmviz/ui", "app.py", "pages", "bench"]
