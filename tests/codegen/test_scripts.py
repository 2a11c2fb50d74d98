"""svmviz.codegen without the app: literals, data sources, the two file formats, refused settings."""
from __future__ import annotations

import json
import os
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import svmviz
from svmviz import codegen
from svmviz.codegen.core import EDITED_POINTS_CSV, md_escape


def test_literals_evaluate_to_equal_values():
    values = [0.1 + 0.2, -1e-300, 3, True, None, "a \"quoted\" name", "σ", (1.5,), [np.float64(2.5), np.int64(3)],
              {"a": (1.0, 2.0)}, np.array([[1.0, 2.0], [3.0, 4.0]])]
    for v in values:
        back = eval(codegen.literal(v))  # noqa: S307 — the point of the test
        expect = v.tolist() if isinstance(v, np.ndarray) else v
        if isinstance(v, list):
            expect = [float(v[0]), int(v[1])]
        assert back == expect and type(back) is type(expect), (v, back)


@pytest.mark.parametrize("bad, error", [(float("nan"), ValueError), (np.inf, ValueError), (object(), TypeError),
                                        (len, TypeError)])
def test_a_value_without_a_literal_is_refused_with_what_to_pass(bad, error):
    with pytest.raises(error, match="literal"):
        codegen.literal(bad)


def test_a_generated_data_set_keeps_only_the_parameters_that_differ_from_the_defaults():
    ds = svmviz.make_dataset("wahba2001", n=30, seed=4, nonstandard=True, C_plus=1.5)
    src = codegen.data_source(ds)
    assert src == codegen.DataSource("generated", "wahba2001", 30, 4, (("nonstandard", True), ("C_plus", 1.5)))
    cell = codegen.data_cell(src)
    ns = {"svmviz": svmviz}
    exec(cell.code, ns)
    np.testing.assert_array_equal(ns["ds"].X, ds.X)
    np.testing.assert_array_equal(ns["ds"].y, ds.y)
    assert codegen.data_source(svmviz.make_dataset("banana", n=20, seed=1)).params == ()


def test_edited_points_are_read_back_from_the_editors_csv_file(tmp_path):
    from svmviz.ui.export import csv_bytes
    from svmviz.ui.edit import EditState, points_table

    base = svmviz.make_dataset("esl_mixture", n=30, seed=2)
    state = EditState(("esl_mixture", 30, 2), base)
    state.add(0.25, 1.75, 1.0)
    state.remove([0, 5])
    table = points_table(state)
    (tmp_path / EDITED_POINTS_CSV).write_bytes(csv_bytes(list(table), [np.asarray(v) for v in table.values()]))
    src = codegen.data_source(state.dataset())
    assert src.files == (EDITED_POINTS_CSV,)
    ns = {"svmviz": svmviz}

    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        exec(codegen.data_cell(src).code, ns)
    finally:
        os.chdir(cwd)
    np.testing.assert_array_equal(ns["ds"].X, state.X)
    np.testing.assert_array_equal(ns["ds"].y, state.y)


def test_a_data_set_of_unknown_origin_is_refused():
    ds = svmviz.data.dataset_from_csv("a,b,label\n0,1,x\n1,0,x\n2,2,y\n3,1,y\n")
    with pytest.raises(ValueError, match="file_name="):
        codegen.data_source(ds)


def test_an_uploaded_subsample_is_read_and_subsampled_as_the_page_does(tmp_path):
    text = "a,b,label\n" + "\n".join(f"{i},{(i * 7) % 5},{'x' if i % 2 else 'y'}" for i in range(40)) + "\n"
    (tmp_path / "f.csv").write_text(text)
    ds = svmviz.data.subsample_dataset(svmviz.data.dataset_from_csv(text, standardize=True), 12, 3)
    src = codegen.data_source(ds, file_name="f.csv", label_column="label", standardize=True)
    code = codegen.data_cell(src).code
    assert "subsample_dataset(ds, 12, seed=3)" in code
    ns = {"svmviz": svmviz}
    exec(code.replace('"f.csv"', repr(str(tmp_path / "f.csv"))), ns)
    np.testing.assert_array_equal(ns["ds"].X, ds.X)


def _script():
    return codegen.Script("T", (codegen.Cell("one", "a = 1"), codegen.Cell("two\nlines", "b = a + 1", ("b",))))


def test_the_script_is_in_the_percent_cell_format_and_shows_its_figures_when_run():
    text = _script().python()
    assert text.splitlines()[:4] == ['"""T"""', "", "# %% one", "a = 1"]
    assert "# %% two\n# lines\nb = a + 1" in text
    assert text.rstrip().endswith('if __name__ == "__main__":\n    b.show()')


def test_the_notebook_is_valid_nbformat_4_with_a_markdown_and_a_code_cell_per_step():
    import nbformat

    nb = json.loads(_script().notebook_json())
    nbformat.validate(nbformat.from_dict(nb))
    kinds = [c["cell_type"] for c in nb["cells"]]
    assert kinds == ["markdown", "markdown", "code", "markdown", "code"]
    assert "".join(nb["cells"][4]["source"]) == "b = a + 1\nb.show()"


