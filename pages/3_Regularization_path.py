"""Page: Regularization path — the whole ν-SVM path with leave-one-out along it (Loosli & Canu 2006)."""
import streamlit as st

from svmviz.ui import common
from svmviz.ui import path as ui

common.ensure_app_frame()
st.title("Regularization path")
st.caption("Loosli & Canu (2006): the ν-SVM solution for every ν at once — α is piecewise linear in "
           "λ = mν — and leave-one-out along the path to choose ν automatically (Loosli & Canu 2006, Figs. “Path” "
           "and “LOO”).")

ds = common.dataset_sidebar(ui.available(), "banana", key=ui.KEY, n_range=ui.N_RANGE)
if ds is None:
    st.stop()
settings = ui.sidebar_settings(ds)
ui.render(ds, settings)
