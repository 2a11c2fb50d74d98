"""Criteria studies at scale: many data sets × replicates × criteria, on Dask.

Which tuning criterion picks a good (λ, σ), on which data, how often, at what cost — against the
baseline everyone uses, k-fold cross-validation? A *study* answers it as a distribution:

* a declarative spec (:mod:`svmviz.studies.spec`: a TOML file or a :class:`StudySpec`), with
  ready-made specs re-running the papers' studies (``svmviz study list``);
* one task per (data set, replicate) (:mod:`svmviz.studies.tasks`), run on a Dask cluster —
  embedded or existing — resumable from its results folder (:mod:`svmviz.studies.engine`);
* a tidy table, one row per (data set, replicate, criterion) (:mod:`svmviz.studies.results`),
  stored as Parquet beside the spec, with a summary, an HTML report (:mod:`svmviz.studies.report`)
  and the published numbers beside (:mod:`svmviz.published`);
* the ``svmviz study run|show|report|list`` command (:mod:`svmviz.studies.cli`) and the app's
  "Criteria studies" page.

Examples
--------
>>> from svmviz.studies import spec_from_dict, run_study
>>> spec = spec_from_dict({"name": "demo", "replicates": 2, "seed": 1, "test_size": 1000,
...                        "datasets": [{"name": "wahba2001", "n": 40}],
...                        "svm": {"criteria": ["gacv", "kfold"], "n_lambda": 4, "n_sigma": 4}})
>>> res = run_study(spec, workers=0)  # in this process; workers=N or scheduler=ADDR use Dask
>>> res.table.groupby("criterion", sort=False).size().to_dict()
{'gacv': 2, 'kfold': 2, 'gckl': 2, 'misclass': 2}
>>> bool((res.table["inefficiency"] >= 1).all())
True
"""
from __future__ import annotations

from .engine import monte_carlo_study, run_study, shared_client
from ..published import published_table
from .folders import load_results
from .lock import FolderLockedError
from .results import StudyResults, comparable, summary_table
from .spec import (DataSpec, IRWLSSpec, IVMSpec, SpecError, StudySpec, SVMSpec, load_spec, ready_made_specs,
                   spec_from_dict, spec_to_toml)

__all__ = [
    "StudySpec",
    "DataSpec",
    "SVMSpec",
    "IRWLSSpec",
    "IVMSpec",
    "SpecError",
    "load_spec",
    "spec_from_dict",
    "spec_to_toml",
    "ready_made_specs",
    "run_study",
    "monte_carlo_study",
    "shared_client",
    "StudyResults",
    "load_results",
    "FolderLockedError",
    "comparable",
    "summary_table",
    "published_table",
]
