"""
Loosli & Canu (2006): the whole ν-SVM regularization path
=========================================================

The ν-SVM dual, max −½ α'Gα subject to α'1 = λ = mν, α'y = 0, 0 ≤ α_i ≤ 1, has a solution that
is piecewise linear in λ: between two breakpoints each point stays in its group — E on the margin
(0 < α < 1), L inside it (α = 1), R outside (α = 0) — and at a breakpoint one point changes
group (Loosli & Canu 2006, "Summary"). Following the events gives every ν at once.

The paper gives no number for this figure; the printout checks the path against scikit-learn's
``NuSVC`` at three values of ν: the decision functions agree up to a positive factor.
Unstated: n, σ and the draw of the banana data (n = 200, σ = 1, seed 0 here, the app's preset).
"""
import numpy as np
from sklearn.svm import NuSVC

import svmviz
from svmviz.figures.path import compute_coef_paths, plot_coef_paths

ds = svmviz.make_dataset("banana", n=200, seed=0)
path = svmviz.nu_path(ds.X, ds.y, sigma=1.0)
print(f"{path.n_breakpoints} breakpoints from λ = 0 to λ_max = {path.lambda_max:g} (ν from 0 to {path.lambda_max / path.m:g})")

for nu in (0.2, 0.5, 0.8):
    ours = path.decision_function(ds.X, nu * path.m)
    ref = NuSVC(nu=nu, gamma=1 / (2 * 1.0**2), tol=1e-10).fit(ds.X, ds.y).decision_function(ds.X)
    ratio = ours / ref
    print(f"ν = {nu}: f(path) / f(NuSVC) = {ratio.mean():.4f}, relative spread {np.ptp(ratio) / ratio.mean():.1e}")

# %%
# α_i y_i along λ: straight lines between breakpoints.
plot_coef_paths(compute_coef_paths(path, x_axis="lambda", max_points=60)).show()
