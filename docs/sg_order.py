"""The gallery's order: the user guide's chapters (Wahba et al. 2001, Wahba 1998, Loosli & Canu 2006,
Navia-Vázquez et al. 2004, Zhu & Hastie 2002), then the conventions check. A sphinx-gallery sort key
(``within_subsection_order = "sg_order.PaperOrder"``); an example missing from the list sorts last."""
from __future__ import annotations

import os

ORDER = (
    "plot_wahba2001_fig1_standard.py",
    "plot_wahba2001_fig2_nonstandard.py",
    "plot_wahba2001_inefficiency.py",
    "plot_wahba1998_fig1_1_losses.py",
    "plot_wahba1998_fig1_2_prediction.py",
    "plot_loosli_canu_path.py",
    "plot_loosli_canu_loo.py",
    "plot_navia2004_table1.py",
    "plot_navia2004_fig3_4.py",
    "plot_zhu_hastie2002_fig2.py",
    "plot_zhu_hastie2002_fig4.py",
    "plot_conventions_sklearn.py",
)


class PaperOrder:
    """Sort key of one gallery folder: position in :data:`ORDER`, then the file name."""

    def __init__(self, src_dir):
        self.src_dir = src_dir

    def __call__(self, filename):
        name = os.path.basename(filename)
        return (ORDER.index(name) if name in ORDER else len(ORDER), name)

    def __repr__(self):
        return "<PaperOrder>"
