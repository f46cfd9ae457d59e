"""Resumable annealing and evaluation (issue 65 item 3): a killed long job resumes bit-identically.

The two paper-profile jobs predicted above 2 hours that are no training:
``carlson2016_fig3_truth`` (one long AIS or RAISE pass, :func:`bmrep.estimators.annealing.anneal`
saving its state every N steps) and ``salakhutdinov2010_evaluate`` (a curve of AIS estimates over
the snapshots and the final replicates, saved after every unit). Each is killed just after a
checkpoint, run again with fresh objects and the same file, and must end with the arrays of a run
that was never interrupted (and that had no checkpoint at all: the option changes no number). A
checkpoint written under another key is ignored and the job starts over.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bmrep.estimators.ais import ais_log_partition
from bmrep.estimators.reverse_ais import raise_log_partition
from bmrep.learning.checkpoint import Checkpoint
from bmrep.papers.carlson2016.fig3 import fig3_truth_run
from bmrep.papers.salakhutdinov2010 import evaluation
from bmrep.sampling import ChainStreams
from bmrep.sampling.ladders import piecewise_betas
from support.config_sections import evaluation_config
from support.testsystems import random_dbm, random_rbm


class Killed(Exception):
    """Stands for the job being killed."""


def killed_after(done_at: int):
    """A Checkpoint class that raises :class:`Killed` just after its save at step ``done_at``."""

    class KilledAfterSave(Checkpoint):
        def save(self, done, state, what="update"):
            super().save(done, state, what)
            if done == done_at:
                raise Killed

    return KilledAfterSave


def _interrupted_then_resumed(run, path, every: int, kill_at: int, key="k"):
    """``run(checkpoint)`` killed after the save at ``kill_at``, then run again; the result and the log lines."""
    with pytest.raises(Killed):
        run(killed_after(kill_at)(path, every, key))
    assert path.exists()
    lines: list[str] = []
    return run(Checkpoint(path, every, key, log=lines.append)), lines


# -- the annealing pass: AIS and RAISE of an RBM, AIS of a DBM (blocks of runs, both annealed states) ------------
def _rbm_ais(checkpoint, dtype=np.float32):
    rbm = random_rbm(12, 6, 0.5, 1)
    streams = ChainStreams.from_seed(2, "anneal-ckpt", n_chains=8)
    base = np.random.default_rng(3).normal(0, 0.5, 12)
    r = ais_log_partition(rbm, 8, piecewise_betas(40), streams, base, dtype=dtype, record_partial=True,
                          checkpoint=checkpoint)  # fmt: skip
    return {"log_w": r.log_weights, "partial": r.partial_log_z, "sd": r.step_sd, "v": r.state.v, "h": r.state.h,
            "streams": streams.get_state()}  # fmt: skip


def _rbm_raise(checkpoint, dtype=np.float32):
    rbm = random_rbm(12, 6, 0.5, 1)
    V = (np.random.default_rng(4).random((8, 12)) < 0.4).astype(np.float64)
    streams = ChainStreams.from_seed(2, "raise-ckpt", n_chains=8)
    r = raise_log_partition(rbm, V, piecewise_betas(40), streams, dtype=dtype, checkpoint=checkpoint)
    return {"log_p_hat": r.details["log_p_hat"], "estimate": r.estimate, "streams": streams.get_state()}


def _dbm_ais(checkpoint, state="v_h2"):
    dbm = random_dbm(10, 5, 4, 0.5, 5)
    streams = ChainStreams.from_seed(2, "dbm-ckpt", state, n_chains=12)
    ladders = np.stack([piecewise_betas(30), np.linspace(0, 1, 30)], axis=1)  # two blocks, their own ladders
    runs = ais_log_partition(dbm, 12, ladders, streams, dtype=np.float32, state=state, record_partial=True,
                             checkpoint=checkpoint)  # fmt: skip
    out = {"h1": runs[0].state.chains.h1, "streams": streams.get_state()}
    for g, r in enumerate(runs):
        out |= {f"log_w{g}": r.log_weights, f"sd{g}": r.step_sd, f"partial{g}": r.partial_log_z}
    return out


def _assert_same(got: dict, want: dict):
    assert set(got) == set(want)
    for k in want:
        np.testing.assert_array_equal(got[k], want[k], err_msg=k)


ANNEALS = {
    "rbm_ais": _rbm_ais,
    "rbm_ais_float64": lambda ck: _rbm_ais(ck, np.float64),
    "rbm_raise": _rbm_raise,
    "dbm_ais_v_h2": _dbm_ais,
    "dbm_ais_h1": lambda ck: _dbm_ais(ck, "h1"),
}


@pytest.mark.parametrize("case", list(ANNEALS))
def test_an_annealing_pass_resumes_bit_identically(tmp_path, case):
    run = ANNEALS[case]
    want = run(None)
    _assert_same(run(Checkpoint(tmp_path / "off.ckpt.npz", 0, "k")), want)  # off: nothing read or written
    assert not (tmp_path / "off.ckpt.npz").exists()
    got, lines = _interrupted_then_resumed(run, tmp_path / "a.ckpt.npz", every=7, kill_at=14)
    assert any("resuming" in x and "annealing step 14" in x for x in lines), lines
    _assert_same(got, want)


def test_a_checkpoint_of_another_pass_is_ignored(tmp_path):
    want = _rbm_ais(None)
    path = tmp_path / "a.ckpt.npz"
    with pytest.raises(Killed):
        _rbm_ais(killed_after(14)(path, 7, "another job's key"))
    lines: list[str] = []
    _assert_same(_rbm_ais(Checkpoint(path, 7, "k", log=lines.append)), want)
    assert any("other settings" in x for x in lines) and not any("resuming" in x for x in lines), lines


# -- carlson2016_fig3_truth: one truth run through the job's function -------------------------------------------
@pytest.mark.parametrize("method", ["AIS", "RAISE"])
def test_carlson2016_fig3_truth_run_resumes_bit_identically(tmp_path, method):
    rbm = random_rbm(12, 6, 0.5, 1)
    base = np.random.default_rng(3).normal(0, 0.5, 12)
    V = (np.random.default_rng(4).random((20, 12)) < 0.4).astype(np.float64)
    settings = {"n_chains": 6, "truth_sweeps": 60, "dtype": "float32"}

    def run(checkpoint):
        return fig3_truth_run(rbm, base, V, settings, method, 1, 7, "12x6", checkpoint=checkpoint)

    want = run(None)
    got, lines = _interrupted_then_resumed(run, tmp_path / "t.ckpt.npz", every=20, kill_at=40)
    assert any("resuming" in x and "annealing step 40" in x for x in lines), lines
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    np.testing.assert_array_equal(got[["estimate", "stderr"]].to_numpy(), want[["estimate", "stderr"]].to_numpy())


# -- salakhutdinov2010_evaluate: the curve's snapshots and the final replicates ---------------------------------
EV = evaluation_config(
    n_mean_field=10,
    ais_state="v_h2",
    curve_train_subset=30,
    curve_ais={"n_betas": 40, "n_runs": 5, "dtype": "float32", "schedule": "adaptive"},
    final_ais={"n_betas": 50, "n_runs": 5, "dtype": "float32", "schedule": "linear"},
    final_replicates=3,
)


def _evaluate(checkpoint):
    dbms = [random_dbm(10, 5, 4, s, 8 + i) for i, s in enumerate((0.3, 0.6, 0.9))]
    snaps = {k: np.stack([getattr(d, k) for d in dbms]) for k in ("W1", "W2", "b", "c1", "c2")}
    snaps["updates"] = np.array([100, 200, 300])
    g = np.random.default_rng(9)
    X, X_test = ((g.random((n, 10)) < 0.3).astype(np.float32) for n in (60, 25))
    return evaluation.evaluate("SAP", snaps, X, X_test, EV, 11, 0, checkpoint=checkpoint)


def _same_evaluation(got, want):
    pd.testing.assert_frame_equal(got[0], want[0], check_exact=True)
    assert set(got[1]) == set(want[1])
    for k, v in want[1].items():
        np.testing.assert_array_equal(got[1][k], v, err_msg=k)


# units: 3 snapshots, then the final replicates as one batch or one by one (kill inside the replicates)
@pytest.mark.parametrize("batched, kill_at", [(True, 2), (False, 4)])
def test_salakhutdinov2010_evaluation_resumes_bit_identically(tmp_path, monkeypatch, batched, kill_at):
    monkeypatch.setattr(evaluation, "batch_rows_exact", lambda *a, **k: batched)
    want = _evaluate(None)
    assert len(want[0]) == 3 and want[1]["n_replicates"] == 3
    with pytest.raises(Killed):
        _evaluate(killed_after(kill_at)(tmp_path / "e.ckpt.npz", 1, "k"))
    points, lines = [], []
    curve_point = evaluation.curve_point
    monkeypatch.setattr(evaluation, "curve_point", lambda *a, **k: points.append(a[2]) or curve_point(*a, **k))
    got = _evaluate(Checkpoint(tmp_path / "e.ckpt.npz", 1, "k", log=lines.append))
    assert any("resuming" in x and f"evaluation unit {kill_at}" in x for x in lines), lines
    assert points == list(range(kill_at, 3)), "the resumed run evaluates only the snapshots not saved"
    _same_evaluation(got, want)


def test_a_checkpoint_of_another_evaluation_is_ignored(tmp_path):
    want = _evaluate(None)
    path = tmp_path / "e.ckpt.npz"
    with pytest.raises(Killed):
        _evaluate(killed_after(2)(path, 1, "another job's key"))
    lines: list[str] = []
    _same_evaluation(_evaluate(Checkpoint(path, 1, "k", log=lines.append)), want)
    assert any("other settings" in x for x in lines) and not any("resuming" in x for x in lines), lines
