"""The app's frame: the page list, the landing page and ``st.navigation``, in one place.

Two ways to start the same app, with the same pages and the same URLs (so shared links work in both):

* ``streamlit run app.py`` from a checkout: ``app.py`` calls :func:`run_app` with its own folder,
  and each page is the thin script ``pages/<N>_<Title>.py``.
* the installed ``svmviz`` command: Streamlit runs :data:`ENTRY_SCRIPT` inside the package, which
  calls :func:`run_app` with no folder, and each page is its ``page()`` function.

Every page is a function ``page()`` in ``svmviz.ui.<module>``; the thin script in ``pages/`` calls it.
"""
from __future__ import annotations

import importlib
import os
from typing import NamedTuple

import streamlit as st

from svmviz.ui._streamlit_compat import DRAW_ONCE_SCRIPT
from svmviz.ui.url_state import HISTORY_SCRIPT


class PageSpec(NamedTuple):
    module: str  # svmviz.ui.<module> has page()
    file: str  # the thin script under pages/
    title: str
    icon: str  # Material Symbols (":material/name:"): Streamlit ships the font, emoji need one on the machine
    paper: str
    what: str
    question: str = ""  # the question the page answers (the home page's tour)
    lecture: int = 99  # its step in the tour, the order for a lecture (smallest first)

    @property
    def url_path(self) -> str:
        """What Streamlit derives from ``pages/<N>_<Title>.py``: ``<Title>``."""
        stem = os.path.splitext(os.path.basename(self.file))[0]
        return stem.split("_", 1)[1] if stem.split("_", 1)[0].isdigit() else stem


PAGES = [
    PageSpec("tuning", "pages/1_Tuning_criteria.py", "Tuning criteria", ":material/tune:", "Wahba, Lin, Lee & Zhang (2001)",
             "GACV, ξα (XA) and BRXA beside the truth they stand in for (GCKL, MISCLASS, BRMISCLASS, exact "
             "leave-one-out): contour surfaces over (λ, σ), the decision curves each criterion picks, "
             "inefficiencies, standard and non-standard (unequal costs, biased sampling) SVMs.",
             question=("How do I choose λ and σ without a test set, and how close do GACV and ξα come to the "
                      "truth?"), lecture=2),
    PageSpec("losses", "pages/2_Loss_functions.py", "Losses & randomized GACV", ":material/functions:", "Wahba (1998)",
             "Hinge, misclassification, deviance, exponential, sigmoid and smoothed losses against τ = yf, "
             "the prediction functions μ(f), and exact vs randomized GACV vs leave-one-out along λ.",
             question=("What does the SVM minimize, what does each loss estimate, and how do GACV, its "
                      "randomized version and leave-one-out choose λ?"), lecture=1),
    PageSpec("path", "pages/3_Regularization_path.py", "Regularization path", ":material/route:", "Loosli & Canu (2006)",
             "The whole ν-SVM path: every αᵢyᵢ as a piecewise-linear function of λ, the margin, bounded "
             "and inactive groups at any point, and leave-one-out along the path with its stopping point.",
             question=("How does the solution change with the regularization, all λ at once, and where should "
                      "one stop?"), lecture=3),
    PageSpec("usvc", "pages/4_Unbiased_SVC.py", "Unbiased SVC", ":material/balance:", "Navia-Vázquez et al. (2004)",
             "SVC trained by iterated weighted least squares and the unbiased SVC (smooth step loss): error "
             "surfaces L̃(Th, w) with the IRWLS trajectories, the CE the algorithm really minimizes, Table 1.",
             question="The hinge loss biases the SVM's threshold: what changes with a loss that counts errors?",
             lecture=5),
    PageSpec("ivm", "pages/5_Import_vector_machine.py", "Import vector machine", ":material/push_pin:", "Zhu & Hastie (2002)",
             "Kernel logistic regression and its sparse version, the Import Vector Machine: import points vs "
             "support points, probability contours, the λ path with a tuning set, three classes.",
             question=("Can a sparse kernel machine give class probabilities, with fewer points than the SVM "
                      "keeps?"), lecture=4),
    PageSpec("anova", "pages/6_Kernels_and_variable_selection.py", "Kernels & variable selection", ":material/extension:", "Wahba (1998)",
             "Smoothing-spline ANOVA kernels (additive, two-factor) beside the Gaussian: GACV, XA and exact "
             "leave-one-out along λ per kernel, the fitted function split into main effects and interactions, and "
             "which variables matter.",
             question="Which variables and interactions does the classifier use?", lecture=6),
    PageSpec("studies", "pages/7_Criteria_studies.py", "Criteria studies", ":material/science:", "all five papers, at scale",
             "Which criterion picks a good (λ, σ), how often, at what cost: GACV, XA, XA (Joachims' R²), exact LOO "
             "and the machines of the papers against k-fold CV over many replicates on Dask, published numbers "
             "beside.",
             question=("Over many data sets, which criterion picks well, how often, at what cost against k-fold "
                      "CV?"), lecture=7),
]

ENTRY_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_entry.py")
"""The script the installed ``svmviz`` command hands to ``streamlit run``."""


def tour() -> list[PageSpec]:
    """The pages in the order of the home page's tour (a lecture's order)."""
    return sorted(PAGES, key=lambda spec: spec.lecture)


#: the losses of the home page's figure: what the pages' classifiers minimise, and the count they stand in
#: for (numpy only: the home page never waits for a compilation)
HOME_LOSSES = ("misclassification", "hinge", "deviance")


