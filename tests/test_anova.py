"""SS-ANOVA kernels in every solver, the decomposition of f, importances, the structured generator.

References: scikit-learn's SVC(kernel="precomputed") on the same gram (mapping
C = 1/(2nλ)), brute-force leave-one-out refits with SVC, direct numpy evaluation of the component
grams, Monte Carlo for the generator's Bayes error. The test sample's decision values of
:func:`svmviz.anova.compare_kernels` are computed without BLAS, the same bits whatever OpenBLAS's thread
count; its exact LOO on a pool of threads gives gram_criteria_curves(loo=True)'s numbers kernel by kernel.
"""
import numpy as np
import pytest
from sklearn.svm import SVC
from threadpoolctl import ThreadpoolController

from svmviz import anova, data
from svmviz.figures import anova as fig
from svmviz.ivm import IVMClassifier, KernelLogisticRegression
from svmviz.kernels import SSANOVAKernel, cubic_spline_rk, fit_kernel, gram, kernel_diagonal
from svmviz.svm import SVMClassifier, fit_lambda_sequence
from svmviz.tuning import criteria_curves, gram_criteria_curves

from tests.naive import svm as naive

KERNELS = [("additive", "cubic"), ("two-way", "cubic"), ("two-way", "gaussian")]


def _ds(n=120, seed=0, d=4):
    return data.anova_structure(n=n, seed=seed, d=d)


def _component_gram(k, A, B, comp):
    """Unweighted R_c(A, B) evaluated directly (numpy, from the 1-D RKs)."""
    UA, UB = k.transform(A), k.transform(B)
    out = np.ones((A.shape[0], B.shape[0]))
    for a in comp:
        s, t = UA[:, a][:, None], UB[:, a][None, :]
        out *= cubic_spline_rk(s, t) if k.base == "cubic" else np.exp(-((s - t) ** 2) / (2 * k.sigma**2))
    return out


# ----------------------------------------------------------------------------- the generator
def test_anova_structure_truth_and_bayes_error_against_monte_carlo():
    ds = data.make_dataset("anova_structure", n=50, seed=3)
    assert ds.X.shape == (50, 6) and set(np.unique(ds.y)) == {-1.0, 1.0}
    assert np.all((ds.X >= -1) & (ds.X <= 1))
    x = ds.X
    eta = 4 * x[:, 0] + 4 * np.cos(np.pi * x[:, 1]) + 8 * x[:, 0] * x[:, 1]
    np.testing.assert_allclose(ds.p_true(x), 1 / (1 + np.exp(-eta)), rtol=1e-13)
    t = ds.test_sample(400_000, seed=11)                        # independent stream
    p = t.p_true(t.X)
    mc = np.mean(np.minimum(p, 1 - p))
    se = np.std(np.minimum(p, 1 - p)) / np.sqrt(p.size)
    assert abs(mc - ds.bayes_error) < 5 * se
    assert abs(np.mean(t.bayes_rule(t.X) != t.y) - ds.bayes_error) < 5 * np.sqrt(0.12 * 0.88 / p.size)
    add = data.anova_structure(n=20, seed=0, interaction=0.0)
    assert add.bayes_error == pytest.approx(0.13347, abs=1e-4)
    np.testing.assert_array_equal(data.anova_structure(n=30, seed=5).X, data.anova_structure(n=30, seed=5).X)
    with pytest.raises(ValueError, match="d must be"):
        data.anova_structure(d=1)
    with pytest.raises(ValueError, match="interaction"):
        data.anova_structure(interaction=np.nan)
    with pytest.raises(ValueError, match="3 column"):
        data.anova_structure(n=10, d=3).p_true(np.zeros((2, 4)))


