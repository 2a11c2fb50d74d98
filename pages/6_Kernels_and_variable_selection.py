"""Kernels & variable selection — SS-ANOVA kernels and the decomposition of f (Wahba 1998, §1.1, §2)."""
from svmviz.ui import anova
from svmviz.ui.page_head import ensure_app_frame

ensure_app_frame()
anova.page()
