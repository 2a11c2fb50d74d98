"""
Wahba et al. (2001), Figs. 1 (right) and 2: the non-standard case and its criteria surfaces
===========================================================================================

Misclassification costs C⁺ = 1, C⁻ = 2 and a target population with π⁺ = 0.1 make the sample
unrepresentative, so each point's hinge loss is weighted by L(y): L(−1) = C⁺π⁻/π_s⁻ = 1.5,
L(+1) = C⁻π⁺/π_s⁺ = 0.5, and the Bayes rule is p(x) > 0.75 (Wahba, Lin, Lee & Zhang 2001, §5).
GACV and BRXA (ξα with the weights) estimate GCKL and BRMISCLASS, which need the truth; Fig. 2
shows the four surfaces over (log10 λ, log10 σ): GCKL and BRMISCLASS have long, shallow, tilted
valleys, and the minima of GACV and BRXA lie near each other.

Unstated in the paper: n, the grid and the draw (here the app's preset: n = 200, seed 0, 20 × 20).
"""
import numpy as np

import svmviz
from svmviz.figures.tuning import compute_contour, plot_contour_panels
from svmviz.published import WAHBA2001_INEFFICIENCY, range_text

ds = svmviz.wahba2001(n=200, seed=0, nonstandard=True)
print(f"L(-1), L(+1) = {ds.L}; Bayes threshold on p(x): {ds.bayes_threshold}")
surface = svmviz.criteria_surface(ds.X, ds.y, lambdas=np.logspace(-5, -0.5, 20), sigmas=np.logspace(-1, 1, 20),
                                  L=ds.L, p_true=ds.p_true)

# %%
# The paper's inefficiencies (of BRMISCLASS) beside this draw's.
for key, name in (("gacv", "GACV"), ("xa", "BRXA")):
    ours = svmviz.inefficiency(surface, key)
    paper = range_text(*WAHBA2001_INEFFICIENCY["nonstandard"][key])
    print(f"{name:5s} inefficiency  paper {paper:>7s}   svmviz {range_text(round(ours.low, 3), round(ours.high, 3))}")

# %%
# The four surfaces, each with every criterion's minimizer marked.
panels = [compute_contour(surface, key) for key in ("gckl", "gacv", "misclass", "xa")]
plot_contour_panels(panels, title="Wahba et al. 2001, Fig. 2: non-standard case").show()
