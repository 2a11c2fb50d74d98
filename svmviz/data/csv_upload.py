"""CSV upload (pandas): layout sniffing (delimiter, decimal mark, header, index column), labels, clear errors."""
from __future__ import annotations

import csv
import io
import math
import numbers
import os
import pathlib
import re
from typing import NamedTuple

import numpy as np

from .classes import choose_classes
from .dataset import Dataset, _code_labels, _standardizer


#: Delimiters the loader recognises, in the order that breaks ties.
CSV_DELIMITERS = (",", ";", "\t")
# The layout (delimiter, decimal mark, header, index column) is read from the first
# _CSV_SAMPLE_ROWS content rows within the first _CSV_SAMPLE_CHARS characters.
_CSV_SAMPLE_CHARS = 1 << 18
_CSV_SAMPLE_ROWS = 1000
#: A label column with more distinct values than this is not a class column (every page here has
#: two or three classes; a 150-value column is a measurement or an identifier).
MAX_CSV_CLASSES = 50
_LIST_AT_MOST = 5  # values quoted in a message
_DECIMAL_COMMA = re.compile(r"[+-]?(\d+,\d*|,\d+)([eE][+-]?\d+)?")
_DECIMAL_POINT = re.compile(r"[+-]?(\d+\.\d*|\.\d+)([eE][+-]?\d+)?")
_UNNAMED = re.compile(r"(Unnamed: 0)?")
#: What :func:`dataset_from_csv` does with rows that have an empty cell: drop them, impute each
#: feature column's median (a row without a label is still dropped: no class can be imputed), or
#: stop with an error naming the lines.
MISSING_CHOICES = ("drop", "median", "error")
#: Cell texts read as a missing value (besides an empty cell) unless ``missing="error"``: what R's
#: ``write.csv`` (``NA``), pandas' ``to_csv(na_rep=...)`` defaults and spreadsheets write.
_NA_TEXTS = ("NA", "N/A", "NaN", "nan", "null", "NULL")


def _read_source(obj):
    """(UTF-8 bytes without BOM, source name) from a path, CSV text, bytes or a file-like object.

    Bytes, not text: pandas reads them without the 4-byte-per-character copy a large ``str`` in a
    ``StringIO`` costs. The bytes are checked to be UTF-8 here, so the error can say so.
    """
    if obj is None:
        raise ValueError("No CSV given: pass CSV text, a path to a .csv file, or an uploaded file.")
    name = None
    raw = None
    if isinstance(obj, (bytes, bytearray, memoryview)):
        raw = bytes(obj)
    elif isinstance(obj, os.PathLike):
        name = os.path.basename(os.fspath(obj))
        try:
            with open(obj, "rb") as fh:
                raw = fh.read()
        except OSError as exc:
            raise ValueError(f"Could not read the CSV file {os.fspath(obj)!r}: {exc.strerror or exc}.") from None
    elif isinstance(obj, str):
        if "\n" not in obj and "\r" not in obj and len(obj) < 4096 and os.path.isfile(obj):
            return _read_source(pathlib.Path(obj))
        if obj.strip() and not any(ch in obj for ch in ",;\t\n\r"):
            raise ValueError(
                f"{obj!r} is neither an existing file nor CSV text; give the path of a CSV file or its content."
            )
        raw = obj.removeprefix("\ufeff").encode("utf-8")
    elif hasattr(obj, "getvalue") or hasattr(obj, "read"):
        name = getattr(obj, "name", None)
        name = os.path.basename(name) if isinstance(name, str) else None
        if hasattr(obj, "getvalue"):
            raw = obj.getvalue()
        else:
            if hasattr(obj, "seek"):
                try:
                    obj.seek(0)
                except (OSError, ValueError):
                    pass
            raw = obj.read()
        if isinstance(raw, str):
            raw = raw.removeprefix("\ufeff").encode("utf-8")
    else:
        raise ValueError(
            f"Cannot read a CSV from a {type(obj).__name__}; pass CSV text, bytes, a path or an open file."
        )
    raw = bytes(raw)
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if b"\r" in raw and b"\n" not in raw:  # old Macintosh line ends
        raw = raw.replace(b"\r", b"\n")
    try:
        raw.decode("utf-8")  # a check only: the text is not kept
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"The CSV file is not UTF-8 text (undecodable byte at position {exc.start}); save it as 'CSV UTF-8'."
        ) from None
    return raw, name


def _to_float(s: str, decimal: str = ".") -> float | None:
    """The number a cell holds (as pandas reads it, plus Python's 'nan'/'inf' spellings), else None."""
    if "_" in s:
        return None
    if decimal != ".":
        if "." in s:
            return None
        s = s.replace(decimal, ".")
    try:
        return float(s)
    except ValueError:
        return None


def _is_number(s: str, decimal: str = ".") -> bool:
    return _to_float(s, decimal) is not None


def _content_lines(raw: bytes):
    """(1-based line number, line as str) of every line that is neither blank nor a ``#`` comment."""
    for lineno, bline in enumerate(io.BytesIO(raw), start=1):
        stripped = bline.strip()
        if stripped and not stripped.startswith(b"#"):
            yield lineno, bline.decode("utf-8", "replace")


def _split(line: str, delimiter: str) -> list[str]:
    try:
        cells = next(csv.reader([line], delimiter=delimiter, skipinitialspace=True), [])
    except csv.Error:  # a quoted cell running over the line end
        cells = line.rstrip("\r\n").split(delimiter)
    return [c.strip() for c in cells]


