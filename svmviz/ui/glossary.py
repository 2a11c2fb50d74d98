"""The acronyms of the app, spelled out once: one dictionary, one helper, the glossary.

Every page passes its running text through :func:`spell`: the first time an acronym of
:data:`GLOSSARY` appears on the page in this run it is written out — "GACV (generalized
approximate cross-validation)" — and left short afterwards. The home page shows the whole
dictionary (:func:`glossary_table`).
"""
from __future__ import annotations

import re
from typing import NamedTuple

import streamlit as st


class Term(NamedTuple):
    name: str  # the spelled-out name
    meaning: str  # one line
    source: str  # paper and equation, author–year


GLOSSARY: dict[str, Term] = {
    "SVM": Term("support vector machine",
                "A classifier minimizing the hinge loss (1 − yf)₊ plus λ‖h‖² in a kernel space; it classifies "
                "by sign f.",
                "Wahba 1998, eq. 1.22; Wahba et al. 2001, eq. 1"),
    "SVC": Term("support vector classifier",
                "The SVM for classification; here trained as the quadratic program (QP) or by iterated weighted least "
                "squares.", "Navia-Vázquez et al. 2004, eqs. 1–3"),
    "GACV": Term("generalized approximate cross-validation",
                 "A computable proxy for GCKL from one fit: the training hinge loss plus a correction from each "
                 "point's αᵢ; minimized over (λ, σ) to tune the SVM.",
                 "Wahba et al. 2001, eq. 4 (non-standard: eq. 9); Wahba 1998, §1.3"),
    "ranGACV": Term("randomized GACV",
                    "GACV with the trace term estimated by perturbing the responses with a random vector Z and "
                    "refitting.", "Wahba 1998, eq. 1.63"),
    "GCKL": Term("generalized comparative Kullback–Leibler distance",
                 "The expected hinge loss of f at the training points under the true p(x): what GACV estimates; "
                 "needs the truth.", "Wahba et al. 2001, eq. 3 (non-standard: eq. 10)"),
    "XA": Term("Joachims' ξα estimate",
               "Counts the training points whose margin is small against their αᵢ (yᵢfᵢ ≤ θᵢ) or wrong: an estimate "
               "of the leave-one-out error from one fit.", "Joachims 2000; Wahba et al. 2001, eq. 7"),
    "BRXA": Term("Bayes-risk ξα",
                 "XA for the non-standard case (unequal costs, biased sampling): each counted point weighted by "
                 "L(yᵢ).", "Wahba et al. 2001, eq. 11"),
    "MISCLASS": Term("expected misclassification rate",
                     "The error rate of sign f at the training points under the true p(x): the target a tuning "
                     "criterion should minimize; needs the truth.", "Wahba et al. 2001, eq. 5"),
    "BRMISCLASS": Term("Bayes-risk misclassification",
                       "MISCLASS weighted by the costs L(±1) of the non-standard case: the Bayes risk at the "
                       "training points.", "Wahba et al. 2001, eq. 12"),
    "LOO": Term("leave-one-out",
                "Refit without each point and classify it: the error count over all points. Exact here (only support "
                "vectors need a refit).", "Wahba 1998, eq. 1.34; Loosli & Canu 2006"),
    "CV": Term("cross-validation",
               "Split the data into k folds, fit on k − 1, count errors on the one left out; the usual baseline "
               "(scikit-learn's GridSearchCV).", "Stone 1974; Wahba et al. 2001, §6"),
    "IRWLS": Term("iteratively re-weighted least squares",
                  "Solve the SVC (or USVC) as a sequence of weighted least-squares problems whose weights come from "
                  "the current errors.", "Navia-Vázquez et al. 2004, eqs. 20–22"),
    "LS": Term("least squares",
               "The regularised least-squares classifier: the IRWLS start (all weights 1).",
               "Navia-Vázquez et al. 2004, §2"),
    "QP": Term("quadratic program",
               "The SVM's dual optimization problem, solved here by SMO and checked against libsvm.",
               "Navia-Vázquez et al. 2004, eq. 1"),
    "USVC": Term("unbiased support vector classifier",
                 "An SVC whose hinge loss is replaced by a smooth step θ̃ₛ that counts errors, trained by IRWLS from "
                 "the SVC.", "Navia-Vázquez et al. 2004, eq. 6"),
    "CE": Term("classification error",
               "The share of points misclassified.", "Navia-Vázquez et al. 2004, Table 1"),
    "KLR": Term("kernel logistic regression",
                "Logistic regression with a kernel expansion: minimizes the binomial deviance plus (λ/2)‖f‖²; "
                "estimates p(x).", "Zhu & Hastie 2002, eq. 4"),
    "IVM": Term("import vector machine",
                "KLR on a few greedily chosen import points instead of all N: sparse like the SVM, with "
                "probabilities.", "Zhu & Hastie 2002, §3 (B1–B4)"),
    "SS-ANOVA": Term("smoothing-spline analysis of variance",
                     "A kernel built from one-dimensional kernels, one per variable, so the fit splits into main "
                     "effects and interactions.", "Wahba 1998, eqs. 1.12–1.13"),
    "RKHS": Term("reproducing kernel Hilbert space",
                 "The function space a kernel defines; ‖h‖² is its norm, the SVM's penalty.", "Wahba 1998, §1.1"),
    "FSCL": Term("frequency-sensitive competitive learning",
                 "A clustering rule that places the R prototypes of the kernel USVC (k-means is the other choice).",
                 "Navia-Vázquez et al. 2004, §3"),
}
"""Acronym → (spelled-out name, one-line meaning, paper and equation)."""

