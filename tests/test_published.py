"""svmviz.published: the papers' numbers as numbers with their ranges, one table for the library and
the figures, and the Tuning figure's published marks read from it."""
from __future__ import annotations

import pytest

from svmviz import published


def test_published_numbers_are_numbers_with_their_ranges():
    for mode in ("standard", "nonstandard"):
        for low, high in published.WAHBA2001_INEFFICIENCY[mode].values():
            assert isinstance(low, float) and isinstance(high, float) and 1.0 <= low <= high
    assert published.range_text(1.0062, 1.0094) == "1.0062–1.0094" and published.range_text(1.151, 1.151) == "1.151"
    t = published.published_table("wahba2001_standard").set_index("criterion")
    assert (t.loc["xa", "low"], t.loc["xa", "high"]) == published.WAHBA2001_INEFFICIENCY["standard"]["xa"]
    from svmviz import usvc

    assert usvc.PAPER_TABLE1 is published.NAVIA2004_TABLE1


def test_the_studies_alias_of_the_numbers_warns_and_gives_the_same_objects():
    """``svmviz.studies.published`` (deprecated for one release) hands out svmviz.published's names,
    each read with a DeprecationWarning naming the module to import instead."""
    from svmviz.studies import published as alias

    with pytest.warns(DeprecationWarning, match="import published_table from svmviz.published instead"):
        assert alias.published_table is published.published_table
    with pytest.warns(DeprecationWarning):
        from svmviz.studies.published import WAHBA2001_INEFFICIENCY
    assert WAHBA2001_INEFFICIENCY is published.WAHBA2001_INEFFICIENCY
    with pytest.raises(AttributeError, match="no_such_table"):
        alias.no_such_table


def test_tuning_figure_marks_the_published_value_from_the_numbers():
    from svmviz.figures import tuning as ft

    assert ft._published_text("standard", "xa") == "1.0062–1.0094"
    assert ft._published_text("standard", "gckl") == "—"
