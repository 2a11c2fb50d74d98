"""
Zhu & Hastie (2002), Fig. 4: the import vector machine with three classes
=========================================================================

With M + 1 classes the IVM fits M logits against a base class, with the penalty (λ/2) Σ_j a_j'K_q a_j
(Zhu & Hastie 2002, eqs. 7–9), and one set of import points S serves every class. Fig. 4: three
mixture classes, N = 300, radial kernel, λ = e⁻¹.

Unstated in the paper: the three classes' centre means ((0, 1), (1, 0), (1, 1) here) and the draw
(seed 0), so ``|S|`` below is of another draw than the paper's.
"""
import numpy as np

import svmviz
from svmviz.figures.ivm import compute_class_map, plot_class_map
from svmviz.published import ZHU_HASTIE_FIG4

ds = svmviz.make_dataset("esl_mixture3", n=300, seed=0)
test = ds.test_sample(3000, seed=1)
ivm = svmviz.IVMClassifier(lam=ZHU_HASTIE_FIG4["lam"], sigma=1 / np.sqrt(2)).fit(ds.X, ds.y)
print(f"λ = {ZHU_HASTIE_FIG4['lam']}: import points |S|  paper {ZHU_HASTIE_FIG4['machine_size']}   svmviz {ivm.n_import_}")
print(f"test error {1 - ivm.score(test.X, test.y):.3f} (Bayes error {ds.bayes_error:.3f})")

# %%
plot_class_map(compute_class_map(ivm, ds.X, ds.y, p_true=ds.p_true, X_test=test.X, y_test=test.y)).show()
