"""The camera button's file name: the chart's title, its Greek letters kept, nothing a file system
forbids."""
from __future__ import annotations

import plotly.graph_objects as go
import pytest

from svmviz.ui.charts import export_config


def _name(title: str, key: str = "k") -> str:
    fig = go.Figure(layout={"title": {"text": title}})
    return export_config(fig, key=key)["toImageButtonOptions"]["filename"]


@pytest.mark.parametrize("title, expected", [
    ("Coefficient paths: y piecewise linear in λ", "Coefficient_paths_y_piecewise_linear_in_λ"),
    ("GACV over (log10 λ, log10 σ)", "GACV_over_log10_λ_log10_σ"),
    ("ν-SVM path<br>(σ = 1)", "ν_SVM_path_σ_1"),
    ('a/b\\c:d*e?f"g<h>i|j', "a_b_c_d_e_f_g_i_j"),
])
def test_export_file_name_keeps_the_title_with_greek_letters(title, expected):
    assert _name(title) == expected


def test_export_file_name_without_a_title_is_the_chart_key():
    assert _name("", key="path_sizes") == "path_sizes"
    assert _name("", key="") == "svmviz_figure"
