"""Parallel tempering: exact invariance of the product distribution and a chi-square test of the sampler."""

import numpy as np
import pytest
from scipy import stats

from bmrep.models.exact import state_index
from bmrep.models.exact.rbm import joint_probabilities
from bmrep.models.rbm import tempered_delta
from bmrep.sampling import ChainStreams
from bmrep.sampling.ladders import linear_betas
from bmrep.sampling.operators import Blend, FlipTheState, Gibbs
from bmrep.sampling.parallel_tempering import (
    ParallelTempering,
    pt_transition_matrix,
    swap_transition_matrix,
)
from bmrep.seeds import rng
from support.testsystems import random_rbm

OPERATORS = {"G": Gibbs(), "T": FlipTheState(), "blend": Blend(0.5)}


def test_linear_betas_ascending_and_their_reversal_is_the_samplers_descending_ladder():
    np.testing.assert_allclose(linear_betas(5), [0, 0.25, 0.5, 0.75, 1.0])
    with pytest.raises(ValueError):
        linear_betas(1)
    with pytest.raises(ValueError):
        linear_betas(3, 1.0)
    # bit for bit the descending ladders the DBM samplers were built with (np.linspace from 1 down)
    for n, beta_min in [(20, 0.9), (11, 0.9), (4, 0.4), (5, 0.2), (4, 0.3), (7, 0.5)]:
        assert np.array_equal(linear_betas(n, beta_min)[::-1], np.linspace(1.0, beta_min, n))
        assert np.all(np.diff(linear_betas(n, beta_min)) > 0)


def test_swap_matrix_is_reversible_wrt_product():
    rbm = random_rbm(2, 2, 1.5, rng(2013, "test_pt", "swap"))
    b0, b1 = 0.3, 1.0
    S = swap_transition_matrix(rbm, b0, b1)
    p = np.kron(joint_probabilities(rbm, b0), joint_probabilities(rbm, b1))
    np.testing.assert_allclose(S.sum(axis=1), 1.0, atol=1e-14)
    flow = p[:, None] * S
    np.testing.assert_allclose(flow, flow.T, atol=1e-15)


@pytest.mark.parametrize("op", sorted(OPERATORS))
@pytest.mark.parametrize("betas,k", [((0.0, 1.0), 1), ((0.5, 1.0), 2)])
def test_pt_step_leaves_product_invariant_exactly(op, betas, k):
    rbm = random_rbm(2, 2, 1.5, rng(2013, "test_pt", f"inv_{op}_{k}"))
    A = pt_transition_matrix(rbm, OPERATORS[op], betas, k)
    p = np.kron(joint_probabilities(rbm, betas[0]), joint_probabilities(rbm, betas[1]))
    np.testing.assert_allclose(A.sum(axis=1), 1.0, atol=1e-12)
    assert np.max(np.abs(p @ A - p)) < 1e-12


@pytest.mark.parametrize("op", ["G", "T"])
def test_pt_sampler_matches_product_distribution(op):
    """Chi-square on both temperatures after a burn-in whose remaining bias is bounded exactly."""
    rbm = random_rbm(2, 2, 1.5, rng(2013, "test_pt", f"chi2_{op}"))
    betas = np.array([0.5, 1.0])
    burn_in, n_rep = 40, 4000
    A = pt_transition_matrix(rbm, OPERATORS[op], betas, 1)
    p = np.kron(joint_probabilities(rbm, betas[0]), joint_probabilities(rbm, betas[1]))
    q = np.full(p.size, 1.0 / p.size)  # start: every chain uniform
    for _ in range(burn_in):
        q = q @ A
    assert 0.5 * np.abs(q - p).sum() < 1e-6  # the sampler's law equals p up to this
    streams = ChainStreams.from_seed(2013, "test_pt", "chains", op, n_chains=2 * n_rep)
    pt = ParallelTempering(OPERATORS[op], betas, 1, n_rep, 2, 2, streams, rng(2013, "test_pt", "swap", op))
    pt.step(rbm, burn_in)
    X = np.concatenate([pt.v, pt.h], axis=1).reshape(n_rep, 2, 4)
    crit = stats.chi2.ppf(1 - 0.001 / 2, df=15)  # Bonferroni over the two temperatures
    for i, beta in enumerate(betas):
        counts = np.bincount(state_index(X[:, i].astype(np.uint8)), minlength=16)
        expected = n_rep * joint_probabilities(rbm, beta)
        chi2 = np.sum((counts - expected) ** 2 / expected)
        assert chi2 < crit, (beta, chi2, crit)
    assert 0 < pt.acceptance_rates[0] <= 1
    V1, H1 = pt.samples()
    assert V1.shape == (n_rep, 2) and H1.shape == (n_rep, 2)


