"""svmviz.published: the papers' numbers as numbers with their ranges, one table for the library and
the figures, and the Tuning figure's published marks read from it."""
from __future__ import annotations

from svmviz import published


def test_published_numbers_are_numbers_with_their_ranges():
    for mode in ("standard", "nonstandard"):
        for low, high in published.WAHBA2001_INEFFICIENCY[mode].values():
            assert isinstance(low, float) and isinstance(high, float) and 1.0 <= low <= high
    assert published.range_text(1.0062, 1.0094) == "1.0062–1.0094" and published.range_text(1.151, 1.151) == "1.151"
    t = published.published_table("wahba2001_standard").set_index("criterion")
    assert (t.loc["xa", "low"], t.loc["xa", "high"]) == published.WAHBA2001_INEFFICIENCY["standard"]["xa"]
    from svmviz import usvc
    from svmviz.studies import published as old_path

    assert usvc.PAPER_TABLE1 is published.NAVIA2004_TABLE1
    assert old_path.published_table is published.published_table


def test_tuning_figure_marks_the_published_value_from_the_numbers():
    from svmviz.figures import tuning as ft

    assert ft._published_text("standard", "xa") == "1.0062–1.0094"
    assert ft._published_text("standard", "gckl") == "—"