def _sample_lines(raw: bytes) -> list[tuple[int, str]]:
    sample = raw[:_CSV_SAMPLE_CHARS]
    if len(raw) > _CSV_SAMPLE_CHARS and b"\n" in sample:
        sample = sample[: sample.rindex(b"\n")]  # no half line
    out = []
    for item in _content_lines(sample):
        out.append(item)
        if len(out) >= _CSV_SAMPLE_ROWS:
            break
    return out


def pick_delimiter(sample: str) -> str:
    """The delimiter of CSV text — ``,``, ``;`` or tab — judged on its first lines.

    Each candidate splits every content line of ``sample`` (blank and ``#`` comment lines skipped);
    the winner gives at least two cells on the most lines, the same number on every line, then the
    most cells that are numbers. A ``;`` file with decimal commas (``1,5;2,25;x``) is therefore read
    as ``;``-separated. ``,`` when nothing splits.

    Parameters
    ----------
    sample : str or bytes
        The beginning of the file (one line or many; bytes are UTF-8).

    Returns
    -------
    str
        One of :data:`CSV_DELIMITERS`.

    Examples
    --------
    >>> pick_delimiter("a,b,label\\n1.5,2,x\\n")
    ','
    >>> pick_delimiter("a;b;label\\n1,5;2,25;x\\n3,0;4,5;y\\n")
    ';'
    >>> pick_delimiter("1,5;2,25;x\\n3,0;4,5;y\\n")  # no header: the numbers decide
    ';'
    """
    if isinstance(sample, str):
        sample = sample.encode("utf-8")
    lines = [ln for _, ln in _sample_lines(sample)]
    best, best_score = ",", None
    for prio, d in enumerate(CSV_DELIMITERS):
        rows = [_split(ln, d) for ln in lines]
        counts = [len(r) for r in rows]
        if not counts:
            continue
        mode = max(set(counts), key=lambda c: (counts.count(c), c))
        if mode < 2:
            continue
        consistent = counts.count(mode) / len(counts)
        cells = [c for r in (rows[1:] or rows) for c in r if c]
        decimals = (".",) if d == "," else (".", ",")
        numeric = sum(any(_is_number(c, m) for m in decimals) for c in cells) / max(len(cells), 1)
        score = (consistent, numeric, mode, -prio)
        if best_score is None or score > best_score:
            best, best_score = d, score
    return best


def _pick_decimal(rows: list[list[str]], delimiter: str) -> str:
    """',' when the cells use decimal commas (``1,5``) more often than decimal points (never with ',' delimiters)."""
    if delimiter == ",":
        return "."
    commas = sum(1 for r in rows for c in r if _DECIMAL_COMMA.fullmatch(c))
    points = sum(1 for r in rows for c in r if _DECIMAL_POINT.fullmatch(c))
    return "," if commas > points else "."


class _CsvLayout(NamedTuple):
    delimiter: str
    decimal: str
    header: bool
    names: list  # one per column the file has (a trailing empty column excluded)
    n_columns: int  # the columns pandas sees (a trailing empty column included)
    label: int  # position of the label column in ``names``
    index: bool  # the first column looks like an unnamed row index (confirmed on every row later)
    first_cells: list
    notes: list


_COLUMN_J = re.compile(r"column (\d+)")


def _unique_names(cells: list) -> tuple[list, list]:
    """(names, renamed): a repeated name gets `` (2)``, `` (3)``… after its first use; ``renamed`` lists the
    names that were repeated."""
    seen = set(cells)
    out, count, renamed = [], {}, []
    for c in cells:
        count[c] = count.get(c, 0) + 1
        if count[c] == 1:
            out.append(c)
            continue
        if count[c] == 2:
            renamed.append(c)
        k = count[c]
        while f"{c} ({k})" in seen:
            k += 1
        seen.add(f"{c} ({k})")
        out.append(f"{c} ({k})")
    return out, renamed


def _label_position(label_column, first_cells: list) -> int:
    """Position of the label column.

    A name is matched against the first row's cells (an empty cell is called ``column j``; a repeated
    name is ambiguous, its renamed form `` (2)`` is not); failing that, ``column j`` is the j-th column
    (1-based) — the name :func:`csv_header` gives the columns of a file without header.
    """
    first_cells = [c if c else f"column {j + 1}" for j, c in enumerate(first_cells)]
    unique, _ = _unique_names(first_cells)
    ncol = len(first_cells)
    if label_column is None:
        return ncol - 1
    if isinstance(label_column, numbers.Integral) and not isinstance(label_column, bool):
        li = int(label_column)
        if not -ncol <= li < ncol:
            raise ValueError(
                f"Unknown label column {label_column}: the file has {ncol} columns (positions 0..{ncol - 1}, "
                f"first row: {', '.join(first_cells)})."
            )
        return li % ncol
    if isinstance(label_column, str):
        hits = [j for j, c in enumerate(first_cells) if c == label_column.strip()]
        if len(hits) > 1:
            raise ValueError(f"Several columns are called {label_column!r}; give one of the names "
                             f"{', '.join(repr(unique[j]) for j in hits)} or the position.")
        if not hits:
            hits = [j for j, c in enumerate(unique) if c == label_column.strip()]
        by_position = _COLUMN_J.fullmatch(label_column.strip())
        if not hits and by_position and 1 <= int(by_position.group(1)) <= ncol:
            hits = [int(by_position.group(1)) - 1]
        if not hits:
            raise ValueError(f"Unknown label column {label_column!r}; the columns are: {', '.join(first_cells)}.")
        return hits[0]
    raise ValueError(f"label_column must be None, a column position or a column name; got {label_column!r}.")


