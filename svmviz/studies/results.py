"""The tidy results table of a study: one row per (data set, replicate, criterion or machine).

Columns (:data:`COLUMNS`; missing — NaN, or ``<NA>`` in the nullable integer columns — where a quantity
does not apply or is unknown; :data:`SCHEMA` gives each one's type, unit and meaning, and
``svmviz study show`` prints it):

========================  =================================================================================
study, dataset            the spec's name and the data set's label
dataset_name              its generator (or "csv"); ``dataset_index`` its position in the spec
replicate, seed           replicate number r and the seed of its training sample
n, d, n_test              training points, features, test points (independent sample or held-out rows)
family                    "svm" (a criterion chooses a (λ, σ) grid point), "irwls" or "ivm" (a machine)
criterion, label          the criterion's or machine's key ("gacv", "kfold", "USVC(s=2)", "IVM") and display name
L_minus, L_plus           the weights (L(−1), L(+1))
lam, sigma, C             the chosen λ (the method's own scale: Wahba's for SVM rows, the IVM's for IVM rows),
                          Gaussian width σ, and C (IRWLS machines)
i_sigma, j_lambda         the chosen grid indices (svm family); ``n_ties`` grid points tie with it
criterion_value           the criterion's value at its minimum
inefficiency              (BR)MISCLASS(chosen)/min over the grid (Wahba et al. 2001, §6), where the truth is known;
                          ``inefficiency_low``/``_high`` its range over tied minimizers; ``misclass_min`` the grid minimum
test_error                (L-weighted) error rate of the chosen model on the test points
test_inefficiency         where the truth is unknown (real data): test_error / ``test_error_min``, the smallest test
                          error of any grid point — the inefficiency measured on the held-out rows
train_error, tune_error   the same on the training points and (IVM family) on the tuning sample
bayes_error               the smallest achievable test error where the truth is known (L-weighted)
machine_size              support vectors (SVM), import points |S| (IVM), prototypes R or inputs d (IRWLS)
threshold                 Th = −b/w of a one-dimensional linear machine (Navia-Vázquez et al. 2004, Table 1)
status                    0 if every solve behind the row converged
seconds                   wall time to compute this criterion's surface (counting the full-data grid fits it
                          uses: GACV, XA, XA (Joachims' R²), GCKL, MISCLASS share them) or to tune and fit this machine
task_seconds              wall time of the whole task (data, every criterion and machine, test errors)
========================  =================================================================================

One wide table serves the three families, so that a criterion and a machine compare in one ``groupby``;
the columns of :data:`FAMILY_COLUMNS` apply to some families only. The Parquet files hold the columns
that say something (:func:`stored_table` leaves out a family's column that is empty in the whole
table, e.g. ``C`` and ``threshold`` of an SVM-only study); :func:`read_table` puts them back, empty,
and reads tables of earlier versions (grid indices and sizes as floats) into today's types.

Everything but the timings is a deterministic function of the spec: the table is identical whoever
computes it (:data:`TIMING_COLUMNS` are left out when tables are compared).
"""
from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd

__all__ = [
    "COLUMNS",
    "TIMING_COLUMNS",
    "rows_to_frame",
    "sort_table",
    "comparable",
    "StudyResults",
    "summary_table",
    "format_summary",
    "read_folder_spec",
    "SCHEMA",
    "FAMILY_COLUMNS",
    "stored_table",
    "read_table",
    "conform",
    "format_schema",
]

