"""Optimisers (gradient ascent) on a concave quadratic."""

from __future__ import annotations

import numpy as np
import pytest

from bmrep.learning.optimizers import SGD, Adam, AdaMax, inverse_time

A = np.array([[3.0, 0.5], [0.5, 1.0]])  # positive definite
X_STAR = np.array([1.5, -2.0])


def ascend(opt, n_steps):
    params = {"x": np.zeros(2), "y": np.array([[4.0]])}
    for _ in range(n_steps):
        grads = {"x": -A @ (params["x"] - X_STAR), "y": -(params["y"] - 1.0)}
        opt.step(params, grads)
    return params


@pytest.mark.parametrize(
    "opt,n_steps,tol",
    [
        (SGD(0.1), 500, 1e-8),
        (SGD(0.05, momentum=0.9), 1000, 1e-8),
        (SGD(inverse_time(10.0, 20.0)), 2000, 1e-6),
        (Adam(0.05), 3000, 1e-4),
        (AdaMax(0.05), 3000, 1e-4),
    ],
    ids=["sgd", "momentum", "schedule", "adam", "adamax"],
)
def test_converges_to_maximum(opt, n_steps, tol):
    p = ascend(opt, n_steps)
    np.testing.assert_allclose(p["x"], X_STAR, atol=tol)
    np.testing.assert_allclose(p["y"], [[1.0]], atol=tol)
    assert opt.t == n_steps


def test_weight_decay_shrinks_the_optimum():
    p = ascend(SGD(0.1, decay=1.0), 2000)
    # maximiser of -0.5 (x-x*)A(x-x*) - 0.5 |x|^2
    np.testing.assert_allclose(p["x"], np.linalg.solve(A + np.eye(2), A @ X_STAR), atol=1e-8)


def test_ascent_direction():
    params = {"w": np.zeros(3)}
    for opt in (SGD(0.1), Adam(0.1), AdaMax(0.1)):
        params["w"][:] = 0
        opt.step(params, {"w": np.array([1.0, -2.0, 0.0])})
        assert params["w"][0] > 0 and params["w"][1] < 0 and params["w"][2] == 0


@pytest.mark.parametrize(
    "make",
    [
        lambda: SGD(0.0),
        lambda: SGD(-1.0),
        lambda: Adam(0.0),
        lambda: AdaMax(-0.1),
        lambda: SGD(0.1, momentum=1.0),
        lambda: SGD(0.1, decay=-1.0),
        lambda: Adam(0.1, beta1=1.0),
        lambda: AdaMax(0.1, beta2=1.5),
    ],
)
def test_bad_settings_raise(make):
    with pytest.raises(ValueError):
        make()
