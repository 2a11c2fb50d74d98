"""“Reproduce the paper's figure”: each page's presets, the paper's settings as URL parameters.

A preset is a view: the URL parameters of the page (see :mod:`svmviz.ui.url_state`, "The view in the
URL") set to the paper's values. Choosing one writes them as the page's URL and makes the next run
read the view from the URL, exactly as when a shared link is opened: every control named takes the
preset's value, every other control of the page its default. The address bar then holds the
paper's view (a link to it). Where a paper does not state a setting, the preset's note says so and
what the app uses instead.
"""
from __future__ import annotations

from typing import NamedTuple

import streamlit as st

from svmviz.published import WAHBA2001_INEFFICIENCY, ZHU_HASTIE_FIG2, ZHU_HASTIE_FIG4, range_text
from svmviz.ui import url_state


class Preset(NamedTuple):
    label: str  # paper, figure/table, what it shows
    params: dict  # URL parameter → value (the page's controls; the others take their defaults)
    note: str  # what the paper states, and what the app chooses where it does not


_TUNING_GRID = dict(lam_lo=-5.0, lam_hi=-0.5, sig_lo=-1.0, sig_hi=1.0, res=20, loo=False)
_TUNING_UNSTATED = ("The paper states neither n, nor its (λ, σ) grid (“a global search”), nor its one realization: "
                    "n = 200 (πₛ⁺ = 0.4 as stated), seed 0 and a 20 × 20 grid over log10 λ ∈ [−5, −0.5], "
                    "log10 σ ∈ [−1, 1] here, so the inefficiencies are of this draw, not the paper's.")

_USVC_2D = dict(data="banana", n=200, seed=0)  # the page's 2-D section: its default data set


def _published_inefficiencies(mode: str, xa_name: str) -> str:
    """“GACV 1.0064, XA 1.0062–1.0094” from :data:`svmviz.published.WAHBA2001_INEFFICIENCY`."""
    ineff = WAHBA2001_INEFFICIENCY[mode]
    return f"GACV {range_text(*ineff['gacv'])}, {xa_name} {range_text(*ineff['xa'])}"


