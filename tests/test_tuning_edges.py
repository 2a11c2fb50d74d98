"""A criterion's grid minimizer on the grid's edge (the optimum may lie beyond the grid) and the range
that extends the grid past that edge."""
from __future__ import annotations

import numpy as np
import pytest

from svmviz.tuning import GridEdge, criteria_surface, extended_range, grid_edges, surface_edges


def test_grid_edges_of_corner_side_and_interior_points():
    assert grid_edges((0, 4), (5, 5)) == (GridEdge(0, "low"), GridEdge(1, "high"))
    assert grid_edges((2, 0), (5, 5)) == (GridEdge(1, "low"),)
    assert grid_edges((2, 3), (5, 5)) == ()
    assert grid_edges(0, 7) == (GridEdge(0, "low"),)
    assert grid_edges(6, 7) == (GridEdge(0, "high"),)


def test_an_axis_of_one_value_has_no_edge():
    assert grid_edges((0, 2), (1, 5)) == ()


@pytest.mark.parametrize("index, shape, match", [((0,), (3, 3), "different numbers of axes"),
                                                 ((3, 0), (3, 3), "outside axis 0"),
                                                 ((0, -1), (3, 3), "outside axis 1")])
def test_grid_edges_refuses_points_off_the_grid(index, shape, match):
    with pytest.raises(ValueError, match=match):
        grid_edges(index, shape)


def _unscaled_data(n=60, seed=1):
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.normal(size=(n, 2)) + 0.8 * y[:, None]
    return X * np.array([1.0, 200.0]), y


def test_surface_edges_finds_a_sigma_grid_far_below_the_data_scale():
    # a feature of spread 200 and σ ≤ 1: every fit interpolates, and GACV prefers the widest σ on the grid
    X, y = _unscaled_data()
    surf = criteria_surface(X, y, np.logspace(-3, -1, 4), np.logspace(-1, 0, 4))
    i, j = surf.best["gacv"]
    edges = surface_edges(surf)
    assert i == len(surf.sigmas) - 1
    assert GridEdge(0, "high") in edges["gacv"]
    for k, e in edges.items():  # every tied minimizer lies on each edge reported
        assert e and all(set(e) <= set(grid_edges(tuple(t), surf.values[k].shape)) for t in surf.ties[k])


def test_surface_edges_leaves_out_interior_minimizers_and_unknown_keys():
    X, y = _unscaled_data()
    surf = criteria_surface(X, y, np.logspace(-3, -1, 4), np.logspace(-1, 0, 4))
    inner = surf._replace(best={"gacv": (1, 2), "xa": (0, 2)},
                          ties={"gacv": np.array([[1, 2]]), "xa": np.array([[0, 2]])})
    assert surface_edges(inner) == {"xa": (GridEdge(0, "low"),)}
    with pytest.raises(ValueError, match="no criterion 'loo'"):
        surface_edges(inner, ["loo"])


def test_extended_range_moves_one_end_within_limits():
    assert extended_range(-1.0, 1.0, "high") == (-1.0, 2.0)
    assert extended_range(-1.0, 1.0, "low", by=0.5) == (-1.5, 1.0)
    assert extended_range(-1.0, 1.5, "high", limits=(-2.0, 2.0)) == (-1.0, 2.0)
    assert extended_range(-2.0, 1.0, "low", limits=(-2.0, 2.0)) == (-2.0, 1.0)
    for bad, match in (((1.0, 1.0, "low"), "lo < hi"), ((0.0, 1.0, "up"), "side must be")):
        with pytest.raises(ValueError, match=match):
            extended_range(*bad)
    with pytest.raises(ValueError, match="by must be > 0"):
        extended_range(0.0, 1.0, "low", by=0.0)


def test_a_minimum_attained_inside_the_grid_too_is_not_on_the_edge():
    X, y = _unscaled_data()
    surf = criteria_surface(X, y, np.logspace(-3, -1, 4), np.logspace(-1, 0, 4))
    flat = surf._replace(best={"xa": (0, 0)}, ties={"xa": np.array([[0, 0], [0, 1], [1, 1]])})
    assert surface_edges(flat) == {}
    ridge = surf._replace(best={"xa": (0, 1)}, ties={"xa": np.array([[0, 1], [0, 2], [0, 3]])})
    assert surface_edges(ridge) == {"xa": (GridEdge(0, "low"),)}
