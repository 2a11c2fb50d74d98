"""AppTest of the frame (app.py): navigation and landing page; one order of pages, the sidebar's
navigation listing them in the home page's tour order."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import numpy as np
from streamlit.testing.v1 import AppTest

from svmviz.ui import frame
from svmviz.ui.frame import ENTRY_SCRIPT, PAGES

from tests.apptest_utils import ROOT, assert_clean


def test_landing_page_lists_every_page():
    at = AppTest.from_file(os.path.join(ROOT, "app.py"), default_timeout=60).run()
    assert_clean(at)
    assert at.title[0].value == "svmviz"
    # every page file of pages/ is registered in the frame (none forgotten, none missing)
    files = sorted(f for f in os.listdir(os.path.join(ROOT, "pages")) if f.endswith(".py"))
    assert sorted(os.path.basename(s.file) for s in PAGES) == files
    for spec in PAGES:
        # the thin script reopens itself in the frame when a fresh server runs it as a bare pages/
        # script (see ensure_app_frame; the browser test checks the behaviour), then runs page()
        page = open(os.path.join(ROOT, spec.file)).read()
        assert page.index("ensure_app_frame()") < page.index(f"{spec.module}.page()"), spec.file
    captions = " ".join(c.value for c in at.caption)
    assert "GACV" in captions


def test_home_pages_instructions_name_only_controls_its_sidebar_has():
    at = AppTest.from_file(os.path.join(ROOT, "app.py"), default_timeout=60).run()
    assert_clean(at)
    how = next(m.value for m in at.markdown if m.value.startswith("**How to use it.**"))
    sidebar_labels = [w.label for w in at.sidebar.selectbox] + [w.label for w in at.sidebar.slider]
    assert not [w.label for w in at.sidebar.selectbox if w.label == "Data set"]  # the pages have it, not home
    assert "in the sidebar" not in how.split("“Figure export”")[0]  # the data controls: each page's sidebar
    for named in re.findall(r"“([^”]+)”", how):  # a control named in quotes is one of the home sidebar's
        assert any(label.startswith(named) for label in sidebar_labels), (named, sidebar_labels)


def test_readme_and_home_page_describe_without_counting_presets():
    from svmviz.ui import presets

    n = sum(len(v) for v in presets.PRESETS.values())
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    at = AppTest.from_file(os.path.join(ROOT, "app.py"), default_timeout=60).run()
    home = " ".join(m.value for m in at.markdown) + " ".join(c.value for c in at.caption)
    for text in (readme, home):
        assert not re.search(r"\b\d+ presets\b", text)
        assert f"{n} presets" not in text and f"{n - 1} presets" not in text


def test_home_page_draws_the_papers_losses_from_the_library():
    """The home page's one chart: the losses of HOME_LOSSES as svmviz.losses computes them (the deviance
    over ln 2), with the caption that says what they are."""
    from svmviz.losses import loss_values
    from svmviz.ui.frame import HOME_LOSSES, home_losses_figure

    at = AppTest.from_file(os.path.join(ROOT, "app.py"), default_timeout=60).run()
    assert_clean(at)
    charts = at.get("plotly_chart")
    assert len(charts) == 1
    fig = json.loads(charts[0].proto.spec)
    assert "losses of the margin" in fig["layout"]["title"]["text"]
    assert "hinge" in " ".join(c.value for c in at.caption)

    traces = home_losses_figure().data
    assert len(traces) == len(HOME_LOSSES)
    for name, trace in zip(HOME_LOSSES, traces):
        tau = np.asarray(trace.x)
        want = loss_values(name, tau) / (np.log(2.0) if name == "deviance" else 1.0)
        np.testing.assert_allclose(np.asarray(trace.y), want, rtol=0, atol=0)


def test_home_page_figure_compiles_nothing(tmp_path):
    """The home page is the first thing a fresh install shows: its figure must not wait for numba (an
    empty cache folder stays empty)."""
    cache = tmp_path / "cache"
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "SVMVIZ_CACHE_DIR")}
    env.update(SVMVIZ_CACHE_DIR=str(cache), PYTHONPATH=ROOT)
    res = subprocess.run([sys.executable, "-c", "from svmviz.ui.frame import home_losses_figure; home_losses_figure()"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert not [f for _, _, fs in os.walk(cache) for f in fs]


def test_installed_entry_runs_the_same_frame():
    """The installed command's entry script (pages as functions, no pages/ folder) shows the same home."""
    at = AppTest.from_file(ENTRY_SCRIPT, default_timeout=60).run()
    assert_clean(at)
    assert at.title[0].value == "svmviz"
    assert "GACV" in " ".join(c.value for c in at.caption)


