"""CSV downloads of the tables behind the charts.

Every CSV file the app offers is written by pandas (``DataFrame.to_csv``), which quotes a cell holding
a comma, a quote or a line break and doubles the quotes inside it, so ``pandas.read_csv`` (or a
spreadsheet) reads back the same names and values. A text cell that a spreadsheet would run as a
formula — one beginning with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return, e.g. a class or
column name ``=HYPERLINK(…)`` taken from an uploaded file — is written with a ``'`` in front of it, as
OWASP's guidance on CSV injection advises; numbers (and text that is a plain number, such as ``-1``)
are written as they are.
"""
from __future__ import annotations

import functools
import re
from typing import Mapping, Sequence

import numpy as np
import streamlit as st

#: The first characters of a cell that a spreadsheet reads as a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

#: Text that is a plain decimal number (``-1``, ``+2.5e-3``): no formula, written as it is.
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def neutralise(cell):
    """``cell`` as a CSV cell a spreadsheet shows as text: text beginning with one of
    :data:`FORMULA_STARTS` gets a leading ``'`` (unless it is a plain number); anything else is
    returned unchanged.

    >>> neutralise("=HYPERLINK(\\"http://x\\")"), neutralise("-1"), neutralise("weight, kg"), neutralise(-1.5)
    ('\\'=HYPERLINK("http://x")', '-1', 'weight, kg', -1.5)
    """
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def frame_csv(frame: pd.DataFrame) -> bytes:
    """The CSV file (UTF-8, RFC 4180) of ``frame``: its column names as the header, its rows without the index,
    text cells and names passed through :func:`neutralise`, floats written with every digit (the
    shortest text that reads back to the same float64).

    Parameters
    ----------
    frame : pandas.DataFrame of shape (n_rows, n_columns)

    Returns
    -------
    bytes
    """
    import pandas as pd  # at a download's click, not with the page: its first run stays light

    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame_csv needs a pandas DataFrame, got {type(frame).__name__}.")
    out = pd.DataFrame({i: _column(frame.iloc[:, i]) for i in range(frame.shape[1])}, index=frame.index)
    out.columns = [neutralise(str(c)) for c in frame.columns]
    # lines end in CRLF (RFC 4180): the csv module then quotes a cell holding a lone CR as well, which
    # with "\n" alone it would leave bare, to be read as a line break
    return out.to_csv(index=False, lineterminator="\r\n").encode("utf-8")


def _column(col: "pd.Series") -> "pd.Series":
    """A column ready for :meth:`DataFrame.to_csv`: floats as float64 (a float32 read back as float64
    is the same number), text cells neutralised, numbers untouched."""
    import pandas as pd

    if pd.api.types.is_float_dtype(col.dtype):
        return col.astype(np.float64)
    if pd.api.types.is_numeric_dtype(col.dtype) or pd.api.types.is_bool_dtype(col.dtype):
        return col
    return col.map(neutralise, na_action="ignore")


def csv_bytes(names: Sequence[str], arrays: Sequence[np.ndarray]) -> bytes:
    """The CSV file of :func:`csv_download`: the columns ``arrays`` (each of shape (n_rows,)) under the
    header ``names``, written by :func:`frame_csv`."""
    names = list(names)
    arrays = [np.asarray(a).ravel() for a in arrays]
    if len(names) != len(arrays):
        raise ValueError(f"csv_bytes: {len(names)} names for {len(arrays)} columns.")
    if arrays and len({a.shape[0] for a in arrays}) != 1:
        raise ValueError("csv_bytes: every column must have the same length.")
    import pandas as pd

    frame = pd.DataFrame({i: a for i, a in enumerate(arrays)})
    frame.columns = [str(n) for n in names]
    return frame_csv(frame)


def csv_download(label: str, columns: Mapping[str, Sequence], file_name: str, *, key: str) -> None:
    """A download button for a table given as named, equally long columns. The CSV text is written
    when the button is clicked (Streamlit calls :func:`csv_bytes` then), not at every run of the
    page: a page offers several tables (the USVC error surfaces alone are 24,000 rows)."""
    names = list(columns)
    arrays = [np.asarray(columns[c]).ravel() for c in names]
    if arrays and len({a.shape[0] for a in arrays}) != 1:
        raise ValueError("csv_download: every column must have the same length.")
    st.download_button(label, functools.partial(csv_bytes, names, arrays), file_name=file_name, mime="text/csv",
                       key=key, on_click="ignore")