# ----------------------------------------------------------------------------- solvers vs sklearn
@pytest.mark.parametrize("order,base", KERNELS)
def test_svm_on_ssanova_gram_equals_sklearn_precomputed(order, base):
    ds = _ds()
    Xt = ds.test_sample(50, 1).X
    kern = SSANOVAKernel(order=order, base=base, sigma=0.3, theta=[1.0, 2.0, 0.5, 1.0])
    k = fit_kernel(kern, ds.X)
    K, Kt = gram(ds.X, kernel=k), gram(Xt, ds.X, kernel=k)
    n, lam = ds.X.shape[0], 1e-3
    s = 1 / (2 * n * lam)
    ref = SVC(kernel="precomputed", C=s, tol=1e-10).fit(K, ds.y)
    f_ref = ref.decision_function(Kt)
    a_ref = naive.sklearn_wahba_alpha(ref, n, lam)
    # libsvm stops on its own scaling of the KKT gap: the f difference it allows is bounded by its
    # remaining gap (as in tests/svm/test_svm.py), plus 1e-6 of the decision values' scale
    gap_ref = naive.dual_kkt_violation(K, ds.y, s, np.ones(n), a_ref)
    allowed = 10 * max(gap_ref, 0.0) + 1e-6 * (1 + np.abs(f_ref).max())
    # the estimator with the kernel object
    svm = SVMClassifier(lam=lam, kernel=kern, tol=1e-10).fit(ds.X, ds.y)
    assert isinstance(svm.kernel_, SSANOVAKernel) and svm.kernel_ is not kern
    assert naive.dual_kkt_violation(K, ds.y, s, np.ones(n), svm.alpha_) <= 1.01e-10
    assert naive.dual_objective(K, ds.y, s, svm.alpha_) <= naive.dual_objective(K, ds.y, s, a_ref) + 1e-12
    assert np.abs(svm.decision_function(Xt) - f_ref).max() <= allowed
    # the λ-sequence engine on the precomputed gram
    seq = fit_lambda_sequence(K, ds.y, [1e-1, 1e-2, lam], tol=1e-10)
    f_seq = Kt @ (ds.y * seq.alphas[2] / (2 * n * lam)) + seq.b[2]
    assert np.abs(f_seq - f_ref).max() <= allowed
    np.testing.assert_allclose(f_seq, svm.decision_function(Xt), atol=1e-8 * (1 + np.abs(f_ref).max()))


def test_exact_loo_with_ssanova_gram_equals_brute_force_refits():
    ds = _ds(n=40, seed=2, d=3)
    k = fit_kernel(SSANOVAKernel(order="two-way"), ds.X)
    K = gram(ds.X, kernel=k)
    lam = 3e-3
    cur = gram_criteria_curves(K, ds.y, [lam], loo=True, tol=1e-10)
    n = ds.X.shape[0]
    C = 1 / (2 * n * lam)
    brute = np.empty(n)
    for i in range(n):
        keep = np.arange(n) != i
        m = SVC(kernel="precomputed", C=C, tol=1e-10).fit(K[np.ix_(keep, keep)], ds.y[keep])
        brute[i] = m.decision_function(K[i:i + 1, keep])[0]
    np.testing.assert_allclose(cur.f_loo[0], brute, atol=1e-5)
    assert cur.values["loo"][0] == pytest.approx(np.mean(ds.y * brute <= 0))


def test_gram_criteria_use_the_kernel_diagonal():
    ds = _ds(n=80, seed=4)
    k = fit_kernel(SSANOVAKernel(order="two-way"), ds.X)
    K = gram(ds.X, kernel=k)
    lams = np.logspace(-4, -1, 4)
    cur = gram_criteria_curves(K, ds.y, lams, p_true=ds.p_true(ds.X))
    np.testing.assert_allclose(cur.K_diag, kernel_diagonal(k, ds.X))
    n = ds.X.shape[0]
    for j, lam in enumerate(lams):
        f, a = cur.f_train[j], cur.alphas[j]
        yf = ds.y * f
        th = a * np.diag(K) / (2 * n * lam)                    # θ_i = α_i K_ii/(2nλ), K_ii ≠ 1
        g = np.mean(np.maximum(1 - yf, 0) + np.where(yf < -1, 2, 1) * th * (yf >= -1e300))
        assert cur.values["gacv"][j] == pytest.approx(g, rel=1e-12)
        xa = np.mean((yf <= 0) | ((yf > 0) & (yf <= th)))
        assert cur.values["xa"][j] == pytest.approx(xa)
    # with the Gaussian gram (K_ii = 1) it is criteria_curves exactly
    a = criteria_curves(ds.X, ds.y, lams, 0.8, p_true=ds.p_true, loo=True)
    b = gram_criteria_curves(gram(ds.X, sigma=0.8), ds.y, lams, p_true=ds.p_true(ds.X), loo=True)
    for key in a.values:
        np.testing.assert_allclose(b.values[key], a.values[key], rtol=1e-12)