def test_tuning_view_reopens_from_the_url():
    at = AppTest.from_file(os.path.join(ROOT, "pages", "1_Tuning_criteria.py"), default_timeout=180)
    at.query_params["data"] = "banana"
    at.query_params["n"] = "60"
    at.query_params["seed"] = "4"
    at.query_params["res"] = "7"
    at.query_params["mode"] = "non-standard"
    at.run()
    assert_clean(at)
    assert at.sidebar.selectbox(key="tuning_data").value == "banana"
    assert at.sidebar.slider(key="tuning_n").value == 60
    assert at.sidebar.number_input(key="tuning_seed").value == 4
    assert at.sidebar.slider(key="tuning_res").value == 7
    assert at.sidebar.radio(key="tuning_mode").value == "non-standard"


# ---------------------------------------------------------------- paths a person takes
import pytest  # noqa: E402

from tests.apptest_utils import three_class_csv, two_class_csv, url_of, with_upload  # noqa: E402

#: small views (URL parameters) so that walking every data set stays quick
SMALL_VIEWS = {
    "tuning": {"res": "6", "n": "40"},
    "losses": {"lf_m": "5", "lf_R": "0", "lf_loo": "0", "n": "40"},
    "path": {"n": "40", "ploo": "0"},
    "usvc": {"u_n": "100", "n": "40"},
    "ivm": {"i_nlams": "11", "i_ntune": "50", "n": "40"},
    "anova": {"n": "40"},
}
DATA_PAGES = [s for s in PAGES if s.module in SMALL_VIEWS]


def _said_why(at) -> bool:
    return bool(at.error or at.info or at.warning)


@pytest.mark.parametrize("spec", DATA_PAGES, ids=[s.module for s in DATA_PAGES])
def test_every_data_set_choice_works_or_says_why(spec):
    """Every page works, or says clearly why not, for every data-set choice — each
    generator, the shipped data sets, and uploaded files with two and with three classes."""
    from streamlit.testing.v1 import AppTest

    page = os.path.join(ROOT, spec.file)
    at = AppTest.from_file(page, default_timeout=240)
    for k, v in SMALL_VIEWS[spec.module].items():
        at.query_params[k] = v
    at.run()
    assert_clean(at)
    box = [s for s in at.sidebar.selectbox if s.label == "Data set"][0]
    for name in box.options:
        if name.startswith("Upload"):
            continue
        value = name.split(" — ")[0]
        box = [s for s in at.sidebar.selectbox if s.label == "Data set"][0]
        box.select(value).run()
        assert_clean(at)
        assert at.get("plotly_chart") or _said_why(at), (spec.module, value)
    for content in (two_class_csv(60), three_class_csv(60)):
        up = with_upload(page, content, query=SMALL_VIEWS[spec.module], timeout=240)
        assert_clean(up)
        assert up.get("plotly_chart") or _said_why(up), spec.module


def test_a_page_never_clamps_the_shared_n_for_every_page():
    """A page whose n range is smaller shows the shared n clamped — and says so — but the
    other pages keep it (opening the path page clamped n = 1500 to 1000 for every page)."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(os.path.join(ROOT, "app.py"), default_timeout=240).run()
    at.session_state["_svmviz_shared"] = {"data": "banana", "n": 1500, "seed": 0}
    small = [s for s in DATA_PAGES if s.module == "anova"][0]  # its n range ends at 600
    at.switch_page(small.file).run()
    assert_clean(at)
    n = at.sidebar.slider(key="anova_n")
    assert n.value == n.max < 1500
    assert any("n = 1500" in c.value and "other pages keep 1500" in c.value for c in at.sidebar.caption)
    assert at.session_state["_svmviz_shared"]["n"] == 1500
    at.switch_page("pages/1_Tuning_criteria.py").run()
    assert at.sidebar.slider(key="tuning_n").value == 1500


def test_the_url_holds_only_the_current_pages_parameters():
    """After a page switch the URL carries the shared data choice and this page's own
    parameters — never another page's (Back landed on a URL with another page's parameters)."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(os.path.join(ROOT, "app.py"), default_timeout=240).run()
    at.session_state["_svmviz_shared"] = {"n": 40}
    at.switch_page("pages/1_Tuning_criteria.py").run()
    tuning_keys = set(url_of(at))
    assert {"data", "n", "seed", "res", "mode", "pt_l"} <= tuning_keys
    at.switch_page("pages/2_Loss_functions.py").run()
    assert_clean(at)
    keys = set(url_of(at))
    assert {"data", "n", "seed", "lf_sig", "lf_losses"} <= keys
    assert not keys & (tuning_keys - {"data", "n", "seed"}), keys & tuning_keys


