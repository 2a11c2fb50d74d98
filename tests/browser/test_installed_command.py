"""The installed ``svmviz`` command serves the app, checked in a real browser.

The wheel (built once, see ``tests.test_packaging.build_wheel``) is installed with ``--no-deps``
into a fresh virtual environment whose dependencies come from the project's environment (a
``.pth`` line naming its site-packages: a full dependency install takes about a minute). The
command then runs from an empty folder, so nothing of the checkout can stand in for the package
(checked: ``svmviz.__file__`` lies in the new environment). Chromium opens the landing page and
the Losses & randomized GACV page, and a file written by ``DataFrame.to_csv()`` is uploaded (the sidebar must
say that its index column was dropped). Screenshots go to tests/artifacts/.
"""
from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import time

import pytest

from tests import serving
from tests.browser.helpers import ARGS, ARTIFACTS, CHROMIUM, _chart_count_when_settled, _wait_idle
from tests.test_packaging import build_wheel

pytestmark = pytest.mark.browser


def _clean_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(path of the installed ``svmviz`` command, its environment) in a new virtual environment."""
    t0 = time.time()
    wheel = build_wheel()
    work = tmp_path_factory.mktemp("installed")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    res = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
                          "-q", wheel], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    with open(os.path.join(site, "_svmviz_test_dependencies.pth"), "w") as fh:
        fh.write(sysconfig.get_paths()["purelib"] + "\n")  # streamlit, numpy, … of the project's environment
    cwd = work / "cwd"
    cwd.mkdir()
    env = _clean_env(NUMBA_CACHE_DIR=str(work / "numba"), HOME=str(work / "home"))
    where = subprocess.run([str(python), "-c", "import svmviz, svmviz.ui.frame as f; print(svmviz.__file__); "
                            "print(f.ENTRY_SCRIPT)"], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert where.returncode == 0, where.stderr
    pkg_file, entry = where.stdout.split()
    assert pkg_file.startswith(site) and entry.startswith(site) and os.path.isfile(entry)
    print(f"\nwheel built and installed in {time.time() - t0:.1f} s")
    return venv / "bin" / "svmviz", env, cwd


def test_installed_command_help(installed):
    command, env, cwd = installed
    res = subprocess.run([str(command), "--help"], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0
    assert "starts the interactive Streamlit app" in " ".join(res.stdout.split())


@pytest.fixture(scope="module")
def served(installed):
    """The URL of ``svmviz app`` started from the installed command in an empty folder."""
    if not os.path.exists(CHROMIUM):
        pytest.fail("Debian chromium is not installed: run `apt-get install -y chromium` (bash .ci/run does).")
    command, env, cwd = installed
    os.makedirs(ARTIFACTS, exist_ok=True)
    port = serving.free_port()
    log_path = os.path.join(ARTIFACTS, "svmviz_command.log")
    t0 = time.time()
    with open(log_path, "w") as log:
        try:
            proc, url = serving.start([str(command), "app", "--port", str(port), "--server.headless", "true",
                                       "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
                                      port, log=log, cwd=cwd, env=env)
        except serving.ServerDidNotStart as exc:
            pytest.fail(f"`svmviz app` did not start: {exc}")
        try:
            print(f"\n`svmviz app` healthy after {time.time() - t0:.1f} s")
            yield url
        finally:
            serving.stop(proc)


def _new_page(p, errors):
    browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return browser, page


def _open(page, url, title):
    page.goto(url)
    page.get_by_role("heading", name="svmviz").wait_for(timeout=60_000)
    _wait_idle(page)
    page.locator('[data-testid="stSidebarNav"] a', has_text=title).first.click()
    # the page's own run over (the home page's chart is gone), then its first chart
    page.get_by_role("heading", name=title).first.wait_for(timeout=60_000)
    _wait_idle(page)
    page.get_by_test_id("stPlotlyChart").first.wait_for(timeout=120_000)


def test_installed_command_serves_the_app(served):
    from playwright.sync_api import sync_playwright

    from svmviz.ui.frame import PAGES

    errors = []
    with sync_playwright() as p:
        browser, page = _new_page(p, errors)
        page.goto(served)
        page.get_by_role("heading", name="svmviz").wait_for(timeout=60_000)
        page.get_by_test_id("stPlotlyChart").first.wait_for(timeout=60_000)  # the home page drawn to its figure
        _wait_idle(page)
        nav = page.locator('[data-testid="stSidebarNav"] a').all_inner_texts()
        for spec in PAGES:  # every page of the registry, reachable from the installed package
            assert any(spec.title in t for t in nav), (spec.title, nav)
            assert page.get_by_test_id("stPageLink").filter(has_text=spec.title).count() == 1
        page.screenshot(path=os.path.join(ARTIFACTS, "installed_home.png"), full_page=True)

        t1 = time.time()
        page.locator('[data-testid="stSidebarNav"] a', has_text="Losses & randomized GACV").first.click()
        page.get_by_role("heading", name="Losses & randomized GACV").first.wait_for(timeout=60_000)
        page.get_by_test_id("stPlotlyChart").filter(has_text="Loss functions of τ").first.wait_for(timeout=120_000)
        first_chart = time.time() - t1
        n_charts = _chart_count_when_settled(page, timeout_s=150.0)
        assert n_charts >= 1
        assert page.url.rstrip("/").endswith("/Loss_functions") or "/Loss_functions?" in page.url
        assert page.get_by_test_id("stException").count() == 0
        page.screenshot(path=os.path.join(ARTIFACTS, "installed_loss_functions.png"), full_page=True)
        browser.close()
    print(f"Losses & randomized GACV: first chart {first_chart:.1f} s, {n_charts} charts settled after "
          f"{time.time() - t1:.1f} s (cold numba cache)")
    assert not errors, errors


def test_uploaded_to_csv_file_drops_its_index_with_a_note(served, tmp_path):
    """A file written by DataFrame.to_csv() (index column, decimal commas with ';'): the sidebar says
    what the loader did, and the page computes on the two real features."""
    import numpy as np
    import pandas as pd
    from playwright.sync_api import sync_playwright

    rng = np.random.default_rng(5)
    df = pd.DataFrame({"height": rng.normal(size=60), "weight": rng.normal(size=60)})
    df["species"] = np.where(df.height + 0.5 * rng.normal(size=60) > 0, "cat", "dog")
    path = tmp_path / "animals.csv"
    df.to_csv(path, sep=";", decimal=",")

    errors = []
    with sync_playwright() as p:
        browser, page = _new_page(p, errors)
        _open(page, served, "Tuning criteria")
        _chart_count_when_settled(page, timeout_s=150.0)
        sidebar = page.get_by_test_id("stSidebar")
        sidebar.get_by_test_id("stSelectbox").first.click()
        page.get_by_role("option", name="Upload", exact=False).first.click()
        _wait_idle(page)
        page.locator("input[type=file]").first.set_input_files(str(path))
        note = sidebar.get_by_text("Dropped the first column", exact=False)
        note.first.wait_for(timeout=60_000)
        _chart_count_when_settled(page, timeout_s=150.0)
        assert sidebar.get_by_text("decimal mark", exact=False).count() >= 1
        assert sidebar.get_by_text("60 points, 2 features", exact=False).count() == 1
        assert page.get_by_test_id("stException").count() == 0
        page.screenshot(path=os.path.join(ARTIFACTS, "installed_upload_note.png"), full_page=True)
        # the label choices are the named columns only (not the unnamed index)
        labels = sidebar.get_by_test_id("stSelectbox").filter(has_text="Label column").first
        labels.click()
        options = [t.strip() for t in page.get_by_role("option").all_inner_texts()]
        page.keyboard.press("Escape")
        assert options == ["height", "weight", "species"], options
        browser.close()
    assert not errors, errors