# ----------------------------------------------------------------------------- decomposition
@pytest.mark.parametrize("order,base", KERNELS)
def test_components_sum_to_the_svm_decision_function(order, base):
    ds = _ds(n=100, seed=1)
    svm = SVMClassifier(lam=1e-3, kernel=SSANOVAKernel(order=order, base=base, theta0=0.7)).fit(ds.X, ds.y)
    Xq = np.vstack([ds.X[:20], ds.test_sample(30, 2).X * 1.3])  # some points outside the training range
    exp = anova.expansion_of(svm)
    comp = anova.decompose(exp, Xq)
    f = svm.decision_function(Xq)
    np.testing.assert_allclose(comp.values.sum(1) + comp.constant + comp.intercept, f, rtol=0,
                               atol=1e-12 * (1 + np.abs(f).max()))
    np.testing.assert_allclose(comp.total, f, atol=1e-12 * (1 + np.abs(f).max()))
    assert abs(comp.constant) < 1e-10                              # y'α = 0 ⇒ Σ c_i = 0
    # every component against its direct evaluation θ_c R_c(Xq, basis) c
    for j, c in enumerate(exp.kernel.components_):
        want = exp.kernel.weights_[j] * _component_gram(exp.kernel, Xq, exp.basis, c) @ exp.coef
        np.testing.assert_allclose(comp.values[:, j], want, atol=1e-12 * (1 + np.abs(want).max()))


def test_components_sum_to_klr_and_ivm_logits():
    ds = _ds(n=80, seed=6, d=3)
    Xq = ds.test_sample(25, 3).X
    kern = SSANOVAKernel(order="two-way", theta0=0.3)
    for model in (KernelLogisticRegression(lam=0.5, kernel=kern), IVMClassifier(lam=0.5, kernel=kern)):
        model.fit(ds.X, ds.y)
        comp = anova.decompose(anova.expansion_of(model), Xq)
        f = model.decision_function(Xq)
        np.testing.assert_allclose(comp.total, f, atol=1e-11 * (1 + np.abs(f).max()))
    # KLR with an intercept: Σ c_i = 0 at the optimum (the derivative in b), so no constant part
    klr = KernelLogisticRegression(lam=0.5, kernel=kern).fit(ds.X, ds.y)
    assert abs(anova.decompose(anova.expansion_of(klr), Xq).constant) < 1e-8


def test_expansion_from_dual_is_the_svm_solution_and_refusals():
    ds = _ds(n=60, seed=7)
    k = fit_kernel(SSANOVAKernel(), ds.X)
    lam = 1e-3
    seq = fit_lambda_sequence(gram(ds.X, kernel=k), ds.y, [lam], tol=1e-8)
    exp = anova.expansion_from_dual(k, ds.X, ds.y, seq.alphas[0], seq.b[0], lam)
    np.testing.assert_allclose(anova.decompose(exp, ds.X).total, seq.f[0], atol=1e-10)
    svm_rbf = SVMClassifier(lam=lam).fit(ds.X, ds.y)
    with pytest.raises(ValueError, match="SSANOVAKernel"):
        anova.expansion_of(svm_rbf)
    with pytest.raises(ValueError, match="not fitted"):
        anova.expansion_of(SVMClassifier())
    X3 = np.random.default_rng(0).normal(size=(60, 2))
    y3 = np.repeat([0, 1, 2], 20)
    klr3 = KernelLogisticRegression(lam=1.0, kernel=SSANOVAKernel()).fit(X3, y3)
    with pytest.raises(ValueError, match="two classes"):
        anova.expansion_of(klr3)
    with pytest.raises(ValueError, match="no interaction"):
        fig.compute_interaction(exp, 0, 1, ds.X, ds.y)


