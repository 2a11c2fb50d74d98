"""Page: Unbiased SVC — IRWLS-trained SVC and the unbiased SVC (Navia-Vázquez et al. 2004)."""
import streamlit as st

from svmviz.ui import common
from svmviz.ui import usvc as ui

common.ensure_app_frame()
st.title("Unbiased SVC")
st.caption("Navia-Vázquez, Pérez-Cruz, Artés-Rodríguez & Figueiras-Vidal (2004): the SVC trained by iterated "
           "weighted least squares, and the unbiased SVC whose smooth step loss θ̃_s counts errors.")

ds = common.dataset_sidebar(ui.CHOICES_2D, "banana", key=ui.KEY)

with st.expander("The primal and the algorithm", expanded=False):
    st.latex(r"\tilde L(w,b) = \tfrac12\|w\|^2 + C\sum_i \theta(\xi_i),\quad \xi_i = (1 - y_i f(x_i))_+")
    st.latex(r"\tilde\theta_s(\xi) = \begin{cases} \dfrac{(\xi + k^{1/s})^s}{2(1 + k^{1/s})^s} & 0 \le \xi < 1\\[1ex]"
             r"1 - \dfrac{(1 + k^{1/s})^s}{2(\xi + k^{1/s})^s} & \xi \ge 1\end{cases}")
    st.markdown("IRWLS (Navia-Vázquez et al. 2004, eqs. 20–22): with $\\alpha_i = C\\,\\theta'(\\xi_i)$ for $\\xi_i \\ge 0$ (else 0) and "
                "$a_i = \\alpha_i/\\xi_i$, solve the weighted least squares "
                "$\\min \\tfrac12\\|w\\|^2 + \\tfrac12\\sum_i a_i (y_i - f_i)^2$, damp, repeat. "
                "θ = ξ gives the SVC (the QP solution, checked against libsvm); θ̃_s the USVC, started from "
                "the SVC. The seed's literal $a_i = 2\\alpha_i/(e_iy_i)$ would solve the problem with 2C.")

st.header("1-D: error surfaces and trajectories")
settings = ui.settings_1d()
ui.render_1d(settings, ds)

st.header("Table 1: repeated trials")
ui.render_table1()

st.header("2-D: kernel USVC with R prototypes vs the SVM")
st.caption("Uses the data set chosen in the sidebar.")
ui.render_kernel(ds)
