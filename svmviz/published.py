"""The published numbers of the five papers, as numbers, each with its paper and table or figure — in one place.

Pages, figures, the ready-made studies and tests read them from here. :func:`published_table` returns the rows of one set for the studies: data set
(generator name), criterion or machine (the results table's key), metric (a column of the results table),
value, range or standard deviation, and where it comes from. What the papers report is not always a
distribution: Wahba et al. (2001) give single realizations on a grid they do not state, Zhu & Hastie (2002)
one draw of the mixture — the ``note`` says so.

Sources: Wahba, Lin, Lee & Zhang 2001, §6 (:data:`WAHBA2001_INEFFICIENCY`); Navia-Vázquez et al. 2004,
Table 1 (:data:`NAVIA2004_TABLE1`) and Tables 2–4 (:data:`NAVIA_TABLES_2_4`: mean ± sd of the test CE in %,
machine sizes); Zhu & Hastie 2002, Figs. 2 and 4 (:data:`ZHU_HASTIE_FIG2`, :data:`ZHU_HASTIE_FIG4`). The full
bibliographic entries (authors, title, venue, year) are on the documentation's References page.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pandas is imported where a table is built: the pages' headers (presets) need none
    import pandas as pd

__all__ = ["PUBLISHED_SETS", "WAHBA2001_INEFFICIENCY", "NAVIA2004_TABLE1", "NAVIA_TABLES_2_4", "ZHU_HASTIE_FIG2",
           "ZHU_HASTIE_FIG4", "published_table", "range_text"]

#: Wahba, Lin, Lee & Zhang 2001, §6: inefficiency (misclassification or its L-weighted analogue at the
#: criterion's choice / its minimum over the grid) of GACV and XA (BRXA in the non-standard case), one
#: realization, grid not stated. (low, high): the criterion's minimum is tied over a range of λ, whose
#: inefficiencies range from low to high; low = high when there is no tie.
WAHBA2001_INEFFICIENCY = {
    "standard": {"gacv": (1.0064, 1.0064), "xa": (1.0062, 1.0094)},
    "nonstandard": {"gacv": (1.151, 1.151), "xa": (1.166, 1.166)},
}

#: Navia-Vázquez et al. 2004, Table 1 (n = 500 train / 500 test, C = 10, 100 trials, linear machine):
#: mean and (sd) of train CE %, test CE % and Th = −b/w; "optimal" are the theoretical values.
NAVIA2004_TABLE1 = {
    "A": {
        "optimal": {"train_ce": (20.0, None), "test_ce": (20.0, None), "threshold": (0.5, None)},
        "LS": {"train_ce": (30.5, 2.9), "test_ce": (30.7, 2.7), "threshold": (0.30, 0.02)},
        "SVC": {"train_ce": (26.8, 2.6), "test_ce": (27.1, 2.4), "threshold": (0.35, 0.02)},
        "USVC(s=2)": {"train_ce": (19.9, 1.7), "test_ce": (20.4, 1.9), "threshold": (0.49, 0.06)},
        "USVC(s=4)": {"train_ce": (21.1, 2.0), "test_ce": (21.8, 2.6), "threshold": (0.47, 0.1)},
    },
    "B": {
        "optimal": {"train_ce": (17.0, None), "test_ce": (17.0, None), "threshold": (0.6, None)},
        "LS": {"train_ce": (31.8, 1.4), "test_ce": (31.7, 1.9), "threshold": (0.30, 0.02)},
        "SVC": {"train_ce": (24.8, 2.6), "test_ce": (25.5, 2.4), "threshold": (0.40, 0.02)},
        "USVC(s=2)": {"train_ce": (19.7, 1.8), "test_ce": (19.8, 1.9), "threshold": (0.58, 0.01)},
        "USVC(s=4)": {"train_ce": (20.1, 5.2), "test_ce": (19.7, 5.4), "threshold": (0.56, 0.02)},
    },
}

#: Navia-Vázquez et al. 2004: test CE (%) mean and sd, and machine sizes, of the data sets we can
#: generate or ship. Table 2 (linear): LS, SVMlight, USVC; Table 3 (RBF): SVMlight and USVC with
#: their machine sizes (support vectors; prototypes R); Table 4 (linear, biomedical): Breast.
NAVIA_TABLES_2_4 = {
    "table2": {
        "ringnorm": {"LS": (23.3, 1.1), "SVMlight": (23.4, 1.1), "USVC": (22.9, 1.1)},
        "twonorm": {"LS": (2.2, 0.3), "SVMlight": (2.2, 0.3), "USVC": (2.2, 0.2)},
        "waveform": {"LS": (12.0, 0.7), "SVMlight": (11.5, 0.6), "USVC": (11.4, 0.5)},
    },
    "table3": {
        "ringnorm": {"SVMlight": (1.8, 0.4, 615, 25), "USVC": (1.8, 0.6, 90, None)},
        "twonorm": {"SVMlight": (2.2, 0.9, 565, 12), "USVC": (2.2, 0.8, 12, None)},
        "waveform": {"SVMlight": (8.9, 0.8, 1286, 25), "USVC": (8.1, 1.1, 30, None)},
    },
    "table4": {
        "breast_cancer": {"LS": (4.16, 2.1), "SVMlight": (4.17, 2.2), "ERM-SVC": (3.74, 2.9), "USVC": (3.73, 2.8)},
    },
}

#: Zhu & Hastie 2002, Fig. 2 (ESL mixture, N = 200, radial kernel, one draw): the tuning-set
#: misclassification is smallest, 0.219, at λ = 0.135 (e^−2), where the IVM stops at |S| = 21.
ZHU_HASTIE_FIG2 = {"tune_error": 0.219, "lam": 0.135, "machine_size": 21}

#: Zhu & Hastie 2002, Fig. 4 (3-class ESL mixture, N = 300, radial kernel): λ = 0.368 (e^−1), |S| = 32.
ZHU_HASTIE_FIG4 = {"lam": 0.368, "machine_size": 32}

PUBLISHED_SETS = ("wahba2001_standard", "wahba2001_nonstandard", "navia2004_table1", "navia2004_linear",
                  "navia2004_kernel", "zhu_hastie2002", "zhu_hastie2002_fig4")

_WAHBA = "Wahba et al. 2001, §6"
_WAHBA_NOTE = "one realization on a grid the paper does not state"


def range_text(low: float, high: float) -> str:
    """A published value or range as text: "1.0064", or "1.0062–1.0094" for a range (en dash, no spaces).

    Parameters
    ----------
    low, high : float

    Returns
    -------
    str
    """
    return f"{low:g}" if low == high else f"{low:g}–{high:g}"


def _row(dataset, criterion, metric, value, *, low=np.nan, high=np.nan, sd=np.nan, text, source, note=""):
    return dict(dataset_name=dataset, criterion=criterion, metric=metric, value=float(value), low=float(low),
                high=float(high), sd=float("nan" if sd is None else sd), text=text, source=source, note=note)


def _wahba(mode: str) -> list[dict]:
    rows = []
    for crit, (low, high) in WAHBA2001_INEFFICIENCY[mode].items():
        name = {"gacv": "GACV", "xa": "XA" if mode == "standard" else "BRXA"}[crit]
        rows.append(_row("wahba2001", crit, "inefficiency", low, low=low, high=high,
                         text=f"{name} {range_text(low, high)} ({_WAHBA}, one draw)", source=_WAHBA, note=_WAHBA_NOTE))
    return rows


def _table1() -> list[dict]:
    rows = []
    src = "Navia-Vázquez et al. 2004, Table 1"
    for scen, methods in NAVIA2004_TABLE1.items():
        for m, vals in methods.items():
            if m == "optimal":
                continue
            ce, ce_sd = vals["test_ce"]
            th, th_sd = vals["threshold"]
            rows.append(_row(f"usvc_{scen}", m, "test_error", ce / 100, sd=ce_sd / 100,
                             text=f"test CE {ce}% ± {ce_sd}", source=src, note="mean ± sd over 100 trials"))
            rows.append(_row(f"usvc_{scen}", m, "threshold", th, sd=th_sd, text=f"Th {th} ± {th_sd}", source=src,
                             note="mean ± sd over 100 trials"))
    return rows


def _linear() -> list[dict]:
    rows = []
    ours = {"LS": "LS", "SVMlight": "SVC", "USVC": "USVC(s=2)"}
    for table, src in (("table2", "Navia-Vázquez et al. 2004, Table 2"), ("table4", "Navia-Vázquez et al. 2004, Table 4")):
        for ds, methods in NAVIA_TABLES_2_4[table].items():
            for m, (ce, sd) in methods.items():
                if m not in ours:
                    continue  # ERM-SVC is not re-created
                rows.append(_row(ds, ours[m], "test_error", ce / 100, sd=sd / 100,
                                 text=f"{m} {ce}% ± {sd}", source=src, note="mean ± sd over the paper's splits"))
    return rows


def _kernel() -> list[dict]:
    rows = []
    src = "Navia-Vázquez et al. 2004, Table 3"
    ours = {"SVMlight": "kfold", "USVC": "USVC(s=2)"}
    for ds, methods in NAVIA_TABLES_2_4["table3"].items():
        for m, (ce, sd, size, size_sd) in methods.items():
            rows.append(_row(ds, ours[m], "test_error", ce / 100, sd=sd / 100, text=f"{m} {ce}% ± {sd}", source=src,
                             note="mean ± sd over the paper's splits"))
            rows.append(_row(ds, ours[m], "machine_size", size, sd=size_sd,
                             text=f"{m} size {size}" + (f" ± {size_sd}" if size_sd else ""), source=src,
                             note="support vectors (SVMlight) or prototypes R (USVC)"))
    return rows


def _zhu_hastie() -> list[dict]:
    src = "Zhu & Hastie 2002, Fig. 2"
    note = "one draw of the mixture, N = 200"
    f = ZHU_HASTIE_FIG2
    return [_row("esl_mixture", "IVM", "tune_error", f["tune_error"], text=f"tuning error {f['tune_error']}",
                 source=src, note=note),
            _row("esl_mixture", "IVM", "machine_size", f["machine_size"], text=f"|S| = {f['machine_size']}",
                 source=src, note=note),
            _row("esl_mixture", "IVM", "lam", f["lam"], text=f"λ = {f['lam']}", source=src, note=note)]


def _zhu_hastie_fig4() -> list[dict]:
    src = "Zhu & Hastie 2002, Fig. 4"
    note = "one draw of the three-class mixture, N = 300; how λ was chosen is not stated"
    f = ZHU_HASTIE_FIG4
    return [_row("esl_mixture3", "IVM", "machine_size", f["machine_size"], text=f"|S| = {f['machine_size']}",
                 source=src, note=note),
            _row("esl_mixture3", "IVM", "lam", f["lam"], text=f"λ = {f['lam']}", source=src, note=note)]


def published_table(key: str | None) -> pd.DataFrame:
    """The published numbers of set ``key`` (one of :data:`PUBLISHED_SETS`; None: an empty table).

    Parameters
    ----------
    key : str or None
        One of :data:`PUBLISHED_SETS` (the ready-made studies' ``published`` key), or None for an
        empty table with the same columns.

    Returns
    -------
    pandas.DataFrame
        Columns dataset_name, criterion, metric, value, low, high, sd, text, source, note.

    Examples
    --------
    >>> from svmviz.published import published_table
    >>> t = published_table("wahba2001_standard")
    >>> t[["criterion", "value", "low", "high"]].to_numpy().tolist()
    [['gacv', 1.0064, 1.0064, 1.0064], ['xa', 1.0062, 1.0062, 1.0094]]
    """
    import pandas as pd

    cols = ["dataset_name", "criterion", "metric", "value", "low", "high", "sd", "text", "source", "note"]
    if key is None:
        return pd.DataFrame(columns=cols)
    builders = {"wahba2001_standard": lambda: _wahba("standard"), "wahba2001_nonstandard": lambda: _wahba("nonstandard"),
                "navia2004_table1": _table1, "navia2004_linear": _linear, "navia2004_kernel": _kernel,
                "zhu_hastie2002": _zhu_hastie, "zhu_hastie2002_fig4": _zhu_hastie_fig4}
    if key not in builders:
        raise ValueError(f"no published numbers {key!r}; choose one of {', '.join(PUBLISHED_SETS)}.")
    return pd.DataFrame(builders[key](), columns=cols)
