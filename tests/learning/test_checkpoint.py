"""Checkpoint and resume of long trainings (issues 19 and 22): bit-identical to an uninterrupted run.

Every training loop that can exceed an hour in the paper profile (joint DBM
training with SAP, FPCD, Trans-SAP and CAST; CD/PCD and PT training of RBMs;
the repeat loops of bruegge2013) is interrupted after some updates, rerun with
fresh objects and the same checkpoint file, and must end with the same bits as
a run that was never interrupted. The checkpoint file itself (atomic, keyed, kept
until its output is) and a real SIGKILL of a training process are ``tests/learning/test_checkpoint_file.py``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bmrep.learning.checkpoint import Checkpoint, run_resumable
from bmrep.learning.dbm_samplers import ALGORITHMS, SamplerSettings, make_sampler
from bmrep.learning.dbm_training import train_dbm
from bmrep.learning.negative_phases import CDChains, PTChains
from bmrep.learning.optimizers import SGD, Adam, AdaMax
from bmrep.learning.rbm_training import train_rbm
from bmrep.models.dbm import DBM
from bmrep.models.rbm import RBM
from bmrep.sampling import ChainStreams, FlipTheState, Gibbs


class Killed(Exception):
    """Stands for the job being killed."""


def _data(n=60, d=16, seed=0):
    return (np.random.default_rng(seed).random((n, d)) < 0.3).astype(np.float32)


def _same(a, b, where="state"):
    """Recursive bit equality of two states (arrays, dicts, lists, scalars)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        assert isinstance(a, np.ndarray) and isinstance(b, np.ndarray), where
        assert a.dtype == b.dtype and np.array_equal(a, b), where
    elif isinstance(a, dict):
        assert set(a) == set(b), where
        for k in a:
            _same(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{where}[{i}]")
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def _attrs(obj, depth=0):
    """Everything an object holds, as a tree: attributes of objects (recursively), stream states; no functions."""
    if isinstance(obj, ChainStreams):
        return obj.get_state()
    if isinstance(obj, np.random.Generator):
        return obj.bit_generator.state
    if isinstance(obj, (list, tuple)):
        return [_attrs(v, depth + 1) for v in obj]
    if isinstance(obj, dict):
        return {k: _attrs(v, depth + 1) for k, v in obj.items()}
    if hasattr(obj, "__dict__") and depth < 4:
        return {k: _attrs(v, depth + 1) for k, v in vars(obj).items() if not callable(v)}
    return obj


# -- joint DBM training with each sampler ------------------------------------------
def _dbm_run(algorithm, n_updates, checkpoint=None, kill_at=None, redraw_rng=None):
    dbm = DBM.random(16, 8, 8, np.random.default_rng(1), scale=0.1).astype(np.float32)
    n_chains = 10
    sampler = make_sampler(
        algorithm,
        dbm,
        ChainStreams.from_seed(2, "test_ckpt", algorithm, n_chains=n_chains),
        np.random.default_rng(3),
        SamplerSettings(n_chains=n_chains, tt_levels=4, tt_every=3, cast_n_betas=5, cast_swap_every=20),
    )

    def callback(t, model, s):
        if kill_at is not None and t == kill_at:
            raise Killed
        return {"update": t, "W1": model.W1.copy(), **s.diagnostics()}

    hist = train_dbm(
        dbm,
        _data() if redraw_rng is None else np.random.default_rng(12).random((60, 16)).astype(np.float32),
        sampler,
        n_updates=n_updates,
        batch_size=10,
        lr=0.01,
        weight_decay=1e-4,
        rng=np.random.default_rng(4),
        callback=callback,
        callback_every=10,
        checkpoint=checkpoint,
        redraw_rng=redraw_rng,
    )
    return dbm, sampler, hist


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_dbm_training_resumes_bit_identically(tmp_path, algorithm):
    total = 200
    dbm0, s0, h0 = _dbm_run(algorithm, total)
    ck = Checkpoint(tmp_path / "m.ckpt.npz", 50, {"job": algorithm})
    with pytest.raises(Killed):  # killed 30 updates after the checkpoint of update 100
        _dbm_run(algorithm, total, ck, kill_at=130)
    assert ck.load()[0] == 100
    lines = []
    ck = Checkpoint(tmp_path / "m.ckpt.npz", 50, {"job": algorithm}, log=lines.append)
    dbm1, s1, h1 = _dbm_run(algorithm, total, ck)
    assert any("resuming" in x and "update 100" in x for x in lines), lines
    _same(dbm0.params(), dbm1.params(), "params")
    _same(s0.get_state(), s1.get_state(), "sampler")
    _same(h0.records, h1.records, "records")
    assert h1.n_updates == total
    # all the sampler holds, not only what its get_state returns (an attribute it forgot)
    _same(_attrs(s0), _attrs(s1), "sampler attributes")


def test_dbm_training_on_redrawn_images_resumes_bit_identically(tmp_path):
    """training_images: redrawn: the generator drawing the minibatches again is part of the checkpoint."""
    r0 = np.random.default_rng(13)
    dbm0, _, h0 = _dbm_run("SAP", 200, redraw_rng=r0)
    ck = Checkpoint(tmp_path / "m.ckpt.npz", 50, {"job": "redrawn"})
    with pytest.raises(Killed):
        _dbm_run("SAP", 200, ck, kill_at=130, redraw_rng=np.random.default_rng(13))
    r1 = np.random.default_rng(13)
    dbm1, _, h1 = _dbm_run("SAP", 200, Checkpoint(tmp_path / "m.ckpt.npz", 50, {"job": "redrawn"}), redraw_rng=r1)
    _same(dbm0.params(), dbm1.params(), "params")
    _same(h0.records, h1.records, "records")
    _same(r0.bit_generator.state, r1.bit_generator.state, "redrawing stream")
    assert not np.array_equal(dbm0.W1, _dbm_run("SAP", 200)[0].W1)  # it trained on the redrawn images


def test_dbm_sampler_state_round_trips_through_a_file(tmp_path):
    _, s, _ = _dbm_run("CAST", 60)
    ck = Checkpoint(tmp_path / "c.npz", 1, "k")
    ck.save(60, s.get_state())
    _same(s.get_state(), ck.load()[1])


# -- RBM training: CD, PCD, PT ---------------------------------------------------
RBM_CASES = {
    "CD5-T-SGDmomentum": dict(operator=FlipTheState(), k=5, persistent=False, opt=lambda: SGD(0.05, momentum=0.5)),
    "PCD1-G-Adam": dict(operator=Gibbs(), k=1, persistent=True, opt=lambda: Adam(0.01)),
    "PT3-G-AdaMax": dict(operator=Gibbs(), k=1, pt=3, opt=lambda: AdaMax(0.01)),
    # the pretraining's bottom RBM with training_images: redrawn
    "CD1-G-redrawn": dict(operator=Gibbs(), k=1, persistent=False, opt=lambda: SGD(0.05, momentum=0.5), redraw=True),
}


def _rbm_run(case, n_updates, checkpoint=None, kill_at=None):
    c = RBM_CASES[case]
    X = _data(50, 12, seed=5).astype(np.float64)
    redraw_rng = np.random.default_rng(14) if c.get("redraw") else None
    if redraw_rng is not None:  # grey images, binarised again at every minibatch
        X = np.random.default_rng(15).random(X.shape)
    rbm0 = RBM.random(12, 6, np.random.default_rng(6), scale=0.1)
    rng = np.random.default_rng(7)

    def callback(t, model):
        if kill_at is not None and t == kill_at:
            raise Killed
        return {"w": float(model.W.sum()), "c": model.c.copy()}

    common = dict(
        batch_size=10,
        n_updates=n_updates,
        optimizer=c["opt"](),
        rng=rng,
        callback=callback,
        callback_every=7,
        checkpoint=checkpoint,
        redraw_rng=redraw_rng,
    )
    if "pt" in c:
        streams = ChainStreams.from_seed(8, "test_ckpt_pt", n_chains=10 * c["pt"])
        swap_rng = np.random.default_rng(9)
        ladders = PTChains(c["operator"], c["pt"], c["k"], streams=streams, swap_rng=swap_rng, n_replicas=10)
        model, hist = train_rbm(rbm0, X, negative_phase=ladders, **common)
        return model, hist, [streams.get_state(), swap_rng.bit_generator.state, rng.bit_generator.state]
    streams = ChainStreams.from_seed(8, "test_ckpt_cd", n_chains=12)
    chains = CDChains(c["operator"], c["k"], persistent=c["persistent"], streams=streams, n_chains=10)
    model, hist = train_rbm(rbm0, X, negative_phase=chains, **common)
    redrawn = [] if redraw_rng is None else [redraw_rng.bit_generator.state]
    return model, hist, [streams.get_state(), rng.bit_generator.state, *redrawn]


@pytest.mark.parametrize("case", list(RBM_CASES))
def test_rbm_training_resumes_bit_identically(tmp_path, case):
    total = 120
    m0, h0, r0 = _rbm_run(case, total)
    ck = Checkpoint(tmp_path / "r.ckpt.npz", 23, {"case": case})
    with pytest.raises(Killed):
        _rbm_run(case, total, ck, kill_at=91)  # checkpoint of update 69 on disk, in the middle of an epoch
    assert ck.load()[0] == 69
    m1, h1, r1 = _rbm_run(case, total, ck)
    _same(m0.params(), m1.params(), "params")
    _same(h0, h1, "history")
    _same(r0, r1, "random streams")


def test_repeats_resume_between_and_inside_repeats(tmp_path, monkeypatch):
    """bruegge2013's repeat loop: the finished repeats' results and the running training are both resumed."""
    from bmrep.papers.bruegge2013.benchmarks import make_benchmark
    from bmrep.papers.bruegge2013.train import learning_curves, train_models

    bench = make_benchmark("bas", 11)
    recipe = {"algorithm": "pcd", "k": 1, "lr": 0.05, "n_updates": 60}
    u0, c0 = learning_curves(bench, recipe, "T", range(3), 11, 20)
    writes = []
    real_write = Checkpoint._write

    def write_then_die(self, body):
        if len(writes) == 4:  # the repeat-0 saves (updates 25, 50), the end of repeat 0, update 25 of repeat 1
            raise Killed
        writes.append(body)
        real_write(self, body)

    monkeypatch.setattr(Checkpoint, "_write", write_then_die)
    ck = Checkpoint(tmp_path / "l.ckpt.npz", 25, "bas-pcd-T")
    with pytest.raises(Killed):
        learning_curves(bench, recipe, "T", range(3), 11, 20, ck)
    assert writes[-1]["done"] == 1 and writes[-1]["inner"]["done"] == 25
    monkeypatch.setattr(Checkpoint, "_write", real_write)
    u1, c1 = learning_curves(bench, recipe, "T", range(3), 11, 20, ck)
    assert np.array_equal(u0, u1) and np.array_equal(c0, c1)
    models = train_models(bench, recipe | {"n_updates": 40}, range(2), 11, "classes")
    again = train_models(bench, recipe | {"n_updates": 40}, range(2), 11, "classes", Checkpoint(tmp_path / "m", 10, 1))
    _same(models, again)


def test_run_resumable_without_checkpointing_is_a_plain_loop():
    assert run_resumable([1, 2, 3], lambda x, ck: (x * 2, ck), None) == [(2, None), (4, None), (6, None)]
    off = Checkpoint("never-written.npz", 0, "k")
    assert run_resumable([1], lambda x, ck: ck, off) == [None]
    assert not Path("never-written.npz").exists()


def test_a_foreign_checkpoint_restarts_the_training_from_update_0(tmp_path):
    total = 100
    dbm0, _, _ = _dbm_run("SAP", total)
    with pytest.raises(Killed):
        _dbm_run("SAP", total, Checkpoint(tmp_path / "f.npz", 20, {"lr": 0.02}), kill_at=50)
    dbm1, _, _ = _dbm_run("SAP", total, Checkpoint(tmp_path / "f.npz", 20, {"lr": 0.01}))
    _same(dbm0.params(), dbm1.params())


def test_carlson2016_fig5_training_resumes_bit_identically(tmp_path):
    """Fig. 5's tempered training (persistent tempered chains, running RTS log Z, AIS checkpoints) resumes exactly."""
    from bmrep.papers.carlson2016.fig5 import fig5_track_training

    g = np.random.default_rng(0)
    X = (g.random((60, 12)) < 0.3).astype(np.float64)
    settings = {"n_hidden": 6, "batch_size": 10, "pretrain_updates": 20, "pretrain_learning_rate": 0.01, "K": 6,
                "prior_rate": 2.0, "n_chains": 8, "sweeps_per_update": 3, "init_iterations": 2, "init_sweeps": 5,
                "n_updates": 24, "learning_rate": 0.01, "alpha": 0.2, "record_every": 4, "ais_every": 8,
                "ais_replicates": 2, "ais_runs": 5, "ais_betas": 20}  # fmt: skip

    class KilledAfterSave(Checkpoint):
        def save(self, done, state, what="update"):
            super().save(done, state, what)
            if done == 8:
                raise Killed

    rbm0, df0, _ = fig5_track_training(X[:45], X[45:], settings, 7)
    with pytest.raises(Killed):
        fig5_track_training(X[:45], X[45:], settings, 7, checkpoint=KilledAfterSave(tmp_path / "f.ckpt.npz", 8, "k"))
    lines = []
    ck = Checkpoint(tmp_path / "f.ckpt.npz", 8, "k", log=lines.append)
    rbm1, df1, _ = fig5_track_training(X[:45], X[45:], settings, 7, checkpoint=ck)
    assert any("resuming" in x and "update 8" in x for x in lines), lines
    _same(rbm0.params(), rbm1.params(), "params")
    pd.testing.assert_frame_equal(df0, df1)
