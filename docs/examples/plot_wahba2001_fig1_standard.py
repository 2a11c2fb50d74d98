"""
Wahba et al. (2001), Fig. 1 (left): decision curves and inefficiencies, standard case
=====================================================================================

Two Gaussian classes, N((0, 0), I) (class +1, 40 %) against N((2, 2), diag(2, 1)) (class −1, 60 %),
whose conditional probability p(x) is known, so every criterion's choice of (λ, σ) can be judged by
MISCLASS, its true misclassification rate. The inefficiency of a criterion is MISCLASS at its choice
over the grid's smallest MISCLASS (Wahba, Lin, Lee & Zhang 2001, §6).

The paper states neither n, nor its grid, nor its draw: this is the app's preset (n = 200, seed 0,
a 20 × 20 grid over log10 λ ∈ [−5, −0.5], log10 σ ∈ [−1, 1]), so the numbers are of another draw.
"""
import numpy as np

import svmviz
from svmviz.figures.tuning import compute_decision_curves, plot_decision_curves
from svmviz.published import WAHBA2001_INEFFICIENCY, range_text

ds = svmviz.make_dataset("wahba2001", n=200, seed=0)
surface = svmviz.criteria_surface(ds.X, ds.y, lambdas=np.logspace(-5, -0.5, 20),
                                  sigmas=np.logspace(-1, 1, 20), p_true=ds.p_true)

# %%
# The paper's inefficiencies beside this draw's (a range where the criterion's minimum is tied).
for key, name in (("gacv", "GACV"), ("xa", "XA")):
    ours = svmviz.inefficiency(surface, key)
    paper = range_text(*WAHBA2001_INEFFICIENCY["standard"][key])
    print(f"{name:5s} inefficiency  paper {paper:>15s}   svmviz {range_text(round(ours.low, 4), round(ours.high, 4)):>15s}"
          f"   (chosen log10 λ = {np.log10(ours.lam):.2f}, log10 σ = {np.log10(ours.sigma):.2f})")

# %%
# The Bayes boundary p(x) = 1/2 and the boundary of each criterion's choice: GACV and XA land close
# to GCKL's and MISCLASS's, the choices that know the truth.
chosen = {key: surface.best[key] for key in ("gacv", "xa", "gckl", "misclass")}
curves = compute_decision_curves(surface, chosen, p_true=ds.p_true, threshold=ds.bayes_threshold)
plot_decision_curves(curves, title="Wahba et al. 2001, Fig. 1 (left): standard case").show()
