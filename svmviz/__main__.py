"""``python -m svmviz`` = the ``svmviz`` command (see :mod:`svmviz.cli`)."""
import sys

from svmviz.cli import main

sys.exit(main())
