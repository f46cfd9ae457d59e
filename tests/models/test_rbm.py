"""Binary RBM model: energies, free energies and conditionals against enumeration."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import logsumexp

from bmrep.models.exact import all_states
from bmrep.models.rbm import (
    RBM,
    tempered_free_energy_h,
    tempered_free_energy_v,
)
from support.testsystems import random_rbm


@pytest.mark.parametrize("scale", [1.0, 50.0])
def test_free_energies_match_summing_the_energy(scale):
    r = random_rbm(3, 4, scale, 1, bias_scale=scale)
    V = all_states(3).astype(float)
    H = all_states(4).astype(float)
    E = np.array([[r.energy(v, h) for h in H] for v in V])  # (8, 16)
    np.testing.assert_allclose(r.free_energy_v(V), -logsumexp(-E, axis=1), rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(r.free_energy_h(H), -logsumexp(-E, axis=0), rtol=1e-12, atol=1e-9)
    assert np.all(np.isfinite(r.free_energy_v(V)))


def test_energy_definition_single_state():
    r = random_rbm(2, 3, 1.0, 2, bias_scale=1.0)
    v, h = np.array([1.0, 0.0]), np.array([0.0, 1.0, 1.0])
    expect = -(r.b @ v) - (r.c @ h) - v @ r.W @ h
    assert r.energy(v, h) == pytest.approx(expect, abs=1e-14)


def test_tempered_free_energy_matches_summing_the_tempered_joint():
    r = random_rbm(3, 2, 2.0, 3, bias_scale=2.0)
    a = np.random.default_rng(4).normal(size=3)
    V = all_states(3).astype(float)
    H = all_states(2).astype(float)
    for beta in (0.0, 0.37, 1.0):
        logf = np.array([[-beta * r.energy(v, h) + (1 - beta) * (a @ v) for h in H] for v in V])
        np.testing.assert_allclose(tempered_free_energy_v(r, V, beta, a), -logsumexp(logf, axis=1), atol=1e-12)
        np.testing.assert_allclose(tempered_free_energy_h(r, H, beta, a), -logsumexp(logf, axis=0), atol=1e-12)


def test_conditionals_match_enumeration():
    r = random_rbm(3, 2, 1.5, 5, bias_scale=1.5)
    a = np.array([0.3, -1.0, 2.0])
    V = all_states(3).astype(float)
    H = all_states(2).astype(float)
    beta = 0.6
    logf = np.array([[-beta * r.energy(v, h) + (1 - beta) * (a @ v) for h in H] for v in V])
    p = np.exp(logf - logsumexp(logf))
    # P(h_j = 1 | v) and P(v_i = 1 | h) from the joint table
    ph = (p[:, :, None] * H[None]).sum(1) / p.sum(1)[:, None]
    pv = (p[:, :, None] * V[:, None, :]).sum(0) / p.sum(0)[:, None]
    np.testing.assert_allclose(r.prob_h_given_v(V, beta=beta), ph, atol=1e-12)
    np.testing.assert_allclose(r.prob_v_given_h(H, beta=beta, base_bias=a), pv, atol=1e-12)


def test_numerically_safe_for_weights_of_magnitude_50_and_more():
    # one hidden unit of field -1000, 0 or +1000: F(v) = -softplus(x), P(h = 1 | v) = expit(x)
    big = RBM(np.array([[2000.0]]), np.zeros(1), np.array([-1000.0]))
    V1 = np.array([[0.0], [1.0]])
    np.testing.assert_allclose(big.free_energy_v(V1), [0.0, -1000.0])
    np.testing.assert_array_equal(big.prob_h_given_v(V1), [[0.0], [1.0]])
    half = RBM(np.array([[1000.0]]), np.zeros(1), np.array([-1000.0]))
    np.testing.assert_array_equal(half.prob_h_given_v(np.array([[1.0]])), [[0.5]])
    r = random_rbm(4, 5, 80.0, 6, bias_scale=80.0)
    V = all_states(4).astype(float)
    with np.errstate(all="raise"):
        assert np.all(np.isfinite(r.free_energy_v(V)))
        assert np.all(np.isfinite(r.prob_h_given_v(V)))


def test_params_are_live_and_roundtrip():
    r = RBM.random(4, 3, np.random.default_rng(0), scale=0.1)
    assert r.W.shape == (4, 3) and r.n_visible == 4 and r.n_hidden == 3
    assert np.all(r.b == 0) and np.all(r.c == 0)
    p = r.params()
    p["W"] += 1.0  # optimisers update in place
    assert np.all(r.W == p["W"])
    r2 = RBM.from_params(p)
    assert r2.W is not r.W and np.array_equal(r2.W, r.W)
    r32 = r.astype(np.float32)
    assert r32.W.dtype == np.float32 and r32.b.dtype == np.float32
    assert r.astype(np.float64) is r
    with pytest.raises(AttributeError):
        r.W = np.zeros((4, 3))


def test_random_is_seeded():
    a = RBM.random(5, 4, np.random.default_rng(7))
    b = RBM.random(5, 4, np.random.default_rng(7))
    assert np.array_equal(a.W, b.W)
    assert 0.005 < a.W.std() < 0.02


def test_bad_input_raises():
    with pytest.raises(ValueError, match="b must have shape"):
        RBM(np.zeros((3, 2)), np.zeros(2), np.zeros(2))
    with pytest.raises(ValueError, match="non-finite"):
        RBM(np.full((2, 2), np.nan), np.zeros(2), np.zeros(2))
    with pytest.raises(ValueError, match="beta"):
        tempered_free_energy_v(random_rbm(2, 2, 1.0, 0, bias_scale=1.0), np.zeros(2), beta=1.5)
    with pytest.raises(KeyError):
        RBM.from_params({"W": np.zeros((2, 2))})