def _is_index_values(values) -> bool:
    """Distinct non-negative integers: what ``DataFrame.to_csv()`` writes as the row index."""
    import pandas as pd

    s = pd.Series(values)
    if not pd.api.types.is_integer_dtype(s.dtype):
        return False
    return bool(len(s) and s.min() >= 0 and s.is_unique)


def _csv_layout(raw: bytes, label_column) -> _CsvLayout:
    """Delimiter, decimal mark, header, label position and index column, from the file's first rows."""
    sample = _sample_lines(raw)
    if not sample:
        raise ValueError("The CSV file is empty; it needs a row per point with feature columns and a label column.")
    d = pick_delimiter("".join(ln for _, ln in sample).encode("utf-8"))
    rows = [_split(ln, d) for _, ln in sample]
    if all(c == "" for r in rows for c in r):
        shown = "tab" if d == "\t" else repr(d)
        raise ValueError(
            f"The CSV file holds only delimiters ({shown}) and no values; it needs a row per point with numeric "
            "feature columns and a label column."
        )
    notes = []
    first_cells = rows[0]
    n_columns = len(first_cells)
    ncol = n_columns
    if ncol >= 2 and all(not r or len(r) < ncol or r[ncol - 1] == "" for r in rows):
        ncol -= 1  # every line ends with the delimiter: no empty label column
        first_cells = first_cells[:ncol]
        notes.append("The last column is empty (the lines end with a delimiter); it was ignored.")
    if ncol < 2:
        raise ValueError(
            "The CSV file has a single column; it needs at least one numeric feature column and a label "
            "column, separated by ',', ';' or tabs."
        )
    decimal = _pick_decimal(rows, d)
    li = _label_position(label_column, first_cells)
    feat_idx = [j for j in range(ncol) if j != li]
    other_labels = [r[li] for r in rows[1:] if len(r) > li]
    header = any(not _is_number(first_cells[j], decimal) for j in feat_idx) or (
        not _is_number(first_cells[li], decimal) and bool(other_labels)
        and all(_is_number(v, decimal) for v in other_labels)
    )
    if header:
        names, renamed = _unique_names([c if c else f"column {j + 1}" for j, c in enumerate(first_cells)])
        if renamed:
            notes.append(f"Renamed repeated column names: {', '.join(repr(r) for r in renamed)} appear more than "
                         "once; the later ones are called " + ", ".join(repr(n) for n, c in zip(names, first_cells)
                                                                        if c and n != c) + ".")
    else:
        names = [f"x{k + 1}" for k in range(ncol - 1)]
        names.insert(li, "label")
    index = False
    if header and ncol >= 3 and li != 0 and _UNNAMED.fullmatch(first_cells[0]):
        col0 = [r[0] for r in rows[1:] if r]
        index = bool(col0) and all(c.isdigit() for c in col0) and len(set(col0)) == len(col0)
    if decimal == ",":
        notes.append("Numbers are read with ',' as the decimal mark (the delimiter is "
                     f"{'a tab' if d == chr(9) else repr(d)}).")
    return _CsvLayout(d, decimal, header, names, n_columns, li, index, first_cells, notes)


def _comment_lines(raw: bytes) -> list[int]:
    """0-based numbers of the lines whose first non-blank character is ``#``."""
    out = []
    pos = raw.find(b"#")
    line, counted_to = 0, 0
    while pos != -1:
        start = raw.rfind(b"\n", 0, pos) + 1
        if not raw[start:pos].strip():
            line += raw.count(b"\n", counted_to, start)
            counted_to = start
            out.append(line)
        nxt = raw.find(b"\n", pos)
        if nxt == -1:
            break
        pos = raw.find(b"#", nxt)
    return out


def _data_rows(raw: bytes, layout: _CsvLayout):
    """(line number, cells) of every data row, in the order pandas reads them (header skipped)."""
    rows = _content_lines(raw)
    if layout.header:
        next(rows, None)
    for lineno, line in rows:
        cells = _split(line, layout.delimiter)
        if len(cells) == layout.n_columns + 1 and cells[-1] == "":
            cells.pop()  # a trailing delimiter (pandas ignores it too)
        yield lineno, cells[: len(layout.names)] if len(cells) == layout.n_columns else cells


def _line_of_row(raw: bytes, layout: _CsvLayout, row: int) -> int | str:
    for k, (lineno, _) in enumerate(_data_rows(raw, layout)):
        if k == row:
            return lineno
    return "?"


