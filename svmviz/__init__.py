"""svmviz — interactive exploration of SVM-family classifiers and their tuning criteria.

The package re-creates five papers on support-vector-machine-family classifiers (Wahba, Lin, Lee &
Zhang 2001; Wahba 1998; Loosli & Canu 2006; Navia-Vázquez et al. 2004; Zhu & Hastie 2002) as a
library and as a Streamlit app (the ``svmviz`` command).

Every public estimator and function is available from the top level (``svmviz.SVMClassifier``,
``svmviz.criteria_surface``, …; the full list is :data:`__all__`) and from its module
(``svmviz.svm``, ``svmviz.tuning``, …). Figures are in :mod:`svmviz.figures` (``compute_*`` → arrays,
``plot_*`` → Plotly figures), one module per paper.

Importing the package is cheap, writes no files and changes no setting of the process: the names
are resolved lazily, on first use. The numba-compiled functions are cached on disk in a folder of
svmviz's own (:mod:`svmviz._jit`); ``svmviz warmup`` compiles them all ahead of time.

Examples
--------
>>> import svmviz
>>> "SVMClassifier" in svmviz.__all__ and "criteria_surface" in svmviz.__all__
True
>>> svmviz.SVMClassifier is svmviz.svm.SVMClassifier
True
"""
from __future__ import annotations

import importlib as _importlib

__version__ = "0.1.0"


