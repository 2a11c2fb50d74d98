"""Issue 16 (structure): the one split rule of svmviz.data, the published numbers as numbers, the shared
weighted least-squares accumulation, and the import paths kept by the module splits."""
from __future__ import annotations

import importlib
import pickle

import numpy as np
import pytest

from svmviz import data, published
from svmviz._linalg import weighted_gram_upper


# ------------------------------------------------------------------------------------------ splits
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
    from svmviz.ui import ivm as ui

    rng = np.random.default_rng(0)
    y = np.r_[np.zeros(90), np.ones(30)]
    rows = "\n".join(f"{a},{b},{int(c)}" for (a, b), c in zip(rng.normal(size=(120, 2)), y))
    ds = data.dataset_from_csv("a,b,label\n" + rows, label_column="label")
    sp = ui.make_splits(ds, 500, 3)
    assert (sp.X.shape[0], sp.X_tune.shape[0], sp.X_test.shape[0]) == (60, 30, 30)
    for part, share in ((sp.y, 0.5), (sp.y_tune, 0.25), (sp.y_test, 0.25)):  # 30 of the 120 rows are class 1
        assert abs(int(np.sum(part > 0)) - 30 * share) <= 2


# ------------------------------------------------------------------------------------------ published
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


# ------------------------------------------------------------------------------------------ shared algebra
def test_weighted_gram_upper_is_phi_t_diag_w_phi():
    rng = np.random.default_rng(1)
    Phi = rng.normal(size=(40, 6))
    w = rng.random(40)
    w[::5] = 0.0
    out = np.full((7, 7), 2.0)
    weighted_gram_upper(Phi, w, out)
    want = Phi.T @ (w[:, None] * Phi)
    iu = np.triu_indices(6)
    np.testing.assert_allclose(out[:6, :6][iu], 2.0 + want[iu], rtol=1e-13)
    assert np.all(out[:6, :6][np.tril_indices(6, -1)] == 2.0) and np.all(out[6] == 2.0)


# ------------------------------------------------------------------------------------------ import paths
@pytest.mark.parametrize("module, names", [
    ("svmviz.usvc", ["theta_smooth", "primal_profile", "theoretical_ce", "table1_study", "table1_summary",
                     "kernel_comparison", "KernelComparisonFit", "Table1Result", "PAPER_TABLE1", "LOSSES"]),
    ("svmviz.ivm", ["ivm_lambda_path", "klr_lambda_path", "svm_lambda_path", "IVMPath", "KLRPath", "SVMPath"]),
    ("svmviz.kernels", ["SSANOVAKernel", "cubic_spline_rk", "COMPONENT_GRAM_BUDGET", "MAX_COMPONENTS"]),
    ("svmviz.losses", ["gacv_curves", "GacvCurves"]),
    ("svmviz.data", ["Dataset", "make_dataset", "GENERATORS", "dataset_from_csv", "subsample_dataset", "banana"]),
    ("svmviz.path", ["loo_path", "loo_at", "auto_stop", "zero_margin", "default_loo_lambdas", "LooPath",
                     "RHO_ZERO_RTOL"]),
])
def test_split_modules_keep_their_import_paths(module, names):
    mod = importlib.import_module(module)
    for name in names:
        obj = getattr(mod, name)
        if callable(obj) and not isinstance(obj, dict):
            assert obj.__module__ == module or obj.__module__.startswith(module + "._"), name  # in it or a private module of its package


def test_the_compute_helper_keeps_every_name_the_app_tests_and_benches_import():
    """svmviz/ui/compute.py was split (the jobs, their store and the shutdown watch went to _jobs.py):
    every name imported from it, or read as ``compute.X``, in svmviz/, tests/ and bench/ is still there."""
    import re
    from pathlib import Path

    from svmviz.ui import compute

    root = Path(__file__).resolve().parents[1]
    names = set()
    for folder in ("svmviz", "tests", "bench"):
        for path in (root / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for block in re.findall(r"from (?:svmviz\.ui\.compute|\.compute) import \(?([^)\n]*)", text):
                names |= {n.strip().split(" as ")[0] for n in block.split("#")[0].split(",") if n.strip()}
            if path.name != "compute.py" and path != Path(__file__).resolve():
                names |= set(re.findall(r"\bcompute\.([A-Za-z_]\w*)", text)) - {"py"}
    assert {"cached_compute", "Cost", "Cancelled", "smaller_n", "digest", "_Job", "_Store", "_Entry"} <= names
    missing = sorted(n for n in names if not hasattr(compute, n))
    assert not missing, missing


def test_objects_of_split_modules_pickle_by_their_public_path():
    ds = data.make_dataset("esl_mixture", n=40, seed=2)
    back = pickle.loads(pickle.dumps(ds))
    assert isinstance(back, data.Dataset) and np.array_equal(back.X, ds.X)
    assert np.array_equal(back.test_sample(5, 1).X, ds.test_sample(5, 1).X)
