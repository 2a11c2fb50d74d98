"""
Wahba et al. (2001), §6: inefficiencies over repeated draws
===========================================================

The paper reports the inefficiency of GACV and XA on one realization. Over repeated draws the
inefficiency is a distribution; the paper's number (the black bar) is one draw from it. Here:
R = 8 draws of n = 150 in the standard case on a 12 × 12 grid — small enough to build in seconds;
the "Criteria studies" page and ``svmviz study run wahba2001_standard`` run the full study
(n = 200, 30 × 30 grid, 100 replicates).
"""
import numpy as np

import svmviz
from svmviz.figures.tuning import plot_inefficiency_study
from svmviz.published import WAHBA2001_INEFFICIENCY, range_text


def draw(seed):
    ds = svmviz.make_dataset("wahba2001", n=150, seed=seed)
    return ds.X, ds.y, ds.p_true, ds.L


study = svmviz.inefficiency_study(draw, R=8, lambdas=np.logspace(-5, -0.5, 12), sigmas=np.logspace(-1, 1, 12),
                                  criteria_keys=("gacv", "xa"), seed=0)
for key, name in (("gacv", "GACV"), ("xa", "XA")):
    v = study.value[key]
    print(f"{name:5s} paper {range_text(*WAHBA2001_INEFFICIENCY['standard'][key]):>15s}   "
          f"svmviz median {np.median(v):.4f} (range {v.min():.4f}–{v.max():.4f} over {v.size} draws)")

# %%
plot_inefficiency_study(study).show()
