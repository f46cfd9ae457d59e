"""Wang-Landau (eqs. 4-6), adaptive simulated tempering (Algorithm 1), tempered transitions."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import logsumexp

from bmrep.models.exact import all_states
from bmrep.models.exact import dbm as exact_dbm
from bmrep.sampling import ChainStreams
from bmrep.sampling.dbm_gibbs import DBMChains, gibbs_sweep
from bmrep.sampling.ladders import linear_betas
from bmrep.sampling.tempered_transitions import tempered_transition
from bmrep.sampling.wang_landau import (
    AdaptiveTempering,
    gamma_schedule,
    wang_landau_partitions,
)
from bmrep.seeds import rng as keyed_rng
from support.testsystems import chi2_pvalue, dbm_chains, dbm_state_index, exact_dbm_draws, random_dbm

SEED = 20261121


def test_wang_landau_weights_converge_to_partition_probabilities():
    """Eq. (6): g_k / sum g -> p(X_k), on a 4-unit MRF partitioned by the number of active units."""
    r = keyed_rng(SEED, "mrf")
    J = np.triu(r.normal(0, 1.0, (4, 4)), 1)
    h = r.normal(0, 1.0, 4)
    S = all_states(4).astype(float)[:, ::-1]  # column i = bit i of the state index
    log_p = S @ h + np.einsum("ni,ij,nj->n", S, J, S)
    part = S.sum(1).astype(int)
    run = wang_landau_partitions(log_p, part, 0, 200_000, keyed_rng(SEED, "wl"), gamma_schedule(1.0, 100.0), 4)
    p_k = np.array([np.exp(logsumexp(log_p[part == k]) - logsumexp(log_p)) for k in range(5)])
    est = np.exp(run.log_g - logsumexp(run.log_g))
    np.testing.assert_allclose(np.log(est), np.log(p_k), atol=0.05)
    np.testing.assert_allclose(run.occupation, 0.2, atol=0.02)


def _exact_tempered_joint(d, betas, log_g, n, key):
    """n exact draws of (x, k) from p(x, k) ∝ exp(-beta_k E(x)) / g_k."""
    D, F1, F2 = d.shape
    X, _ = exact_dbm.joint_log_probabilities(d)
    E = d.energy(X[:, :D], X[:, D : D + F1], X[:, D + F1 :])
    logp = -betas[:, None] * E[None, :] - log_g[:, None]  # (K, S)
    logp -= logsumexp(logp)
    r = keyed_rng(SEED, "exact-joint", key)
    flat = r.choice(logp.size, size=n, p=np.exp(logp).ravel())
    k, s = np.divmod(flat, X.shape[0])
    return dbm_chains(d, X[s]), k, logp


def test_simulated_tempering_step_leaves_the_joint_and_beta1_conditional_invariant():
    """Algorithm 1 with frozen weights: exact (x, k) draws stay exact after one x-sweep + k-move."""
    d = random_dbm(3, 2, 2, 1.5, keyed_rng(SEED, "test_wl", "tiny"))
    betas = linear_betas(4, 0.4)[::-1]
    log_g = np.array([0.0, 0.7, -0.4, 1.1])
    n = 50_000
    ch, k, logp = _exact_tempered_joint(d, betas, log_g, n, "st")
    streams = ChainStreams.from_seed(SEED, "st", n_chains=n)
    st = AdaptiveTempering.create(
        betas, n, gamma_schedule(1.0), [streams.generator(i) for i in range(n)], log_g=log_g, k=k
    )
    st.adapt = False
    e = gibbs_sweep(d, ch, streams, betas=st.chain_betas())
    st.temperature_step(e)
    S = logp.shape[1]
    counts = np.bincount(st.k * S + dbm_state_index(ch), minlength=logp.size)
    assert chi2_pvalue(counts, n * np.exp(logp).ravel()) > 1e-3
    at1 = st.k == 0
    p1 = np.exp(logp[0] - logsumexp(logp[0]))
    assert chi2_pvalue(np.bincount(dbm_state_index(ch)[at1], minlength=S), at1.sum() * p1) > 1e-3
    assert 0.05 < st.n_accepted.mean() < 0.95  # the k-move is exercised


@pytest.mark.parametrize("shared", [False, True])
def test_adaptive_tempering_weights_converge_to_partition_function_ratios(shared):
    """Eq. (6) for Algorithm 1: log g_k - log g_0 -> log Z_k - log Z_0, per chain or with one shared vector."""
    d = random_dbm(3, 2, 2, 1.5, keyed_rng(SEED, "test_wl", "wlst"))
    betas = linear_betas(5, 0.2)[::-1]
    n = 20
    streams = ChainStreams.from_seed(SEED, "wlst", n_chains=n)
    st = AdaptiveTempering.create(
        betas, n, gamma_schedule(1.0, 50.0), [streams.generator(i) for i in range(n)], shared=shared
    )
    ch = DBMChains(*(np.zeros((n, m)) for m in d.shape))
    for _ in range(20_000):
        st.temperature_step(gibbs_sweep(d, ch, streams, betas=st.chain_betas()))
    exact = np.array([exact_dbm.log_partition(d, b) for b in betas])
    est = st.normalized_log_weights().mean(0)
    assert st.log_g.shape == ((1 if shared else n), len(betas))
    np.testing.assert_allclose(est, exact - exact[0], atol=0.1)


def test_shared_weights_take_every_chains_visit():
    """One vector: after a step, log g_k = (chains at level k) * log(1 + gamma); the k-moves all used g = 1."""
    betas = linear_betas(6, 0.5)[::-1]
    n = 30
    streams = ChainStreams.from_seed(SEED, "shared", n_chains=n)
    g = np.random.default_rng(0)
    k0 = g.integers(0, 6, n)
    st = AdaptiveTempering.create(betas, n, gamma_schedule(10.0), [streams.generator(i) for i in range(n)],
                                  k=k0, shared=True)  # fmt: skip
    own = AdaptiveTempering.create(betas, n, gamma_schedule(10.0), [streams.generator(i) for i in range(n)], k=k0)
    u = g.random((n, 2))
    e = g.normal(0, 5, n)
    st.temperature_step(e, u)
    own.temperature_step(e, u)  # the same moves: with g = 1 everywhere, shared and own weights propose alike
    np.testing.assert_array_equal(st.k, own.k)
    np.testing.assert_allclose(st.log_g[0], np.bincount(st.k, minlength=6) * np.log(11.0))
    np.testing.assert_allclose(own.log_g.sum(0), st.log_g[0])


def test_tempered_transition_leaves_the_dbm_invariant():
    d = random_dbm(3, 2, 2, 1.5, keyed_rng(SEED, "test_wl", "tt"))
    n = 60_000
    ch, lp = exact_dbm_draws(d, n, keyed_rng(SEED, "tt-exact"))
    streams = ChainStreams.from_seed(SEED, "tt", n_chains=n)

    def sweep(c, beta, reverse):
        return gibbs_sweep(d, c, streams, betas=np.full(n, beta), reverse=reverse)

    log_u = np.log(streams.random(1)[:, 0])
    acc, e = tempered_transition(ch, linear_betas(4, 0.3)[::-1], sweep, d.energy(ch.v, ch.h1, ch.h2), log_u)
    np.testing.assert_allclose(e, d.energy(ch.v, ch.h1, ch.h2), atol=1e-10)
    assert 0.05 < acc.mean() < 0.99
    assert chi2_pvalue(np.bincount(dbm_state_index(ch), minlength=lp.size), n * np.exp(lp)) > 1e-3


def test_bad_settings_are_rejected():
    with pytest.raises(ValueError):
        linear_betas(1, 0.9)
    with pytest.raises(ValueError):
        gamma_schedule(0.0)
    with pytest.raises(ValueError):
        linear_betas(3, 1.5)