def _first_bad_row(raw: bytes, layout: _CsvLayout, feat_idx: list[int], missing_ok: bool = False) -> ValueError | None:
    """The clear message for the first row a data set cannot be built from (None if every row is fine).

    Missing cells are collected over the whole file and named together (the first few lines and a
    count), so that one message lists every line to fix. ``missing_ok``: an empty or ``NA`` cell is not a problem (the caller drops or imputes it)."""
    names, li = layout.names, layout.label
    mark = "decimal comma ','" if layout.decimal == "," else "decimal point '.'"
    gaps = []  # (line, column name) of every missing cell, when missing cells are errors
    for line, cells in _data_rows(raw, layout):
        if all(c == "" for c in cells):
            continue  # an empty row (pandas drops it too)
        if len(cells) != len(names):
            if gaps:
                continue
            more = "more" if len(cells) > len(names) else "fewer"
            return ValueError(
                f"Line {line} has {len(cells)} cells, {more} than the {len(names)} columns of the first row; "
                "fill in missing cells or remove the extra ones (check for stray delimiters)."
            )
        for j in feat_idx:
            s = cells[j]
            if missing_ok and (s == "" or s in _NA_TEXTS):
                continue
            if s == "":
                gaps.append((line, names[j]))
                continue
            if gaps:
                continue
            v = _to_float(s, layout.decimal)
            if v is None:
                return ValueError(
                    f"Non-numeric value {s!r} in feature column {names[j]!r} at line {line}; every column except "
                    f"the label column ({names[li]!r}) must hold numbers ({mark})."
                )
            if not math.isfinite(v):
                return ValueError(
                    f"Column {names[j]!r} at line {line} holds {s!r}; NaN or infinite values are not allowed — "
                    "remove or impute them."
                )
        if cells[li] == "" and not missing_ok:
            gaps.append((line, names[li]))
    if not gaps:
        return None
    rows = sorted({line for line, _ in gaps})
    columns = list(dict.fromkeys(col for _, col in gaps))
    if len(gaps) == 1 and columns[0] == names[li]:
        return ValueError(f"Missing label in column {names[li]!r} at line {rows[0]}; every point needs a class.")
    if len(gaps) == 1:
        return ValueError(f"Missing value in column {columns[0]!r} at line {rows[0]}; fill it in or remove the row.")
    return ValueError(
        f"Missing values in {len(rows)} rows ({_format_lines(rows)}; column{'s' if len(columns) > 1 else ''} "
        f"{', '.join(map(repr, columns))}); fill them in, or drop the incomplete rows or impute column medians "
        "(missing=\"drop\" or \"median\")."
    )


def _read_frame(raw: bytes, layout: _CsvLayout, na_values=("",)):
    import warnings

    import pandas as pd

    kw = {} if int(pd.__version__.split(".")[0]) >= 3 else {"float_precision": "round_trip"}  # exact floats
    comments = _comment_lines(raw) if b"#" in raw else []
    with warnings.catch_warnings():
        warnings.simplefilter("error", pd.errors.ParserWarning)  # rows longer than the header: not silently cut
        warnings.simplefilter("ignore", pd.errors.DtypeWarning)  # mixed chunks: the checks below say what is wrong
        return pd.read_csv(
            io.BytesIO(raw), encoding="utf-8", sep=layout.delimiter, decimal=layout.decimal, header=0 if layout.header else None,
            index_col=False, skiprows=comments or None, skip_blank_lines=True, skipinitialspace=True,
            keep_default_na=False, na_values=list(na_values), quotechar='"', engine="c", **kw,
        )


def _format_lines(lines) -> str:
    """``lines 5, 273`` — the first few line numbers of a list, then how many more."""
    shown = ", ".join(str(v) for v in lines[:_LIST_AT_MOST])
    more = f" and {len(lines) - _LIST_AT_MOST} more" if len(lines) > _LIST_AT_MOST else ""
    return f"line{'s' if len(lines) > 1 else ''} {shown}{more}"


def _handle_missing(raw: bytes, layout: _CsvLayout, df, feat_idx: list[int], missing: str):
    """(frame, notes): the rows with a missing cell dropped, or their feature cells imputed by column median."""
    n_rows = df.shape[0]
    feats = df.iloc[:, feat_idx]
    no_label = df.iloc[:, layout.label].isna().to_numpy()
    no_value = feats.isna().to_numpy()
    if not no_label.any() and not no_value.any():
        return df, []
    line_of = [lineno for lineno, _ in _data_rows(raw, layout)]
    index = df.index

    def lines(which):
        return [line_of[int(k)] if int(k) < len(line_of) else "?" for k in index[which]]

    notes = []
    if missing == "drop":
        drop = no_label | no_value.any(axis=1)
    else:
        drop = no_label
    if drop.all():
        raise ValueError(
            f"Every one of the {n_rows} rows has a missing value"
            + (" in the label column" if missing == "median" else "")
            + "; fill in the file's empty cells (or choose another label column)."
        )
    if drop.any():
        why = "missing values" if missing == "drop" else "no label (a class cannot be imputed)"
        notes.append(f"Dropped {int(drop.sum())} of {n_rows} rows with {why}: {_format_lines(lines(drop))}.")
    df = df[~drop]
    if missing == "median":
        kept = no_value[~drop]
        if kept.any():
            df = df.copy()
            counts = []
            for pos, j in enumerate(feat_idx):
                if not kept[:, pos].any():
                    continue
                col = df.iloc[:, j]
                med = float(col.median())
                if not math.isfinite(med):
                    raise ValueError(f"Column {layout.names[j]!r} has no value at all; fill it in or remove the column.")
                df.iloc[:, j] = col.fillna(med)
                counts.append(f"{layout.names[j]!r}: {int(kept[:, pos].sum())}")
            rows = kept.any(axis=1)
            notes.append(
                f"Filled {int(kept.sum())} missing values with their column's median ({', '.join(counts)}) in "
                f"{int(rows.sum())} of {n_rows} rows: {_format_lines(lines(np.flatnonzero(~drop)[rows]))}."
            )
    return df, notes


def _format_values(values) -> str:
    shown = ", ".join(repr(v) for v in values[:_LIST_AT_MOST])
    return shown + (f", … ({len(values) - _LIST_AT_MOST} more)" if len(values) > _LIST_AT_MOST else "")


