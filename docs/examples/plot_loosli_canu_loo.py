"""
Loosli & Canu (2006): leave-one-out along the path and where to stop
====================================================================

Along the path, only the points of E ∪ L change the solution when left out, so leave-one-out needs
``|E ∪ L|`` refits per λ, each warm-started from the full solution. LOO1 is the leave-one-out error rate,
LOO2 the leave-one-out hinge loss; the automatic stopping point is the sparsest λ whose LOO1 is within
one standard error of the best and whose LOO2 has stopped falling (Loosli & Canu 2006, "Stopping
criteria").

The paper gives no number for this figure; the printout checks LOO1 at the stopping point against
brute force (m refits of scikit-learn's ``NuSVC``). Unstated: n, σ, the draw (the app's preset).
"""
import numpy as np
from sklearn.svm import NuSVC

import svmviz
from svmviz.figures.path import compute_loo_curves, plot_loo_curves

ds = svmviz.make_dataset("banana", n=200, seed=0)
test = ds.test_sample(2000, seed=1)
path = svmviz.nu_path(ds.X, ds.y, sigma=1.0)
loo = svmviz.loo_path(path, max_evals=30, X_test=test.X, y_test=test.y)
k = loo.stop
nu = float(loo.nus[k])
print(f"stopping point: ν = {nu:.3f} (λ = {loo.lambdas[k]:.1f}), |E ∪ L| = {loo.n_sv[k]}, "
      f"LOO1 = {loo.loo1[k]:.3f}, test error = {loo.test_error[k]:.3f}")

# %%
# The same LOO1 by brute force: m NuSVC fits, each without one point.
wrong = 0
for i in range(len(ds.y)):
    keep = np.arange(len(ds.y)) != i
    clf = NuSVC(nu=nu * path.m / (path.m - 1), gamma=0.5, tol=1e-10).fit(ds.X[keep], ds.y[keep])
    wrong += clf.decision_function(ds.X[i:i + 1])[0] * ds.y[i] <= 0
print(f"LOO1 brute force with NuSVC: {wrong / len(ds.y):.3f}")

# %%
plot_loo_curves(compute_loo_curves(path, loo, x_axis="lambda"), cursor=float(loo.lambdas[k])).show()
