"""Joint training of a two-layer DBM: one stochastic-approximation loop (Salakhutdinov 2010).

For every minibatch, 5 mean-field updates give the data-dependent statistics
(section 2.1); persistent sample particles give the model's (section 2.2);
the parameters take a gradient step of eq. (2) with the learning rate
10 / (2000 + t) (section 8). The particles are moved by a sampler from
:mod:`bmrep.learning.dbm_samplers` (SAP, FPCD, Trans-SAP, CAST); the greedy
initialisation is :mod:`bmrep.learning.dbm_pretraining`.

References
----------
Salakhutdinov, R. (2010). Learning deep Boltzmann machines using adaptive MCMC. ICML.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from bmrep.learning.checkpoint import Checkpoint, copy_into, generator_state, resume, save_if_due, set_generator_state
from bmrep.learning.optimizers import SGD, inverse_time
from bmrep.learning.redraw import redraw_images
from bmrep.models.dbm import DBM, mean_field
from bmrep.sampling.dbm_gibbs import DBMChains

from ..progress import track

# The learning rate of Salakhutdinov (2010), section 8: 10 / (2000 + t).
PAPER_LEARNING_RATE = inverse_time(10.0, 2000.0)


def _gradient(dbm: DBM, V, mu1, mu2, model: DBMChains) -> dict:
    """Ascent direction of eq. (2): data statistics under Q minus model statistics of the particles."""
    B, M = V.shape[0], model.n_chains
    return {
        "W1": V.T @ mu1 / B - model.v.T @ model.h1 / M,
        "W2": mu1.T @ mu2 / B - model.h1.T @ model.h2 / M,
        "b": V.mean(0) - model.v.mean(0),
        "c1": mu1.mean(0) - model.h1.mean(0),
        "c2": mu2.mean(0) - model.h2.mean(0),
    }


@dataclass
class TrainingHistory:
    """What :func:`train_dbm` records: callback outputs and timings."""

    records: list = field(default_factory=list)
    seconds: float = 0.0
    n_updates: int = 0


def train_dbm(
    dbm: DBM,
    X: np.ndarray,
    sampler,
    *,
    n_updates: int,
    batch_size: int = 100,
    n_mean_field: int = 5,
    lr: float | Callable[[int], float] = PAPER_LEARNING_RATE,
    weight_decay: float = 0.0,
    rng: np.random.Generator,
    callback: Callable | None = None,
    callback_every: int = 1000,
    start_update: int = 0,
    checkpoint: Checkpoint | None = None,
    redraw_rng: np.random.Generator | None = None,
) -> TrainingHistory:
    """Stochastic approximation (SAP, section 2.2) with mean-field data statistics (section 2.1).

    For t = 1..n_updates: take the next minibatch (reshuffled every epoch),
    run ``n_mean_field`` mean-field updates, advance the sampler's particles
    (``sampler.step``), and take the ascent step of eq. (2) with learning
    rate ``lr(t)`` (default 10 / (2000 + t), section 8) and L2 decay on the
    weights; then ``sampler.after_update`` (FPCD's fast weights).

    ``callback(t, dbm, sampler)`` is called after updates ``callback_every``,
    ``2 * callback_every``, ...; its non-None returns are collected.
    ``dbm`` is updated in place.

    With a ``checkpoint`` (:class:`bmrep.learning.checkpoint.Checkpoint`),
    everything the loop changes (parameters, optimiser, the sampler's
    :meth:`get_state`, minibatch order and ``rng``, the collected records) is
    saved every ``checkpoint.every`` updates, and a saved state is resumed
    from: the result is bit-identical to an uninterrupted run.

    With ``redraw_rng``, ``X`` holds grey levels in [0, 1] and every minibatch
    is binarised again from them with that generator
    (:func:`bmrep.learning.redraw.redraw_images`); without it, ``X`` is the
    training set as given (binarised once).
    """
    X = np.asarray(X, dtype=dbm.dtype)
    n = X.shape[0]
    if batch_size > n:
        raise ValueError(f"batch_size {batch_size} exceeds the {n} training cases")
    opt = SGD(lr, decay=weight_decay, decay_keys=["W1", "W2"])
    opt.t = int(start_update)
    params = dbm.params()
    n_batches = n // batch_size
    order = rng.permutation(n)
    hist = TrainingHistory()
    t0 = time.perf_counter()

    def state() -> dict:
        return {
            "params": params,
            "optimizer": opt.get_state(),
            "sampler": sampler.get_state(),
            "rng": generator_state(rng),
            "order": order,
            "records": hist.records,
            "seconds": time.perf_counter() - t0,
            **({} if redraw_rng is None else {"redraw_rng": generator_state(redraw_rng)}),
        }

    def restore(s: dict) -> None:
        nonlocal order, t0
        copy_into(params, s["params"])
        opt.set_state(s["optimizer"])
        sampler.set_state(s["sampler"])
        set_generator_state(rng, s["rng"])
        order = s["order"]
        if redraw_rng is not None:
            set_generator_state(redraw_rng, s["redraw_rng"])
        hist.records = list(s["records"])
        t0 -= s["seconds"]

    start = resume(checkpoint, restore)
    for t in track(range(start, n_updates), "DBM training updates"):
        bi = t % n_batches
        if bi == 0 and t > 0:
            order = rng.permutation(n)
        V = X[order[bi * batch_size : (bi + 1) * batch_size]]
        if redraw_rng is not None:
            V = redraw_images(V, redraw_rng)
        mu1, mu2 = mean_field(dbm, V, n_iter=n_mean_field)
        sampler.step(dbm, t)
        grads = _gradient(dbm, V, mu1, mu2, sampler.model_chains())
        opt.step(params, grads)
        sampler.after_update(dbm, grads)
        if not np.isfinite(params["W1"][0, 0]):
            raise FloatingPointError(f"DBM parameters diverged at update {t + 1}")
        if callback is not None and (t + 1) % callback_every == 0:
            r = callback(t + 1, dbm, sampler)
            if r is not None:
                hist.records.append(r)
        save_if_due(checkpoint, t + 1, n_updates, state)
    hist.seconds = time.perf_counter() - t0
    hist.n_updates = n_updates
    return hist


__all__ = ["PAPER_LEARNING_RATE", "TrainingHistory", "train_dbm"]