def _csv_labels(data: bytes, layout: _CsvLayout, col, min_count: int = 2):
    """(codes 0..K−1, classes) of the label column; clear errors for missing, NaN and continuous labels."""
    import pandas as pd

    name = layout.names[layout.label]
    numeric = pd.api.types.is_numeric_dtype(col.dtype) and not pd.api.types.is_bool_dtype(col.dtype)
    codes, uniques = pd.factorize(col, use_na_sentinel=True)
    if np.any(codes < 0):
        return None  # missing labels: the row scan says where
    if numeric:
        values = [float(u) for u in np.asarray(uniques, dtype=np.float64)]
        shown = [repr(v) for v in values]
    else:
        shown = [str(u).strip() for u in uniques]
        if any(s == "" for s in shown):
            return None
        numeric = all(_is_number(s, layout.decimal) for s in shown)
        values = [_to_float(s, layout.decimal) for s in shown] if numeric else shown
    if numeric:
        for k, v in enumerate(values):
            if not math.isfinite(v):
                line = _line_of_row(data, layout, int(col.index[int(np.argmax(codes == k))]))
                raise ValueError(f"Label {shown[k]!r} at line {line} is not a class; NaN/infinite labels are not allowed.")
    order = sorted(set(values))
    K = len(order)
    continuous = numeric and any(not float(v).is_integer() for v in order)
    if K > MAX_CSV_CLASSES:
        what = "a continuous measurement" if continuous else "an identifier or a measurement"
        raise ValueError(
            f"The label column {name!r} holds {K} different values (e.g. {_format_values(order)}); a label column "
            f"holds a few classes (at most {MAX_CSV_CLASSES}), so this looks like {what}. Choose the column with the "
            "classes, or group the values into classes."
        )
    rank = {v: j for j, v in enumerate(order)}
    remap = np.array([rank[v] for v in values], dtype=np.int64)
    yi = remap[codes]
    classes = tuple(int(v) if numeric and float(v).is_integer() else v for v in order)
    if K < 2:
        raise ValueError(
            f"The label column {name!r} holds a single class ({classes[0]!r}); a classifier needs two "
            "or more — check that the right column is the label."
        )
    counts = np.bincount(yi, minlength=K)
    few = [j for j in range(K) if counts[j] < max(min_count, 2)]
    if few and continuous and len(few) > K / 2:
        raise ValueError(
            f"The label column {name!r} holds {K} different non-integer numbers, most of them once "
            f"(e.g. {_format_values(list(order))}); it looks like a continuous measurement, not classes. Choose the "
            "column with the classes, or group the values into classes."
        )
    few = [j for j in range(K) if counts[j] < min_count]
    if few:
        listed = [f"{classes[j]!r} ({counts[j]})" for j in few]
        more = f" and {len(listed) - _LIST_AT_MOST} more" if len(listed) > _LIST_AT_MOST else ""
        raise ValueError(
            f"Each class needs at least {min_count} points; too few for {', '.join(listed[:_LIST_AT_MOST])}{more} in column "
            f"{name!r}. Add points or remove those rows."
        )
    return yi, classes


_ID_WORDS = frozenset({"id", "ids", "index", "idx", "row", "rowid", "rownum", "rownumber", "uuid", "key"})
_MIN_ROWS_FOR_DISTINCT_ID = 10  # below this, distinct integers are no sign of an identifier


def _column_kind(col, decimal: str, missing_ok: bool):
    """(kind, row of an example text cell): ``"number"``, ``"empty"``, ``"text"`` or ``"mixed"`` (numbers and text).

    A column pandas read as numbers is ``"number"`` (``"empty"`` when it has no value at all). Otherwise its
    cells decide: with ``missing_ok`` False, the texts read as missing (``NA``…) count as numbers here, so the
    row scan names them as missing values instead of leaving the column out.
    """
    import pandas as pd

    if pd.api.types.is_numeric_dtype(col.dtype) and not pd.api.types.is_bool_dtype(col.dtype):
        return ("empty", None) if col.isna().all() else ("number", None)
    cells = col.dropna().astype(str).str.strip()
    cells = cells[(cells != "") & (missing_ok | ~cells.isin(_NA_TEXTS))]
    if cells.empty:
        return "empty", None
    number = _numbers_mask(cells, decimal)
    if number.all():
        return "number", None
    return ("mixed" if number.any() else "text"), cells.index[int(np.argmin(number))]


def _numbers_mask(cells, decimal: str) -> np.ndarray:
    """Which text cells hold a number (as :func:`_is_number` reads them), vectorised: an upload's text
    column can have millions of cells."""
    import pandas as pd

    text = cells.astype(str)
    bad = text.str.contains("_", regex=False)  # Python's float("1_0") is no number here
    if decimal != ".":
        bad |= text.str.contains(".", regex=False)
        text = text.str.replace(decimal, ".", regex=False)
    with np.errstate(all="ignore"):
        values = pd.to_numeric(text, errors="coerce")
    number = values.notna().to_numpy(dtype=bool) & ~bad.to_numpy(dtype=bool)
    lowered = text.str.lower()
    number |= lowered.isin(("nan", "+nan", "-nan")).to_numpy(dtype=bool)  # what float() reads as NaN
    return number