def test_importances_are_the_component_norms():
    ds = _ds(n=90, seed=8)
    svm = SVMClassifier(lam=3e-4, kernel=SSANOVAKernel(order="two-way", theta=[1, 2, 0.5, 1], theta0=0.4)).fit(
        ds.X, ds.y)
    exp = anova.expansion_of(svm)
    imp = anova.importances(exp, X=ds.X)
    k, B, c = exp.kernel, exp.basis, exp.coef
    want = np.array([w * c @ _component_gram(k, B, B, comp) @ c for w, comp in zip(k.weights_, k.components_)])
    np.testing.assert_allclose(imp.values, want, rtol=1e-10, atol=1e-14)
    assert imp.norm2 == pytest.approx(c @ gram(B, kernel=k) @ c, rel=1e-10)   # Σ θ_c c'R_c c + θ0 (Σc)² = c'Kc
    np.testing.assert_allclose(imp.share.sum(), 1.0)
    for a in range(4):
        assert imp.by_variable[a] == pytest.approx(sum(v for v, cc in zip(imp.values, imp.components) if a in cc))
    rms = np.sqrt(np.mean(anova.decompose(exp, ds.X).values ** 2, axis=0))
    np.testing.assert_allclose(imp.rms, rms)
    assert imp.names[4] == "x1 × x2"


# The margin measured (2026-07, 8 seeds, n = 400, λ = GACV's choice on logspace(-6, -1, 11)): the
# largest noise-variable importance over the smaller of x1's and x2's was at most 0.136 (additive)
# and 0.145 (two-way), median 0.09; at n = 200 at most 0.29 / 0.35. At the small λ exact LOO picks,
# the RKHS norm of the overfitted noise components is as large as x1's (linear, hence cheap):
# that is why the λ matters, and it is said on the page.
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_noise_variables_are_far_less_important_than_x1_and_x2(seed):
    ds = data.anova_structure(n=400, seed=seed, d=6)
    lams = np.logspace(-6, -1, 11)
    kc = anova.compare_kernels(ds.X, ds.y, lams, {"additive": SSANOVAKernel(),
                                                  "two-way": SSANOVAKernel(order="two-way")})
    for q in range(2):
        cur = kc.curves[q]
        j = cur.best["gacv"]
        imp = anova.importances(anova.expansion_from_dual(kc.kernels[q], ds.X, ds.y, cur.alphas[j], cur.b[j],
                                                          lams[j]))
        bv = imp.by_variable
        assert bv[2:].max() < 0.25 * bv[:2].min(), (kc.names[q], bv)


def test_theta_grid_shared_scale_and_one_theta_at_a_time():
    ds = _ds(n=70, seed=9, d=3)
    lams = np.logspace(-4, -1, 7)                                # steps of √10
    tg = anova.theta_lambda_grid(ds.X, ds.y, lams, SSANOVAKernel(), [1.0, 10.0], p_true=ds.p_true)
    # additive kernel: s·K at λ is K at λ/s (c scales by 1/s, θ_i = α_i sK_ii/(2nλ) unchanged)
    for key in ("gacv", "misclass"):
        np.testing.assert_allclose(tg.values[key][1, 2:], tg.values[key][0, :-2], rtol=2e-3, atol=2e-3)
    kc = anova.compare_kernels(ds.X, ds.y, lams, {"a": SSANOVAKernel()}, p_true=ds.p_true)
    np.testing.assert_allclose(tg.values["gacv"][0], kc.curves[0].values["gacv"], rtol=1e-12)
    tw = anova.theta_lambda_grid(ds.X, ds.y, lams, SSANOVAKernel(order="two-way"), [0.1, 1.0, 3.0], coordinate=1)
    # components (x2,), (x1, x2), (x2, x3) scale; the others keep weight 1
    np.testing.assert_allclose(tw.weights[0], [1, 0.1, 1, 0.1, 1, 0.1])
    np.testing.assert_allclose(tw.weights[2], [1, 3, 1, 3, 1, 3])
    assert tw.values["gacv"].shape == (3, 7) and set(tw.best) >= {"gacv", "xa"}


