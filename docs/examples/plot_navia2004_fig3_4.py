"""
Navia-Vázquez et al. (2004), Figs. 3–4: error surfaces and the IRWLS trajectories
=================================================================================

The primal L̃(Th, w) = ½w² + C Σ θ(ξ_i) of a one-feature linear machine f(x) = w(x − Th), drawn over
(Th, w), with the path the IRWLS iteration takes on it: from the regularized least-squares solution
to the SVC (θ(ξ) = ξ), then on to the unbiased SVC (θ = θ̃_s, s = 2). On scenario A (Fig. 3) the SVC
stops at Th ≈ 0.35 and the USVC moves on to the Bayes threshold 0.5; on scenario B (Fig. 4) the
USVC moves into the flat stretch of the true error on [0.5, 0.7], where the paper puts the optimum
(0.6); the true error's global minimum, 0.179, lies apart at Th ≈ 0.21 (Navia-Vázquez et al. 2004, §5).

The printout sets each machine's Th beside the paper's Table 1 means. Unstated in the paper: the
trial drawn and k_ε (seed 0 and 10⁻⁴ here, the app's presets).
"""
import numpy as np

import svmviz
from svmviz.figures.usvc import compute_error_surface, compute_trajectory, plot_error_surface
from svmviz.published import NAVIA2004_TABLE1

figures = {}
for scenario in ("A", "B"):
    ds = svmviz.make_dataset(f"usvc_{scenario}", n=500, seed=0)
    usvc = svmviz.IRWLSClassifier(C=10.0, loss="smooth_step", s=2.0).fit(ds.X, ds.y)
    svc = svmviz.IRWLSClassifier(C=10.0).fit(ds.X, ds.y)
    paper = NAVIA2004_TABLE1[scenario]
    th = np.linspace(0, 1, 2001)
    best = th[np.argmin(svmviz.usvc_theoretical_ce(scenario, th))]
    print(f"scenario {scenario}: Th   SVC paper {paper['SVC']['threshold'][0]:.2f} svmviz {svc.threshold_:.2f}   "
          f"USVC(s=2) paper {paper['USVC(s=2)']['threshold'][0]:.2f} svmviz {usvc.threshold_:.2f}   "
          f"optimal paper {paper['optimal']['threshold'][0]:.2f}, argmin of the true CE {best:.2f}")
    surface = compute_error_surface(ds.X[:, 0], ds.y, C=10.0, loss="smooth_step", s=2.0)
    figures[scenario] = plot_error_surface(surface, compute_trajectory(usvc))

# %%
# Scenario A (Fig. 3): the USVC's surface with the LS → SVC → USVC trajectory.
figures["A"].show()

# %%
# Scenario B (Fig. 4).
figures["B"].show()
