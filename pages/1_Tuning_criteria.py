"""Page: Tuning criteria — GACV, ξα (XA), BRXA against GCKL, (BR)MISCLASS and exact LOO (Wahba et al. 2001)."""
from svmviz.ui import tuning
from svmviz.ui.page_head import ensure_app_frame

ensure_app_frame()
tuning.page()