# ----------------------------------------------------------------------------- figures
@pytest.mark.parametrize("order,base", KERNELS)
def test_main_effects_and_interaction_maps_equal_the_components_at_full_query_rows(order, base):
    """The figures evaluate one coordinate's (or two coordinates') one-dimensional grams only; at every
    grid point they equal the component evaluated directly over whole query rows (the other coordinates
    anywhere: a main effect or an interaction does not depend on them)."""
    ds = _ds(n=70, seed=4, d=4)
    svm = SVMClassifier(lam=3e-3, kernel=SSANOVAKernel(order=order, base=base)).fit(ds.X, ds.y)
    exp = anova.expansion_of(svm)
    k = exp.kernel
    rng = np.random.default_rng(0)
    me = fig.compute_main_effects(exp, ds.X, ds.y, grid_n=13)
    for a in range(4):
        Xq = ds.X[rng.integers(0, 70, 13)].copy()  # the other coordinates at data points
        Xq[:, a] = me.grids[a]
        col = k.components_.index((a,))
        direct = k.weights_[col] * (_component_gram(k, Xq, exp.basis, (a,)) @ exp.coef)
        scale = k.weights_[col] * np.abs(_component_gram(k, Xq, exp.basis, (a,))) @ np.abs(exp.coef)
        assert np.all(np.abs(me.values[a] - direct) <= 1e-12 * scale)
    if order == "additive":
        return
    for a, b in ((0, 2), (3, 1)):
        it = fig.compute_interaction(exp, a, b, ds.X, ds.y, grid_n=9)
        col = k.components_.index((min(a, b), max(a, b)))
        Xq = ds.X[rng.integers(0, 70, 81)].copy()
        Xq[:, a], Xq[:, b] = np.tile(it.gx, 9), np.repeat(it.gy, 9)  # Z[i, j] at (gx[j], gy[i])
        G = _component_gram(k, Xq, exp.basis, (a, b))
        direct = (k.weights_[col] * (G @ exp.coef)).reshape(9, 9)
        scale = (k.weights_[col] * (np.abs(G) @ np.abs(exp.coef))).reshape(9, 9)
        assert np.all(np.abs(it.Z - direct) <= 1e-12 * scale)
        assert it.name == k.component_names(exp.feature_names)[col]


def test_figures_compute_and_plot():
    ds = _ds(n=80, seed=10, d=3)
    svm = SVMClassifier(lam=1e-3, kernel=SSANOVAKernel(order="two-way")).fit(ds.X, ds.y)
    exp = anova.expansion_of(svm)
    me = fig.compute_main_effects(exp, ds.X, ds.y, grid_n=21)
    assert me.grids.shape == (3, 21) and me.values.shape == (3, 21)
    np.testing.assert_allclose(me.grids[:, 0], ds.X.min(0))
    np.testing.assert_allclose(me.grids[:, -1], ds.X.max(0))
    # a main effect does not depend on the other coordinates
    Xq = np.tile(ds.X[5], (21, 1))
    Xq[:, 1] = me.grids[1]
    np.testing.assert_allclose(me.values[1], anova.decompose(exp, Xq).values[:, 1], atol=1e-12)
    it = fig.compute_interaction(exp, 0, 2, ds.X, ds.y, grid_n=11)
    i, j = 4, 7
    pt = ds.X[:1].copy()
    pt[0, 0], pt[0, 2] = it.gx[j], it.gy[i]
    assert it.Z[i, j] == pytest.approx(anova.decompose(exp, pt).values[0, 4], abs=1e-12)   # (x1, x3) is component 4
    bars = fig.compute_importances(exp)
    assert list(bars.values) == sorted(bars.values, reverse=True)
    assert fig.top_interactions(anova.importances(exp), 2)[0] in [(0, 1), (0, 2), (1, 2)]
    kc = anova.compare_kernels(ds.X, ds.y, np.logspace(-4, -1, 4), {"Gaussian": "rbf", "additive": SSANOVAKernel()},
                               p_true=ds.p_true, loo=True, X_test=ds.X[:30], y_test=ds.y[:30])
    kcv = fig.compute_kernel_curves(kc)
    assert kcv.keys == ["gacv", "xa", "loo", "misclass"] and kcv.values["loo"].shape == (2, 4)
    for f in (fig.plot_main_effects(me), fig.plot_interaction(it), fig.plot_importances(bars),
              fig.plot_kernel_curves(kcv)):
        js = f.to_plotly_json()
        assert js["layout"]["title"]["text"]
        assert "$" not in str(js["layout"]["title"]["text"])
        assert all(t.get("hovertemplate") for t in js["data"])
    cf = fig.plot_kernel_curves(kcv).to_plotly_json()["layout"]
    assert cf["xaxis"]["title"]["text"] == "log10 λ" and cf["yaxis"]["type"] == "log"


