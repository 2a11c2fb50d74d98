"""The Streamlit app: the only package that imports streamlit.

Each page is a function ``page()`` in its own module (``tuning``, ``losses``, ``path``, ``usvc``,
``ivm``, ``anova``, ``studies``), run by :mod:`svmviz.ui.frame`. What the pages share, by what it does:

* :mod:`~svmviz.ui.frame` — the page list, the home page, the navigation;
* :mod:`~svmviz.ui.page_head` — the head of every page (title, caption, presets picker);
* :mod:`~svmviz.ui.url_state` — the view in the URL (shared links, Back/Forward);
* :mod:`~svmviz.ui.widgets` — :func:`~svmviz.ui.widgets.control`, a widget whose value is kept in the URL;
* :mod:`~svmviz.ui.session` — the data-set choice a browser session shares between pages;
* :mod:`~svmviz.ui.data_sidebar` — the data-set sidebar; :mod:`~svmviz.ui.datasets` the data sets it
  makes; :mod:`~svmviz.ui.uploads` the uploaded files; :mod:`~svmviz.ui.edit` the point editor;
* :mod:`~svmviz.ui.compute` — the app's one cache (:func:`~svmviz.ui.compute.cached`) and its
  background computations (:func:`~svmviz.ui.compute.cached_compute`, jobs in ``_jobs.py``);
* :mod:`~svmviz.ui.charts` — every chart (slide-size export); :mod:`~svmviz.ui.export` CSV downloads;
* :mod:`~svmviz.ui.errors`, :mod:`~svmviz.ui.progress`, :mod:`~svmviz.ui.glossary`,
  :mod:`~svmviz.ui.presets`, :mod:`~svmviz.ui.kernel_width` (the σ choices of the path page and the
  editor);
* ``_streamlit_compat.py`` — every private Streamlit internal the app uses, each with its fallback.
"""