def test_every_public_name_has_complete_numpydoc_sections():
    from tests.test_packaging import _numpydoc_problems, _public_objects

    objects = list(_public_objects(("codegen.core", "codegen.plan", "views", "views.tuning", "views.losses",
                                    "views.path", "views.usvc", "views.ivm", "views.anova", "views.studies")))
    assert {name for _, name, _ in objects} >= {"plan_script", "data_source", "Script", "literal", "Plan",
                                                  "view_plan", "Setting"}
    problems = [p for module, name, obj in objects for p in _numpydoc_problems(obj, f"{module}.{name}")]
    assert not problems, "\n".join(problems)


def _run_data_cell(src, tmp_path, files=()):
    ns = {"svmviz": svmviz}
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        exec(codegen.data_cell(src).code, ns)
    finally:
        os.chdir(cwd)
    return ns["ds"]


def test_the_data_cell_repeats_column_roles_and_the_class_choice(tmp_path):
    from tests.data.own_table import own_table_csv

    content = own_table_csv()
    (tmp_path / "cars.csv").write_bytes(content)
    ds = svmviz.data.dataset_from_csv(content, label_column="origin", feature_columns=["mpg", "weight, kg", 'c"q,d'],
                                      classes=("Japan", "USA"), standardize=True)
    ds = svmviz.data.subsample_dataset(ds, 40, seed=2)
    src = codegen.data_source(ds, file_name="cars.csv", label_column="origin", standardize=True)
    assert src.feature_columns == ("mpg", "weight, kg", 'c"q,d') and src.classes == ("Japan", "USA")
    cell = codegen.data_cell(src)
    assert "classes=(\"Japan\", \"USA\")" in cell.code and "subsample_dataset(ds, 40, seed=2)" in cell.code
    back = _run_data_cell(src, tmp_path)
    np.testing.assert_array_equal(back.X, ds.X)
    np.testing.assert_array_equal(back.y, ds.y)
    assert back.classes == ds.classes
    rest = svmviz.data.dataset_from_csv(content, one_vs_rest="Europe")
    src = codegen.data_source(rest, file_name="cars.csv", label_column="origin")
    assert src.feature_columns is None and "feature_columns" not in codegen.data_cell(src).code
    assert 'one_vs_rest="Europe"' in codegen.data_cell(src).code
    back = _run_data_cell(src, tmp_path)
    np.testing.assert_array_equal(back.X, rest.X)
    assert back.class_names == ("not Europe", "Europe")


def test_the_data_cell_repeats_a_class_choice_on_a_generated_or_shipped_set(tmp_path):
    for ds in (svmviz.data.select_classes(svmviz.make_dataset("iris", n=150, seed=0), classes=("virginica", "setosa")),
               svmviz.data.select_classes(svmviz.make_dataset("esl_mixture3", n=90, seed=3), one_vs_rest="class 1")):
        src = codegen.data_source(ds)
        assert src.kind == "generated"
        cell = codegen.data_cell(src)
        assert "svmviz.data.select_classes(ds, " in cell.code
        back = _run_data_cell(src, tmp_path)
        np.testing.assert_array_equal(back.X, ds.X)
        np.testing.assert_array_equal(back.y, ds.y)
        assert back.class_names == ds.class_names


@pytest.mark.parametrize("name", ["<img src=x onerror=alert(1)>.csv", "a`b`*c*_[x](e)#.csv",
                                  "two\nlines<script>.csv"])
def test_names_in_markdown_are_escaped(tmp_path, name):
    rows = "".join(f"{i / 3},{i % 5},{'<b>x</b>' if i % 2 else 'y*'}\n" for i in range(40))
    content = ("a,b,label\n" + rows).encode()
    (tmp_path / "f.csv").write_bytes(content)
    ds = svmviz.data.dataset_from_csv(content, classes=("<b>x</b>", "y*"), feature_columns=["a"])
    src = codegen.data_source(ds, file_name=name, label_column="label")
    cell = codegen.data_cell(src)
    script = codegen.Script("t", (cell,), src.files)
    markdown_cells = ["".join(c["source"]) for c in script.notebook()["cells"] if c["cell_type"] == "markdown"]
    comments = [line for line in script.python().splitlines() if line.startswith("#")]
    for text in [cell.markdown] + markdown_cells + comments:
        assert "<img" not in text and "<script" not in text and "<b>" not in text
    assert "\n" not in cell.markdown
    assert md_escape(name) in cell.markdown and "&lt;b&gt;x&lt;/b&gt;" in cell.markdown
    (tmp_path / name).write_bytes(content)
    if "\n" not in name:  # the code reads the file by its exact name (a str with a line break is CSV text)
        np.testing.assert_array_equal(_run_data_cell(src, tmp_path).X, ds.X)


@settings(max_examples=80, deadline=None)
@given(text=st.text(min_size=1, max_size=40))
def test_markdown_escape_leaves_no_markup_and_reads_back(text):
    out = md_escape(text)
    # CommonMark: a backslash before ASCII punctuation, and an entity, are literal characters
    bare = re.sub(r"\\[!-/:-@\[-`{-~]|&(lt|gt|amp);", "", out)
    assert not set(bare) & set("\\`*_{}[]()#+-.!|~<>&") and "\n" not in out and "\r" not in out
    back = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", out)
    back = back.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    assert back == " ".join(text.splitlines())
