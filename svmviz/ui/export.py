"""CSV downloads of the tables behind the charts."""
from __future__ import annotations

import functools
import io
from typing import Mapping, Sequence

import numpy as np
import streamlit as st


def csv_download(label: str, columns: Mapping[str, Sequence], file_name: str, *, key: str) -> None:
    """A download button for a table given as named, equally long columns. The CSV text is written
    when the button is clicked (Streamlit calls :func:`csv_bytes` then), not at every run of the
    page: a page offers several tables (the USVC error surfaces alone are 24,000 rows)."""
    names = list(columns)
    arrays = [np.asarray(columns[c]).ravel() for c in names]
    if arrays and len({a.shape[0] for a in arrays}) != 1:
        raise ValueError("csv_download: every column must have the same length.")
    st.download_button(label, functools.partial(csv_bytes, names, arrays), file_name=file_name, mime="text/csv",
                       key=key)


def csv_bytes(names: Sequence[str], arrays: Sequence[np.ndarray]) -> bytes:
    """The CSV file of :func:`csv_download`: a header line, then one line per row (floats written
    with every digit, ``repr``)."""
    buf = io.StringIO()
    buf.write(",".join(names) + "\n")
    for row in zip(*arrays):
        buf.write(",".join(_fmt(v) for v in row) + "\n")
    return buf.getvalue().encode()


def _fmt(v) -> str:
    """One CSV cell: floats with every digit, text quoted when it holds a comma or a quote."""
    if isinstance(v, (float, np.floating)):
        return repr(float(v))
    s = str(v)
    return f'"{s}"' if ("," in s or '"' in s) else s
