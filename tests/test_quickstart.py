"""The README's notebook quick start runs as written: its python block is executed here."""
import os
import re

import numpy as np
import plotly.graph_objects as go

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _quickstart_code() -> str:
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        readme = fh.read()
    section = readme.split("## Quick start in a notebook", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert len(blocks) == 1, "the quick start holds one python block"
    return blocks[0]


def test_readme_quickstart_runs(monkeypatch, capsys):
    shown = []
    monkeypatch.setattr(go.Figure, "show", lambda self, *a, **k: shown.append(self))
    namespace = {"__name__": "__quickstart__"}
    exec(compile(_quickstart_code(), "README.md (quick start)", "exec"), namespace)
    out = capsys.readouterr().out.splitlines()

    # what it prints is what it computed
    ds, clf, surface, test = namespace["ds"], namespace["clf"], namespace["surface"], namespace["test"]
    error = 1 - clf.score(test.X, test.y)
    assert out[0] == f"test error {error:.3f} (Bayes error {ds.bayes_error:.3f})"
    assert ds.bayes_error - 0.03 < error < ds.bayes_error + 0.05  # n = 200, a reasonable (λ, σ)
    i, j = surface.best["gacv"]
    assert surface.values["gacv"][i, j] == surface.values["gacv"].min()
    assert out[1].startswith(f"GACV picks σ = {surface.sigmas[i]:.3g}, λ = {surface.lambdas[j]:.3g};")
    assert namespace["choice"].value >= 1.0

    # one figure: the GACV surface over (log10 λ, log10 σ) with the minimizers marked
    (fig,) = shown
    contour = fig.data[0]
    assert contour.type == "contour"
    assert np.allclose(np.asarray(contour.z, dtype=float), surface.values["gacv"])
    assert np.allclose(contour.x, np.log10(surface.lambdas)) and np.allclose(contour.y, np.log10(surface.sigmas))
    assert "GACV" in fig.layout.title.text
    assert "log" in fig.layout.xaxis.title.text and "log" in fig.layout.yaxis.title.text
