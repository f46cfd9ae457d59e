"""Two-layer DBM: exact enumeration, mean field and eq. (3), Gibbs through the core, AIS, training loop."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import logsumexp

from bmrep.estimators.ais import ais_log_partition
from bmrep.estimators.base import base_log_partition
from bmrep.estimators.dbm_ais import data_base_bias, data_base_biases
from bmrep.learning.dbm_pretraining import pretrain_dbm
from bmrep.learning.dbm_samplers import ALGORITHMS, SamplerSettings, make_sampler
from bmrep.learning.dbm_training import train_dbm
from bmrep.models.dbm import (
    DBM,
    base_logits,
    mean_field,
    tempered_log_f,
    tempered_log_f_h1,
    variational_bound,
)
from bmrep.models.exact import all_states
from bmrep.models.exact import dbm as exact_dbm
from bmrep.sampling import ChainStreams
from bmrep.sampling.dbm_gibbs import gibbs_sweep
from bmrep.sampling.ladders import linear_betas, piecewise_betas
from bmrep.seeds import rng as keyed_rng
from support.testsystems import chi2_pvalue, dbm_state_index, exact_dbm_draws, random_dbm

SEED = 20261121


def brute_log_z(d, beta=1.0, base=None):
    D, F1, F2 = d.shape
    X = all_states(D + F1 + F2).astype(float)
    a = np.zeros(D) if base is None else base
    lp = -beta * d.energy(X[:, :D], X[:, D : D + F1], X[:, D + F1 :]) + (1 - beta) * X[:, :D] @ a
    return logsumexp(lp)


@pytest.mark.parametrize("beta", [1.0, 0.37, 0.0])
def test_exact_log_z_matches_brute_force(beta):
    d = random_dbm(5, 4, 3, 1.5, keyed_rng(SEED, "test_dbm", "z"))
    a = keyed_rng(SEED, "base").normal(0, 1, 5)
    assert exact_dbm.log_partition(d, beta, a) == pytest.approx(brute_log_z(d, beta, a), abs=1e-10)
    assert exact_dbm.log_partition(d, 0.0, a) == pytest.approx(base_log_partition(base_logits(d, a)), abs=1e-10)


@pytest.mark.parametrize("hidden_base", [False, True])
def test_tempered_marginals_sum_to_the_exact_partition_function(hidden_base):
    """Both AIS families (h1 summed out; v, h2 summed out) against brute-force enumeration."""
    d = random_dbm(5, 4, 3, 1.5, keyed_rng(SEED, "test_dbm", "fh1"))
    r = keyed_rng(SEED, "base3")
    base = (r.normal(0, 1, 5), r.normal(0, 1, 4), r.normal(0, 1, 3)) if hidden_base else r.normal(0, 1, 5)
    H1 = all_states(4).astype(float)
    VH = all_states(8).astype(float)
    D = 5
    X = all_states(12).astype(float)
    a, a1, a2 = base if hidden_base else (base, np.zeros(4), np.zeros(3))
    for beta in (0.0, 0.5, 1.0):
        lp = -beta * d.energy(X[:, :D], X[:, D : D + 4], X[:, D + 4 :]) + (1 - beta) * (
            X[:, :D] @ a + X[:, D : D + 4] @ a1 + X[:, D + 4 :] @ a2
        )
        z = logsumexp(lp)
        assert exact_dbm.log_partition(d, beta, base) == pytest.approx(z, abs=1e-10)
        assert logsumexp(tempered_log_f_h1(d, H1, beta, base)) == pytest.approx(z, abs=1e-10)
        assert logsumexp(tempered_log_f(d, VH[:, :5], VH[:, 5:], beta, base)) == pytest.approx(z, abs=1e-10)
    assert base_log_partition(base_logits(d, base)) == pytest.approx(exact_dbm.log_partition(d, 0.0, base), abs=1e-10)


def test_exact_log_prob_normalised_and_large_weights_finite():
    d = random_dbm(6, 4, 5, 1.0, keyed_rng(SEED, "test_dbm", "p"))
    V = all_states(6).astype(float)
    assert logsumexp(exact_dbm.log_prob_v(d, V)) == pytest.approx(0.0, abs=1e-10)
    big = random_dbm(6, 4, 5, 50.0, keyed_rng(SEED, "test_dbm", "big"))
    assert np.isfinite(exact_dbm.log_partition(big)) and np.all(np.isfinite(exact_dbm.log_prob_v(big, V)))


def test_mean_field_fixed_point_and_bound_below_exact_log_likelihood():
    d = random_dbm(8, 5, 4, 1.5, keyed_rng(SEED, "test_dbm", "mf"))
    V = all_states(8).astype(float)
    lz = exact_dbm.log_partition(d)
    ll = exact_dbm.log_prob_v(d, V, lz)
    mu1, mu2 = mean_field(d, V, n_iter=500, tol=1e-12)
    sig = lambda x: 1 / (1 + np.exp(-x))  # noqa: E731
    assert np.max(np.abs(mu1 - sig(V @ d.W1 + mu2 @ d.W2.T + d.c1))) < 1e-9
    assert np.max(np.abs(mu2 - sig(mu1 @ d.W2 + d.c2))) < 1e-9
    for kw in ({"n_iter": 500, "tol": 1e-12}, {"n_iter": 5}, {"n_iter": 50, "damping": 0.5}):
        bound = variational_bound(d, V, lz, **kw)
        assert np.all(bound <= ll + 1e-10)
    # the bound is an identity (KL = 0) when the posterior factorises: W2 = 0
    d0 = DBM(d.W1, np.zeros_like(d.W2), d.b, d.c1, d.c2)
    lz0 = exact_dbm.log_partition(d0)
    np.testing.assert_allclose(variational_bound(d0, V, lz0, n_iter=3), exact_dbm.log_prob_v(d0, V, lz0), atol=1e-10)


@pytest.mark.parametrize("reverse", [False, True])
def test_gibbs_sweep_leaves_dbm_invariant_and_reports_energy(reverse):
    d = random_dbm(3, 2, 2, 1.5, keyed_rng(SEED, "test_dbm", "inv"))
    n = 60000
    ch, lp = exact_dbm_draws(d, n, keyed_rng(SEED, "exact-samples", f"sweep{reverse}"))
    e = gibbs_sweep(d, ch, ChainStreams.from_seed(SEED, "sweep", int(reverse), n_chains=n), reverse=reverse)
    np.testing.assert_allclose(e, d.energy(ch.v, ch.h1, ch.h2), atol=1e-10)
    counts = np.bincount(dbm_state_index(ch), minlength=lp.size)
    assert chi2_pvalue(counts, n * np.exp(lp)) > 1e-3


def test_ais_matches_exact_log_z_within_0p1_nats():
    """The spec's claim "AIS log Z within 0.1 nats of exact on an enumerable DBM"."""
    d = random_dbm(20, 12, 10, 0.5, keyed_rng(SEED, "test_dbm", "ais"), bias_scale=0.5)
    exact = exact_dbm.log_partition(d)
    base = data_base_bias((keyed_rng(SEED, "basedata").random((500, 20)) < 0.3).astype(float))
    run = ais_log_partition(d, 100, piecewise_betas(1000), ChainStreams.from_seed(SEED, "ais", n_chains=100), base)
    assert abs(run.estimate - exact) < 0.1
    assert abs(run.estimate - exact) < 4 * run.stderr + 0.02
    run32 = ais_log_partition(
        d, 100, linear_betas(1000), ChainStreams.from_seed(SEED, "ais32", n_chains=100), base, dtype=np.float32
    )
    assert abs(run32.estimate - exact) < 0.1
    bases = data_base_biases(d, (keyed_rng(SEED, "basedata").random((500, 20)) < 0.3).astype(float))
    for state in ("h1", "v_h2"):
        run = ais_log_partition(
            d, 100, piecewise_betas(1000), ChainStreams.from_seed(SEED, "ais3", state, n_chains=100), bases, state=state
        )
        assert abs(run.estimate - exact) < 0.1
        assert abs(run.estimate - exact) < 4 * run.stderr + 0.02