def test_bad_arguments():
    streams = ChainStreams.from_seed(2013, "bad", n_chains=4)
    with pytest.raises(ValueError):
        ParallelTempering(Gibbs(), [0.0, 0.5], 1, 2, 2, 2, streams, rng(1, "x"))
    with pytest.raises(ValueError):
        ParallelTempering(Gibbs(), [0.0, 1.0], 1, 3, 2, 2, streams, rng(1, "x"))
    with pytest.raises(ValueError):
        ParallelTempering(Gibbs(), [0.0, 1.0], 0, 2, 2, 2, streams, rng(1, "x"))


def _reference_swap_round(betas, v, h, d, u):
    """One round of neighbour swaps as the paper's rule reads: pairs (0,1), (1,2), ... in order, numpy per pair."""
    v, h, d = v.copy(), h.copy(), d.copy()
    accepted = np.zeros(betas.size - 1, dtype=np.int64)
    for i in range(betas.size - 1):
        p = np.exp(np.minimum((betas[i] - betas[i + 1]) * (d[:, i + 1] - d[:, i]), 0.0))
        idx = np.flatnonzero(u[:, i] < p)
        accepted[i] += idx.size
        for a in (v, h, d):
            a[idx, i], a[idx, i + 1] = a[idx, i + 1].copy(), a[idx, i].copy()
    return v, h, accepted


@pytest.mark.parametrize("t, scale", [(3, 0.5), (5, 1.0), (10, 2.0)])
def test_swap_round_is_the_sequential_rule_to_the_bit(t, scale):
    """The compiled swap round moves the same states and counts the same swaps as pair-by-pair numpy."""
    R, n, m = 40, 6, 5
    rbm = random_rbm(n, m, scale, rng(2013, "test_pt", "round", t))
    streams = ChainStreams.from_seed(2013, "test_pt", "round", t, n_chains=R * t)
    pt = ParallelTempering(FlipTheState(), linear_betas(t), 1, R, n, m, streams, rng(2013, "test_pt", "round_swap", t))
    total = np.zeros(t - 1, dtype=np.int64)
    for _ in range(20):
        pt.operator.sweep(rbm, pt.v, pt.h, pt.streams, betas=pt.chain_betas)
        d = tempered_delta(rbm, pt.v, pt.h).reshape(R, t)
        replay = np.random.Generator(type(pt.swap_rng.bit_generator)())  # the sampler's own next draws
        replay.bit_generator.state = pt.swap_rng.bit_generator.state
        want_v, want_h, want_acc = _reference_swap_round(
            pt.betas, pt.v.reshape(R, t, n), pt.h.reshape(R, t, m), d, replay.random((R, t - 1))
        )
        before = pt.n_accepted.copy()
        pt._swap(rbm)
        np.testing.assert_array_equal(pt.v.reshape(R, t, n), want_v)
        np.testing.assert_array_equal(pt.h.reshape(R, t, m), want_h)
        np.testing.assert_array_equal(pt.n_accepted - before, want_acc)
        total += want_acc
    assert np.all(total > 0) and np.all(total < 20 * R)  # swaps both accepted and rejected on every pair
