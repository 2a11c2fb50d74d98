"""svmviz — the app's frame: navigation, landing page and the page list.

Start with ``streamlit run app.py``. Each page lives in ``pages/`` and also runs on its own.
"""
from __future__ import annotations

import os

import streamlit as st

import svmviz  # noqa: F401  (sets a writable numba cache before numba loads)

HERE = os.path.dirname(os.path.abspath(__file__))

PAGES = [  # (file, title, icon, paper, what it shows)
    ("pages/1_Tuning_criteria.py", "Tuning criteria", "🎯", "Wahba, Lin, Lee & Zhang (2001)",
     "GACV, ξα (XA) and BRXA beside the truth they stand in for (GCKL, MISCLASS, BRMISCLASS, exact "
     "leave-one-out): contour surfaces over (λ, σ), the decision curves each criterion picks, "
     "inefficiencies, standard and non-standard (unequal costs, biased sampling) SVMs."),
    ("pages/2_Loss_functions.py", "Loss functions & randomized GACV", "📉", "Wahba (1998)",
     "Hinge, misclassification, deviance, exponential, sigmoid and smoothed losses against τ = yf, "
     "the prediction functions μ(f), and exact vs randomized GACV vs leave-one-out along λ."),
    ("pages/3_Regularization_path.py", "Regularization path", "🛤️", "Loosli & Canu (2006)",
     "The whole ν-SVM path: every α_i y_i as a piecewise-linear function of λ, the margin, bounded "
     "and inactive groups at any point, and leave-one-out along the path with its stopping point."),
    ("pages/4_Unbiased_SVC.py", "Unbiased SVC", "⚖️", "Navia-Vázquez et al. (2004)",
     "SVC trained by iterated weighted least squares and the unbiased SVC (smooth step loss): error "
     "surfaces L̃(Th, w) with the IRWLS trajectories, the CE the algorithm really minimizes, Table 1."),
    ("pages/5_Import_vector_machine.py", "Import vector machine", "📌", "Zhu & Hastie (2002)",
     "Kernel logistic regression and its sparse version, the Import Vector Machine: import points vs "
     "support points, probability contours, the λ path with a tuning set, three classes."),
]


def home() -> None:
    st.title("svmviz")
    st.markdown(
        "Interactive, numerically checked re-creations of five papers on support-vector-machine-family "
        "classifiers and the criteria used to tune them. Every solver is tested against an "
        "independent reference (libsvm through scikit-learn, brute-force leave-one-out, closed forms)."
    )
    for path, title, icon, paper, what in PAGES:
        if os.path.exists(os.path.join(HERE, path)):
            st.page_link(path, label=f"**{title}** — {paper}", icon=icon)
            st.caption(what)
    st.divider()
    st.markdown(
        "**How to use it.** Choose a data set, n and a seed in the sidebar: the choice is shared by "
        "the pages and kept in the address bar, so a link reopens the same view. Simulated data sets "
        "know their truth (p(x), the Bayes rule); uploaded CSV files and scikit-learn's data sets do not."
    )


def main() -> None:
    st.set_page_config(page_title="svmviz", page_icon="📈", layout="wide")
    pages = [st.Page(home, title="Home", icon="🏠", default=True)]
    for path, title, icon, _paper, _what in PAGES:
        if os.path.exists(os.path.join(HERE, path)):
            pages.append(st.Page(path, title=title, icon=icon))
    st.navigation(pages).run()


main()
