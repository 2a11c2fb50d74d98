"""Entry script of the installed app (``svmviz`` / ``svmviz app``): the frame with pages as functions."""
from svmviz.ui.frame import run_app

run_app()