def home_losses_figure():
    """The home page's figure: the losses of :data:`HOME_LOSSES` against the margin τ = y f(x) (Wahba
    1998, Fig. 1.1), the deviance divided by ln 2 so that all pass through (0, 1).

    Drawing it on the home page also has the browser load its charting code while the page is read,
    so the first page opened from there draws its charts sooner."""
    from svmviz.figures.losses import compute_loss_curves, plot_loss_curves

    fig = plot_loss_curves(compute_loss_curves(HOME_LOSSES, deviance_scaled=True), height=380)
    fig.layout.title.text = "What the classifiers minimise: losses of the margin τ = y f(x)"
    return fig


def home() -> None:
    from svmviz.ui import glossary
    from svmviz.ui.charts import chart

    st.title("svmviz")
    st.markdown(glossary.spell(
        "Interactive, numerically checked re-creations of five papers on classifiers of the support vector "
        "machine (SVM) family and the criteria used to tune them. Every solver is tested against an "
        "independent reference (libsvm through scikit-learn, brute-force leave-one-out, closed forms)."))
    st.subheader("Start here: a tour in the order of a lecture")
    pages = _page_objects()
    for step, spec in enumerate(tour(), start=1):
        st.page_link(pages[spec.url_path], label=f"**{step}. {spec.title}** — {spec.paper}", icon=spec.icon)
        st.caption(glossary.spell(spec.question))
    st.caption("Each page has a “Reproduce the paper's figure” choice that sets every control to the paper's "
               "setting (and says what the paper leaves unstated); the address bar then holds that view.")
    chart(home_losses_figure(), key="home_losses", width="stretch")
    st.caption(glossary.spell(
        "What the classifiers here minimise, as a function of the margin τ = y f(x): the SVM's hinge "
        "(Wahba et al.; Loosli & Canu's ν-path) and the binomial deviance of kernel logistic regression and the "
        "IVM (Zhu & Hastie), convex stand-ins for the misclassification count [−τ]∗. The “Losses & randomized GACV” page "
        "has these and the others (the unbiased SVC's smooth step among them), and what each one estimates."))
    with st.expander("What each page shows", expanded=False):
        for spec in tour():
            st.markdown(f"**{spec.title}** ({spec.paper}) — {glossary.spell(spec.what)}")
    glossary.show_glossary()
    st.markdown(
        "**How to use it.** Open a page from the tour above or from the sidebar. Each page's sidebar has "
        "its data set (n and a seed, or your own CSV file) and its controls: the data-set choice is shared by "
        "the pages, and every setting is kept in the address bar, so a link reopens the same view. Simulated data sets "
        "know their truth (p(x), the Bayes rule); uploaded CSV files and scikit-learn's data sets do not. "
        "The camera icon above each chart downloads it for slides (PNG at twice a 900-pixel layout, or SVG: "
        "“Figure export” in the sidebar)."
    )


def _page_function(spec: PageSpec):
    module = importlib.import_module(f"svmviz.ui.{spec.module}")
    return module.page


_PAGE_OBJECTS_KEY = "_svmviz_page_objects"


def _page_objects() -> dict:
    return st.session_state.get(_PAGE_OBJECTS_KEY, {})


def run_app(root: str | None = None) -> None:
    """Set up the page, build the navigation and run the chosen page.

    ``root`` is the checkout folder holding ``pages/`` (``streamlit run app.py``); ``None`` runs the
    pages as functions from the installed package, under the same URL paths.

    Nothing happens in a :mod:`multiprocessing` child without a Streamlit server (a criteria study's
    Dask worker importing the entry script again: :func:`svmviz.ui._streamlit_compat.spawned_without_server`).
    """
    from svmviz.ui._streamlit_compat import spawned_without_server

    if spawned_without_server():
        return
    # the favicon is a file of the package: a Material icon (the pages' own, when none is set) is fetched
    # from a font host a classroom without internet cannot reach, and an emoji needs an emoji font
    st.set_page_config(page_title="svmviz", page_icon=os.path.join(os.path.dirname(__file__), "favicon.png"),
                       layout="wide")
    from svmviz.ui import _preload

    # once per server process, if the compiled functions' cache is not current; in a server, the pages'
    # modules are then loaded between page runs
    _preload.start(page_modules=tuple(f"svmviz.ui.{spec.module}" for spec in PAGES))
    from svmviz.ui import uploads

    uploads.start_release_watch()  # once per server process: what ended sessions held is given back
    # one browser-history entry per user action (see svmviz.ui.url_state); each chart drawn once per
    # change of its figure (see svmviz.ui._streamlit_compat.DRAW_ONCE_SCRIPT)
    st.html(HISTORY_SCRIPT + DRAW_ONCE_SCRIPT, unsafe_allow_javascript=True)
    pages = {"": st.Page(home, title="Home", icon=":material/home:", default=True)}
    for spec in tour():  # the sidebar lists the pages in the home page's tour order
        if root is not None and os.path.exists(os.path.join(root, spec.file)):
            page = st.Page(spec.file, title=spec.title, icon=spec.icon)
        else:
            page = st.Page(_page_function(spec), title=spec.title, icon=spec.icon, url_path=spec.url_path)
        pages[spec.url_path] = page
    st.session_state[_PAGE_OBJECTS_KEY] = pages
    chosen = st.navigation(list(pages.values()))
    chosen.run()
    from svmviz.ui import charts

    charts.format_selector()  # the camera's export format, below the page's own sidebar controls