_SEEN = "_svmviz_glossary_seen"  # session_state: (this run's token, acronyms already spelled out)
_MATH = re.compile(r"(\$\$.*?\$\$|\$[^$]*\$|`[^`]*`)", re.S)


def spelled(term: str) -> str:
    """"GACV (generalized approximate cross-validation)"."""
    return f"{term} ({GLOSSARY[term].name})"


def _pattern(term: str) -> re.Pattern:
    return re.compile(r"(?<!\w)" + re.escape(term) + r"(?!\w)")


_PATTERNS = {t: _pattern(t) for t in GLOSSARY}


def find_terms(text: str) -> list[str]:
    """The glossary's acronyms occurring in ``text`` (whole words, outside TeX), longest first."""
    plain = " ".join(_MATH.split(text)[0::2])
    return [t for t in sorted(GLOSSARY, key=len, reverse=True) if _PATTERNS[t].search(plain)]


def _seen() -> set:
    """Acronyms already spelled out in this run of the page (a new set at every rerun)."""
    from svmviz.ui._streamlit_compat import run_token

    token = run_token()
    held = st.session_state.get(_SEEN)
    if not held or held[0] is not token:
        held = (token, set())
        st.session_state[_SEEN] = held
    return held[1]


def seen_snapshot() -> frozenset:
    """The acronyms spelled out so far in this run (to redraw a replaced block as it first was)."""
    return frozenset(_seen())


def restore_seen(snapshot: frozenset) -> None:
    """Forget what was spelled after ``snapshot``: the block that spelled it is being replaced."""
    seen = _seen()
    seen.intersection_update(snapshot)


def spell(text: str) -> str:
    """``text`` with the first appearance on this page of each glossary acronym spelled out.

    Only the text outside TeX (``$…$``) and code is changed; an acronym whose name the text
    already gives is only marked as seen."""
    seen = _seen()
    parts = _MATH.split(text)
    for term in sorted(GLOSSARY, key=len, reverse=True):
        if term in seen:
            continue
        name = GLOSSARY[term].name
        for k in range(0, len(parts), 2):
            if _PATTERNS[term].search(parts[k]):
                seen.add(term)
                if name.lower() not in text.lower():
                    parts[k] = _PATTERNS[term].sub(lambda m, p=parts[k]: _spelled_at(p, m, name), parts[k], count=1)
                break
    return "".join(parts)


def _spelled_at(text: str, m: re.Match, name: str) -> str:
    """The acronym matched at ``m`` with its ``name``: "GACV (name)"; where that pair of brackets would
    nest in another or stand next to one ("XA (BRXA)"), "GACV, name" (with a comma before the next
    words inside a bracket)."""
    before, after = text[:m.start()], text[m.end():]
    inside = before.count("(") > before.count(")")
    if not inside and not after.startswith(" ("):
        return f"{m.group(0)} ({name})"
    return f"{m.group(0)}, {name}" + ("," if inside and after and after[0] not in ").,;:" else "")


def glossary_table(terms=None) -> dict:
    """The glossary as columns (for ``st.dataframe``)."""
    keys = list(GLOSSARY) if terms is None else [t for t in terms if t in GLOSSARY]
    return {"acronym": keys, "spelled out": [GLOSSARY[k].name for k in keys],
            "meaning": [GLOSSARY[k].meaning for k in keys], "paper": [GLOSSARY[k].source for k in keys]}


def show_glossary(*, expanded: bool = False) -> None:
    """The whole glossary in an expander."""
    with st.expander("Glossary: every acronym of the app", expanded=expanded):
        # a static table wraps long cells: the data grid cut the "meaning" column and long acronyms
        # ("BRMISCLAS…") at its fixed column widths
        import pandas as pd

        st.table(pd.DataFrame(glossary_table()).set_index("acronym"))
