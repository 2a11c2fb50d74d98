"""The one split rule of svmviz.data (``split_indices``: stratified, seeded, plain split sizes), the
fresh samples' distinct streams, and the IVM page's stratified split of an upload."""
from __future__ import annotations

import numpy as np
import pytest

from svmviz import data


@pytest.mark.parametrize("fractions", [(0.7, 0.3), (0.5, 0.25, 0.25), (0.2, 0.3, 0.5)])
@pytest.mark.parametrize("counts", [(30, 10), (97, 3, 50), (5, 5), (200, 13)])
def test_split_indices_is_a_stratified_partition_of_plain_split_sizes(fractions, counts):
    y = np.repeat(np.arange(len(counts)), counts)
    n = y.size
    parts = data.split_indices(y, fractions, seed=7)
    assert len(parts) == len(fractions)
    together = np.concatenate(parts)
    assert np.array_equal(np.sort(together), np.arange(n))  # a partition
    cuts = np.floor(np.cumsum(fractions) * n + 1e-9).astype(int)
    sizes = np.diff(np.r_[0, cuts[:-1], n])
    assert [p.size for p in parts] == sizes.tolist()  # the sizes of a plain random split
    for part, f in zip(parts, fractions):  # every class in proportion, within two rows
        for c, n_c in enumerate(counts):
            assert abs(np.sum(y[part] == c) - f * n_c) <= 2.0


def test_split_indices_is_seeded_and_random():
    y = np.array([0] * 60 + [1] * 40)
    a = data.split_indices(y, (0.5, 0.25, 0.25), seed=3)
    b = data.split_indices(y, (0.5, 0.25, 0.25), seed=3)
    c = data.split_indices(y, (0.5, 0.25, 0.25), seed=4)
    assert all(np.array_equal(p, q) for p, q in zip(a, b))
    assert not np.array_equal(np.sort(a[0]), np.sort(c[0]))
    # labels of any kind: strings too
    words = np.where(y > 0, "yes", "no")
    assert all(np.array_equal(p, q) for p, q in zip(a, data.split_indices(words, (0.5, 0.25, 0.25), seed=3)))


@pytest.mark.parametrize("fractions, match", [((1.0,), "at least two"), ((0.7, 0.2), "summing to 1"),
                                              ((1.2, -0.2), "positive"), (("a", "b"), "numbers")])
def test_split_indices_refuses_bad_fractions(fractions, match):
    with pytest.raises(ValueError, match=match):
        data.split_indices(np.zeros(10), fractions)
    with pytest.raises(ValueError, match="cannot be split"):
        data.split_indices(np.zeros(2), (0.5, 0.25, 0.25))


def test_fresh_sample_roles_are_distinct_streams():
    ds = data.make_dataset("banana", n=50, seed=5)
    tu = data.fresh_sample(ds, 30, 5, role="tuning")
    te = data.fresh_sample(ds, 30, 5, role="test")
    assert np.array_equal(te.X, ds.test_sample(30, seed=data.SAMPLE_ROLES["test"] + 5).X)
    assert not np.array_equal(tu.X, te.X) and not np.array_equal(te.X[:30], ds.X[:30])
    with pytest.raises(ValueError, match="role"):
        data.fresh_sample(ds, 10, 0, role="validation")
    csv = data.dataset_from_csv("a,b,label\n" + "\n".join(f"{i},{i % 3},{i % 2}" for i in range(20)))
    with pytest.raises(ValueError, match="split_indices"):
        data.fresh_sample(csv, 10, 0)


def test_ivm_page_split_of_an_upload_is_stratified():
    from svmviz.views import ivm as ui

    rng = np.random.default_rng(0)
    y = np.r_[np.zeros(90), np.ones(30)]
    rows = "\n".join(f"{a},{b},{int(c)}" for (a, b), c in zip(rng.normal(size=(120, 2)), y))
    ds = data.dataset_from_csv("a,b,label\n" + rows, label_column="label")
    sp = ui.make_splits(ds, 500, 3)
    assert (sp.X.shape[0], sp.X_tune.shape[0], sp.X_test.shape[0]) == (60, 30, 30)
    for part, share in ((sp.y, 0.5), (sp.y_tune, 0.25), (sp.y_test, 0.25)):  # 30 of the 120 rows are class 1
        assert abs(int(np.sum(part > 0)) - 30 * share) <= 2
