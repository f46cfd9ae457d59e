"""Training of Salakhutdinov (2010): greedy pretraining, then joint training with SAP, FPCD, Trans-SAP or CAST.

The control SAP-50 (tempering_helps_cast) is SAP on CAST's slow chains' streams; the
diagnostic CAST-noswap is CAST with its swaps switched off (same streams).

Nothing here evaluates a model (no AIS): a change to the estimators does not
retrain the DBMs.
"""

from __future__ import annotations

import time

import numpy as np

from bmrep.learning.dbm_pretraining import pretrain_dbm
from bmrep.learning.dbm_samplers import NOSWAP, PERCHAIN, make_sampler
from bmrep.learning.dbm_training import train_dbm
from bmrep.learning.optimizers import inverse_time
from bmrep.models.dbm import DBM

from .common import chain_streams, paper_rng


def _dtype(cfg) -> type:
    return {"float32": np.float32, "float64": np.float64}[cfg.get("dtype", "float32")]


def pretrain(X: np.ndarray, cfg: dict, seed: int, repeat: int | None = None, log=None) -> DBM:
    """Greedy layer-wise pretraining (Salakhutdinov & Hinton 2009) with ``cfg["pretrain"]``.

    ``cfg`` keys: ``n_visible``, ``n_hidden1``, ``n_hidden2``, ``batch_size``,
    ``pretrain`` and optionally ``dtype``. ``repeat`` is the seed index (spec,
    section 3: every seed has its own pretraining, shared by the algorithms);
    None keys the streams by the seed alone (the calibration model).
    """
    rep = () if repeat is None else (int(repeat),)
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
    )


def train(algorithm: str, dbm0: DBM, X: np.ndarray, cfg: dict, seed: int, repeat: int = 0, log=None, checkpoint=None):
    """Joint training of a copy of ``dbm0`` with ``algorithm`` (section 8).

    Common random numbers (spec, section 3): the minibatch order, the initial
    persistent chains and the chains' random streams are keyed by (seed,
    ``repeat``) and not by the algorithm, so within a seed the four algorithms
    differ only in how they move the chains, and comparisons are paired over seeds.
    The control "SAP-50" takes the first half of the same initial chains and
    streams: those of CAST's slow chains. The diagnostic "CAST-noswap" is CAST
    without swaps on CAST's streams (spec, section 3: the fast chains'
    occupancy and weights with and without swapping).

    ``cfg`` keys: ``batch_size`` and ``train``. The learning rate is
    ``lr_numerator / (lr_offset + t)`` (section 8: 10 / (2000 + t)).
    ``checkpoint`` (:class:`bmrep.learning.checkpoint.Checkpoint` or None) is
    handed to :func:`train_dbm`: an interrupted training resumes from it.

    Returns
    -------
    dbm : DBM, snapshots : dict name -> stacked arrays (one row per checkpoint,
    the update numbers in ``"updates"``), info : dict (timings, diagnostics;
    for CAST, CAST-noswap and CAST-perchain also ``"tempering"``, the fast chains' records as arrays:
    :meth:`bmrep.learning.cast.CoupledAdaptiveTempering.records`, and ``"n_fast"``).
    """
    t = cfg["train"]
    dbm = dbm0.copy()
    n_chains = int(t["n_chains"])
    s = make_sampler(
        algorithm,
        dbm,
        chain_streams(seed, n_chains, "train", repeat),
        paper_rng(seed, "chains", repeat),
        n_chains=n_chains,
        fast_lr=t["fpcd_fast_lr"],
        fast_decay=t["fpcd_fast_decay"],
        tt_levels=t["tt_levels"],
        tt_beta_min=t["tt_beta_min"],
        tt_every=t["tt_every"],
        n_betas=t["cast_n_betas"],
        beta_min=t["cast_beta_min"],
        gamma=t["cast_gamma"],
        swap_every=t["cast_swap_every"],
        record_every=t["cast_record_every"],
    )
    start = time.perf_counter()

    def snapshot(step, model):
        return {"update": step, "params": {k: v.copy() for k, v in model.params().items()}}

    def callback(step, model, sampler):
        if log is not None:
            el = time.perf_counter() - start
            log(f"{algorithm}: update {step}/{t['n_updates']} ({el:.0f} s, {sampler.diagnostics()})")
        return snapshot(step, model)

    first = snapshot(0, dbm)
    hist = train_dbm(
        dbm,
        X,
        s,
        n_updates=int(t["n_updates"]),
        batch_size=int(cfg["batch_size"]),
        n_mean_field=int(t["n_mean_field"]),
        lr=inverse_time(t["lr_numerator"], t["lr_offset"]),
        weight_decay=float(t["weight_decay"]),
        rng=paper_rng(seed, "minibatches", repeat),
        callback=callback,
        callback_every=int(t["snapshot_every"]),
        checkpoint=checkpoint,
    )
    snaps = [first, *hist.records]
    if snaps[-1]["update"] != int(t["n_updates"]):
        snaps.append(callback(int(t["n_updates"]), dbm, s))
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
