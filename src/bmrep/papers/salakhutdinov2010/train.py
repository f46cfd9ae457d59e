"""Training of Salakhutdinov (2010): greedy pretraining, then joint training with SAP, FPCD, Trans-SAP or CAST.

The control SAP-50 (tempering_helps_cast) is SAP on CAST's slow chains' streams; the
diagnostic CAST-noswap is CAST with its swaps switched off (same streams).

Nothing here evaluates a model (no AIS): a change to the estimators does not
retrain the DBMs. The joint training reads the config once, into
:class:`TrainingSettings`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, fields

import numpy as np

from bmrep.learning.dbm_pretraining import pretrain_dbm
from bmrep.learning.dbm_samplers import NOSWAP, PERCHAIN, SamplerSettings, make_sampler
from bmrep.learning.dbm_training import train_dbm
from bmrep.learning.optimizers import inverse_time
from bmrep.models.dbm import DBM

from .common import chain_streams, paper_rng


@dataclass(frozen=True)
class TrainingSettings:
    """The joint training of section 8 (Salakhutdinov 2010), as :func:`train` reads the config: once.

    Attributes
    ----------
    n_updates : int
        Parameter updates (section 8: 200000 at the paper's schedule).
    batch_size : int
        Images per minibatch (section 8: 100).
    n_mean_field : int
        Mean-field updates of the data statistics per minibatch (section 2.1; 5 in the paper's experiments).
    lr_numerator, lr_offset : float
        The learning rate ``lr_numerator / (lr_offset + t)`` (section 8: 10 / (2000 + t)).
    weight_decay : float
        L2 decay of the weights.
    snapshot_every : int
        Updates between parameter snapshots (Figure 4, right, is evaluated at each).
    sampler : SamplerSettings
        The persistent chains' sampler of every algorithm (``n_chains`` among them).
    """

    n_updates: int
    batch_size: int
    n_mean_field: int
    lr_numerator: float
    lr_offset: float
    weight_decay: float
    snapshot_every: int
    sampler: SamplerSettings

    def __post_init__(self):
        for name in ("n_updates", "batch_size", "n_mean_field", "snapshot_every"):
            object.__setattr__(self, name, int(getattr(self, name)))
        object.__setattr__(self, "weight_decay", float(self.weight_decay))

    @classmethod
    def from_config(cls, cfg: Mapping) -> TrainingSettings:
        """The settings of the validated config section: its ``batch_size``, its ``train`` under the same names."""
        t = cfg["train"]
        loop = {f.name: t[f.name] for f in fields(cls) if f.name not in ("batch_size", "sampler")}
        return cls(**loop, batch_size=cfg["batch_size"], sampler=SamplerSettings.from_config(t))

    @property
    def lr(self):
        """The learning-rate schedule, ``t -> lr_numerator / (lr_offset + t)``."""
        return inverse_time(self.lr_numerator, self.lr_offset)


def _dtype(cfg) -> type:
    return np.dtype(cfg["dtype"]).type


def _training_images(X: np.ndarray, grey: np.ndarray | None, seed: int, *keys):
    """What the minibatches are cut from, and the generator that binarises them again.

    Without ``grey``: ``X`` as given (binarised once), None. With it (``training_images: redrawn``, the
    authors' code, :mod:`bmrep.learning.redraw`): ``grey``, the grey levels of ``X``'s images, and a generator
    keyed by (seed, stage, seed index), not by the algorithm: within a seed every algorithm sees the same images
    (common random numbers, spec section 3).
    """
    if grey is None:
        return X, None
    if np.shape(grey) != np.shape(X):
        raise ValueError(f"grey levels of shape {np.shape(grey)} for training images of shape {np.shape(X)}")
    return grey, paper_rng(seed, "redraw", *keys)


def pretrain(
    X: np.ndarray, cfg: dict, seed: int, repeat: int | None = None, log=None, grey: np.ndarray | None = None
) -> DBM:
    """Greedy layer-wise pretraining (Salakhutdinov & Hinton 2009) with ``cfg["pretrain"]``.

    ``cfg`` keys: ``n_visible``, ``n_hidden1``, ``n_hidden2``, ``batch_size``,
    ``pretrain`` and optionally ``dtype``. ``repeat`` is the seed index (spec,
    section 3: every seed has its own pretraining, shared by the algorithms);
    None keys the streams by the seed alone (the calibration model).
    ``grey`` (``X``'s grey levels in [0, 1]; ``training_images: redrawn``): the bottom RBM's minibatches are
    binarised again from it; None trains on ``X`` as given.
    """
    rep = () if repeat is None else (int(repeat),)
    images, redraw_rng = _training_images(X, grey, seed, "pretrain", *rep)
    p = cfg["pretrain"]
    D = X.shape[1]
    if D != cfg["n_visible"]:
        raise ValueError(f"data have {D} columns but n_visible = {cfg['n_visible']}")
    return pretrain_dbm(
        X,
        cfg["n_hidden1"],
        cfg["n_hidden2"],
        n_epochs=p["epochs"],
        batch_size=cfg["batch_size"],
        lr=p["lr"],
        momentum=p["momentum"],
        weight_decay=p["weight_decay"],
        rng=paper_rng(seed, "pretrain", *rep),
        streams=chain_streams(seed, cfg["batch_size"], "pretrain", *rep),
        dtype=_dtype(cfg),
        log=log,
        grey=None if redraw_rng is None else images,
        redraw_rng=redraw_rng,
    )


def train(
    algorithm: str,
    dbm0: DBM,
    X: np.ndarray,
    cfg: dict,
    seed: int,
    repeat: int = 0,
    log=None,
    checkpoint=None,
    grey: np.ndarray | None = None,
):
    """Joint training of a copy of ``dbm0`` with ``algorithm`` (section 8).

    Common random numbers (spec, section 3): the minibatch order, the initial
    persistent chains and the chains' random streams are keyed by (seed,
    ``repeat``) and not by the algorithm, so within a seed the four algorithms
    differ only in how they move the chains, and comparisons are paired over seeds.
    The control "SAP-50" takes the first half of the same initial chains and
    streams: those of CAST's slow chains. The diagnostic "CAST-noswap" is CAST
    without swaps on CAST's streams (spec, section 3: the fast chains'
    occupancy and weights with and without swapping).

    ``cfg`` is the validated config section (:class:`TrainingSettings`: ``batch_size`` and ``train``).
    ``checkpoint`` (:class:`bmrep.learning.checkpoint.Checkpoint` or None) is
    handed to :func:`train_dbm`: an interrupted training resumes from it. ``grey`` (``X``'s grey levels;
    ``training_images: redrawn``): every minibatch is binarised again from it; None trains on ``X`` as given.

    Returns
    -------
    dbm : DBM, snapshots : dict name -> stacked arrays (one row per checkpoint,
    the update numbers in ``"updates"``), info : dict (timings, diagnostics;
    for CAST, CAST-noswap and CAST-perchain also ``"tempering"``, the fast chains' records as arrays:
    :meth:`bmrep.learning.cast.CoupledAdaptiveTempering.records`, and ``"n_fast"``).
    """
    ts = TrainingSettings.from_config(cfg)
    images, redraw_rng = _training_images(X, grey, seed, "train", repeat)
    dbm = dbm0.copy()
    streams = chain_streams(seed, ts.sampler.n_chains, "train", repeat)
    s = make_sampler(algorithm, dbm, streams, paper_rng(seed, "chains", repeat), ts.sampler)
    start = time.perf_counter()

    def snapshot(step, model):
        return {"update": step, "params": {k: v.copy() for k, v in model.params().items()}}

    def callback(step, model, sampler):
        if log is not None:
            el = time.perf_counter() - start
            log(f"{algorithm}: update {step}/{ts.n_updates} ({el:.0f} s, {sampler.diagnostics()})")
        return snapshot(step, model)

    first = snapshot(0, dbm)
    hist = train_dbm(
        dbm,
        images,
        s,
        n_updates=ts.n_updates,
        batch_size=ts.batch_size,
        n_mean_field=ts.n_mean_field,
        lr=ts.lr,
        weight_decay=ts.weight_decay,
        rng=paper_rng(seed, "minibatches", repeat),
        callback=callback,
        callback_every=ts.snapshot_every,
        checkpoint=checkpoint,
        redraw_rng=redraw_rng,
    )
    snaps = [first, *hist.records]
    if snaps[-1]["update"] != ts.n_updates:
        snaps.append(callback(ts.n_updates, dbm, s))
    snapshots = {"updates": np.array([r["update"] for r in snaps])}
    snapshots.update({k: np.stack([r["params"][k] for r in snaps]) for k in first["params"]})
    info = {
        "algorithm": algorithm,
        "repeat": int(repeat),
        "seconds": hist.seconds,
        "n_updates": hist.n_updates,
        "seconds_per_update": hist.seconds / max(hist.n_updates, 1),
        **s.diagnostics(),
    }
    if algorithm in ("CAST", NOSWAP, PERCHAIN):
        info["k_trace_first_1000"] = s.k_trace[:1000]
        info["n_fast"] = s.n_fast
        info["tempering"] = s.records()
    return dbm, snapshots, info
