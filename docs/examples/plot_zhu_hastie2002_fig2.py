"""
Zhu & Hastie (2002), Figs. 2–3: the import vector machine along λ on the ESL mixture
====================================================================================

Kernel logistic regression minimizes H = −y'(K_a a) + 1' ln(1 + exp(K_a a)) + (λ/2) a'K_q a
(Zhu & Hastie 2002, eq. 4). The import vector machine (IVM) keeps only a few basis points, the
import points S, chosen greedily until H stops falling (``|H_k − H_{k−1}| < 0.001 |H_k|``, §3.3). Along
λ from e¹⁰ down to e⁻¹⁰ (C1–C5) the tuning-set error picks λ (Fig. 2); at that λ the IVM's
boundary is close to the Bayes boundary with far fewer import points than the SVM has support
points (Fig. 3).

Unstated in the paper: the tuning-set size and the draw (200 tuning points and seed 0 here, the
app's preset), so ``|S|`` and the tuning error below are of another draw than the paper's.
"""
import numpy as np

import svmviz
from svmviz.data import fresh_sample
from svmviz.figures.ivm import compute_import_map, compute_path_curves, plot_import_map, plot_path_error
from svmviz.published import ZHU_HASTIE_FIG2

ds = svmviz.make_dataset("esl_mixture", n=200, seed=0)
tune = fresh_sample(ds, 200, 0, role="tuning")
sigma = 1 / np.sqrt(2)  # the paper's radial kernel exp(−‖x − x'‖²)
path = svmviz.ivm_lambda_path(ds.X, ds.y, tune.X, tune.y, lams=svmviz.paper_lambdas(21), sigma=sigma)
i = path.best_index
print(f"tuning error minimum  paper {ZHU_HASTIE_FIG2['tune_error']}   svmviz {path.tune_error[i]:.3f}")
print(f"at λ                  paper {ZHU_HASTIE_FIG2['lam']}   svmviz {path.lams[i]:.3f} (ln λ = {np.log(path.lams[i]):.0f})")
print(f"import points |S|     paper {ZHU_HASTIE_FIG2['machine_size']}      svmviz {path.n_import[i]}")

# %%
# Fig. 2: the tuning and training error and ``|S|`` along λ.
plot_path_error(compute_path_curves(path), bayes_error=ds.bayes_error).show()

# %%
# Fig. 3: the IVM at the paper's λ = e⁻², its import points and the Bayes boundary.
ivm = svmviz.IVMClassifier(lam=ZHU_HASTIE_FIG2["lam"], sigma=sigma).fit(ds.X, ds.y)
print(f"at λ = {ZHU_HASTIE_FIG2['lam']}: |S| = {ivm.n_import_}")
plot_import_map(compute_import_map(ivm, ds.X, ds.y, p_true=ds.p_true)).show()
