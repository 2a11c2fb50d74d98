"""The Regularization path page at n = 5000: the page accepts n = 5000, estimates the path's cost
from svmviz._cost, asks before starting it and offers a seeded subsample that fits in the ~10 s
budget (the path's own time and memory at large n: ``bench/bench_path.py --big 5000``). No path has
run on this server yet, so the question names no duration."""
from __future__ import annotations

from streamlit.testing.v1 import AppTest

from svmviz import _cost, path

from tests.apptest_utils import assert_clean, page_path


def test_path_page_asks_before_a_5000_point_path():
    assert path.MAX_N >= 5000
    at = AppTest.from_file(page_path("3_Regularization_path.py"), default_timeout=120)
    for k, v in {"data": "banana", "n": "5000", "seed": "0"}.items():
        at.query_params[k] = v
    at.run()
    assert_clean(at)
    assert not at.error, [e.value for e in at.error]
    assert [s.value for s in at.slider if s.key and s.key.endswith("_n")] == [5000]  # not clamped
    assert any("ν-SVM path of 5000 points can take a while" in i.value for i in at.info), [i.value for i in at.info]
    run = [b.label for b in at.button if b.label == "Run"]
    sub = [b.label for b in at.button if b.label.startswith("Use a seeded subsample of")]
    assert run and sub, [b.label for b in at.button]
    m = int(sub[0].split("subsample of ")[1].split(" ")[0])
    assert 2000 < m < 5000 and _cost.path_seconds(m) <= 10.0
