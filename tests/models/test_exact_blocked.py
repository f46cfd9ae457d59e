"""Exact log Z of the calibration study (issue 23): blocked hidden-layer enumeration against brute force."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import logsumexp

from bmrep.models.exact import all_states
from bmrep.models.exact import rbm as exact
from support.testsystems import random_rbm


def brute_log_z(rbm):
    """The joint sum over every (v, h), no layer summed out analytically."""
    n, m = rbm.n_visible, rbm.n_hidden
    S = all_states(n + m).astype(float)
    return float(logsumexp(-rbm.energy(S[:, :n], S[:, n:])))


@pytest.mark.parametrize("n,m,scale", [(6, 5, 1.0), (4, 9, 3.0), (8, 6, 20.0), (3, 10, 60.0)])
@pytest.mark.parametrize("chunk_bits", [0, 2, 15])
def test_hidden_enumeration_matches_brute_force(n, m, scale, chunk_bits):
    r = random_rbm(n, m, scale, 100 * n + m, bias_scale=scale)
    lz = exact.log_partition(r, layer="hidden", chunk_bits=chunk_bits)
    assert lz == pytest.approx(brute_log_z(r), rel=1e-12, abs=1e-9)


@pytest.mark.parametrize("n,m,scale", [(14, 16, 0.5), (18, 12, 2.0), (16, 16, 10.0)])
def test_hidden_and_visible_enumeration_agree(n, m, scale):
    """Z = sum_v exp(-F(v)) = sum_h exp(-F(h)): two independent routes, both feasible at these sizes."""
    r = random_rbm(n, m, scale, 7 * n + m, bias_scale=scale)
    lz_h = exact.log_partition(r, layer="hidden", chunk_bits=6)
    lz_v = exact.log_partition(r, layer="visible", chunk_bits=9)
    assert lz_h == pytest.approx(lz_v, rel=1e-12, abs=1e-9)


def test_mnist_sized_hidden_enumeration_blocks_agree():
    """784 visible units (only the hidden side is feasible): the block size does not change the sum."""
    r = random_rbm(784, 12, 0.3, 5, bias_scale=0.3)
    a = exact.log_partition(r, chunk_bits=3)
    b = exact.log_partition(r, chunk_bits=12)
    assert a == pytest.approx(b, rel=1e-13)
    # against a plain (unblocked) log-sum-exp over the 2^12 hidden states' free energies
    H = all_states(12).astype(float)
    assert a == pytest.approx(float(logsumexp(-r.free_energy_h(H))), rel=1e-13)


def test_bad_layer_and_size_raise():
    r = random_rbm(30, 4, 1.0, 1, bias_scale=1.0)
    with pytest.raises(ValueError, match="layer"):
        exact.log_partition(r, layer="both")
    with pytest.raises(ValueError, match="cannot be enumerated"):
        exact.log_partition(r, layer="visible")


def test_blocked_exact_sampler_matches_exact_marginal():
    """Chi-square of 20000 blocked draws of h against the enumerated p(h) of a 30x4 RBM (16 states)."""
    from scipy import stats

    from bmrep.models.exact import state_index

    r = random_rbm(30, 4, 0.8, 21, bias_scale=0.8)
    H_all = all_states(4).astype(float)
    lw = -r.free_energy_h(H_all)
    p = np.exp(lw - logsumexp(lw))
    n = 20000
    V, H = exact.sample_exact_hidden_blocks(r, n, np.random.default_rng(3), chunk_bits=2)
    counts = np.bincount(state_index(H), minlength=16)
    chi2 = float(np.sum((counts - n * p) ** 2 / (n * p)))
    assert chi2 < stats.chi2.ppf(0.999, 15), chi2
    # v | h: the mean of v over draws with a fixed h matches sigmoid(W h + b)
    h0 = int(np.argmax(counts))
    sel = state_index(H) == h0
    mean_v = V[sel].mean(axis=0)
    expect = 1 / (1 + np.exp(-(H_all[h0] @ r.W.T + r.b)))
    z = (mean_v - expect) / np.sqrt(expect * (1 - expect) / sel.sum())
    assert np.max(np.abs(z)) < 4.5
