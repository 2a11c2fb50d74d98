"""Page: Criteria studies — many data sets × replicates × criteria on Dask, against k-fold CV, published numbers beside."""
from svmviz.ui import studies
from svmviz.ui.page_head import ensure_app_frame

ensure_app_frame()
studies.page()