#: a subscript or superscript written the TeX way, which plotly shows as typed (e.g. "H_k", "e^{−τ}")
TEX_SCRIPT = re.compile(r"[A-Za-zα-ωΑ-Ω\u0303][_^][A-Za-z0-9{(]")


@pytest.mark.parametrize("module", ["tuning", "losses", "usvc", "ivm"])
def test_figure_texts_are_unicode_not_tex(module):
    """Plotly does not render TeX — every title, axis title, legend entry and annotation of
    the page's figures (on a generator and on an upload without the truth) reads as plain text."""
    from streamlit.testing.v1 import AppTest

    from tests.apptest_utils import RAW_TEX, figures, texts_of

    spec = [s for s in PAGES if s.module == module][0]
    page = os.path.join(ROOT, spec.file)
    at = AppTest.from_file(page, default_timeout=240)
    for k, v in SMALL_VIEWS[module].items():
        at.query_params[k] = v
    runs = [at.run(), with_upload(page, two_class_csv(60), query=SMALL_VIEWS[module], timeout=240)]
    if module == "ivm":
        runs[0].radio(key="ivm_source").set_value("scratch").run()
    seen = 0
    for run in runs:
        assert_clean(run)
        figs = list(figures(run))
        if module == "ivm":  # lazy tabs (f6e73d4): only the open tab draws — read every tab's figures
            for tab in ("λ path", "Multi-class"):
                run.session_state["ivm_tab"] = tab
                run.run()
                assert_clean(run)
                figs += list(figures(run))
        for fig in figs:
            for text in texts_of(fig):
                seen += 1
                assert not any(t in text for t in RAW_TEX) and not TEX_SCRIPT.search(text), (module, text)
    assert seen > 10


def _stops_before_its_control():
    import streamlit as st

    from svmviz.ui import widgets

    widgets.control(st.checkbox, "y", key="y", default=False, url="y")  # a control before the stop
    if not st.session_state.get("go"):
        st.info("A long computation: start it when you are ready.")
        if st.button("Run", key="go_btn"):
            st.session_state["go"] = True
            st.rerun()
        st.stop()
    widgets.control(st.slider, "x", 0, 10, key="x", default=3, url="x")


def test_a_link_whose_page_stops_first_still_sets_the_controls_after():
    """A link's first run may stop before some controls (a long computation asked for first): those
    controls take the link's values when they first appear, in a later run of the same page."""
    at = AppTest.from_function(_stops_before_its_control, default_timeout=60)
    at.query_params["x"] = "7"
    at.query_params["y"] = "1"
    at.run()
    assert not at.slider and at.checkbox(key="y").value
    at.button(key="go_btn").click().run()
    assert_clean(at)
    assert at.slider(key="x").value == 7 and url_of(at)["x"] == "7"
    at.slider(key="x").set_value(5).run()
    assert at.slider(key="x").value == 5  # then the widget is the user's


# ------------------------------------------------------------------------------------------------------------
# One order of pages: the sidebar's navigation lists the pages in the home page's tour order.
def test_sidebar_navigation_and_home_tour_list_the_pages_in_one_order():
    at = AppTest.from_file(f"{ROOT}/app.py", default_timeout=60).run()
    assert_clean(at)
    # what run_app handed to st.navigation, in order (the home page first)
    navigation = [p.title for p in at.session_state["_svmviz_page_objects"].values()]
    tour = [re.match(r"\*\*\d+\. (.+?)\*\*", link.proto.label).group(1) for link in at.get("page_link")]
    assert navigation[0] == "Home"
    assert navigation[1:] == tour == [spec.title for spec in frame.tour()]
    assert sorted(tour) == sorted(spec.title for spec in frame.PAGES)
