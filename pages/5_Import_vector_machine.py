import streamlit as st

from svmviz.ui import common
from svmviz.ui import ivm as ui

common.ensure_app_frame()
st.title("Import vector machine")
st.caption("Kernel logistic regression on a few greedily chosen import points, its λ path and the SVM "
           "beside it — Zhu & Hastie 2002, Figs. 2–4.")

ds = common.dataset_sidebar(ui.describe_available(), "esl_mixture", key="ivm", allow_multiclass=True)
if ds is None:
    st.stop()
settings = ui.sidebar_settings(ds)
try:
    splits = ui.make_splits(ds, settings.n_tune, ds.params.get("seed", 0))
    path = ui.run_path(splits, settings)
except ValueError as exc:
    common.show_error(exc)
    st.stop()

li = ui.lam_picker(path)
tab_map, tab_path, tab_mc = st.tabs(["Import points vs SVM", "λ path", "Multi-class"])
with tab_map:
    if ds.is_multiclass:
        st.info("The SVM comparison is for two classes; the Multi-class tab shows these data.")
    else:
        ui.render_maps(ds, splits, settings, path, li)
with tab_path:
    ui.render_path(ds, splits, settings, path)
with tab_mc:
    ui.render_multiclass(ds, splits, settings, path, li)