#: column name -> pandas dtype, in table order
COLUMNS = {
    "study": "string",
    "dataset": "string",
    "dataset_name": "string",
    "dataset_index": "int64",
    "replicate": "int64",
    "seed": "int64",
    "n": "int64",
    "d": "int64",
    "n_test": "int64",
    "family": "string",
    "criterion": "string",
    "label": "string",
    "L_minus": "float64",
    "L_plus": "float64",
    "lam": "float64",
    "sigma": "float64",
    "C": "float64",
    "i_sigma": "Int64",
    "j_lambda": "Int64",
    "n_ties": "Int64",
    "criterion_value": "float64",
    "inefficiency": "float64",
    "inefficiency_low": "float64",
    "inefficiency_high": "float64",
    "misclass_min": "float64",
    "test_error": "float64",
    "test_error_min": "float64",
    "test_inefficiency": "float64",
    "train_error": "float64",
    "tune_error": "float64",
    "bayes_error": "float64",
    "machine_size": "Int64",
    "threshold": "float64",
    "status": "int64",
    "seconds": "float64",
    "task_seconds": "float64",
}
#: column -> (type, unit, meaning): what ``svmviz study show`` prints
SCHEMA = {
    "study": ("string", "", "the spec's name"),
    "dataset": ("string", "", "the data set's label in the spec"),
    "dataset_name": ("string", "", "its generator, or 'csv'"),
    "dataset_index": ("int64", "", "its position in the spec's data sets"),
    "replicate": ("int64", "", "replicate number r"),
    "seed": ("int64", "", "seed of the replicate's training sample"),
    "n": ("int64", "points", "training points"),
    "d": ("int64", "features", "features"),
    "n_test": ("int64", "points", "test points (independent sample or held-out rows)"),
    "family": ("string", "", "'svm' (a criterion picks a grid point), 'irwls' or 'ivm' (a machine)"),
    "criterion": ("string", "", "the criterion's or machine's key"),
    "label": ("string", "", "its display name"),
    "L_minus": ("float64", "", "weight L(−1) of a misclassified −1 point"),
    "L_plus": ("float64", "", "weight L(+1) of a misclassified +1 point"),
    "lam": ("float64", "λ", "the chosen λ (Wahba's scale for svm rows, the IVM's for ivm rows)"),
    "sigma": ("float64", "input units", "the chosen Gaussian width σ"),
    "C": ("float64", "", "the chosen C (irwls)"),
    "i_sigma": ("Int64", "grid index", "row of the chosen σ in the spec's σ grid (svm)"),
    "j_lambda": ("Int64", "grid index", "column of the chosen λ in the spec's λ grid (svm)"),
    "n_ties": ("Int64", "grid points", "grid points tied with the criterion's minimum (svm)"),
    "criterion_value": ("float64", "criterion's own", "the criterion's value at its minimum"),
    "inefficiency": ("float64", "ratio ≥ 1", "(BR)MISCLASS(chosen) / its grid minimum, where the truth is known"),
    "inefficiency_low": ("float64", "ratio ≥ 1", "its lowest value over tied minimizers"),
    "inefficiency_high": ("float64", "ratio ≥ 1", "its highest value over tied minimizers"),
    "misclass_min": ("float64", "error rate", "the grid's smallest (BR)MISCLASS"),
    "test_error": ("float64", "error rate", "(L-weighted) error of the chosen model on the test points"),
    "test_error_min": ("float64", "error rate", "the smallest test error of any grid point (svm, truth unknown)"),
    "test_inefficiency": ("float64", "ratio ≥ 1", "test_error / test_error_min: the inefficiency on held-out rows "
                                                 "(svm, truth unknown)"),
    "train_error": ("float64", "error rate", "the same on the training points"),
    "tune_error": ("float64", "error rate", "the same on the tuning sample (ivm)"),
    "bayes_error": ("float64", "error rate", "the smallest achievable test error, where the truth is known"),
    "machine_size": ("Int64", "points or inputs", "support vectors (svm), import points |S| (ivm), prototypes "
                                                 "R or inputs d (irwls)"),
    "threshold": ("float64", "input units", "Th = −b/w of a one-dimensional linear machine (irwls)"),
    "status": ("int64", "", "0 if every solve behind the row converged"),
    "seconds": ("float64", "s", "wall time of this criterion's surface or this machine's tuning and fit"),
    "task_seconds": ("float64", "s", "wall time of the whole task"),
}
#: family -> the columns that apply to it (beyond those every row has)
FAMILY_COLUMNS = {
    "svm": ("lam", "sigma", "i_sigma", "j_lambda", "n_ties", "criterion_value", "inefficiency", "inefficiency_low",
            "inefficiency_high", "misclass_min", "test_error", "test_error_min", "test_inefficiency", "train_error",
            "bayes_error", "machine_size"),
    "irwls": ("C", "sigma", "criterion_value", "test_error", "train_error", "bayes_error", "machine_size",
              "threshold"),
    "ivm": ("lam", "sigma", "criterion_value", "test_error", "train_error", "tune_error", "bayes_error",
            "machine_size"),
}
#: columns that depend on the machine and its load, not on the spec
TIMING_COLUMNS = ("seconds", "task_seconds")
#: the columns of the failed-tasks table
ERROR_COLUMNS = {"study": "string", "dataset": "string", "dataset_index": "int64", "replicate": "int64",
                 "seed": "int64", "error": "string", "traceback": "string"}
RESULTS_FILE = "results.parquet"
ERRORS_FILE = "errors.parquet"
SPEC_FILE = "spec.toml"


