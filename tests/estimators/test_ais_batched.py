"""Independent AIS replicates annealed as blocks of one set of chains give the numbers of separate runs, bit for bit.

``replicated_log_z`` runs its replicates together (``ais_replicates``: per-block
ladders in ``bmrep.estimators.ais.anneal``, per-block betas in the DBM family)
wherever ``batch_rows_exact`` says the BLAS sums a block's rows as it sums the
block alone; the reference is one ``estimate_log_z`` per replicate. Equality
is ``==`` on every float, never a tolerance.
"""

from __future__ import annotations

import numpy as np
import pytest

from bmrep.estimators.ais import ais_log_partition, ais_log_weights
from bmrep.estimators.dbm_ais import batch_rows_exact, data_base_biases
from bmrep.models.dbm import DBM
from bmrep.models.rbm import RBM
from bmrep.papers.salakhutdinov2010 import evaluation
from bmrep.papers.salakhutdinov2010.evaluation import ais_replicates, estimate_log_z, replicated_log_z
from bmrep.sampling.ladders import piecewise_betas
from bmrep.sampling.streams import ChainStreams
from bmrep.seeds import rng as keyed_rng
from support.config_sections import ais_settings
from support.testsystems import random_dbm

SEED = 20261122
RUN_FIELDS = ("estimate", "stderr", "ess", "log_weights", "betas", "step_sd", "partial_log_z", "n_betas", "budget")

# (D, F1, F2, weight scale, chain dtype, n_runs, replicates, n_betas)
SMALL = (20, 12, 8, 0.5, "float32", 8, 3, 80)
CASES = {
    "20-12-8-float32": SMALL,
    "20-12-8-float64": (20, 12, 8, 0.5, "float64", 8, 3, 80),
    "784-50-60-float32": (784, 50, 60, 0.05, "float32", 8, 3, 60),
}


def _model(D, F1, F2, scale, key, dyadic=False):
    d = random_dbm(D, F1, F2, scale, keyed_rng(SEED, f"{key}-dbm"), bias_scale=0.5)
    if dyadic:
        # weights on a grid of 2^-8: a product of 0/1 states with them is exact in any summation order,
        # so a batch's rows equal a block's whatever the BLAS does (the test is about the blocks, not BLAS)
        d = DBM(*(np.round(w * 256.0) / 256.0 for w in (d.W1, d.W2)), d.b, d.c1, d.c2)
    data = (keyed_rng(SEED, f"{key}-data").random((200, D)) < 0.3).astype(float)
    return d, data_base_biases(d, data)


def _setup(case, schedule, dyadic=False, state=None):
    D, F1, F2, scale, dtype, n_runs, n_rep, n_betas = CASES[case] if isinstance(case, str) else case
    d, bases = _model(D, F1, F2, scale, f"{D}-{F1}-{F2}", dyadic)
    ais = ais_settings(state, n_betas=n_betas, n_runs=n_runs, dtype=dtype, schedule=schedule)
    return d, bases, ais, n_rep


def _same(a, b) -> bool:
    """Bit-identical floats, arrays (same dtype) and lists; NaN equals NaN."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return a is None and b is None or (a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True))
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and np.isnan(a):
        return isinstance(b, float) and np.isnan(b)
    return type(a) is type(b) and a == b


def _sequential(monkeypatch):
    """Make ``replicated_log_z`` run its replicates one after the other (the reference)."""
    monkeypatch.setattr(evaluation, "batch_rows_exact", lambda *args: False)


@pytest.mark.parametrize("state", ["v_h2", "h1"])
@pytest.mark.parametrize("schedule", ["adaptive", "piecewise"])
@pytest.mark.parametrize("case", list(CASES))
def test_batched_replicates_are_the_separate_runs(case, schedule, state):
    """Every field of every replicate's AISRun (weights, ladder, step spreads, partial log Z) equals its own run."""
    d, bases, ais, n_rep = _setup(case, schedule, dyadic=True, state=state)
    assert batch_rows_exact(d, ais.n_runs, n_rep, ais.chain_dtype)
    keys = [("t", case, "replicate", j) for j in range(n_rep)]
    batched = ais_replicates(d, ais, bases, SEED, keys, record_partial=True)
    assert len(batched) == n_rep
    for k, run in zip(keys, batched, strict=True):
        alone = estimate_log_z(d, ais, bases, SEED, *k, record_partial=True)
        bad = [f for f in RUN_FIELDS if not _same(getattr(run, f), getattr(alone, f))]
        assert not bad, (k, bad)
    if schedule == "adaptive":  # each replicate annealed along the ladder of its own pilot
        assert len({r.betas.tobytes() for r in batched}) == n_rep


@pytest.mark.parametrize("schedule", ["adaptive", "piecewise"])
@pytest.mark.parametrize("case", [*CASES, (784, 50, 60, 0.05, "float32", 10, 3, 60)])
def test_replicated_log_z_equals_the_sequential_replicates(case, schedule, monkeypatch):
    """The dict of ``replicated_log_z`` (batched where exact, else sequential) equals the sequential one exactly.

    The last case (blocks of 10 rows of a 784-50-60 float32 DBM) is one that OpenBLAS 0.3.31 on AVX-512 does not
    sum alike batched and alone; there the guard must fall back to one run after another.
    """
    d, bases, ais, n_rep = _setup(case, schedule)
    got = replicated_log_z(d, ais, bases, n_rep, SEED, "final", 0)
    _sequential(monkeypatch)
    want = replicated_log_z(d, ais, bases, n_rep, SEED, "final", 0)
    assert got.keys() == want.keys()
    bad = [k for k in got if not _same(got[k], want[k])]
    assert not bad, bad


def test_one_replicate_and_one_block():
    """R = 1 is a single run (NaN spread); a batch of one block is always exact."""
    d, bases, ais, _ = _setup("20-12-8-float32", "adaptive")
    z = replicated_log_z(d, ais, bases, 1, SEED, "one")
    run = estimate_log_z(d, ais, bases, SEED, "one", "replicate", 0)
    assert z["log_z_replicates"] == [run.estimate] and np.isnan(z["log_z_stderr"])
    assert batch_rows_exact(d, 7, 1)


def test_block_ladders_are_checked():
    """A matrix of ladders must split the runs into equal blocks, have valid columns, and anneal a DBM."""
    d, bases, _, _ = _setup("20-12-8-float32", "piecewise")
    ladders = np.repeat(piecewise_betas(20)[:, None], 3, axis=1)
    streams = ChainStreams.from_seed(SEED, "blocks", n_chains=8)
    with pytest.raises(ValueError, match="equal blocks"):
        ais_log_partition(d, 8, ladders, streams, bases)
    bad = ladders.copy()
    bad[5, 1] = bad[4, 1]
    with pytest.raises(ValueError, match="increasing"):
        ais_log_weights(bad, n_runs=9, rng=None, init_sample=None, transition=None, log_z_base=0.0)
    rbm = RBM(np.zeros((4, 3)), np.zeros(4), np.zeros(3))
    with pytest.raises(ValueError, match="DBMs only"):
        ais_log_partition(rbm, 9, ladders, ChainStreams.from_seed(SEED, "rbm", n_chains=9))