# --------------------------------------------------------------------------------------------
# The public API, resolved lazily: name -> module of svmviz defining it
# --------------------------------------------------------------------------------------------
_EXPORTS = {
    # Wahba's SVM (svm)
    "DualSolution": "svm",
    "solve_dual": "svm",
    "solve_dual_rows": "svm",
    "full_matrix_pays": "svm",
    "LambdaSequence": "svm",
    "fit_lambda_sequence": "svm",
    "SigmaLambdaGrid": "svm",
    "fit_sigma_lambda_grid": "svm",
    "grid_memory": "svm",
    "check_grid_memory": "svm",
    "SVMClassifier": "svm",
    # tuning criteria (criteria, tuning)
    "step_star": "criteria",
    "theta": "criteria",
    "gckl": "criteria",
    "misclass": "criteria",
    "gacv": "criteria",
    "xa": "criteria",
    "joachims_R2": "criteria",
    "xa_joachims": "criteria",
    "loo_misclass": "criteria",
    "leave_one_out_decisions": "criteria",
    "ran_gacv_perturbations": "criteria",
    "perturbed_problem": "criteria",
    "ran_gacv_E": "criteria",
    "ran_gacv_value": "criteria",
    "kfold_folds": "criteria",
    "criterion_label": "tuning",
    "CriteriaSurface": "tuning",
    "criteria_surface": "tuning",
    "GridEdge": "tuning",
    "grid_edges": "tuning",
    "surface_edges": "tuning",
    "extended_range": "tuning",
    "grid_decision_function": "tuning",
    "CriteriaCurves": "tuning",
    "ran_gacv": "tuning",
    "criteria_curves": "tuning",
    "Inefficiency": "tuning",
    "inefficiency": "tuning",
    "InefficiencyStudy": "tuning",
    "inefficiency_study": "tuning",
    "KFoldSurface": "tuning",
    "kfold_cv_surface": "tuning",
    "GramCriteria": "tuning",
    "gram_criteria_curves": "tuning",
    "exact_loo_curves": "tuning",
    # loss functions and the randomized GACV (losses)
    "hinge": "losses",
    "misclassification": "losses",
    "deviance": "losses",
    "exponential": "losses",
    "sigmoid": "losses",
    "concave_exp": "losses",
    "wahba_v": "losses",
    "smooth_step": "losses",
    "loss_values": "losses",
    "loss_derivative": "losses",
    "prediction_function": "losses",
    "expected_loss": "losses",
    "Minimizer": "losses",
    "population_minimizer": "losses",
    "GacvCurves": "losses",
    "gacv_curves": "losses",
    # ν-SVM regularization path (path)
    "groups_from_alpha": "path",
    "NuPath": "path",
    "nu_path": "path",
    "LooPath": "path",
    "default_loo_lambdas": "path",
    "loo_at": "path",
    "auto_stop": "path",
    "zero_margin": "path",
    "loo_path": "path",
    "NuSVMPath": "path",
    # IRWLS SVC and the unbiased SVC (usvc)
    "theta_smooth": "usvc",
    "theta_smooth_derivative": "usvc",
    "primal_value": "usvc",
    "primal_surface": "usvc",
    "Profile": "usvc",
    "primal_profile": "usvc",
    "empirical_ce": "usvc",
    "theoretical_ce": "usvc",
    "fscl_prototypes": "usvc",
    "IRWLSHistory": "usvc",
    "IRWLSClassifier": "usvc",
    "KernelComparisonFit": "usvc",
    "kernel_comparison": "usvc",
    "Table1Result": "usvc",
    "table1_study": "usvc",
    "table1_summary": "usvc",
    # kernel logistic regression and the import vector machine (ivm)
    "paper_lambdas": "ivm",
    "KernelLogisticRegression": "ivm",
    "IVMClassifier": "ivm",
    "PathSteps": "ivm",
    "IVMPath": "ivm",
    "ivm_lambda_path": "ivm",
    "KLRPath": "ivm",
    "klr_lambda_path": "ivm",
    "SVMPath": "ivm",
    "svm_lambda_path": "ivm",
    # kernels
    "squared_distances": "kernels",
    "rbf_from_squared_distances": "kernels",
    "gram": "kernels",
    "GramRows": "kernels",
    "fit_kernel": "kernels",
    "PairwiseKernel": "kernels",
    "as_kernel_object": "kernels",
    "kernel_diagonal": "kernels",
    "sigma_heuristic": "kernels",
    "cubic_spline_rk": "kernels",
    "SSANOVAKernel": "kernels",
    "KernelParamsMixin": "kernels",
    # SS-ANOVA decomposition and kernel comparison (anova)
    "AnovaExpansion": "anova",
    "expansion": "anova",
    "expansion_of": "anova",
    "expansion_from_dual": "anova",
    "Components": "anova",
    "decompose": "anova",
    "Importances": "anova",
    "importances": "anova",
    "KernelCriteria": "anova",
    "compare_kernels": "anova",
    "add_exact_loo": "anova",
    "ThetaGrid": "anova",
    "theta_lambda_grid": "anova",
    # data sets
    "Dataset": "data",
    "GENERATORS": "data",
    "make_dataset": "data",
    "select_classes": "data",
    "describe": "data",
    "wahba2001": "data",
    "wahba_costs": "data",
    "esl_mixture": "data",
    "esl_mixture3": "data",
    "esl_centres": "data",
    "usvc_A": "data",
    "usvc_B": "data",
    "usvc_theoretical_ce": "data",
    "banana": "data",
    "twonorm": "data",
    "ringnorm": "data",
    "waveform": "data",
    "waveform_bases": "data",
    "breast_cancer": "data",
    "iris": "data",
    "wine": "data",
    "sklearn_dataset": "data",
    "dataset_from_csv": "data",
    "subsample_dataset": "data",
    "split_indices": "data",
    "fresh_sample": "data",
    "csv_header": "data",
    "pick_delimiter": "data",
    "anova_structure": "data",
    "anova_structure_terms": "data",
    # criteria studies at scale on Dask (studies)
    "StudySpec": "studies",
    "load_spec": "studies",
    "spec_from_dict": "studies",
    "ready_made_specs": "studies",
    "run_study": "studies",
    "StudyResults": "studies",
    "load_results": "studies",
    "summary_table": "studies",
}

#: Public names of the modules that are NOT exported at the top level, with the reason.
_NOT_EXPORTED = {
    "usvc.loss_values": "the top-level name is losses.loss_values (any loss by name); use svmviz.usvc.loss_values",
}

#: Submodules reachable as attributes without an explicit import (``svmviz.tuning``).
_SUBMODULES = ("svm", "criteria", "tuning", "losses", "path", "usvc", "ivm", "kernels", "data", "figures")

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is not None:
        value = getattr(_importlib.import_module(f"{__name__}.{module}"), name)
        globals()[name] = value  # later look-ups skip __getattr__
        return value
    if name in _SUBMODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | set(_SUBMODULES))
