"""Page: Unbiased SVC — IRWLS-trained SVC and the unbiased SVC (Navia-Vázquez et al. 2004)."""
from svmviz.ui import usvc
from svmviz.ui.page_head import ensure_app_frame

ensure_app_frame()
usvc.page()