def rows_to_frame(rows: list[dict], columns: dict = COLUMNS) -> pd.DataFrame:
    """A table with exactly ``columns`` (missing values NaN / 0 for ``status``), in their order and dtypes."""
    df = pd.DataFrame(rows)
    for c, dt in columns.items():
        if c not in df.columns:
            df[c] = 0 if c == "status" else (pd.NA if dt == "string" else np.nan)
    extra = sorted(set(df.columns) - set(columns))
    if extra:
        raise ValueError(f"unexpected result column(s): {', '.join(extra)}.")
    df = df[list(columns)]
    return df.astype(columns)


def _family_specific() -> set:
    return set().union(*FAMILY_COLUMNS.values())


def stored_table(table: pd.DataFrame) -> pd.DataFrame:
    """The table as written to Parquet: without the family columns that are empty in every row."""
    drop = [c for c in table.columns if c in _family_specific() and not table[c].notna().any()]
    return table.drop(columns=drop)


def conform(table: pd.DataFrame) -> pd.DataFrame:
    """A stored table (of this or an earlier version) with every column of :data:`COLUMNS`, in today's types.

    Raises
    ------
    ValueError
        A column that is not a results column, or an integer column holding non-integer values.
    """
    df = table.copy()
    for c, dt in COLUMNS.items():
        if c not in df.columns:
            df[c] = pd.Series(pd.NA if dt in ("string", "Int64") else np.nan, index=df.index, dtype=object)
        elif dt == "Int64" and df[c].dtype.kind == "f":
            v = df[c].to_numpy(float)
            ok = np.isnan(v) | (v == np.round(v))
            if not ok.all():
                raise ValueError(f"the column {c!r} holds non-integer values ({v[~ok][0]!r}): this is not a study "
                                 "results table svmviz can read.")
    extra = sorted(set(df.columns) - set(COLUMNS))
    if extra:
        raise ValueError(f"unexpected result column(s) {', '.join(extra)}: not a study results table of this svmviz "
                         "version; rerun the study with 'svmviz study run'.")
    return df[list(COLUMNS)].astype(COLUMNS)


def read_table(path) -> pd.DataFrame:
    """A results table (``results.parquet`` or a task file) read back with every column in today's types."""
    return conform(pd.read_parquet(path))


def format_schema(columns=None) -> str:
    """The schema as a plain-text table: name, type, unit, meaning (of ``columns``, default all)."""
    names = list(SCHEMA) if columns is None else [c for c in SCHEMA if c in set(columns)]
    rows = [(c, *SCHEMA[c]) for c in names]
    head = ("column", "type", "unit", "meaning")
    w = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head[:3])]
    fmt = "{:<%d}  {:<%d}  {:<%d}  {}" % tuple(w)
    return "\n".join([fmt.format(*head), fmt.format(*("-" * x for x in w), "-------")] + [fmt.format(*r) for r in rows])


def _criterion_order(table: pd.DataFrame) -> pd.Series:
    from .spec import IRWLS_METHODS, IVM_METHODS, SVM_CRITERIA

    order = {c: i for i, c in enumerate(SVM_CRITERIA + IRWLS_METHODS + IVM_METHODS)}

    def key(c):
        base = str(c).split("(")[0]
        return order.get(c, order.get(base, len(order)))

    return table["criterion"].map(key)


def sort_table(table: pd.DataFrame) -> pd.DataFrame:
    """Rows in spec order: data set, replicate, family, criterion (the paper's order of criteria)."""
    if table.empty:
        return table.reset_index(drop=True)
    fam = table["family"].map({"svm": 0, "irwls": 1, "ivm": 2})
    order = pd.DataFrame({"d": table["dataset_index"], "r": table["replicate"], "f": fam,
                          "c": _criterion_order(table), "s": table["criterion"]})
    idx = order.sort_values(["d", "r", "f", "c", "s"], kind="stable").index
    return table.loc[idx].reset_index(drop=True)


def comparable(table: pd.DataFrame) -> pd.DataFrame:
    """The table without its timing columns, sorted: two runs of one spec give equal frames."""
    return sort_table(table.drop(columns=[c for c in TIMING_COLUMNS if c in table.columns]))


