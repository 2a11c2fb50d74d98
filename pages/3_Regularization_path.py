"""Page: Regularization path — the whole ν-SVM path with leave-one-out along it (Loosli & Canu 2006)."""
from svmviz.ui import path
from svmviz.ui.page_head import ensure_app_frame

ensure_app_frame()
path.page()
