"""The "Criteria studies" page: AppTest (ready-made study run on the app's Dask cluster, a results
folder opened, bad input) and once in the real browser (Playwright + Debian chromium)."""
from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from svmviz.studies import run_study, spec_from_dict

from tests.apptest_utils import assert_clean, decode, figure_titled, figures, page_path, traces_named

PAGE = page_path("7_Criteria_studies.py")


@pytest.fixture(autouse=True)
def _own_folders(tmp_path, monkeypatch):
    """The page keeps its small runs in the user's data folder and offers the results root's folders:
    fresh ones per test."""
    monkeypatch.setenv("SVMVIZ_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("SVMVIZ_RESULTS_ROOT", str(tmp_path / "root"))


@pytest.fixture(scope="module", autouse=True)
def _close_cluster():
    yield
    from svmviz.studies import engine

    engine.close_shared_client()


def _summary(at):
    return at.dataframe[0].value


def test_defaults_offer_every_ready_made_study_and_wait_for_run():
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert_clean(at)
    assert at.title[0].value == "Criteria studies"
    from svmviz.studies import load_spec, ready_made_specs

    assert len(ready_made_specs()) == 7
    assert at.selectbox(key="studies_spec").options == [load_spec(n).title for n in ready_made_specs()]
    assert any("Press Run" in i.value for i in at.info)
    assert not figures(at)


def test_run_a_small_wahba_study_on_the_app_cluster():
    at = AppTest.from_file(PAGE, default_timeout=180).run()
    at.selectbox(key="studies_spec").select("wahba2001_standard").run()
    at.slider(key="studies_R").set_value(3)
    at.slider(key="studies_grid").set_value(5)
    at.button(key="studies_run").click().run()
    assert_clean(at)
    assert not at.error
    assert [m.value for m in at.metric][:2] == ["3 / 3", "0"]
    s = _summary(at)
    assert list(s["criterion / machine"]) == ["GACV", "XA (ξα)", "XA (Joachims' R²)", "5-fold CV", "exact LOO",
                                               "GCKL", "MISCLASS"]
    assert (s["R"] == 3).all() and (s["inefficiency median"] >= 1).all()
    assert "GACV 1.0064" in s.set_index("criterion / machine").loc["GACV", "published"]
    # box plots of inefficiency per criterion with the published values overlaid
    fig = figure_titled(at, "Inefficiency over 3 replicates")
    box = traces_named(fig, "GACV")[0]
    assert decode(box["y"]).shape == (3,) and np.all(decode(box["y"]) >= 1)
    pub = traces_named(fig, "published")
    assert {float(decode(p["y"])[0]) for p in pub} == {1.0064, 1.0062}
    figure_titled(at, "Test error of the chosen model over 3 replicates")
    figure_titled(at, "Cost of each criterion")
    labels = [d.label for d in at.get("download_button") if "_code_" not in d.proto.id]  # besides the code view's
    assert labels == ["Download the table (CSV)", "Download the table (Parquet)"]
    # a rerun shows the saved results without computing; Run again with more replicates adds only those
    at.slider(key="studies_R").set_value(4).run()
    assert [m.value for m in at.metric][0] == "3 / 3"
    at.button(key="studies_run").click().run()
    assert [m.value for m in at.metric][0] == "4 / 4"
    assert_clean(at)


def test_run_the_ivm_study_shows_machine_sizes():
    at = AppTest.from_file(PAGE, default_timeout=180).run()
    at.selectbox(key="studies_spec").select("zhu_hastie2002").run()
    assert "studies_grid" not in [s.key for s in at.slider]  # no (λ, σ) grid in this study
    at.slider(key="studies_R").set_value(2)
    at.button(key="studies_run").click().run()
    assert_clean(at)
    fig = figure_titled(at, "Machine size over 2 replicates")
    ivm, svm = traces_named(fig, "IVM")[0], traces_named(fig, "SVM")[0]
    assert np.all(decode(ivm["y"]) < decode(svm["y"]))  # import points far fewer than support points
    assert {float(decode(p["y"])[0]) for p in traces_named(fig, "published")} == {21.0}


def test_open_a_results_folder_chosen_from_the_results_root(tmp_path):
    spec = spec_from_dict({"name": "folder", "replicates": 2, "seed": 1, "test_size": 500,
                           "datasets": [{"name": "banana", "n": 40}],
                           "svm": {"criteria": ["gacv", "kfold"], "n_lambda": 4, "n_sigma": 4}})
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.radio(key="studies_source").set_value("Open a results folder").run()
    assert any("No results folder is offered" in i.value for i in at.info)
    assert not at.text_input  # no typed path: nothing of the server's file system can be probed
    run_study(spec, tmp_path / "root" / "res", workers=0)
    (tmp_path / "root" / "not-results").mkdir()
    run_study(spec, tmp_path / "elsewhere", workers=0)
    os.symlink(tmp_path / "elsewhere", tmp_path / "root" / "link-outside")
    at.run()
    box = at.selectbox(key="studies_dir")
    assert box.options == ["res"]
    assert_clean(at)
    assert not at.error
    s = _summary(at)
    assert list(s["criterion / machine"]) == ["GACV", "5-fold CV"]
    assert s.set_index("criterion / machine").loc["GACV", "wins vs k-fold (test)"] >= 0
    figure_titled(at, "Test error of the chosen model over 2 replicates")
    shown = " ".join([c.value for c in at.caption] + [m.value for m in at.markdown] + [i.value for i in at.info])
    assert str(tmp_path) not in shown  # the page names no server path
    assert "`res`" in shown


def test_a_link_cannot_name_a_folder_outside_the_results_root(tmp_path):
    spec = spec_from_dict({"name": "folder", "replicates": 1, "seed": 1, "test_size": 500,
                           "datasets": [{"name": "banana", "n": 40}],
                           "svm": {"criteria": ["gacv"], "n_lambda": 4, "n_sigma": 4}})
    run_study(spec, tmp_path / "root" / "a", workers=0)
    run_study(spec, tmp_path / "secret", workers=0)
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["s_source"] = "Open a results folder"
    at.query_params["s_dir"] = "../secret"
    at.run()
    assert at.selectbox(key="studies_dir").value == "a"
    assert "secret" not in " ".join(c.value for c in at.caption)


def test_page_says_where_app_runs_are_kept(tmp_path):
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    text = " ".join(c.value for c in at.caption)
    assert "data folder" in text and "owner-only" in text and "30 days" in text
    assert (tmp_path / "data" / "studies").is_dir()
    assert (os.stat(tmp_path / "data" / "studies").st_mode & 0o777) == 0o700


def _own_table_page(content: bytes, name: str = "cars by origin.csv", **query):
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.session_state["_svmviz_shared"] = {"data": "Upload CSV…", "upload": (name, content)}
    at.query_params["s_source"] = "Your table"
    for k, v in query.items():
        at.query_params[k] = v
    return at.run()


def test_study_on_an_uploaded_table_shows_its_table_and_charts(tmp_path):
    """A table with a text column, 6 features on different scales, 3 named classes and empty cells: two of its
    classes chosen in the sidebar, R = 3 replicates of stratified splits, each criterion judged on held-out rows."""
    from tests.data.own_table import own_table_csv

    content = own_table_csv()
    at = _own_table_page(content, cb="USA")
    assert_clean(at)
    assert not at.error
    assert any("Press Run" in i.value for i in at.info)
    assert any("'Name'" in i.value for i in at.sidebar.info)  # the text column left out, named
    assert at.sidebar.selectbox(key="studies_clsb").value == "USA"
    at.slider(key="studies_own_R").set_value(3)
    at.slider(key="studies_own_grid").set_value(4)
    at.slider(key="studies_own_n").set_value(50)
    at.button(key="studies_own_run").click().run()
    assert_clean(at)
    assert not at.error
    assert [m.value for m in at.metric] == ["3 / 3", "0", "12", "3"]
    s = _summary(at).set_index("criterion / machine")
    assert list(s.index) == ["GACV", "XA (ξα)", "5-fold CV", "exact LOO"]
    assert (s["R"] == 3).all() and (s["held-out ineff. median"] >= 1).all()
    assert "inefficiency median" not in s.columns  # no truth: only the held-out inefficiency
    fig = figure_titled(at, "Inefficiency on held-out rows over 3 replicates")
    assert decode(traces_named(fig, "GACV")[0]["y"]).shape == (3,)
    figure_titled(at, "Test error of the chosen model over 3 replicates")
    figure_titled(at, "Cost of each criterion")
    toml = next(c.value for c in at.code if c.language == "toml")
    import hashlib

    assert 'path = "cars by origin.csv"' in toml and 'label_column = "origin"' in toml
    assert 'classes = ["Europe", "USA"]' in toml and f'sha256 = "{hashlib.sha256(content).hexdigest()}"' in toml
    assert '"Name"' not in toml  # the text column is not a feature
    # the spec the page offers, run beside the file, gives the page's table
    from svmviz.studies import comparable, load_spec

    (tmp_path / "cars by origin.csv").write_bytes(content)
    (tmp_path / "own-table.toml").write_text(toml)
    again = run_study(load_spec(tmp_path / "own-table.toml"), workers=0)
    shown = next(iter(at.session_state["studies_own_results"].values()))
    pd.testing.assert_frame_equal(comparable(again.table), comparable(shown.table))
    # another choice of classes is another study: not shown until it is run
    at.sidebar.selectbox(key="studies_clsb").set_value("Japan").run()
    assert not at.metric and any("Press Run" in i.value for i in at.info)


def test_uploaded_table_with_too_few_rows_per_class_says_what_to_change():
    rng = np.random.default_rng(0)
    rows = "\n".join(f"{rng.normal():.3f},{rng.normal():.3f},{'a' if i % 2 else 'b'}" for i in range(16))
    at = _own_table_page(f"x1,x2,kind\n{rows}\n".encode(), name="small.csv")
    assert_clean(at)
    assert any("at least 10 rows per class" in e.value and "Add rows" in e.value for e in at.error)
    assert "studies_own_run" not in [b.key for b in at.button]
    assert at.radio(key="studies_source").value == "Your table"  # the other controls stay usable


def _blocks(node):
    for child in getattr(node, "children", {}).values():
        yield child
        yield from _blocks(child)


def test_run_and_stop_sit_together_in_one_row():
    """Run and Stop are the two elements of one horizontal row, next to each other at its left."""
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert_clean(at)
    rows = [b for b in _blocks(at.main)
            if [getattr(c, "key", None) for c in getattr(b, "children", {}).values()] == ["studies_run", "studies_stop"]]
    assert len(rows) == 1, "Run and Stop are not the only children of one block"
    flex = rows[0].proto.flex_container
    assert flex.direction == flex.Direction.HORIZONTAL and flex.justify == flex.Justify.JUSTIFY_START