class StudyResults:
    """A finished (or partial) study read from its results directory.

    Attributes
    ----------
    table : pandas.DataFrame
        The tidy table (:data:`COLUMNS`).
    errors : pandas.DataFrame
        The failed tasks (data set, replicate, seed, error message, traceback).
    spec : StudySpec or None
        The spec stored beside the table.
    directory : str or None
    n_tasks : int
        Tasks of the spec; ``n_done`` of them have results, ``n_failed`` failed.
    n_computed : int
        Tasks computed by the run that returned this object (the others were read from disk).
    n_cancelled : int
        Tasks of that run cancelled by a shutdown of their cluster (neither saved nor failed).
    notes : list of str
        What the run or the reading said besides the table (e.g. "showing 3 of 8 saved replicates").
    """

    def __init__(self, table, errors, spec=None, directory=None, n_computed=0, n_cancelled=0, notes=()):
        self.table = table
        self.errors = errors
        self.spec = spec
        self.directory = directory
        self.n_computed = int(n_computed)
        self.n_cancelled = int(n_cancelled)
        self.notes = list(notes)

    @property
    def n_tasks(self) -> int:
        return 0 if self.spec is None else self.spec.n_tasks

    @property
    def n_done(self) -> int:
        if self.table.empty:
            return 0
        return int(self.table[["dataset_index", "replicate"]].drop_duplicates().shape[0])

    @property
    def n_failed(self) -> int:
        return int(self.errors.shape[0])

    def __repr__(self) -> str:
        name = self.spec.name if self.spec is not None else "?"
        return (f"StudyResults({name!r}: {self.n_done}/{self.n_tasks} tasks, {self.n_failed} failed, "
                f"{len(self.table)} rows)")


def read_folder_spec(path) -> tuple:
    """A results folder's ``spec.toml``: the spec and its ``[provenance]`` table (None if it has none).

    Parameters
    ----------
    path : str or os.PathLike

    Returns
    -------
    (StudySpec, dict or None)

    Raises
    ------
    SpecError
        Unreadable TOML or an invalid spec.
    """
    import tomllib

    from .spec import SpecError, spec_from_dict

    path = os.fspath(path)
    try:
        with open(path, "rb") as fh:
            d = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{path}: not valid TOML — {exc}.") from None
    prov = d.pop("provenance", None)
    return spec_from_dict(d, base_dir=os.path.dirname(os.path.abspath(path))), prov


# ------------------------------------------------------------------------------------ summary
def _quantiles(v: pd.Series) -> tuple:
    v = v.dropna()
    if v.empty:
        return (np.nan, np.nan, np.nan)
    q = np.quantile(v.to_numpy(float), [0.25, 0.5, 0.75])
    return float(q[1]), float(q[0]), float(q[2])


def _win_rate(sub: pd.DataFrame, base: pd.DataFrame, metric: str) -> float:
    """P(criterion's metric < baseline's) + ½ P(equal), over replicates where both are known."""
    a = sub.set_index("replicate")[metric]
    b = base.set_index("replicate")[metric]
    both = pd.concat([a, b], axis=1, keys=["a", "b"]).dropna()
    if both.empty:
        return np.nan
    return float(np.mean((both["a"] < both["b"]) + 0.5 * (both["a"] == both["b"])))


def summary_table(table: pd.DataFrame, *, baseline: str = "kfold", published=None) -> pd.DataFrame:
    """Median and IQR per data set and criterion, and each criterion's win rate against k-fold CV.

    Parameters
    ----------
    table : pandas.DataFrame
        A results table.
    baseline : str, default "kfold"
        The criterion the others are compared with (within the same data set and family).
    published : pandas.DataFrame, optional
        :func:`svmviz.published.published_table` rows (matched by generator name and
        criterion); their text is added as a column.

    Returns
    -------
    pandas.DataFrame
        One row per (data set, family, criterion): ``replicates``; median, q25, q75 of
        ``inefficiency``, ``test_inefficiency``, ``test_error`` and ``machine_size``;
        ``win_vs_baseline_inefficiency`` (of the held-out inefficiency where the truth is unknown) and
        ``win_vs_baseline_test`` = P(lower than the baseline's) + ½ P(equal) over replicates;
        ``median_seconds``; ``published``.
    """
    out = []
    if table.empty:
        return pd.DataFrame(out)
    for (di, ds, dname, fam), grp in table.groupby(["dataset_index", "dataset", "dataset_name", "family"], sort=True):
        base = grp[grp["criterion"] == baseline]
        crit_order = grp.drop_duplicates("criterion")
        crit_order = crit_order.iloc[np.argsort(_criterion_order(crit_order).to_numpy(), kind="stable")]
        for crit, label in zip(crit_order["criterion"], crit_order["label"]):
            sub = grp[grp["criterion"] == crit]
            row = {"dataset": ds, "family": fam, "criterion": crit, "label": label, "replicates": int(sub.shape[0])}
            for metric in SUMMARY_METRICS:
                med, lo, hi = _quantiles(sub[metric])
                row[f"{metric}_median"], row[f"{metric}_q25"], row[f"{metric}_q75"] = med, lo, hi
            if not base.empty and crit != baseline:
                # where the truth is unknown, the inefficiency is the one measured on held-out rows
                row["win_vs_baseline_inefficiency"] = _win_rate(sub, base, "inefficiency" if
                                                                sub["inefficiency"].notna().any() else
                                                                "test_inefficiency")
                row["win_vs_baseline_test"] = _win_rate(sub, base, "test_error")
            else:
                row["win_vs_baseline_inefficiency"] = row["win_vs_baseline_test"] = np.nan
            row["bayes_error"] = float(sub["bayes_error"].iloc[0]) if sub["bayes_error"].notna().any() else np.nan
            row["median_seconds"] = float(sub["seconds"].median())
            row["published"] = ""
            if published is not None and not published.empty:
                pub = published[(published["dataset_name"] == dname) & (published["criterion"] == crit)]
                row["published"] = "; ".join(_published_text(p, sub) for _, p in pub.iterrows())
            out.append(row)
    return pd.DataFrame(out)


