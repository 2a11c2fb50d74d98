"""Import paths kept when modules are split: every public name keeps its module (documented, pickled
and reported there), the compute helper keeps every name the app, tests and benches import."""
from __future__ import annotations

import importlib
import pickle

import numpy as np
import pytest

from svmviz import data


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


def _defined_in(path) -> set[str]:
    """The names a module defines itself (functions, classes, assignments at its top level)."""
    import ast

    out = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                out |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return out


def test_the_compute_helper_keeps_every_name_the_app_tests_and_benches_import():
    """Every name imported from svmviz/ui/compute.py, or read as ``compute.X``, in svmviz/, tests/ and bench/
    is there; a private name read from it is compute's own (the job machinery's private names are read
    from svmviz/ui/_jobs.py, where they live)."""
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
    assert {"cached_compute", "Cost", "Cancelled", "smaller_n", "digest", "_store"} <= names
    missing = sorted(n for n in names if not hasattr(compute, n))
    assert not missing, missing
    own = _defined_in(root / "svmviz" / "ui" / "compute.py")
    borrowed = sorted(n for n in names if n.startswith("_") and n not in own)
    assert not borrowed, f"private names read from compute that live elsewhere: {borrowed}"


def test_objects_of_split_modules_pickle_by_their_public_path():
    ds = data.make_dataset("esl_mixture", n=40, seed=2)
    back = pickle.loads(pickle.dumps(ds))
    assert isinstance(back, data.Dataset) and np.array_equal(back.X, ds.X)
    assert np.array_equal(back.test_sample(5, 1).X, ds.test_sample(5, 1).X)