PRESETS: dict[str, tuple[Preset, ...]] = {
    "tuning": (
        Preset("Wahba et al. 2001, Fig. 1 (left): standard case, decision curves and inefficiencies",
               dict(data="wahba2001", n=200, seed=0, mode="standard", **_TUNING_GRID),
               "§6: N((0,0), I) against N((2,2), diag(2,1)), equal costs. Published inefficiencies "
               + _published_inefficiencies("standard", "XA") + ". " + _TUNING_UNSTATED),
        Preset("Wahba et al. 2001, Figs. 1 (right) and 2: non-standard case, contour surfaces",
               dict(data="wahba2001", n=200, seed=0, mode="non-standard", cp=1.0, cm=2.0, pp=0.1, **_TUNING_GRID),
               "§6: C⁺ = 1, C⁻ = 2, π⁺ = 0.1, so L(−1) = 1.5, L(+1) = 0.5. Published inefficiencies "
               + _published_inefficiencies("nonstandard", "BRXA") + ". " + _TUNING_UNSTATED),
    ),
    "losses": (
        Preset("Wahba 1998, Fig. 1.1: the losses of τ = yf",
               dict(lf_losses=["misclassification", "deviance", "hinge", "sigmoid", "concave_exp", "wahba_v"],
                    lf_a=1.0, lf_em=0.0, lf_ep=1.0, lf_tlo=-3.0, lf_thi=3.0, lf_dev2=False,
                    data="wahba2001", n=200, seed=0),
               "a = 1 as stated (§1.2.3). The ε₋, ε₊ of v and the τ range are not stated: ε₋ = 0, ε₊ = 1, "
               "τ ∈ [−3, 3] here. The λ curves below use the app's defaults (Wahba 1998 has no numerical example)."),
        Preset("Wahba 1998, Fig. 1.2: prediction functions μ(f) of the deviance and of v",
               dict(lf_losses=["deviance", "wahba_v"], lf_em=0.0, lf_ep=1.0, lf_tlo=-3.0, lf_thi=3.0,
                    data="wahba2001", n=200, seed=0),
               "The figure's ε₋, ε₊ and f range are not stated: ε₋ = 0, ε₊ = 1, f ∈ [−3, 3] here."),
        Preset("Zhu & Hastie 2002, Figs. 1 and 5: binomial deviance, hinge and exponential losses",
               dict(lf_losses=["deviance", "hinge", "exponential"], lf_tlo=-3.0, lf_thi=3.0, lf_dev2=False,
                    data="esl_mixture", n=200, seed=0),
               "y ∈ {−1, 1}; the deviance is drawn as ln(1 + e^−τ) (tick “Divide the deviance by ln 2” for the "
               "scaling that passes through (0, 1)); the paper does not state its τ range: [−3, 3] here."),
        Preset("Navia-Vázquez et al. 2004, Fig. 1: error count, hinge (QP-SVC) and the USVC's θ̃ₛ",
               dict(lf_losses=["misclassification", "hinge", "smooth_step"], lf_s=[2.0, 4.0], lf_tlo=-3.0,
                    lf_thi=3.0, data="wahba2001", n=200, seed=0),
               "k = 10⁻⁴ (eq. 6). The figure's values of s are not stated: 2 and 4 (those of Table 1) here."),
    ),
    "path": (
        Preset("Loosli & Canu 2006, figures “Path” and “LOO”: the apple-and-banana data",
               dict(data="banana", n=200, seed=0, pkernel="rbf", psigma=1.0, pxaxis="lambda", ploo=True,
                    pevals=30),
               "The slides show the ν-SVM path and LOO along it on the banana data without stating n, the "
               "Gaussian width or the test sample: n = 200, σ = 1, seed 0 and 2,000 test points here; the "
               "λ cursor starts at the automatic stopping point."),
    ),
    "usvc": (
        Preset("Navia-Vázquez et al. 2004, Fig. 3 and Table 1: scenario A",
               dict(u_src="A", u_n=500, u_seed=0, u_C=10.0, u_s=2.0, u_k=1e-4, u_d=0.2, u_t1_scen="A",
                    u_t1_trials=100, u_t1_ntr=500, u_t1_nte=500, u_t1_seed=0, u_t1=1, **_USVC_2D),
               "n = 500, C = 10, damping 0.2, s = 2; Table 1: 100 trials of 500 training and 500 test points, "
               "as stated. Not stated: k_ε (10⁻⁴ here) and the trial drawn in Fig. 3 (seed 0 here)."),
        Preset("Navia-Vázquez et al. 2004, Fig. 4 and Table 1: scenario B",
               dict(u_src="B", u_n=500, u_seed=0, u_C=10.0, u_s=2.0, u_k=1e-4, u_d=0.2, u_t1_scen="B",
                    u_t1_trials=100, u_t1_ntr=500, u_t1_nte=500, u_t1_seed=0, u_t1=1, **_USVC_2D),
               "As for A. Fig. 4 also shows the USVC with s = 4 (set s to 4). Not stated: k_ε (10⁻⁴ here) "
               "and the trial drawn (seed 0 here)."),
    ),
    "ivm": (
        Preset("Zhu & Hastie 2002, Figs. 2 and 3: ESL mixture, N = 200, λ path and the chosen λ = e⁻²",
               dict(data="esl_mixture", n=200, seed=0, i_sigma=0.71, i_method="onestep", i_eps=0.001, i_r=1,
                    i_cap=0, i_ntune=200, i_nlams=21, i_lnlam=-2.0, i_source="path"),
               "Radial kernel exp(−‖x − x'‖²) (σ = 1/√2 ≈ 0.71), r = 1, ε = 0.001, λ from e¹⁰ down to e⁻¹⁰, "
               f"the maps at the paper's λ = {ZHU_HASTIE_FIG2['lam']}, as stated. Not stated: the tuning-set size and the draw "
               f"(200 tuning points and seed 0 here); the paper's |S| = {ZHU_HASTIE_FIG2['machine_size']} and tuning "
               f"error {ZHU_HASTIE_FIG2['tune_error']} are of its draw."),
        Preset("Zhu & Hastie 2002, Fig. 4: three classes, N = 300, λ = e⁻¹",
               dict(data="esl_mixture3", n=300, seed=0, i_sigma=0.71, i_method="onestep", i_eps=0.001, i_r=1,
                    i_cap=0, i_ntune=200, i_nlams=21, i_lnlam=-1.0),
               f"M + 1 = 3 classes, N = 300, λ = {ZHU_HASTIE_FIG4['lam']} as stated (|S| = {ZHU_HASTIE_FIG4['machine_size']} "
               "there). Not stated: the three "
               "classes' centre means ((0,1), (1,0), (1,1) here), the tuning set and the draw (seed 0)."),
    ),
    "anova": (
        Preset("Wahba 1998, §2: SS-ANOVA kernels and the SVM as a variable-selection preprocessor",
               dict(data="anova_structure", n=200, seed=0, a_d=6, a_inter=8.0,
                    a_kernels=["gaussian", "additive", "two-way"], a_base="cubic", a_lo=-6, a_hi=-1, a_nlam=11,
                    a_loo=True),
               "Wahba (1998) builds the kernels (eqs. 1.12–1.13, cubic-spline R_α of Gu & Wahba 1993) and "
               "proposes the SVM as a preprocessor that sifts variables, with no numerical example: this is "
               "the app's known-structure example (x1 and x2 matter, 4 noise variables)."),
    ),
    "studies": (
        Preset("Wahba et al. 2001, §6: standard case, inefficiencies over replicates",
               dict(s_source="Ready-made study", study="wahba2001_standard"),
               "The ready-made spec (n = 200, 30 × 30 grid, 100 replicates): the app runs it small (the "
               "sliders: 4 replicates on a 10 × 10 grid at first); "
               "`svmviz study run wahba2001_standard` runs it in full."),
        Preset("Wahba et al. 2001, §6: non-standard case",
               dict(s_source="Ready-made study", study="wahba2001_nonstandard"),
               "As the standard case, with C⁺ = 1, C⁻ = 2, π⁺ = 0.1."),
        Preset("Navia-Vázquez et al. 2004, Table 1: scenarios A and B",
               dict(s_source="Ready-made study", study="navia2004_table1"),
               "100 trials of 500 + 500 points, C = 10 in the spec; the app runs a few."),
        Preset("Navia-Vázquez et al. 2004, Tables 2 and 4: linear machines",
               dict(s_source="Ready-made study", study="navia2004_linear"),
               "C by 5-fold CV on each training sample; twonorm, ringnorm and waveform drawn afresh from Breiman's "
               "generators at the paper's 80 % / 20 % split sizes (twonorm and ringnorm 5920 / 1480, waveform "
               "4000 / 1000), breast cancer split 455 / 114."),
        Preset("Navia-Vázquez et al. 2004, Table 3: kernel USVC vs the SVM",
               dict(s_source="Ready-made study", study="navia2004_kernel"),
               "The paper trains on 80 % splits (5920 or 4000 points); here 400 training and 10,000 test points "
               "drawn from Breiman's generators, R FSCL prototypes, σ (and the SVM's λ) by 5-fold CV."),
        Preset("Zhu & Hastie 2002, Figs. 2–3: IVM vs SVM on the ESL mixture",
               dict(s_source="Ready-made study", study="zhu_hastie2002"),
               "N = 200, 200 tuning points (the tuning-set size is not stated in the paper)."),
        Preset("Zhu & Hastie 2002, Fig. 4: the IVM on three classes",
               dict(s_source="Ready-made study", study="zhu_hastie2002_fig4"),
               "N = 300 from three classes; λ chosen on an independent tuning sample of 300 points (the "
               "paper does not say how λ was chosen)."),
    ),
}
"""Page module → its presets."""

