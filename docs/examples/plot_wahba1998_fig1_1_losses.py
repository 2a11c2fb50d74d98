"""
Wahba (1998), Fig. 1.1: loss functions of the margin τ = yf
===========================================================

The losses an SVM-family classifier can minimize, against the margin τ = y f(x): the
misclassification count [−τ]_* (f = 0 counts as an error), the hinge (1 − τ)_+ of the SVM, the
binomial deviance ln(1 + e^{−τ}) of penalized likelihood, the sigmoid 1/(1 + e^{aτ}) and
[1 − e^{aτ}]_+ (a = 1, as stated in §1.2.3), and Wahba's v_{ε₊,ε₋}(τ) (eq. 1.23).

The figure carries no number; the printout checks the curves against their closed forms at
τ = −1, 0, 1. Unstated: ε₋, ε₊ of v and the τ range (ε₋ = 0, ε₊ = 1, τ ∈ [−3, 3] here).
"""
import numpy as np

from svmviz.figures.losses import compute_loss_curves, plot_loss_curves
from svmviz.losses import loss_values

names = ["misclassification", "deviance", "hinge", "sigmoid", "concave_exp", "wahba_v"]
curves = compute_loss_curves(names, tau_range=(-3.0, 3.0), params={"a": 1.0, "eps_minus": 0.0, "eps_plus": 1.0})

tau = np.array([-1.0, 0.0, 1.0])
closed = {"misclassification": (tau <= 0).astype(float), "hinge": np.maximum(1 - tau, 0),
          "deviance": np.log1p(np.exp(-tau)), "sigmoid": 1 / (1 + np.exp(tau)),
          "concave_exp": np.maximum(1 - np.exp(tau), 0)}
for name, want in closed.items():
    got = loss_values(name, tau, a=1.0)
    print(f"{name:18s} g(-1), g(0), g(1) = {np.round(got, 4)}   closed form {np.round(want, 4)}")

# %%
plot_loss_curves(curves).show()
