"""One name per criterion wherever a person reads: Joachims' ξα (Wahba et al. 2001, eq. 6) is
"XA (Joachims' R²)" in the app (``svmviz.tuning.CRITERIA_NAMES``), so the docstrings, the documentation's
guide, API pages and references, the gallery and the README call it that too (the key ``xa_j`` of the
code stays a key)."""
from __future__ import annotations

import pathlib
import re

import svmviz
from svmviz.tuning import CRITERIA_NAMES

ROOT = pathlib.Path(svmviz.__file__).parent.parent
# the raw identifier written as a name: upper case, as a docstring or page would print it
RAW = re.compile(r"\bXA_J\b")


def _read_texts():
    yield from sorted((ROOT / "svmviz").rglob("*.py"))
    for sub in ("guide", "api", "examples"):
        yield from sorted((ROOT / "docs" / sub).rglob("*.rst"))
        yield from sorted((ROOT / "docs" / sub).rglob("*.py"))
    yield ROOT / "docs" / "references.rst"
    yield ROOT / "docs" / "index.rst"
    yield ROOT / "README.md"


def test_joachims_xa_has_the_apps_name_in_docs_and_docstrings():
    assert CRITERIA_NAMES["xa_j"][0] == "XA (Joachims' R²)"
    found = [f"{p.relative_to(ROOT)}:{i}" for p in _read_texts()
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if RAW.search(line)]
    assert not found, "XA_J where a person reads (write XA (Joachims' R²)): " + ", ".join(found)


def test_raw_name_pattern_finds_the_identifier_and_not_the_key():
    assert RAW.search("GACV, XA, XA_J, GCKL") and not RAW.search('criteria = ["xa_j"]')
