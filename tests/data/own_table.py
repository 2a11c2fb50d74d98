"""A table as a user brings it: cars by origin, with a text column, 6 numeric features on very different
scales, 3 named classes, empty cells, and column names holding commas and quotes.

Written with pandas (quoted as CSV requires); every test that needs such a file makes it here.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

CLASSES = ("USA", "Europe", "Japan")
TEXT_COLUMN = "Name"
#: the numeric columns, in the file's order; the spreads differ by about 10⁴ (weight against drag)
FEATURES = ("mpg", "cylinders", "weight, kg", 'c"q,d', "acceleration", "drag")
LABEL = "origin"
# per class: mean of each feature (same order as FEATURES)
_MEANS = {
    "USA": (19.0, 7.0, 1500.0, 250.0, 14.5, 0.36),
    "Europe": (27.0, 4.5, 1100.0, 110.0, 16.5, 0.32),
    "Japan": (31.0, 4.0, 1000.0, 95.0, 16.0, 0.30),
}
_SDS = (4.0, 1.0, 250.0, 40.0, 2.0, 0.03)
_MAKES = {"USA": ("chevrolet", "ford", "plymouth"), "Europe": ("volkswagen", "peugeot", "volvo"),
          "Japan": ("toyota", "datsun", "honda")}


def own_table_frame(n_per_class: int = 40, seed: int = 0, *, empty_cells: int = 6) -> pd.DataFrame:
    """The table as a DataFrame (before writing): ``Name``, the 6 features, ``origin``.

    ``empty_cells`` numeric cells (and one name) are blanked, in distinct rows.
    """
    rng = np.random.default_rng(seed)
    rows = []
    for c in CLASSES:
        for i in range(n_per_class):
            x = rng.normal(_MEANS[c], _SDS)
            rec = {TEXT_COLUMN: f"{_MAKES[c][i % 3]} model {i}"}
            for j, f in enumerate(FEATURES):
                rec[f] = int(round(max(x[j], 3))) if f == "cylinders" else round(float(x[j]), 4)
            rec[LABEL] = c
            rows.append(rec)
    df = pd.DataFrame(rows)
    df = df.iloc[rng.permutation(len(df))].reset_index(drop=True)
    df = df.astype({f: "object" for f in FEATURES})
    blank = rng.choice(len(df), size=empty_cells + 1, replace=False)
    for k, r in enumerate(blank[:-1]):
        df.loc[r, FEATURES[k % len(FEATURES)]] = None
    df.loc[blank[-1], TEXT_COLUMN] = None
    return df


def own_table_csv(n_per_class: int = 40, seed: int = 0, *, empty_cells: int = 6) -> bytes:
    """The table as the bytes of a CSV file (UTF-8, written by pandas without its index)."""
    return own_table_frame(n_per_class, seed, empty_cells=empty_cells).to_csv(index=False).encode("utf-8")