def test_ais_partial_estimates_track_exact_intermediate_log_z():
    """The exact check's beta profile: every running estimate log Z_k agrees with the exact tempered log Z_k."""
    d = random_dbm(20, 12, 10, 0.5, keyed_rng(SEED, "test_dbm", "ais-partial"), bias_scale=0.5)
    bases = data_base_biases(d, (keyed_rng(SEED, "basedata").random((500, 20)) < 0.3).astype(float))
    betas = piecewise_betas(1000)
    run = ais_log_partition(
        d, 100, betas, ChainStreams.from_seed(SEED, "ais-partial", n_chains=100), bases, record_partial=True
    )
    assert run.partial_log_z.shape == betas.shape
    assert run.partial_log_z[-1] == pytest.approx(run.estimate)
    for k in np.linspace(0, betas.size - 1, 12).astype(int):
        exact_k = exact_dbm.log_partition(d, beta=float(betas[k]), base_bias=bases)
        assert abs(run.partial_log_z[k] - exact_k) < 4 * run.stderr + 0.02


def test_pretraining_composes_doubled_rbms():
    r = keyed_rng(SEED, "pretrain-data")
    X = (r.random((300, 12)) < 0.3).astype(np.float64)
    d = pretrain_dbm(
        X,
        6,
        5,
        n_epochs=2,
        batch_size=50,
        lr=0.05,
        momentum=0.5,
        weight_decay=0.0,
        rng=keyed_rng(SEED, "pt"),
        streams=ChainStreams.from_seed(SEED, "pt", n_chains=50),
        dtype=np.float64,
    )
    assert d.shape == (12, 6, 5) and d.dtype == np.float64
    assert np.all(np.isfinite(d.W1)) and np.abs(d.W1).max() > 0.01


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_algorithm_trains_deterministically(algorithm):
    r = keyed_rng(SEED, "train-data")
    X = (r.random((200, 10)) < 0.3).astype(np.float32)

    def run():
        d = DBM.random(10, 6, 4, keyed_rng(SEED, "init"), scale=0.1).astype(np.float32)
        s = make_sampler(
            algorithm,
            d,
            ChainStreams.from_seed(SEED, algorithm, n_chains=20),
            keyed_rng(SEED, "c"),
            SamplerSettings(n_chains=20, tt_levels=4, cast_n_betas=5, cast_swap_every=5),
        )
        seen = []
        train_dbm(
            d,
            X,
            s,
            n_updates=30,
            batch_size=20,
            rng=keyed_rng(SEED, "mb"),
            callback=lambda t, m, smp: seen.append(t),
            callback_every=10,
        )
        return d, s, seen

    d1, s1, seen = run()
    d2, _, _ = run()
    assert seen == [10, 20, 30]
    for k, v in d1.params().items():
        assert np.all(np.isfinite(v))
        np.testing.assert_array_equal(v, d2.params()[k])
    if algorithm == "CAST":
        assert s1.n_swaps + s1.n_skipped == 6 * 10 and s1.n_swaps > 0 and s1.model_chains().n_chains == 10
    if algorithm == "FPCD":
        assert max(np.abs(f).max() for f in s1.fast.values()) > 0


