"""CAST's swap as Salakhutdinov (2010) states it (sections 6.1 and 8) and the spec decides it, on a fixed small DBM.

Every 50 updates slow chain i takes fast chain i's last fresh beta = 1 state (visited at beta = 1
after the fast chain left beta = 1 since the previous swap; no swap otherwise); fast chain i continues
from slow chain i's state at beta = 1 without a Wang-Landau update. Checked: no swap hands a slow chain
its own earlier state or that state after one sweep (and a detector that sees it under the old rule, any
beta = 1 state); a fast chain that never leaves beta = 1 makes no swap, and CAST is then its control SAP-50
bit for bit. The spec decided that the placement at beta = 1 stays and that no test asserts that the
Wang-Landau weights agree with and without swapping; the occupancy diagnostic of every CAST training
(cast_tempering figure, the CAST rows' details) shows the fast chains' levels and weights instead.
Measured once on this model (8 repeats of 3000 updates, same streams with and without swaps): with
per-chain weights the placement pulled log g_20 - log g_1 to about -54 against -5 without swaps; with the
one shared vector the difference is +3.6 nats (z = 0.5), and every level's occupancy is 0.050.
That comparison is now a training of its own (CAST-noswap: swap_every = 0, one seed, drawn in
cast_tempering): checked here, it makes no swap and is CAST, bit for bit, up to CAST's first swap,
with SAP-50's slow chains throughout.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bmrep.learning.dbm_samplers import CONTROL, NOSWAP, SamplerSettings, make_sampler
from bmrep.learning.dbm_training import train_dbm
from bmrep.models.dbm import DBM
from bmrep.papers.salakhutdinov2010.tempering import occupancy_table, swap_comparison
from bmrep.sampling.streams import ChainStreams
from bmrep.seeds import rng as keyed_rng

SEED = 20261124
N_CHAINS = 40  # 20 slow + 20 fast
SWAP_EVERY = 50


def fixed_dbm() -> DBM:
    """A 30-15-15 DBM with N(0, 0.5^2) weights: big enough that an exact repeat of a 60-unit state is rare."""
    return DBM.random(30, 15, 15, keyed_rng(SEED, "cast-swap-model"), scale=0.5)


def cast(dbm, repeat: int, swap_every: int, algorithm: str = "CAST", record_every: int = 50):
    s = make_sampler(
        algorithm,
        dbm,
        ChainStreams.from_seed(SEED, "cast-swap", repeat, n_chains=N_CHAINS),
        keyed_rng(SEED, "cast-swap-init", repeat),
        SamplerSettings(
            n_chains=N_CHAINS,
            cast_n_betas=20,
            cast_beta_min=0.9,
            cast_gamma=10.0,
            cast_swap_every=swap_every,
            cast_record_every=record_every,
        ),
    )
    return s


def _rows(chains, i) -> bytes:
    return np.concatenate([chains.v[i], chains.h1[i], chains.h2[i]]).astype(np.uint8).tobytes()


def _swap_returns(old_rule: bool, n_updates: int = 3000):
    """Run CAST and count swaps that hand slow chain i a state it handed over, or that state after one sweep.

    ``old_rule`` counts every beta = 1 state since the previous swap as fresh (the rule before issue 40),
    so that the detector is shown to see what the fresh rule prevents.
    """
    dbm = fixed_dbm()
    s = cast(dbm, 0, SWAP_EVERY)
    n = s.n_slow
    handed = [set() for _ in range(n)]  # every state slow chain i handed over, and that state one sweep on
    n_swapped = n_own = n_handed_seen = 0
    before, swapped_last, prev_took, prev_swap = [], np.array([], dtype=int), [], -1
    swap = s.swap

    def recorded_swap(t):  # the slow chains' states just before the swap (after this update's sweep)
        before[:] = [_rows(s.chains, i) for i in range(n)]
        return swap(t)

    s.swap = recorded_swap
    for t in range(n_updates):
        if old_rule:
            s.left1[:] = True
        swaps_before = s.n_swaps
        s.step(dbm, t)
        for i in swapped_last:  # the update after a swap: the handed state after one sweep (at beta = 1)
            handed[i].add(_rows(s.chains, n + i))
        swapped_last = np.array([], dtype=int)
        if (t + 1) % SWAP_EVERY:
            continue
        took = []
        for i in range(n):
            slow_now, fast_now = _rows(s.chains, i), _rows(s.chains, n + i)
            if fast_now == before[i] and slow_now != before[i]:  # pair i swapped
                n_swapped += 1
                n_own += slow_now in handed[i]
                handed[i].add(before[i])
                n_handed_seen += fast_now in handed[i]  # the detector sees the handed state (not vacuous)
                took.append(i)
        swapped_last = np.array(took, dtype=int)
        assert s.n_swaps - swaps_before == len(took)
        again = sorted(set(took) & set(prev_took))
        if not old_rule:  # a pair swapped twice: its state was recorded after leaving beta = 1, >= 2 updates on
            assert np.all(s.beta1_update[again] >= prev_swap + 2)
        prev_took, prev_swap = took, t
    return s, n_swapped, n_own, n_handed_seen


def test_no_swap_hands_a_slow_chain_its_own_state_or_one_sweep_of_it():
    s, n_swapped, n_own, n_handed_seen = _swap_returns(old_rule=False)
    n = s.n_slow
    assert n_swapped == s.n_swaps and n_handed_seen == n_swapped
    # enough swaps for the count below to mean something: a fast chain must leave beta = 1 and come back within
    # 50 updates, which a walk over 20 levels with a flat occupancy does about a third of the time here
    assert n_swapped > 0.2 * n * (3000 // SWAP_EVERY)
    assert n_own == 0, f"{n_own} of {n_swapped} swaps returned a slow chain's own state or one sweep of it"
    d = s.diagnostics()
    assert d["swaps"] + d["swaps_skipped"] == n * (3000 // SWAP_EVERY)
    assert 1 <= d["swap_mean_age"] < SWAP_EVERY - 1  # fresh: recorded after leaving beta = 1 since the swap
    rec = s.records()
    np.testing.assert_array_equal(rec["swap_swapped"].sum(), n_swapped)


def test_the_detector_sees_one_sweep_returns_under_the_old_rule():
    """Not vacuous: counting any beta = 1 state as fresh does hand slow chains one sweep of their own state."""
    s, n_swapped, n_own, _ = _swap_returns(old_rule=True, n_updates=1000)
    assert n_own > 0.01 * n_swapped, f"{n_own} of {n_swapped}"


def test_a_fast_chain_that_never_leaves_beta1_makes_no_swap_and_cast_is_then_its_control():
    """Fast chains held at beta = 1 (huge weights below it) never swap; the slow chains are then SAP-50's chains.

    Trained on a small data set, CAST's parameters then equal those of the control SAP-50 (the same streams and
    initial states as CAST's slow half) bit for bit; with free fast chains they equal them up to the first swap.
    """
    dbm0 = DBM.random(30, 15, 15, keyed_rng(SEED, "cast-control-model"), scale=0.1).astype(np.float32)
    X = (keyed_rng(SEED, "cast-control-data").random((200, 30)) < 0.3).astype(np.float32)

    def run(algorithm, n_updates, held=False):
        dbm = dbm0.copy()
        s = cast(dbm, 3, SWAP_EVERY, algorithm=algorithm)
        if held:
            s.tempering.log_g[0, 1:] = 1e9  # every k-move away from beta = 1 is rejected
        train_dbm(dbm, X, s, n_updates=n_updates, batch_size=20, rng=keyed_rng(SEED, "cast-control-batches"))
        return dbm, s

    held, s = run("CAST", 200, held=True)
    assert np.all(s.tempering.k == 0) and s.n_swaps == 0 and not s.fresh.any()
    assert s.n_skipped == s.n_fast * (200 // SWAP_EVERY)
    assert np.all(s.records()["swap_swapped"] == 0) and np.all(s.records()["swap_reached_min"] == 0)
    control, _ = run("SAP-50", 200)
    for k, a in held.params().items():
        np.testing.assert_array_equal(a, control.params()[k], err_msg=k)
    free, s = run("CAST", 200)
    assert s.n_swaps > 0
    assert not np.array_equal(free.W1, control.W1)  # the swaps change the slow chains
    free_early, _ = run("CAST", SWAP_EVERY - 1)
    control_early, _ = run("SAP-50", SWAP_EVERY - 1)
    np.testing.assert_array_equal(free_early.W1, control_early.W1)


def test_no_swap_without_a_fresh_beta1_state():
    """A pair whose fast chain stayed away from beta = 1 since the previous swap is left alone."""
    dbm = fixed_dbm()
    s = cast(dbm, 1, SWAP_EVERY)
    for t in range(SWAP_EVERY - 1):
        s.step(dbm, t)
    s.fresh[:3] = False  # as if fast chains 0-2 had not been at beta = 1 since the last swap
    before = s.chains.copy()
    k_before = s.tempering.k.copy()
    log_g = s.tempering.log_g.copy()
    swapped = s.swap(SWAP_EVERY - 1)
    assert not np.isin([0, 1, 2], swapped).any() and swapped.size > 0
    for i in range(3):
        np.testing.assert_array_equal(s.chains.v[i], before.v[i])
        np.testing.assert_array_equal(s.chains.v[s.n_slow + i], before.v[s.n_slow + i])
    assert np.all(s.tempering.k[swapped] == 0)
    np.testing.assert_array_equal(np.delete(s.tempering.k, swapped), np.delete(k_before, swapped))
    np.testing.assert_array_equal(s.tempering.log_g, log_g)  # no Wang-Landau update for the placement
    assert not s.fresh.any()


def test_without_swapping_cast_makes_no_swap_and_is_cast_until_its_first_swap():
    """CAST-noswap (swap_every = 0) on CAST's streams: no swap ever; every chain, level and weight and every
    record equal CAST's up to CAST's first swap (update 50), and differ after it (the comparison can fail)."""
    dbm = fixed_dbm()
    with_swaps = cast(dbm, 2, SWAP_EVERY, record_every=10)
    without = cast(dbm, 2, SWAP_EVERY, algorithm=NOSWAP, record_every=10)
    assert without.swap_every == 0  # CAST's swap_every option does not reach CAST-noswap
    for t in range(4 * SWAP_EVERY):
        with_swaps.step(dbm, t)
        without.step(dbm, t)
        if t < SWAP_EVERY - 1:  # the first swap comes at the end of update SWAP_EVERY - 1
            for name in ("v", "h1", "h2"):
                np.testing.assert_array_equal(getattr(with_swaps.chains, name), getattr(without.chains, name))
            np.testing.assert_array_equal(with_swaps.tempering.k, without.tempering.k)
            np.testing.assert_array_equal(with_swaps.tempering.log_g, without.tempering.log_g)
    assert with_swaps.n_swaps > 0 and without.n_swaps == 0 and without.n_skipped == 0
    r_with, r_without = with_swaps.records(), without.records()
    assert r_without["swap_update"].size == 0 and r_without["swap_swapped"].size == 0
    np.testing.assert_array_equal(r_with["window_end"], r_without["window_end"])
    early = r_with["window_end"] <= SWAP_EVERY  # the windows recorded before the first swap
    assert early.sum() == SWAP_EVERY // 10
    for key in ("occupancy", "log_weights"):
        np.testing.assert_array_equal(r_with[key][early], r_without[key][early])
        assert not np.array_equal(r_with[key][~early], r_without[key][~early]), key
    assert without.diagnostics()["swaps"] == 0 and without.diagnostics()["reached_min_last_swap"] == 0


def test_without_swapping_the_slow_chains_are_the_control_sap50():
    """With free fast chains (not held at beta = 1) and no swaps, training equals SAP-50's bit for bit."""
    dbm0 = DBM.random(30, 15, 15, keyed_rng(SEED, "cast-control-model"), scale=0.1).astype(np.float32)
    X = (keyed_rng(SEED, "cast-control-data").random((200, 30)) < 0.3).astype(np.float32)
    models = {}
    for algorithm in (NOSWAP, CONTROL, "CAST"):
        dbm = dbm0.copy()
        s = cast(dbm, 3, SWAP_EVERY, algorithm=algorithm)
        train_dbm(dbm, X, s, n_updates=150, batch_size=20, rng=keyed_rng(SEED, "cast-control-batches"))
        models[algorithm] = dbm
        if algorithm == NOSWAP:  # the fast chains temper
            assert s.records()["occupancy"][:, len(s.tempering.betas) // 2 :].sum() > 0
    for k, a in models[NOSWAP].params().items():
        np.testing.assert_array_equal(a, models[CONTROL].params()[k], err_msg=k)
    assert not np.array_equal(models["CAST"].W1, models[NOSWAP].W1)  # the swaps do change the slow chains


def test_swap_every_must_not_be_negative():
    with pytest.raises(ValueError, match="swap_every"):
        cast(fixed_dbm(), 0, -SWAP_EVERY)


def test_swap_comparison_reads_the_second_half_and_the_last_weights():
    """The with/without table: each level's share over the windows after half of training, the last log-weights."""
    K = 4

    def records(first, second, last_weights):  # 4 windows of 50 updates: two in each half
        return {
            "window_end": np.array([50, 100, 150, 200]),
            "occupancy": np.array([first, first, second, second]),
            "log_weights": np.array([np.zeros(K), np.zeros(K), np.ones(K), last_weights], dtype=float),
            "betas": np.linspace(1, 0.9, K),
        }

    with_swaps = occupancy_table(records([100, 0, 0, 0], [40, 30, 20, 10], np.array([0, -1.0, -2.0, -3.0])), 0)
    without = occupancy_table(records([0, 0, 0, 100], [25, 25, 25, 25], np.array([0, -0.5, -1.0, -1.5])), 0)
    other_seed = occupancy_table(records([1, 1, 1, 1], [1, 1, 1, 1], np.zeros(K)), 1)  # CAST only: left out
    t = swap_comparison(pd.concat([with_swaps, other_seed]), without)
    assert list(t["repeat"]) == [0] * K and list(t["level"]) == [1, 2, 3, 4]
    np.testing.assert_allclose(t["share_swapping"], [0.4, 0.3, 0.2, 0.1])
    np.testing.assert_allclose(t["share_noswap"], [0.25] * K)
    np.testing.assert_allclose(t["log_weight_difference"], [0, -0.5, -1.0, -1.5])
    np.testing.assert_allclose(t["beta"], np.linspace(1, 0.9, K))
    assert swap_comparison(with_swaps, without.iloc[:0]).empty
