"""Sphinx configuration of the svmviz documentation (build: ``bash docs/build.sh``)."""
from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # sg_plotly (the gallery's plotly scraper) and sg_order (its order)

import plotly.offline  # noqa: E402

import svmviz  # noqa: E402

project = "svmviz"
author = "svmviz contributors"
copyright = "svmviz contributors, MIT licence"
release = version = svmviz.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.intersphinx",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

# The site must build without the network: no intersphinx inventories are fetched.
intersphinx_mapping: dict = {}
intersphinx_disabled_reftypes = ["*"]

templates_path = ["_templates"]
exclude_patterns = ["_build", "_generated", "examples/README.rst", "auto_examples/*.ipynb", "auto_examples/*.py",
                    "auto_examples/*.zip", "auto_examples/*.md5", "auto_examples/*.json"]
root_doc = "index"
language = "en"

# ---------------------------------------------------------------------------- API reference
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": False, "inherited-members": False}
autodoc_typehints = "none"  # the numpydoc sections carry the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
# numpydoc's own docstring validation, the checks every public docstring of svmviz passes: no unknown
# section, no documented parameter the signature lacks, "a, b : type" written with the space, and a
# description for every "See Also" entry. (tests/test_docs.py checks that the sections parse.)
numpydoc_validation_checks = {"GL06", "PR02", "PR10", "SA04"}

# Cross-references are checked (nitpicky): a reference to a name the site does not document fails the
# build. These targets, named in docstrings today, have no page yet — module constants, private
# modules and the app's modules: document the name or change the reference, then remove it here.
nitpicky = True
nitpick_ignore = [
    ("py:attr", "GramCriteria.alphas"),
    ("py:data", "COLUMNS"),
    ("py:data", "COMPONENT_GRAM_BUDGET"),
    ("py:data", "CRITERIA_NAMES"),
    ("py:data", "CURVE_KEYS"),
    ("py:data", "EXACT_S_EVERY_MIN"),
    ("py:data", "EXACT_S_POINTS_PER_STEP"),
    ("py:data", "GRID_SHRINKING"),
    ("py:data", "MEASURES"),
    ("py:data", "RHO_ZERO_RTOL"),
    ("py:data", "VALIDATE"),
    ("py:data", "svmviz.figures.theme.FONT"),
    ("py:data", "svmviz.kernels.KERNELS"),
    ("py:data", "svmviz.losses.DEFAULT_PARAMS"),
    ("py:data", "svmviz.losses.LOSSES"),
    ("py:data", "svmviz.path.RHO_ZERO_RTOL"),
    ("py:func", "spec_to_dict"),
    ("py:func", "svmviz.usvc._irwls.irwls"),
    ("py:func", "svmviz.studies.published.published_table"),
    ("py:func", "svmviz.ui.charts.chart"),
    ("py:meth", "__call__"),
    ("py:meth", "coordinate_grams"),
    ("py:meth", "fit"),
    ("py:meth", "gram_from_coordinate_grams"),
    ("py:meth", "model_at"),
    ("py:meth", "svmviz.kernels.SSANOVAKernel.coordinate_grams"),
    ("py:mod", "svmviz.path._solver"),
    ("py:mod", "svmviz.studies.published"),
    ("py:mod", "svmviz.ui.edit"),
]

# ---------------------------------------------------------------------------- gallery
_STATIC_GEN = os.path.join(HERE, "_build", "static_generated")
os.makedirs(_STATIC_GEN, exist_ok=True)
with open(os.path.join(_STATIC_GEN, "plotly.min.js"), "w", encoding="utf-8") as fh:
    fh.write(plotly.offline.get_plotlyjs())

sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "image_scrapers": ("sg_plotly",),
    "reset_modules": ("sg_plotly.reset_renderer",),
    "capture_repr": (),
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "sg_order.PaperOrder",
    "default_thumb_file": os.path.join(HERE, "_static", "gallery_thumb.png"),
    "abort_on_example_error": False,
    "only_warn_on_example_error": False,
    "min_reported_time": 1,
    "show_memory": False,
    "plot_gallery": True,
}

# ---------------------------------------------------------------------------- HTML
html_theme = "pydata_sphinx_theme"
html_title = f"svmviz {release}"
html_static_path = ["_static", _STATIC_GEN]
html_js_files = ["plotly.min.js"]
html_theme_options = {
    "navbar_end": ["navbar-icon-links"],
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": [],
}
html_sidebars = {"index": [], "references": [], "performance": []}
html_show_sourcelink = False
html_copy_source = False
html_last_updated_fmt = None


# ---------------------------------------------------------------------------- plain-text docstrings
# svmviz's docstrings are written to be read by ``help()``: absolute values |x| and fitted attributes
# such as ``lo_`` appear in plain text, where reStructuredText reads a substitution or a link target.
# The docstrings are escaped for the site, outside inline literals, roles, literal blocks and doctests.
import re  # noqa: E402

_SPANS = re.compile(r"(``.+?``|:[\w:.+-]+:`[^`]+`|`[^`]+`_{0,2})")
_TRAILING_UNDERSCORE = re.compile(r"(?<![\w\\*])([A-Za-z]\w*)_(?=[\s,.;:)\]]|$)")


def _escape_plain_text(line: str) -> str:
    parts = _SPANS.split(line)
    for k in range(0, len(parts), 2):  # the even parts are outside literals and roles
        parts[k] = _TRAILING_UNDERSCORE.sub(r"\1\\_", parts[k].replace("|", r"\|"))
    return "".join(parts)


def escape_docstring(app, what, name, obj, options, lines):
    """autodoc-process-docstring handler: escape ``|`` and a trailing ``_`` in plain text."""
    literal_indent = None
    previous = ""
    for i, line in enumerate(lines):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if literal_indent is not None:
            if stripped and indent <= literal_indent:
                literal_indent = None
            else:
                previous = line if stripped else previous
                continue
        if stripped.startswith((">>>", "...")) or stripped.startswith(".. "):
            previous = line
            continue
        if previous.rstrip().endswith("::") and not stripped:
            literal_indent = len(previous) - len(previous.lstrip())
            continue
        lines[i] = _escape_plain_text(line)
        if stripped:
            previous = line


def setup(app):
    app.connect("autodoc-process-docstring", escape_docstring, priority=600)


# ---------------------------------------------------------------------------- reproduction report
def _write_reproduction_table() -> None:
    """docs/_generated/reproduction_table.rst: the committed reproduction results as a list-table, built
    from the results themselves (:func:`svmviz.studies.reproduction.reproduction_table`), never typed."""
    from svmviz.studies.reproduction import REPORT_COLUMNS, reproduction_table

    table = reproduction_table()
    cols = REPORT_COLUMNS[:REPORT_COLUMNS.index("note") + 1]
    head = ["paper", "table/figure", "data set", "method", "quantity", "published", "svmviz", "R", "verdict", "note"]

    def cell(v) -> str:
        text = " ".join(str(v).split())
        return text.replace("\\", "\\\\").replace("*", "\\*").replace("|", "\\|").replace("`", "\\`") or "—"

    lines = [".. list-table::", "   :header-rows: 1", "   :class: reproduction", ""]
    for row in [head] + [[r[c] for c in cols] for _, r in table.iterrows()]:
        lines.append("   * - " + cell(row[0]))
        lines.extend("     - " + cell(v) for v in row[1:])
    os.makedirs(os.path.join(HERE, "_generated"), exist_ok=True)
    with open(os.path.join(HERE, "_generated", "reproduction_table.rst"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")


_write_reproduction_table()
