"""CAST-perchain: CAST with one Wang-Landau weight vector per fast chain (Algorithm 1 of Salakhutdinov 2010 read
literally; issue 51's evidence run trains it beside CAST's one shared vector).

Checked here on fixed small DBMs: with one fast chain it is CAST bit for bit (one chain's own vector is the shared
vector); with many, a chain's weights change only at that chain's own visits, by log(1 + gamma) at the level it
moved to (eq. 5), never at a swap; and the two variants do differ then. Its checkpoint resumes bit-identically
(tests/learning/test_checkpoint.py runs every algorithm of make_sampler, CAST-perchain included).
"""

from __future__ import annotations

import numpy as np

from bmrep.learning.dbm_samplers import PERCHAIN, SamplerSettings, make_sampler
from bmrep.learning.dbm_training import train_dbm
from bmrep.models.dbm import DBM
from bmrep.sampling.streams import ChainStreams
from bmrep.seeds import rng as keyed_rng

SEED = 20261128
GAMMA = 10.0


def _sampler(algorithm: str, dbm: DBM, n_chains: int, swap_every: int = 50):
    return make_sampler(
        algorithm,
        dbm,
        ChainStreams.from_seed(SEED, "cast-perchain", n_chains=n_chains),
        keyed_rng(SEED, "cast-perchain-init"),
        SamplerSettings(
            n_chains=n_chains,
            cast_n_betas=20,
            cast_beta_min=0.9,
            cast_gamma=GAMMA,
            cast_swap_every=swap_every,
            cast_record_every=25,
        ),
    )


def _train(algorithm: str, n_chains: int, n_updates: int = 300):
    """A 16-8-8 DBM trained on 40 random binary images with CAST or CAST-perchain (same streams and data)."""
    rng = keyed_rng(SEED, "cast-perchain-model")
    dbm = DBM.random(16, 8, 8, rng, scale=1.0).astype(np.float32)
    X = (keyed_rng(SEED, "cast-perchain-data").random((40, 16)) < 0.3).astype(np.float32)
    s = _sampler(algorithm, dbm, n_chains, swap_every=20)
    train_dbm(dbm, X, s, n_updates=n_updates, batch_size=10, lr=0.05, rng=keyed_rng(SEED, "cast-perchain-mb"))
    return dbm, s


def _assert_same(a, b, where=""):
    if isinstance(a, dict):
        assert set(a) == set(b), where
        for k in a:
            _assert_same(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b), err_msg=where, strict=True)
    else:
        assert a == b, where


def test_one_fast_chain_is_cast_bit_for_bit():
    cast, s_cast = _train("CAST", n_chains=2)
    per, s_per = _train(PERCHAIN, n_chains=2)
    _assert_same(cast.params(), per.params(), "params")
    state_cast, state_per = s_cast.get_state(), s_per.get_state()
    _assert_same(state_cast, state_per, "sampler state")
    rec_cast, rec_per = s_cast.records(), s_per.records()
    assert set(rec_per) - set(rec_cast) == {"first_reached_min"}  # the per-chain record of when it tempered
    _assert_same(rec_cast, {k: v for k, v in rec_per.items() if k != "first_reached_min"}, "records")
    # not vacuous: the fast chain did temper, swap and move its weights
    assert s_cast.n_swaps > 0 and rec_cast["occupancy"][:, 1:].sum() > 0
    assert np.ptp(s_cast.tempering.log_g) > 0
    assert rec_per["first_reached_min"].shape == (1,)


def test_many_fast_chains_differ_from_cast():
    cast, _ = _train("CAST", n_chains=20)
    per, s_per = _train(PERCHAIN, n_chains=20)
    assert not np.array_equal(cast.W1, per.W1)
    assert s_per.tempering.log_g.shape == (10, 20)


def test_a_chains_weights_change_only_at_its_own_visits():
    """Every update, chain i's vector gains log(1 + gamma) at the level chain i moved to, and nothing else; a
    swap (every 50 updates here) changes no weight."""
    dbm = DBM.random(30, 15, 15, keyed_rng(SEED, "cast-perchain-fixed"), scale=0.5)
    s = _sampler(PERCHAIN, dbm, n_chains=40)
    at = s.tempering
    n_fast = s.n_fast
    at_swap = []  # (k, log g) just before each swap: the swap places chains at beta = 1 after their visit counted
    swap = s.swap

    def recorded_swap(t):
        at_swap.append((at.k.copy(), at.log_g.copy()))
        return swap(t)

    s.swap = recorded_swap
    gain = np.log1p(GAMMA)
    rows = np.arange(n_fast)
    left_beta1 = np.zeros(n_fast, dtype=bool)
    for t in range(400):
        before = at.log_g.copy()
        n_swaps = len(at_swap)
        s.step(dbm, t)  # sweep, k-move, weight update; the swap after updates 50, 100, ...
        if len(at_swap) > n_swaps:
            k, log_g_pre_swap = at_swap[-1]
            np.testing.assert_array_equal(at.log_g, log_g_pre_swap)  # the swap changed no weight
        else:
            k = at.k
        expected = before.copy()
        expected[rows, k] += gain
        np.testing.assert_array_equal(at.log_g, expected)
        left_beta1 |= k > 0
    assert len(at_swap) == 8 and s.n_swaps > 0
    # not vacuous: chains left beta = 1 at different times, so their vectors differ
    assert left_beta1.sum() >= n_fast // 2
    assert len({row.tobytes() for row in at.log_g}) > n_fast // 2