WIDGET_PREFIXES = {"tuning": ("tuning_",), "losses": ("lf_", "loss_"), "path": ("path_",), "usvc": ("usvc_",),
                   "ivm": ("ivm_",), "anova": ("anova_",), "studies": ("studies_",)}
"""The keys of each page's widgets: a preset forgets their state, so that the widgets outside the URL
(choices that depend on a computed result, e.g. the interaction maps of page 6) start from their
defaults too."""

_APPLIED = "_svmviz_preset_applied"  # session_state: (page, label) of the preset applied by the last choice


def url_values(preset: Preset) -> dict:
    """The preset's URL parameters as the text the URL holds."""
    return {k: url_state.url_text(v) for k, v in preset.params.items()}


def apply(page: str, label: str) -> None:
    """Make ``page``'s view the preset ``label``: its URL parameters, read by the next run as a link's."""
    preset = next(p for p in PRESETS[page] if p.label == label)
    url_state.open_view(preset.params, forget=WIDGET_PREFIXES[page])
    st.session_state[_APPLIED] = (page, label)


def _chosen(page: str, key: str) -> None:
    label = st.session_state.get(key)
    if label is None:
        return
    apply(page, label)
    st.session_state[key] = None  # the choice is an action: the box is empty again


def picker(page: str) -> None:
    """The page's “Reproduce the paper's figure” box (under the page's title); after a choice, what
    the paper states and what the app chose where it does not."""
    presets = PRESETS[page]
    key = f"_svmviz_preset_{page}"
    st.selectbox("Reproduce the paper's figure", [p.label for p in presets], index=None, key=key,
                 placeholder="Choose a figure or table of the paper: every control takes its setting…",
                 on_change=_chosen, args=(page, key),
                 help="Sets every control of this page to the paper's setting (the others to their defaults); "
                      "the address bar then links to that view. " + " ".join(
                          f"**{p.label}** — {p.note}" for p in presets))
    applied = st.session_state.pop(_APPLIED, None)
    preset = None
    if applied and applied[0] == page:
        preset = next(p for p in presets if p.label == applied[1])
    elif url_state.url_speaks():  # a shared link (or Back/Forward) opening a preset's view: its note with it
        preset = view_preset(page, st.query_params.to_dict())
    if preset is not None:
        st.info(f"**{preset.label}.** {preset.note}", icon=":material/description:")


def view_preset(page: str, url: dict) -> Preset | None:
    """The preset of ``page`` whose every URL parameter ``url`` (a link's query) holds, else None."""
    for preset in PRESETS[page]:
        if all(url.get(k) == v for k, v in url_values(preset).items()):
            return preset
    return None