def test_nu_path_and_irwls_accept_ssanova_kernels():
    from sklearn.svm import NuSVC

    from svmviz.path import NuSVMPath
    from svmviz.usvc import IRWLSClassifier

    ds = _ds(n=80, seed=11, d=3)
    Xt = ds.test_sample(40, 4).X
    kern = SSANOVAKernel(order="two-way")
    k = fit_kernel(kern, ds.X)
    K, Kt = gram(ds.X, kernel=k), gram(Xt, ds.X, kernel=k)
    # ν-SVM path: NuSVC(ν) on the same gram up to the positive factor m·ρ (Loosli & Canu 2006; path.py)
    path = NuSVMPath(nu=0.4, kernel=kern).fit(ds.X, ds.y)
    ref = NuSVC(nu=0.4, kernel="precomputed", tol=1e-10).fit(K, ds.y).decision_function(Kt)
    ours = path.decision_function(Xt)
    ratio = ours / ref
    assert np.all(ratio > 0)
    np.testing.assert_allclose(ratio, np.median(ratio), rtol=1e-4)
    # IRWLS (semiparametric, prototypes drawn from the kernel): same as a plain callable of the fitted kernel
    a = IRWLSClassifier(C=1.0, kernel=kern, n_prototypes=15, random_state=0).fit(ds.X, ds.y)
    b = IRWLSClassifier(C=1.0, kernel=lambda A, B=None: k(A, B), n_prototypes=15, random_state=0).fit(ds.X, ds.y)
    np.testing.assert_allclose(a.decision_function(Xt), b.decision_function(Xt), rtol=1e-8, atol=1e-8)
    assert np.mean(a.predict(Xt) != ds.test_sample(40, 4).y) < 0.4


# ------------------------------------------------------------------------------------------------------------
# The test sample's decision values of :func:`svmviz.anova.compare_kernels` are computed without BLAS
# (``anova._test_decisions``: the same bits whatever OpenBLAS's thread count, no BLAS thread left spinning
# beside exact LOO's threads and the browser), and the test errors are those of the matrix product computed
# here.
DECISION_LAMS = np.logspace(-6, -1, 11)


def _same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def test_the_test_decisions_do_not_depend_on_blas_threads():
    """With OpenBLAS on one thread or on its default (both cores here) the decision values are the
    same bits (fails with the product ``coef @ Kt.T``: OpenBLAS splits it differently, 131 of 200
    random shapes differed), and they equal the product to rounding."""
    ctl = ThreadpoolController()
    # numpy's wheels bundle OpenBLAS: without a BLAS threadpoolctl can limit, this test could not vary
    # the threads, so it says so instead of skipping
    assert ctl.select(user_api="blas"), "no BLAS library that threadpoolctl can limit (numpy without OpenBLAS?)"
    rng = np.random.default_rng(0)
    for _ in range(12):
        m, n, t = int(rng.integers(2, 22)), int(rng.integers(50, 400)), int(rng.integers(500, 2500))
        coef, Kt, b = rng.standard_normal((m, n)), rng.random((t, n)), rng.standard_normal(m)
        with ctl.limit(limits=1, user_api="blas"):
            one = anova._test_decisions(coef, Kt, b)
        with ctl.limit(limits=2, user_api="blas"):
            two = anova._test_decisions(coef, Kt, b)
        assert _same(one, two), (m, n, t)
        ref = coef @ Kt.T + b[:, None]
        assert np.allclose(one, ref, rtol=1e-12, atol=1e-12 * np.abs(ref).max())


