"""Page: Import vector machine — kernel logistic regression and the IVM (Zhu & Hastie 2002)."""
from svmviz.ui import ivm
from svmviz.ui.page_head import ensure_app_frame

ensure_app_frame()
ivm.page()