def test_training_increases_the_exact_likelihood():
    """A few hundred SAP updates on a tiny DBM raise the exact training log-likelihood."""
    r = keyed_rng(SEED, "ll-data")
    protos = r.random((3, 10)) < 0.5
    X = np.abs(protos[r.integers(0, 3, 300)] ^ (r.random((300, 10)) < 0.05)).astype(np.float64)
    d = DBM.random(10, 6, 4, keyed_rng(SEED, "ll-init"), scale=0.01)
    before = exact_dbm.log_prob_v(d, X).mean()
    s = make_sampler(
        "SAP", d, ChainStreams.from_seed(SEED, "ll", n_chains=50), keyed_rng(SEED, "llc"), SamplerSettings(n_chains=50)
    )
    train_dbm(d, X, s, n_updates=300, batch_size=50, lr=0.05, rng=keyed_rng(SEED, "llmb"))
    after = exact_dbm.log_prob_v(d, X).mean()
    assert after > before + 0.5


def test_cast_swap_moves_fast_beta1_states_into_slow_chains():
    d = DBM.random(10, 6, 4, keyed_rng(SEED, "cast"), scale=0.5)
    s = make_sampler(
        "CAST",
        d,
        ChainStreams.from_seed(SEED, "cast", n_chains=8),
        keyed_rng(SEED, "cast-c"),
        SamplerSettings(n_chains=8, cast_n_betas=4, cast_beta_min=0.5, cast_gamma=1.0, cast_swap_every=4),
    )
    for t in range(3):
        s.step(d, t)
    fresh = s.fresh.copy()
    pre_swap = []
    swap = s.swap
    s.swap = lambda t: (pre_swap.append(s.model_chains().take(slice(None))), swap(t))[1]
    s.step(d, 3)  # the 4th update ends with a swap
    at1 = s.beta1_update == 3  # fast chains at beta = 1 after the 4th update's k-move
    fresh |= at1
    idx = np.flatnonzero(fresh)
    assert s.n_swaps == idx.size > 0 and s.n_skipped == 4 - idx.size and not s.fresh.any()
    slow, fast = s.model_chains(), s.chains.take(slice(4, 8))
    for a, b in ((slow.v, s.last_beta1.v), (slow.h1, s.last_beta1.h1), (slow.h2, s.last_beta1.h2)):
        np.testing.assert_array_equal(a[idx], b[idx])  # the slow chains took the fast chains' last beta = 1 states
    np.testing.assert_array_equal(fast.v[idx], pre_swap[0].v[idx])  # and handed over their own
    assert np.all(s.tempering.k[idx] == 0)
    assert len(s.k_trace) == 4


