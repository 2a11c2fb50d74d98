"""Maps of data with more than two features: the plane (two features through the others' medians, or
the first two principal components through the mean) and f drawn on it, checked against the fitted
model evaluated at the plane's points rebuilt independently in the full feature space."""
from __future__ import annotations

import numpy as np
import pytest
from sklearn.decomposition import PCA
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from svmviz.figures import tuning as fig_tuning
from svmviz.figures.labels import features_hover
from svmviz.figures.plane import compute_map_plane, plane_mesh
from svmviz.tuning import criteria_surface, grid_decision_function

SCALES = np.array([1.0, 200.0, 0.01, 5.0, 30.0, 0.5])


def six_features(n=60, seed=0):
    """Two classes in 6 features on scales from 0.01 to 200; the class shifts the first three."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    Z = rng.normal(size=(n, 6))
    Z[:, :3] += 0.9 * y[:, None]
    return Z * SCALES + np.arange(6), y


@pytest.fixture(scope="module")
def surface():
    X, y = six_features()
    Xs = StandardScaler().fit_transform(X)
    return criteria_surface(Xs, y, np.logspace(-3, -1, 3), np.logspace(0, 0.5, 2))


def _mesh_uv(gx, gy):
    return np.array([(u, v) for v in gy for u in gx])


def test_feature_plane_lifts_to_the_other_features_medians_and_projects_back():
    X, _ = six_features()
    plane = compute_map_plane(X, kind="features", axes=(4, 1), feature_names=list("abcdef"))
    U = np.array([[1.0, 2.0], [-3.0, 7.5]])
    P = plane.lift(U)
    med = np.median(X, axis=0)
    for r in range(2):
        expect = med.copy()
        expect[4], expect[1] = U[r]
        np.testing.assert_array_equal(P[r], expect)
    np.testing.assert_array_equal(plane.coordinates(X), X[:, [4, 1]])
    assert plane.axis_titles == ("e", "b")
    assert "medians" in plane.caption and "e and b" in plane.caption


def test_component_plane_matches_sklearn_pca_of_the_standardised_features():
    X, _ = six_features()
    plane = compute_map_plane(X, kind="components")
    sc = StandardScaler().fit(X)
    pca = PCA(2).fit(sc.transform(X))
    signs = np.sign(np.sum(pca.components_ * plane.directions, axis=1))
    assert np.all(np.abs(signs) == 1)
    np.testing.assert_allclose(plane.coordinates(X), pca.transform(sc.transform(X)) * signs, atol=1e-10)
    U = np.array([[0.3, -1.2], [2.0, 0.5], [0.0, 0.0]])
    np.testing.assert_allclose(plane.lift(U), sc.inverse_transform(pca.inverse_transform(U * signs)),
                               rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(sum(plane.variance_share), pca.explained_variance_ratio_.sum(), rtol=1e-10)
    assert "principal components" in plane.caption and "mean" in plane.caption


@pytest.mark.parametrize("kind", ["features", "components"])
def test_decision_curves_on_a_plane_equal_the_fitted_model_at_the_lifted_mesh(surface, kind):
    Xs = surface.X
    plane = compute_map_plane(Xs, kind=kind, axes=(2, 0))
    i, j = 1, 1
    dc = fig_tuning.compute_decision_curves(surface, {"gacv": surface.best["gacv"]}, selected=(i, j),
                                            resolution=15, plane=plane)
    U = _mesh_uv(dc.xs, dc.ys)
    if kind == "features":
        P = np.repeat(np.median(Xs, axis=0)[None, :], len(U), axis=0)
        P[:, 2], P[:, 0] = U[:, 0], U[:, 1]
        np.testing.assert_array_equal(dc.X, Xs[:, [2, 0]])
    else:
        sc = StandardScaler().fit(Xs)
        pca = PCA(2).fit(sc.transform(Xs))
        signs = np.sign(np.sum(pca.components_ * plane.directions, axis=1))
        P = sc.inverse_transform(pca.inverse_transform(U * signs))
        np.testing.assert_allclose(dc.X, pca.transform(sc.transform(Xs)) * signs, atol=1e-10)
    field = dc.selected_field.ravel()
    np.testing.assert_allclose(field, grid_decision_function(surface, i, j, P), rtol=1e-9, atol=1e-9)
    # the same f from scikit-learn's SVC fitted on all six features (C = 1/(2nλ), γ = 1/(2σ²))
    n, lam, sig = Xs.shape[0], surface.lambdas[j], surface.sigmas[i]
    svc = SVC(C=1.0 / (2 * n * lam), gamma=1.0 / (2 * sig ** 2), tol=1e-8).fit(Xs, surface.y)
    np.testing.assert_allclose(field, svc.decision_function(P), atol=2e-3 * np.abs(field).max())
    np.testing.assert_array_equal(dc.X_full, Xs)


def test_plane_mesh_covers_the_coordinates_padded_and_is_row_major():
    X, _ = six_features()
    plane = compute_map_plane(X, kind="features", axes=(0, 3))
    pm = plane_mesh(plane, X, resolution=5, pad=0.1)
    span = X[:, 0].max() - X[:, 0].min()
    assert pm.gx[0] == pytest.approx(X[:, 0].min() - 0.1 * span)
    assert pm.points.shape == (25, 6)
    np.testing.assert_array_equal(pm.points[7, [0, 3]], [pm.gx[2], pm.gy[1]])


def test_features_hover_shows_every_feature_in_the_data_units():
    X, _ = six_features(n=4)
    mu, sd = X.mean(axis=0), X.std(axis=0)
    lines, custom = features_hover((X - mu) / sd, list("abcdef"), tuple(zip(mu, sd)))
    np.testing.assert_allclose(custom, X, rtol=1e-12)
    assert lines.count("<br>") == 5 and "f = %{customdata[5]" in lines
    with pytest.raises(ValueError, match="one name per column"):
        features_hover(X, list("abc"))


@pytest.mark.parametrize("kw, match", [
    (dict(kind="slice"), "kind must be one of"),
    (dict(axes=(1, 1)), "two different features"),
    (dict(axes=(0, 6)), "two different features"),
    (dict(axes="ab"), "two feature indices"),
    (dict(feature_names=["a"]), "1 names for 6 features"),
])
def test_compute_map_plane_refuses_bad_input(kw, match):
    X, _ = six_features()
    with pytest.raises(ValueError, match=match):
        compute_map_plane(X, **kw)


def test_a_map_needs_two_features_and_finite_values():
    with pytest.raises(ValueError, match="at least 2 points and 2 features"):
        compute_map_plane(np.zeros((5, 1)))
    X, _ = six_features()
    X[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        compute_map_plane(X)


def test_decision_curves_refuse_a_plane_of_another_dimension(surface):
    plane = compute_map_plane(np.random.default_rng(0).normal(size=(10, 3)))
    with pytest.raises(ValueError, match="plane is of 3 features"):
        fig_tuning.compute_decision_curves(surface, {}, plane=plane)


def test_path_boundary_map_on_a_plane_equals_the_path_at_the_lifted_mesh():
    from svmviz.figures import path as fig_path
    from svmviz.path import nu_path

    X, y = six_features(n=40)
    Xs = StandardScaler().fit_transform(X)
    p = nu_path(Xs, y, kernel="rbf", sigma=2.0)
    lam = float(p.lambdas[len(p.lambdas) // 2])
    plane = compute_map_plane(Xs, kind="features", axes=(1, 5))
    bm = fig_path.compute_boundary_map(p, lam, grid_n=9, plane=plane)
    U = _mesh_uv(bm.gx, bm.gy)
    P = np.repeat(np.median(Xs, axis=0)[None, :], len(U), axis=0)
    P[:, 1], P[:, 5] = U[:, 0], U[:, 1]
    np.testing.assert_allclose(bm.F.ravel(), p.decision_function(P, lam), rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(bm.X, Xs[:, [1, 5]])
    fig = fig_path.plot_boundary_map(bm, feature_names=[f"f{j}" for j in range(6)])
    pts = [t for t in fig.to_dict()["data"] if t.get("type") == "scatter" and "customdata" in t]
    assert pts and all("f5 = %{customdata[5]" in t["hovertemplate"] and "customdata[6]" in t["hovertemplate"]
                       for t in pts)


def test_ivm_and_svm_maps_on_a_plane_equal_the_models_at_the_lifted_mesh():
    from svmviz.figures import ivm as fig_ivm
    from svmviz.ivm import IVMClassifier
    from svmviz.svm import SVMClassifier

    X, y = six_features(n=40)
    Xs = StandardScaler().fit_transform(X)
    plane = compute_map_plane(Xs, kind="components")
    sc = StandardScaler().fit(Xs)
    pca = PCA(2).fit(sc.transform(Xs))
    signs = np.sign(np.sum(pca.components_ * plane.directions, axis=1))
    ivm = IVMClassifier(lam=0.05, sigma=2.0).fit(Xs, y)
    im = fig_ivm.compute_import_map(ivm, Xs, y, grid_n=7, plane=plane)
    P = sc.inverse_transform(pca.inverse_transform(_mesh_uv(im.gx, im.gy) * signs))
    np.testing.assert_allclose(im.p.ravel(), ivm.predict_proba(P)[:, 1], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(im.X, pca.transform(sc.transform(Xs)) * signs, atol=1e-10)
    svm = SVMClassifier(lam=0.01, sigma=2.0).fit(Xs, y)
    sm = fig_ivm.compute_svm_map(svm, Xs, y, grid_n=7, plane=plane)
    np.testing.assert_allclose(sm.f.ravel(), svm.decision_function(P), rtol=1e-9, atol=1e-12)
    assert sm.train_error == np.mean(svm.predict(Xs) != y)
    fig = fig_ivm.plot_svm_map(sm, feature_names=list("abcdef"))
    hovers = [t["hovertemplate"] for t in fig.to_dict()["data"] if t.get("customdata") is not None]
    assert hovers and all("f = %{customdata[5]" in h for h in hovers)
    cm = fig_ivm.compute_class_map(ivm, Xs, y, grid_n=7, plane=plane)
    np.testing.assert_array_equal(cm.label.ravel(), np.argmax(ivm.predict_proba(P), axis=1))


def test_usvc_kernel_maps_on_a_plane_equal_both_machines_at_the_lifted_mesh():
    from svmviz import usvc
    from svmviz.figures import usvc as fig_usvc

    X, y = six_features(n=60)
    Xs = StandardScaler().fit_transform(X)
    plane = compute_map_plane(Xs, kind="features", axes=(0, 2))
    fit = usvc.kernel_comparison(Xs, y, sigma=2.0, C=1.0, n_prototypes=5, seed=0)
    kc = fig_usvc.compute_kernel_comparison(fit, grid=6, plane=plane)
    U = _mesh_uv(kc.gx, kc.gy)
    P = np.repeat(np.median(Xs, axis=0)[None, :], len(U), axis=0)
    P[:, 0], P[:, 2] = U[:, 0], U[:, 1]
    np.testing.assert_allclose(kc.f_usvc.ravel(), fit.usvc.decision_function(P), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(kc.f_svm.ravel(), fit.svm.decision_function(P), rtol=1e-9, atol=1e-12)
    fig = fig_usvc.plot_kernel_comparison(kc, feature_names=list("abcdef"))
    protos = next(t for t in fig.data if t.name == "USVC prototypes cᵣ")
    np.testing.assert_allclose(np.c_[np.asarray(protos.x), np.asarray(protos.y)], fit.usvc.prototypes_[:, [0, 2]])
    assert "f = %{customdata[5]" in protos.hovertemplate


def test_line_along_a_feature_or_the_first_component_puts_the_plus_class_high():
    from svmviz.figures.plane import compute_line

    X, y = six_features()
    line = compute_line(X, y, 2, feature_names=list("abcdef"))
    assert not line.flipped and line.title == "c"
    np.testing.assert_array_equal(line.x[:, 0], X[:, 2])
    flipped = compute_line(X, -y, 2, feature_names=list("abcdef"))
    assert flipped.flipped and flipped.title == "−(c)"
    np.testing.assert_array_equal(flipped.x[:, 0], -X[:, 2])
    pc = compute_line(X, y, "components")
    sc = StandardScaler().fit(X)
    score = PCA(1).fit(sc.transform(X)).transform(sc.transform(X))[:, 0]
    np.testing.assert_allclose(np.abs(pc.x[:, 0]), np.abs(score), atol=1e-10)
    assert pc.x[y > 0, 0].mean() > pc.x[y < 0, 0].mean()
    for bad in (6, "pca", True):
        with pytest.raises(ValueError, match="along must be"):
            compute_line(X, y, bad)


def test_decision_curves_keep_equal_units_only_where_the_axes_share_one(surface):
    def anchor(kind):
        plane = compute_map_plane(surface.X, kind=kind, axes=(1, 4))
        dc = fig_tuning.compute_decision_curves(surface, {}, selected=(0, 0), resolution=8, plane=plane)
        names = [f"f{j}" for j in range(6)]
        return fig_tuning.plot_decision_curves(dc, feature_names=names).to_dict()["layout"]["yaxis"].get("scaleanchor")

    assert anchor("components") == "x"  # two component scores: one unit
    assert anchor("features") is None  # two features of a wider table: their own units and spreads
