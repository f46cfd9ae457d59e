"""Exact log Z, log-likelihood, joint probabilities and exact samples."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from scipy.special import logsumexp, softplus

from bmrep.models.exact import CACHED_ENUM_UNITS, all_states, state_chunk, state_index, states_range
from bmrep.models.exact import rbm as exact
from bmrep.models.rbm import RBM
from support.testsystems import random_rbm


def brute_log_z(rbm, beta=1.0, a=None):
    n, m = rbm.n_visible, rbm.n_hidden
    S = all_states(n + m).astype(float)
    a = np.zeros(n) if a is None else a
    return logsumexp(-beta * rbm.energy(S[:, :n], S[:, n:]) + (1 - beta) * S[:, :n] @ a)


def test_all_states_order():
    s = all_states(3)
    assert s.dtype == np.uint8 and s.shape == (8, 3)
    assert s[1].tolist() == [0, 0, 1] and s[4].tolist() == [1, 0, 0] and s[6].tolist() == [1, 1, 0]
    np.testing.assert_array_equal(state_index(s), np.arange(8))


@pytest.mark.parametrize("n,m,scale", [(3, 5, 1.0), (5, 3, 1.0), (4, 4, 50.0), (2, 6, 100.0), (6, 2, 50.0)])
def test_log_partition_matches_brute_force(n, m, scale):
    r = random_rbm(n, m, scale, n * 10 + m, bias_scale=scale)
    lz = exact.log_partition(r)
    assert np.isfinite(lz)
    assert lz == pytest.approx(brute_log_z(r), rel=1e-12, abs=1e-10)


@pytest.mark.parametrize("n,m", [(3, 4), (4, 3)])
def test_tempered_log_partition(n, m):
    r = random_rbm(n, m, 2.0, 11, bias_scale=2.0)
    a = np.random.default_rng(12).normal(size=n)
    for beta in (0.0, 0.25, 0.9, 1.0):
        assert exact.log_partition(r, beta, a) == pytest.approx(brute_log_z(r, beta, a), abs=1e-10)
    # beta = 0: the base distribution, product of Bernoullis on v, uniform on h
    assert exact.log_partition(r, 0.0, a) == pytest.approx(softplus(a).sum() + m * np.log(2), abs=1e-12)


def test_log_partition_chunks_agree(monkeypatch):
    r = random_rbm(12, 30, 0.5, 13, bias_scale=0.5)
    full = exact.log_partition(r)
    monkeypatch.setattr(exact, "CHUNK_BITS", 5)
    assert exact.log_partition(r) == pytest.approx(full, abs=1e-10)


def test_state_chunks_are_the_enumeration_and_small_ones_are_built_once():
    """log Z's blocks: the rows of all_states as float64; cached (read-only) up to CACHED_ENUM_UNITS units."""
    n = CACHED_ENUM_UNITS
    a = state_chunk(2**n - 300, 2**n - 100, n)
    np.testing.assert_array_equal(a, all_states(n)[2**n - 300 : 2**n - 100])
    assert a.dtype == np.float64 and not a.flags.writeable
    assert state_chunk(2**n - 300, 2**n - 100, n) is a
    big = state_chunk(5, 9, n + 1)  # larger enumerations are rebuilt (their blocks would not fit a cache)
    np.testing.assert_array_equal(big, states_range(5, 9, n + 1))
    assert state_chunk(5, 9, n + 1) is not big
    # a 16x16 RBM's log Z (Brügge et al.'s benchmarks) is the same with the cached blocks as from fresh ones
    r = random_rbm(16, 16, 0.5, 17, bias_scale=0.5)
    first = exact.log_partition(r)
    assert exact.log_partition(r) == first
    assert first == pytest.approx(exact.log_partition(r, layer="hidden"), rel=1e-13)


def test_log_likelihood_normalised():
    r = random_rbm(4, 3, 3.0, 14, bias_scale=3.0)
    V = all_states(4)
    lp = exact.log_prob_v(r, V)
    assert logsumexp(lp) == pytest.approx(0.0, abs=1e-12)
    X = V[[0, 3, 3, 9]]
    assert exact.mean_log_likelihood(r, X) == pytest.approx(lp[[0, 3, 3, 9]].mean(), abs=1e-12)


def test_joint_probabilities_match_energy():
    r = random_rbm(3, 2, 1.0, 15, bias_scale=1.0)
    p = exact.joint_probabilities(r)
    S = all_states(5).astype(float)
    logp = -r.energy(S[:, :3], S[:, 3:])
    np.testing.assert_allclose(p, np.exp(logp - logsumexp(logp)), rtol=1e-12)
    # v-marginal agrees with the free energy
    np.testing.assert_allclose(p.reshape(8, 4).sum(1), np.exp(exact.log_prob_v(r, all_states(3))), rtol=1e-12)


@pytest.mark.parametrize("n,m", [(3, 2), (2, 3)])
def test_sample_exact_chi_square(n, m):
    r = random_rbm(n, m, 1.5, 16, bias_scale=1.5)
    V, H = exact.sample_exact(r, 20000, np.random.default_rng(17))
    idx = state_index(np.hstack([V, H]).astype(np.uint8))
    counts = np.bincount(idx, minlength=2 ** (n + m))
    expected = exact.joint_probabilities(r) * len(idx)
    keep = expected >= 5
    chi2 = np.sum((counts[keep] - expected[keep]) ** 2 / expected[keep])
    dof = keep.sum() - 1
    if (~keep).any():  # pool the rare states into one bin
        e_rest = expected[~keep].sum()
        chi2 += (counts[~keep].sum() - e_rest) ** 2 / e_rest
        dof += 1
    assert chi2 < stats.chi2.ppf(0.999, dof), (chi2, dof)


def test_too_large_raises():
    r = RBM(np.zeros((30, 30)), np.zeros(30), np.zeros(30))
    with pytest.raises(ValueError, match="cannot be enumerated"):
        exact.log_partition(r)
    with pytest.raises(ValueError):
        all_states(40)
