"""Page: Loss functions & randomized GACV (Wahba 1998)."""
from svmviz.ui import losses
from svmviz.ui.page_head import ensure_app_frame

ensure_app_frame()
losses.page()