def _feature_positions(raw: bytes, layout: _CsvLayout, df, candidates: list, feature_columns, missing_ok: bool,
                       index_name):
    """(positions of the feature columns, note naming the columns that cannot be features, or None).

    ``feature_columns`` None: every column of numbers among ``candidates``; a list: those columns, each of
    which must hold numbers. The note names every candidate of text, numbers mixed with text, or no value.
    """
    names, li = layout.names, layout.label

    def example(j, row):
        cell = str(df.iloc[:, j].loc[row]).strip()
        return f"{cell!r} at line {_line_of_row(raw, layout, int(row))}"

    kinds = {j: _column_kind(df.iloc[:, j], layout.decimal, missing_ok) for j in candidates}
    if feature_columns is not None:
        if isinstance(feature_columns, (str, bytes)) or not hasattr(feature_columns, "__iter__"):
            raise ValueError(f"feature_columns must be a list of column names (or None for every numeric column); "
                             f"got {feature_columns!r}.")
        wanted = list(feature_columns)
        if not wanted:
            raise ValueError("feature_columns is empty; choose at least one numeric feature column.")
        pos = {n: j for j, n in enumerate(names)}
        out = []
        for w in wanted:
            if not isinstance(w, str) or w not in pos:
                raise ValueError(f"Unknown feature column {w!r}; the columns are: "
                                 f"{', '.join(names[j] for j in candidates)}.")
            j = pos[w]
            if j == li:
                raise ValueError(f"{w!r} is the label column; it cannot also be a feature column.")
            if w == index_name:
                raise ValueError(f"{w!r} is the row index pandas writes (dropped); choose other feature columns.")
            if j in out:
                raise ValueError(f"Feature column {w!r} is chosen twice; name each column once.")
            kind, row = kinds[j]
            if kind != "number":
                what = "is empty" if kind == "empty" else (
                    f"holds text ({example(j, row)})" if kind == "text" else
                    f"mixes numbers and text ({example(j, row)})")
                numeric = [names[k] for k in candidates if kinds[k][0] == "number"]
                raise ValueError(f"Feature column {w!r} {what}; feature columns must hold numbers. "
                                 + (f"The numeric columns are: {', '.join(numeric)}." if numeric else
                                    "The file has no numeric column besides the label."))
            out.append(j)
    else:
        out = [j for j in candidates if kinds[j][0] == "number"]
    left = [j for j in candidates if kinds[j][0] != "number" and j not in out]
    described = []
    for j in left:
        kind, row = kinds[j]
        described.append(f"{names[j]!r} (" + ("empty" if kind == "empty" else (
            f"text, e.g. {example(j, row)}" if kind == "text" else
            f"numbers mixed with text, e.g. {example(j, row)}")) + ")")
    if not out:
        raise ValueError(
            "The CSV file has no numeric feature column besides the label column "
            f"{names[li]!r}" + (f": {'; '.join(described)}" if described else "") + ". A classifier needs at least "
            "one column of numbers; add one, or choose another label column.")
    note = None
    if described:
        note = (f"Left out {len(left)} column{'s' if len(left) > 1 else ''} that do{'es' if len(left) == 1 else ''} "
                f"not hold numbers: {'; '.join(described)}. Only numeric columns can be features.")
    return out, note


def _looks_like_identifier(name: str, col) -> str | None:
    """Why column ``name`` looks like an identifier rather than a measurement (None if it does not)."""
    words = re.split(r"[^0-9a-z]+", str(name).lower())
    if any(w in _ID_WORDS for w in words):
        return "its name is an identifier's"
    values = col.to_numpy(dtype=np.float64)
    if (values.size >= _MIN_ROWS_FOR_DISTINCT_ID and np.isfinite(values).all() and np.all(values == np.round(values))
            and np.unique(values).size == values.size):
        return "all its values are distinct integers"
    return None


def _identifier_notes(df, names: list, positions: list) -> list:
    flagged = [(n, why) for n, j in zip(names, positions) if (why := _looks_like_identifier(n, df.iloc[:, j]))]
    if not flagged:
        return []
    listed = "; ".join(f"{n!r} ({why})" for n, why in flagged)
    it = "it" if len(flagged) == 1 else "them"
    return [f"Looks like an identifier, not a measurement: {listed}. Leave {it} out of the feature columns unless "
            f"{it} measure{'s' if len(flagged) == 1 else ''} something about the point."]


def csv_header(content) -> list[str]:
    """The column names of a CSV file as :func:`dataset_from_csv` sees them — the choices of label column.

    With a header row: its names (an empty one becomes ``"column j"``), without an unnamed row-index
    column or an empty trailing column. Without a header: ``"column 1"``, ``"column 2"``, … (the
    first row's numbers would be ambiguous names). Only the first rows are read. An unreadable file
    gives ``[]`` (:func:`dataset_from_csv` then says what is wrong).

    Parameters
    ----------
    content : bytes, str, path-like or file-like
        What :func:`dataset_from_csv` accepts.

    Returns
    -------
    list of str
        One name per column the loader keeps; each is a valid ``label_column``.

    Examples
    --------
    >>> csv_header(b",height,weight,species\\n0,1.0,2.5,cat\\n1,2.0,3.5,dog\\n")
    ['height', 'weight', 'species']
    >>> csv_header(b"# measured 2024\\na;b;label\\n1,5;2;x\\n")
    ['a', 'b', 'label']
    """
    try:
        raw, _ = _read_source(content)
        layout = _csv_layout(raw, None)
    except ValueError:
        return []
    if not layout.header:
        return [f"column {j + 1}" for j in range(len(layout.names))]
    return list(layout.names[1:] if layout.index else layout.names)


