"""A one-file Streamlit app for tests/ui/test_link_clamp.py: one control of each kind whose value a link sets."""
import streamlit as st

from svmviz.ui import url_state
from svmviz.ui.widgets import control


@url_state.page_view
def page():
    control(st.sidebar.slider, "Grid points per axis", 6, 40, step=1, key="res", default=20, url="res")
    control(st.slider, "log10 σ range", -2.0, 2.0, step=0.125, key="sig", default=(-1.0, 1.0),
            url=("sig_lo", "sig_hi"))
    control(st.number_input, "seed", 0, 99, key="seed", default=0, url="seed")
    control(st.select_slider, "λ", options=[0.001, 0.01, 0.1, 1.0], key="lam", default=0.1, url="lam")
    control(st.selectbox, "kernel", ["rbf", "poly"], key="kernel", default="rbf", url="kernel")


page()