@pytest.mark.parametrize("name, kw, sigma", [("anova_structure", dict(n=120, seed=3), 1.4),
                                             ("twonorm", dict(n=90, seed=1), 2.0)])
def test_the_test_errors_are_those_of_the_matrix_product(name, kw, sigma):
    """Every kernel's test error along λ equals the one computed here with BLAS's product from the
    fits' own α and b, bit for bit (a sign of f changes only within rounding of 0)."""
    ds = data.make_dataset(name, **kw)
    t = ds.test_sample(1500, seed=7)
    kernels = {"G": "rbf", "A": SSANOVAKernel(order="additive"), "T": SSANOVAKernel(order="two-way")}
    kc = anova.compare_kernels(ds.X, ds.y, DECISION_LAMS, kernels, sigma=sigma, X_test=t.X, y_test=t.y)
    yy, yt, n = np.where(ds.y > 0, 1.0, -1.0), np.where(t.y > 0, 1.0, -1.0), ds.X.shape[0]
    for q, kern in enumerate(kernels.values()):
        cur = kc.curves[q]
        Kt = gram(t.X, ds.X, kernel=fit_kernel(kern, ds.X), sigma=sigma)
        F = (cur.alphas * yy[None, :] / (2.0 * n * DECISION_LAMS[:, None])) @ Kt.T + cur.b[:, None]
        assert _same(kc.test_error[q], np.mean(np.where(F > 0, 1.0, -1.0) != yt[None, :], axis=1)), q


# ------------------------------------------------------------------------------------------------------------
# compare_kernels' exact LOO on a pool of threads: the same numbers as gram_criteria_curves(loo=True) kernel by
# kernel, progress counted to its total, and a progress callback that raises stops the refits.
COMPARE_LAMS = np.logspace(-5, -1, 5)
COMPARE_KERNELS = {"Gaussian": "rbf", "additive": SSANOVAKernel(order="additive"),
                   "two-way": SSANOVAKernel(order="two-way")}


@pytest.fixture(scope="module")
def ds():
    return data.anova_structure(n=70, seed=3)


def test_threaded_loo_equals_gram_criteria_curves(ds):
    calls = []
    kc = anova.compare_kernels(ds.X, ds.y, COMPARE_LAMS, COMPARE_KERNELS, sigma=0.8, p_true=ds.p_true, loo=True,
                               progress=lambda d, t, msg: calls.append((d, t, msg)))
    yy = np.where(ds.y == ds.y.max(), 1.0, -1.0)
    for name, cur in zip(kc.names, kc.curves):
        kf = fit_kernel(COMPARE_KERNELS[name], ds.X)
        ref = gram_criteria_curves(gram(ds.X, kernel=kf, sigma=0.8), yy, COMPARE_LAMS,
                                   K_diag=kernel_diagonal(kf, ds.X, sigma=0.8), p_true=ds.p_true(ds.X), loo=True)
        assert list(cur.values) == list(ref.values) and list(cur.best) == list(ref.best)
        for key in ref.values:
            np.testing.assert_array_equal(cur.values[key], ref.values[key])
        assert cur.best == ref.best
        np.testing.assert_array_equal(cur.f_loo, ref.f_loo)
        np.testing.assert_array_equal(cur.status, ref.status)
        np.testing.assert_array_equal(cur.alphas, ref.alphas)
    total = 2 * len(COMPARE_KERNELS) + len(COMPARE_KERNELS) * COMPARE_LAMS.size
    assert [d for d, _, _ in calls] == list(range(1, total + 1))
    assert {t for _, t, _ in calls} == {total}
    assert sum("leave-one-out" in msg for _, _, msg in calls) == len(COMPARE_KERNELS) * COMPARE_LAMS.size


class _Stop(Exception):
    pass


def test_progress_exception_stops_the_refits(ds):
    seen = []

    def progress(done, total, msg):
        seen.append(done)
        if "leave-one-out" in msg:
            raise _Stop

    with pytest.raises(_Stop):
        anova.compare_kernels(ds.X, ds.y, COMPARE_LAMS, COMPARE_KERNELS, sigma=0.8, loo=True, progress=progress)
    assert seen[-1] == 2 * len(COMPARE_KERNELS) + 1
