"""
Wahba (1998), Fig. 1.2: prediction functions μ(f)
=================================================

For a loss g of the margin, the prediction function μ(f) = g'(f) − g'(−f) tells what the
minimizer of the expected loss estimates (Wahba 1998, §1.2): for the binomial deviance
μ(f) = tanh(f/2) is strictly increasing, so f estimates the log-odds; for the hinge and for
Wahba's v it is flat near 0 and steps at ±1, so the SVM's f estimates sign(p − 1/2), not p.

The figure carries no number; the printout checks the deviance's μ against tanh(f/2).
Unstated: ε₋, ε₊ of v and the f range (ε₋ = 0, ε₊ = 1, f ∈ [−3, 3] here).
"""
import numpy as np

from svmviz.figures.losses import compute_prediction_functions, plot_prediction_functions
from svmviz.losses import prediction_function

curves = compute_prediction_functions(["deviance", "hinge", "wahba_v"], f_range=(-3.0, 3.0),
                                      params={"eps_minus": 0.0, "eps_plus": 1.0})
f = np.linspace(-3, 3, 601)
gap = np.max(np.abs(prediction_function("deviance", f) - np.tanh(f / 2)))
print(f"deviance: max |μ(f) − tanh(f/2)| over f ∈ [−3, 3] = {gap:.1e}")

# %%
plot_prediction_functions(curves).show()