def dataset_from_csv(file_or_text, label_column=None, standardize=False, missing="drop", *, feature_columns=None,
                     classes=None, one_vs_rest=None, min_class_rows=2) -> Dataset:
    """Load a labelled data set from CSV: numeric feature columns and one label column (read by pandas).

    Parameters
    ----------
    file_or_text : str, path-like, bytes or file-like
        A path to an existing file, the CSV text itself, its bytes (UTF-8, with or without BOM), or
        an open file / Streamlit ``UploadedFile``.
    label_column : None, int or str
        None: the last column. int: 0-based position among the file's columns (negative counts from
        the end). str: a header name (for a file without header, the text of that column in the
        first row), or ``"column j"`` for the j-th column (1-based) — :func:`csv_header` lists the
        choices.
    standardize : bool
        Scale every feature column to mean 0, sd 1 (constant columns are only centred).
    missing : {"drop", "median", "error"}
        Rows with a missing cell (empty, or ``NA``, ``N/A``, ``NaN``, ``nan``, ``null``): ``"drop"``
        removes them; ``"median"`` fills each missing feature value with its column's median over
        the rows that have it (a row without a label is dropped: no class can be imputed);
        ``"error"`` raises, naming the lines. ``notes`` says which lines were dropped or filled.
        Only the feature columns and the label column count: a missing cell in a column left out
        drops nothing.
    feature_columns : None or list of str
        None: every column of numbers except the label; columns of text, of numbers mixed with text
        (``?`` for a missing value, say) and empty columns are left out, and ``notes`` names them.
        A list: exactly those columns (names as :func:`csv_header` gives them), each of which must
        hold numbers.
    classes : pair (A, B), optional
        Keep the rows of classes A and B only: A → −1, B → +1 (a class is its label or the label's
        text). Each needs at least 10 rows.
    one_vs_rest : label, optional
        Class A → +1 against all other classes → −1, named ``"not A"``.
    min_class_rows : int, default 2
        Rows each class needs when no class is chosen (``classes`` and ``one_vs_rest`` None); at
        least 1. A reader that lists the classes to offer a choice of two passes 1, so that a class of
        a single row does not stop the choice of the others.

    Returns
    -------
    Dataset
        ``X`` of shape (n, d) float64 and ``y`` of shape (n,): two label values → y ±1 (``classes``
        sorted, numerically when all labels are numbers; classes[0] → −1); more values → y ∈
        {0..K−1} (``is_multiclass``). ``p_true`` and ``bayes_error`` are None. ``notes`` says what
        the loader decided for the user (a dropped index column, decimal commas, a trailing
        delimiter, renamed repeated column names, columns left out, a column that looks like an
        identifier — all distinct integers, or a name such as ``id``, ``index``, ``row`` —, dropped
        or imputed rows, the class choice); ``params`` records the delimiter, decimal mark, header,
        the ``missing`` rule, ``feature_columns``, ``classes`` and ``one_vs_rest`` as given (None:
        chosen by the rule above) — the arguments that repeat the load. With a class choice, ``classes`` is the pair in the order (−1, +1).

    Raises
    ------
    ValueError
        Naming the line and column: empty file, only delimiters, header without data, a single
        column, unknown label column, no numeric feature column, a chosen feature column that is
        unknown or not numeric, infinite cells, missing cells (``missing="error"``; all their lines,
        the first few named), no complete row, ragged rows, a single class, a class with fewer than
        2 points (10 for a chosen class), an unknown chosen class, a continuous (or identifier)
        label column.

    Notes
    -----
    The layout is read from the first rows: the delimiter (``,`` ``;`` or tab, see
    :func:`pick_delimiter`); the decimal mark (``,`` when a ``;``- or tab-separated file writes
    ``1,5``); the header (the first row is a header when one of its feature cells is not a number,
    or when only its label cell is text while every other label is a number). Blank lines and lines
    starting with ``#`` are skipped; a delimiter ending every line adds no column. A first column
    with no name in the header and distinct non-negative integers in every row is the row index
    that ``DataFrame.to_csv()`` writes: it is dropped, with a note. Then ``pandas.read_csv`` (C
    engine) reads the whole file; when it finds a problem, the rows are scanned once more to say
    which line is wrong.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"height": [1.0, 2.0, 3.0, 4.0], "species": ["cat", "dog", "cat", "dog"]})
    >>> ds = dataset_from_csv(df.to_csv())  # with the index column pandas writes
    >>> ds.X.shape, ds.feature_names, ds.classes, ds.y.tolist()
    ((4, 1), ('height',), ('cat', 'dog'), [-1.0, 1.0, -1.0, 1.0])
    >>> print(ds.notes[0])
    Dropped the first column: it has no name and holds the row numbers 0 … 3, the index that pandas' DataFrame.to_csv() writes. Give it a name in the header to keep it as a feature.
    >>> dataset_from_csv("a;b;label\\n1,5;2;x\\n2,5;3;y\\n0,5;1;x\\n3,0;2;y\\n").X[:, 0].tolist()
    [1.5, 2.5, 0.5, 3.0]
    >>> text = "a,b,label\\n1,2,x\\n3,NA,y\\n4,5,x\\n6,7,y\\n8,,y\\n9,3,y\\n"
    >>> print(dataset_from_csv(text).notes[0])
    Dropped 2 of 6 rows with missing values: lines 3, 6.
    >>> dataset_from_csv(text, missing="median").X[:, 1].tolist()
    [2.0, 4.0, 5.0, 7.0, 4.0, 3.0]
    >>> cars = "name,mpg,origin\\n" + "".join(f"car {i},{20 + i % 7},{'USA Japan Europe'.split()[i % 3]}\\n"
    ...                                      for i in range(36))
    >>> ds = dataset_from_csv(cars, one_vs_rest="Japan")
    >>> ds.feature_names, ds.class_names
    (('mpg',), ('not Japan', 'Japan'))
    >>> print(ds.notes[0])
    Left out 1 column that does not hold numbers: 'name' (text, e.g. 'car 0' at line 2). Only numeric columns can be features.
    """
    import pandas as pd

    if isinstance(min_class_rows, bool) or not isinstance(min_class_rows, (int, np.integer)) or min_class_rows < 1:
        raise ValueError(f"min_class_rows must be an integer of at least 1 (rows each class needs); got "
                         f"{min_class_rows!r}.")
    if not isinstance(missing, str) or missing not in MISSING_CHOICES:
        raise ValueError(f"missing must be one of {', '.join(map(repr, MISSING_CHOICES))} (drop incomplete rows, "
                         f"impute column medians, or stop with an error); got {missing!r}.")
    raw, source = _read_source(file_or_text)
    layout = _csv_layout(raw, label_column)
    names, li = layout.names, layout.label
    feat_idx = [j for j in range(len(names)) if j != li]
    missing_ok = missing != "error"

    def row_error():
        return _first_bad_row(raw, layout, feat_idx, missing_ok) or ValueError(
            "The CSV file could not be read as numeric feature columns and a label column; check the delimiter "
            f"({layout.delimiter!r}) and the decimal mark ({layout.decimal!r})."
        )

    try:
        df = _read_frame(raw, layout, ("",) + _NA_TEXTS if missing_ok else ("",))
    except (pd.errors.ParserError, pd.errors.ParserWarning):
        raise row_error() from None
    except pd.errors.EmptyDataError:
        df = None
    if df is not None and df.shape[1] != layout.n_columns:
        raise row_error()
    if df is not None:
        beyond = df.iloc[:, len(names):].notna().any(axis=1).to_numpy()  # the "empty" trailing column
        if beyond.any():
            line = _line_of_row(raw, layout, int(df.index[int(np.argmax(beyond))]))
            raise ValueError(
                f"Line {line} has a value after the last column (the first lines end with an empty cell, so "
                f"the file has {len(names)} columns); remove it or give that column a name in the header."
            )
        df = df.iloc[:, : len(names)]
        empty = df.isna().all(axis=1).to_numpy()
        if empty.any():  # rows of empty cells (spreadsheets write them)
            df = df[~empty]
    if df is None or df.shape[0] == 0:
        if layout.header:
            raise ValueError("The CSV file has a header row but no data rows; add one row per point.")
        raise ValueError("The CSV file is empty; it needs a row per point with feature columns and a label column.")
    notes = list(layout.notes)
    index_name = None
    if layout.index and _is_index_values(df.iloc[:, 0]):
        n_rows = df.shape[0]
        idx = df.iloc[:, 0].to_numpy()
        span = (f"the row numbers 0 … {n_rows - 1}" if np.array_equal(idx, np.arange(n_rows))
                else f"{n_rows} distinct row numbers from {idx.min()} to {idx.max()}")
        notes.insert(0, f"Dropped the first column: it has no name and holds {span}, the index that pandas' "
                        "DataFrame.to_csv() writes. Give it a name in the header to keep it as a feature.")
        index_name = names[0]
        feat_idx = feat_idx[1:]
    feat_idx, left_out = _feature_positions(raw, layout, df, feat_idx, feature_columns, missing_ok, index_name)
    if left_out:
        notes.append(left_out)
    for j in feat_idx:
        col = df.iloc[:, j]
        ok = pd.api.types.is_numeric_dtype(col.dtype) and not pd.api.types.is_bool_dtype(col.dtype)
        if ok and pd.api.types.is_float_dtype(col.dtype):
            values = col.to_numpy()
            ok = not (np.isinf(values) if missing_ok else ~np.isfinite(values)).any()
        if not ok:
            raise row_error()
    if missing_ok and df.iloc[:, feat_idx + [li]].isna().to_numpy().any():
        short = _first_bad_row(raw, layout, feat_idx, missing_ok)  # a short row reads as missing cells too
        if short is not None:
            raise short
        df, filled = _handle_missing(raw, layout, df, feat_idx, missing)
        notes.extend(filled)
    chosen = classes is not None or one_vs_rest is not None
    labels = _csv_labels(raw, layout, df.iloc[:, li], min_count=0 if chosen else int(min_class_rows))
    if labels is None:
        raise row_error()
    yi, all_classes = labels
    keep, y, kept_classes, chose = choose_classes(yi, all_classes, classes, one_vs_rest,
                                                  label=f"the label column {names[li]!r}")
    if y is None:
        y = _code_labels(yi, len(all_classes))
    if keep is not None:
        df = df[keep]
    if chose:
        notes.append(chose)
    notes.extend(_identifier_notes(df, [names[j] for j in feat_idx], feat_idx))
    X = df.iloc[:, feat_idx].to_numpy(dtype=np.float64)
    n = X.shape[0]
    mu = sd = None
    if standardize:
        mu, sd = _standardizer(X)
        X = (X - mu) / sd
    return Dataset(
        X=np.ascontiguousarray(X), y=y, name=source or "uploaded CSV", classes=kept_classes,
        feature_names=tuple(names[j] for j in feat_idx), p_true=None, bayes_threshold=0.5, bayes_error=None,
        L=(1.0, 1.0),
        params={"n": n, "seed": None, "source": source, "label_column": names[li], "standardize": bool(standardize),
                "delimiter": layout.delimiter, "decimal": layout.decimal, "header": bool(layout.header),
                "index_column": index_name, "missing": missing,
                "feature_columns": None if feature_columns is None else tuple(names[j] for j in feat_idx),
                "classes": None if classes is None else tuple(kept_classes),
                "one_vs_rest": None if one_vs_rest is None else kept_classes[1],
                "feature_mean": None if mu is None else tuple(map(float, mu)),
                "feature_sd": None if sd is None else tuple(map(float, sd))},
        test_sample=None, notes=tuple(notes),
    )
