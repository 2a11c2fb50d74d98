"""The published numbers beside the ready-made studies: a re-export of :mod:`svmviz.published` (their one source)."""
from __future__ import annotations

from ..published import (  # noqa: F401
    NAVIA2004_TABLE1, NAVIA_TABLES_2_4, PUBLISHED_SETS, WAHBA2001_INEFFICIENCY, ZHU_HASTIE_FIG2, ZHU_HASTIE_FIG4,
    __all__, published_table, range_text,
)
