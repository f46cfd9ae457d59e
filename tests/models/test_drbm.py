"""Discriminative RBM of Yokoyama et al. (2019), eqs. (22)-(28)."""

import itertools
import math

import numpy as np
import pytest
from scipy.special import logsumexp

from bmrep.models import drbm
from bmrep.models import multivalued as mv


def small_problem(seed, n=5, m=3, k=4, n_data=7, scale=0.8):
    g = np.random.default_rng(seed)
    params = {
        "b": g.normal(0, scale, k),
        "c": g.normal(0, scale, m),
        "W1": g.normal(0, scale, (n, m)),
        "W2": g.normal(0, scale, (m, k)),
    }
    x = g.random((n_data, n))
    y = g.integers(0, k, n_data)
    return params, x, y


@pytest.mark.parametrize("s", [1, 2, math.inf])
def test_gradient_matches_finite_differences(s):
    params, x, y = small_problem(1)
    g = drbm.gradient(params, x, y, s)
    eps = 1e-6
    for key, value in params.items():
        fd = np.zeros_like(value)
        for i in np.ndindex(value.shape):
            up = {k: v.copy() for k, v in params.items()}
            dn = {k: v.copy() for k, v in params.items()}
            up[key][i] += eps
            dn[key][i] -= eps
            fd[i] = (drbm.log_likelihood(up, x, y, s) - drbm.log_likelihood(dn, x, y, s)) / (2 * eps)
        np.testing.assert_allclose(g[key], fd, rtol=1e-6, atol=1e-9, err_msg=key)


@pytest.mark.parametrize("s", [1, 2])
def test_class_probabilities_match_enumeration_over_hidden_states(s):
    """Eq. (22) equals sum_h P(t, h | x) with omega(s), enumerating X(s)^m."""
    params, x, _ = small_problem(2, m=3, k=3, n_data=4, scale=1.5)
    hs = np.array(list(itertools.product(mv.hidden_levels(s), repeat=3)))
    got = drbm.class_log_probs(params, x, s)
    for mu in range(x.shape[0]):
        scores = []
        for k in range(3):
            t = np.eye(3)[k]
            neg_e = params["b"] @ t + hs @ params["c"] + hs @ params["W2"] @ t + hs @ (x[mu] @ params["W1"])
            scores.append(logsumexp(neg_e) + 3 * math.log(2 / (s + 1)))
        scores = np.array(scores)
        np.testing.assert_allclose(got[mu], scores - logsumexp(scores), rtol=1e-12, atol=1e-12)


def test_large_weights_stay_finite():
    params, x, y = small_problem(3, scale=50.0)
    for s in (1, 4, math.inf):
        lp = drbm.class_log_probs(params, x, s)
        assert np.isfinite(lp).all() and np.allclose(logsumexp(lp, axis=1), 0, atol=1e-12)
        assert all(np.isfinite(v).all() for v in drbm.gradient(params, x, y, s).values())


def test_chunked_prediction_equals_unchunked():
    params, x, y = small_problem(4, n_data=23)
    assert np.array_equal(drbm.class_log_probs(params, x, 2, chunk=5), drbm.class_log_probs(params, x, 2, chunk=100))
    assert drbm.error_rate(params, x, y, 2) == np.mean(drbm.predict(params, x, 2) != y)


def test_init_is_xavier_with_zero_biases():
    p = drbm.init_params(784, 200, 10, np.random.default_rng(0))
    assert not p["b"].any() and not p["c"].any()
    a1, a2 = math.sqrt(6 / 984), math.sqrt(6 / 210)
    assert np.abs(p["W1"]).max() <= a1 and np.abs(p["W1"]).max() > 0.99 * a1
    assert np.abs(p["W2"]).max() <= a2 and p["W2"].shape == (200, 10)
    # uniform on [-a, a]: variance a^2/3, checked by a z-score on 156800 draws
    z = (p["W1"].var() - a1**2 / 3) / (a1**2 * math.sqrt(4 / 45 / p["W1"].size))
    assert abs(z) < 5


def test_noisy_images_are_clipped_and_scaled():
    x = np.array([[0, 128, 255]] * 2000, dtype=np.uint8)
    noisy = drbm.noisy_images(x, 120.0, np.random.default_rng(0))
    assert noisy.min() == 0.0 and noisy.max() == 1.0
    # the middle pixel: mean of clip(128 + N(0, 120^2), 0, 255) / 255 is close to 0.5
    assert abs(noisy[:, 1].mean() - 0.5) < 0.03