#: metrics the summary has columns for; a published number of another metric (the threshold Th of
#: Navia-Vázquez et al. 2004, Table 1; the tuning error and λ of Zhu & Hastie 2002, Fig. 2) gets our
#: median [IQR] beside it in the ``published`` text
SUMMARY_METRICS = ("inefficiency", "test_inefficiency", "test_error", "machine_size")


def _published_text(pub: pd.Series, sub: pd.DataFrame) -> str:
    if pub["metric"] in SUMMARY_METRICS or pub["metric"] not in sub.columns:
        return str(pub["text"])
    med, lo, hi = _quantiles(sub[pub["metric"]])
    return f"{pub['text']} (ours {_fmt_iqr(med, lo, hi, 3)})"


def _fmt_iqr(med, lo, hi, digits=4) -> str:
    if not np.isfinite(med):
        return "—"
    return f"{med:.{digits}g} [{lo:.{digits}g}, {hi:.{digits}g}]"


def format_summary(summary: pd.DataFrame, *, baseline_label: str = "k-fold CV", markdown: bool = False) -> str:
    """The summary as a plain-text table for the terminal (``svmviz study show``), or as a Markdown
    table (``markdown=True``, ``svmviz study show --markdown``: what the README's tables are made of)."""
    if summary.empty:
        return "(no results yet)"
    headers = ["data set", "criterion", "R", "inefficiency median [IQR]", "test error median [IQR]",
               "size median", f"wins vs {baseline_label} (ineff / test)", "s", "published"]
    lines = []
    for _, r in summary.iterrows():
        wins = "—"
        if np.isfinite(r["win_vs_baseline_inefficiency"]) or np.isfinite(r["win_vs_baseline_test"]):
            a = r["win_vs_baseline_inefficiency"]
            b = r["win_vs_baseline_test"]
            wins = f"{'—' if not np.isfinite(a) else f'{a:.2f}'} / {'—' if not np.isfinite(b) else f'{b:.2f}'}"
        ineff = _fmt_iqr(r["inefficiency_median"], r["inefficiency_q25"], r["inefficiency_q75"])
        if not np.isfinite(r["inefficiency_median"]) and np.isfinite(r.get("test_inefficiency_median", np.nan)):
            ineff = _fmt_iqr(r["test_inefficiency_median"], r["test_inefficiency_q25"],
                             r["test_inefficiency_q75"]) + " (test)"
        lines.append([str(r["dataset"]), str(r["label"]), str(r["replicates"]), ineff,
                      _fmt_iqr(r["test_error_median"], r["test_error_q25"], r["test_error_q75"]),
                      "—" if not np.isfinite(r["machine_size_median"]) else f"{r['machine_size_median']:g}",
                      wins, f"{r['median_seconds']:.2f}", str(r["published"] or "")])
    held_out = any(l[3].endswith(" (test)") for l in lines)
    footnote = ["", "(test): the held-out inefficiency, the pick's test error over the best grid point's (the truth "
                    "is unknown)."] if held_out else []
    if markdown:
        def cell(text: str) -> str:
            return text.replace("|", "\\|") or " "

        out = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
        out += ["| " + " | ".join(cell(c) for c in l) + " |" for l in lines]
        return "\n".join(out + footnote)
    widths = [max(len(h), *(len(l[i]) for l in lines)) for i, h in enumerate(headers)]
    fmt = "  ".join("{:<" + str(w) + "}" for w in widths)
    out = [fmt.format(*headers), fmt.format(*("-" * w for w in widths))]
    out += [fmt.format(*l) for l in lines]
    return "\n".join(out + footnote)


def write_json(path: str, obj) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(obj, fh)
    os.replace(tmp, path)
