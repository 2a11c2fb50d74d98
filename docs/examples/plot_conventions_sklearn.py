"""
Conventions: svmviz's parameters in scikit-learn's terms, checked
=================================================================

Each estimator keeps its paper's parametrization; this script checks every mapping of the
:doc:`/guide/conventions` table against scikit-learn on one data set (Wahba et al.'s two
Gaussians, n = 120): the decision values or probabilities must agree to the solvers' tolerance.
Each check asserts, so the documentation does not build if a mapping stops holding.
"""
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.svm import SVC, NuSVC

import svmviz

ds = svmviz.make_dataset("wahba2001", n=120, seed=0)
X, y = ds.X, ds.y
n, lam, sigma = len(y), 1e-2, 1.0
C, gamma = 1 / (2 * n * lam), 1 / (2 * sigma**2)

# %%
# Wahba's SVM: λ on a mean hinge loss, σ the Gaussian width ↔ SVC(C = 1/(2nλ), gamma = 1/(2σ²)).
ours = svmviz.SVMClassifier(lam=lam, sigma=sigma, tol=1e-8).fit(X, y)
ref = SVC(C=C, gamma=gamma, tol=1e-8).fit(X, y)
gap_f = np.abs(ours.decision_function(X) - ref.decision_function(X)).max()
gap_alpha = np.abs(ours.alpha_[ref.support_] - np.abs(ref.dual_coef_[0]) / C).max()
print(f"SVMClassifier vs SVC:             max |Δf| = {gap_f:.1e}")
print(f"α(svmviz) vs |α(libsvm)|/C:       max |Δα| = {gap_alpha:.1e}")
assert gap_f < 1e-5 and gap_alpha < 1e-4

# %%
# The non-standard SVM's costs L = (L(−1), L(+1)) ↔ SVC's class_weight.
L = (1.5, 0.5)
ours = svmviz.SVMClassifier(lam=lam, sigma=sigma, L=L, tol=1e-8).fit(X, y)
ref = SVC(C=C, gamma=gamma, tol=1e-8, class_weight=dict(zip(ours.classes_, L))).fit(X, y)
gap_f = np.abs(ours.decision_function(X) - ref.decision_function(X)).max()
print(f"SVMClassifier(L) vs class_weight: max |Δf| = {gap_f:.1e}")
assert gap_f < 1e-5

# %%
# Kernel logistic regression: (λ/2) a'Ka on a summed deviance ↔ LogisticRegression(C = 1/λ) on the
# features Φ with ΦΦ' = K (here the Cholesky factor), intercept unpenalized in both.
lam_klr = 0.5
klr = svmviz.KernelLogisticRegression(lam=lam_klr, sigma=sigma).fit(X, y)
K = np.exp(-((X[:, None, :] - X[None, :, :]) ** 2).sum(-1) / (2 * sigma**2))
Phi = np.linalg.cholesky(K + 1e-10 * np.eye(n))
lr = LogisticRegression(C=1 / lam_klr, tol=1e-12, max_iter=10_000).fit(Phi, y)
gap_p = np.abs(klr.predict_proba(X)[:, 1] - lr.predict_proba(Phi)[:, 1]).max()
print(f"KLR vs LogisticRegression:        max |Δp| = {gap_p:.1e}")
assert gap_p < 1e-5

# %%
# The ν-SVM path: λ = mν ↔ NuSVC(nu); equal up to a positive factor (the dual's scaling).
nu = 0.3
path = svmviz.NuSVMPath(nu=nu, sigma=sigma).fit(X, y)
ratio = path.decision_function(X) / NuSVC(nu=nu, gamma=gamma, tol=1e-10).fit(X, y).decision_function(X)
spread = np.ptp(ratio) / ratio.mean()
print(f"NuSVMPath vs NuSVC:               f ratio {ratio.mean():.4f}, relative spread {spread:.1e}")
assert ratio.mean() > 0 and spread < 1e-3

# %%
# The IRWLS SVC: the same C as SVC (linear kernel).
irwls = svmviz.IRWLSClassifier(C=10.0).fit(X, y)
ref = SVC(kernel="linear", C=10.0, tol=1e-10).fit(X, y)
gap_f = np.abs(irwls.decision_function(X) - ref.decision_function(X)).max()
print(f"IRWLSClassifier vs linear SVC:    max |Δf| = {gap_f:.1e}")
assert gap_f < 1e-3

# %%
# k-fold cross-validation keeps the full data's C = 1/(2nλ) in every fold: GridSearchCV over SVC's C.
lambdas = np.logspace(-3, -1, 3)
cv = svmviz.kfold_cv_surface(X, y, lambdas, [sigma], k=5, seed=0)
folds = StratifiedKFold(5, shuffle=True, random_state=0)
gs = GridSearchCV(SVC(gamma=gamma), {"C": list(1 / (2 * n * lambdas))}, cv=folds).fit(X, y)
gap_cv = np.abs(cv.values[0] - (1 - gs.cv_results_["mean_test_score"])).max()
print(f"k-fold surface vs GridSearchCV:   max |ΔCV| = {gap_cv:.1e}")
assert gap_cv < 1e-12
