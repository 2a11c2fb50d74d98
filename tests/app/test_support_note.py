"""The note beside a fitted SVM-family machine with more than 90 % of its points as support vectors, on
every page that fits one and shows it (:func:`svmviz.ui.fit_notes.support_note`): Tuning criteria at the
selected grid point, the Regularization path at the chosen point, Unbiased SVC's kernel machines, the SVM beside the IVM."""
from __future__ import annotations

import pytest

from svmviz import data
from svmviz.ui.fit_notes import SUPPORT_SHARE, support_note

from ..apptest_utils import assert_clean
from .codeview_utils import open_page


def _notes(at) -> list[str]:
    return [w.value for w in at.warning if "are support vectors at" in w.value]


@pytest.mark.parametrize("page_file, query, at_what", [
    ("1_Tuning_criteria.py", {"data": "twonorm", "n": "40", "res": "6", "sig_lo": "-2", "sig_hi": "-1"},
     "the selected (λ, σ)"),
    ("3_Regularization_path.py", {"data": "banana", "n": "40", "ploo": "0", "plam": "1000"},
     "the chosen point of the path"),
    ("4_Unbiased_SVC.py", {"data": "twonorm", "n": "40", "u_n": "100", "u_sigma": "0.25"}, "the SVM's (σ, C)"),
    ("5_Import_vector_machine.py", {"data": "twonorm", "n": "40", "i_nlams": "11", "i_ntune": "50",
                                    "i_sigma": "0.1"}, "the SVM's tuned λ_SVM"),
])
def test_a_fit_leaning_on_nearly_every_point_gets_the_note(page_file, query, at_what):
    at = open_page(page_file, query)
    assert_clean(at)
    notes = _notes(at)
    assert len(notes) == 1 and at_what in notes[0], notes
    share = int(notes[0].split("(")[1].split(" %")[0])
    assert share > 100 * SUPPORT_SHARE


@pytest.mark.parametrize("page_file, query", [
    ("3_Regularization_path.py", {"data": "banana", "n": "40", "ploo": "0"}),
    ("4_Unbiased_SVC.py", {"data": "banana", "n": "40", "u_n": "100", "u_sigma": "1.0"}),
])
def test_a_sparse_fit_gets_no_note(page_file, query):
    at = open_page(page_file, query)
    assert_clean(at)
    assert not _notes(at)


def test_support_note_threshold_and_inputs():
    ds = data.make_dataset("banana", n=40, seed=0)
    assert support_note(36, 40, ds, at="x", advice="y", where=_Sink()) is None  # 90 %: not more than
    text = support_note(37, 40, ds, at="the point", advice="Try this.", where=_Sink())
    assert text.startswith("37 of 40 points (92 %) are support vectors at the point") and "Try this." in text
    for n_sv, n in ((41, 40), (-1, 40), (0, 0)):
        with pytest.raises(ValueError, match="0 ≤ n_sv ≤ n"):
            support_note(n_sv, n, ds, at="x", advice="y", where=_Sink())


class _Sink:
    """Where a note goes outside a page: kept, not drawn."""

    def __init__(self):
        self.shown = []

    def warning(self, text):
        self.shown.append(text)
