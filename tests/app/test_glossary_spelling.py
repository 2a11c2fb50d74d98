"""Acronyms spelled out on first use without nested or doubled brackets ("MISCLASS (expected
misclassification rate) (BRMISCLASS (Bayes-risk misclassification))" reads as
"MISCLASS, expected misclassification rate (BRMISCLASS, Bayes-risk misclassification)")."""
from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest

from tests.apptest_utils import page_path

NESTED = re.compile(r"\([^()]*\(")  # a bracket opened inside another
DOUBLED = re.compile(r"\) \(")  # two bracketed asides in a row


def test_tuning_page_intro_spells_acronyms_without_nested_brackets():
    at = AppTest.from_file(page_path("1_Tuning_criteria.py"), default_timeout=180)
    at.query_params["n"] = "60"
    at.query_params["res"] = "5"
    at.run()
    assert not at.exception
    intro = [c.value for c in list(at.caption) + list(at.markdown) if "BRMISCLASS" in c.value]
    assert intro, "the page's introduction names BRMISCLASS"
    for text in intro:
        plain = re.sub(r"\$[^$]*\$", "", text)  # TeX keeps its own brackets
        assert not NESTED.search(plain) and not DOUBLED.search(plain), plain
    assert "BRMISCLASS, Bayes-risk misclassification" in intro[0]