@pytest.mark.parametrize("reverse", [False, True])
def test_gibbs_sweep_without_energy_moves_the_chains_alike(reverse):
    """``energy=False`` (AIS, SAP/FPCD chains) only skips the energies: the same chains, bit for bit, and no return."""
    from bmrep.sampling.dbm_gibbs import random_chains

    dbm = random_dbm(9, 5, 4, 1.0, 11)
    runs = []
    for energy in (True, False):
        ch = random_chains(dbm, 30, np.random.default_rng(0))
        streams = ChainStreams.from_seed(0, "energy-flag", n_chains=30)
        out = [gibbs_sweep(dbm, ch, streams, betas=np.full(30, 0.7), reverse=reverse, energy=energy) for _ in range(5)]
        runs.append((ch, out))
    (a, with_e), (b, without_e) = runs
    for x, y in zip((a.v, a.h1, a.h2), (b.v, b.h1, b.h2), strict=True):
        np.testing.assert_array_equal(x, y)
    assert all(e is None for e in without_e)
    np.testing.assert_allclose(with_e[-1], dbm.energy(a.v, a.h1, a.h2), rtol=1e-12, atol=1e-12)


def test_base_logits_passed_back_are_returned_as_they_are():
    """Checked logits are not checked again; a raw triple is; a BaseLogits of another shape is checked afresh."""
    dbm = random_dbm(9, 5, 4, 1.0, 12)
    checked = base_logits(dbm, np.linspace(-1, 1, 9))
    assert base_logits(dbm, checked) is checked
    with pytest.raises(ValueError, match="non-finite"):
        base_logits(dbm, (np.full(9, np.nan), None, None))
    other = base_logits(random_dbm(8, 5, 4, 1.0, 13), None)
    with pytest.raises(ValueError, match=r"shape \(9,\)"):
        base_logits(dbm, other)
